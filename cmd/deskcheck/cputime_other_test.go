//go:build !unix

package main

import "time"

// processCPU reports no CPU time where getrusage is not there: the
// benchmarks then give wall time alone.
func processCPU() (time.Duration, bool) { return 0, false }
