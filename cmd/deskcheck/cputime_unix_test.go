//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used so far, user and system
// on all its threads, and that of the children it has waited for (none in
// process, but a benchmark that starts one is counted whole).
func processCPU() (time.Duration, bool) {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var u syscall.Rusage
		if err := syscall.Getrusage(who, &u); err != nil {
			return 0, false
		}
		total += time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	return total, true
}
