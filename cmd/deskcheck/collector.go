package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// The collector. Go collects when the heap has doubled since the last
// collection, from 4 MiB on: a run of the bundled desks (a megabyte of
// case files) collected four times, about a fifth of its time. So until
// a run has read smallRun bytes of case files deskcheck lets the heap
// grow to five times what is live (GOGC=400), then goes back to Go's
// default (GOGC=100), which keeps the peak of a large suite low: the
// 100,000-case suite streams through a heap of a few hundred megabytes
// (BENCHMARKS.md). The soft memory limit is Go's default (none). GOGC in
// the environment wins over both.
const (
	smallRun     = 16 << 20
	smallPercent = 400
)

var collector struct {
	sync.Mutex
	raised bool
	read   int64
}

// startCollector raises the collector's percentage for a small run,
// unless the environment sets it.
func startCollector() {
	if os.Getenv("GOGC") != "" {
		return
	}
	collector.Lock()
	defer collector.Unlock()
	debug.SetGCPercent(smallPercent)
	collector.raised, collector.read = true, 0
}

// readCaseBytes counts n bytes of case files read; past smallRun the
// collector goes back to Go's default.
func readCaseBytes(n int) {
	collector.Lock()
	defer collector.Unlock()
	if !collector.raised {
		return
	}
	if collector.read += int64(n); collector.read > smallRun {
		debug.SetGCPercent(100)
		collector.raised = false
	}
}
