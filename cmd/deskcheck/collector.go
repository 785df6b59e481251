package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The collector. Go collects whenever the heap has doubled since the last
// collection, from 4 MiB on: a run of the bundled desks collected four
// times, about a fifth of its time. So deskcheck starts with the heap
// allowed to grow to five times what is live (GOGC=400) and goes back to
// Go's default (GOGC=100) at the end of the first collection that finds
// more than largeHeap live: a large suite or a large file then runs with
// the peak the default gives (BENCHMARKS.md), and a small run hardly
// collects. GOGC in the environment wins over both.
//
// And the collector works harder as the heap nears softLimit: what a run
// keeps is far less (docs/hostile-input.md), but a large case's values
// made and let go while it runs would otherwise let the heap grow to
// twice what is live. It is a soft limit: a heap that must be larger is,
// the collector then taking up to half the processor time.
// GOMEMLIMIT in the environment wins.
const (
	largeHeap    = 32 << 20
	smallPercent = 400
	softLimit    = 448 << 20
)

// startCollector raises the collector's percentage until the live heap
// is large, unless the environment sets it, and sets the soft memory
// limit, unless the environment does.
func startCollector() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softLimit)
	}
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(smallPercent)
	watchHeap(&heapWatch{run: runs.Add(1)})
}

// runs counts startCollector's calls: a watch of an earlier call stops.
var runs atomic.Int64

// heapWatch is an object kept only by its finalizer, which therefore runs
// once after every collection. It is larger than the runtime's tiny
// objects, whose finalizers need not run.
type heapWatch struct {
	run int64
	_   [24]byte
}

// watchHeap reads the live heap the last collection found; while it is
// small it waits for the next collection, and once it is large it sets
// Go's default percentage and stops.
func watchHeap(w *heapWatch) {
	if w.run != runs.Load() {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > largeHeap {
		debug.SetGCPercent(100)
		return
	}
	runtime.SetFinalizer(w, watchHeap)
}

// largeReport is the size of a saved report from which report render and
// diff collect at reportPercent from the start: what they hold grows with
// the report, and a heap let grow to five times what is live took up to 5
// times the report, twice what is live up to 4 (docs/hostile-input.md
// holds them to 4). Collecting at 75 % costs them a few per cent more
// processor time.
const (
	largeReport   = 4 << 20
	reportPercent = 75
)

// reportLimit is the soft memory limit for reading a large report of
// size bytes: two and a half times the report and room for the program, so
// that the heap a collection lets grow stays within the four times the
// report docs/hostile-input.md states, whatever the moment a collection
// happens to start (at 75 % alone, one report of 200,000 events took 3.3
// to 4.2 times its size from run to run).
func reportLimit(size int) int64 { return 5*int64(size)/2 + 24<<20 }

// collectForReport sets reportPercent once a report of size bytes has
// been read, when it is large, unless the environment sets GOGC, and
// lowers the soft memory limit to reportLimit, unless the environment
// sets GOMEMLIMIT.
func collectForReport(size int) {
	if size < largeReport {
		return
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(min(softLimit, reportLimit(size)))
	}
	if os.Getenv("GOGC") != "" {
		return
	}
	runs.Add(1) // the heap's watch stops
	debug.SetGCPercent(reportPercent)
}
