//go:build unix

package verifier

import (
	"syscall"
	"time"
)

// cpuTime is the processor time the process has used, in user and system
// mode, all threads (garbage collection included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
