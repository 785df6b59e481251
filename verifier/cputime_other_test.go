//go:build !unix

package verifier

import "time"

var start = time.Now()

// cpuTime falls back to wall time where the system does not say.
func cpuTime() time.Duration { return time.Since(start) }
