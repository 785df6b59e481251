//go:build unix

package reports

import (
	"os"
	"syscall"
	"time"
)

// processorTime is the processor time an exited process used, in user and
// system mode, with that of the children it waited for.
func processorTime(ps *os.ProcessState, _ time.Duration) time.Duration {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return ps.UserTime() + ps.SystemTime()
}
