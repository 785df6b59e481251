//go:build !unix

package reports

import (
	"os"
	"time"
)

// processorTime is the processor time an exited process used where the
// system says, and else the wall time it took.
func processorTime(ps *os.ProcessState, wall time.Duration) time.Duration {
	if t := ps.UserTime() + ps.SystemTime(); t > 0 {
		return t
	}
	return wall
}
