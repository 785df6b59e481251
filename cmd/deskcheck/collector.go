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
// times, about a fifth of its time, and a suite of 10,000 cases, whose
// live heap stays between 15 and 50 MiB, a dozen times. So deskcheck lets
// the heap grow by heapRoom between collections, or by what is live once
// that is more (Go's default, GOGC=100), and by no more than ten times
// what is live (GOGC=1000): after each collection the percentage is set
// again from the live heap it found. The bundled desks' verify then does
// not collect and their faults once; 10,000 cases collect three or four
// times; and a run whose live heap passes heapRoom (the end of 100,000
// cases, a worst-case desk) runs with the peak the default gives
// (BENCHMARKS.md). Each collection marks all that is live, so a room that
// does not shrink as the live heap grows is what keeps a long run's
// collections few: 100,000 cases, whose live heap grows to about 140 MiB
// as their lean copies are kept, collected 57 times when the heap could
// grow only to 96 MiB in all (or twice what is live), and 28 times now.
// GOGC in the environment wins.
//
// And the collector works harder as the heap nears softLimit: what a run
// keeps is far less (docs/hostile-input.md), but a large case's values
// made and let go while it runs would otherwise let the heap grow to
// twice what is live. It is a soft limit: a heap that must be larger is,
// the collector then taking up to half the processor time.
// GOMEMLIMIT in the environment wins.
const (
	heapRoom     = 128 << 20
	smallPercent = 1000
	softLimit    = 448 << 20
)

// percentFor is the collector's percentage after a collection found live
// bytes live: the heap may grow by heapRoom or by what is live, whichever
// is more, and by at most smallPercent.
func percentFor(live uint64) int {
	room := max(live, heapRoom)
	if room >= live*(smallPercent/100) { // 0 live included
		return smallPercent
	}
	return int(room * 100 / live)
}

// startCollector raises the collector's percentage while the live heap
// is small, unless the environment sets it, and sets the soft memory
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
	run     int64
	percent int
	_       [16]byte
}

// watchHeap reads the live heap the last collection found and sets the
// percentage for it, then waits for the next collection.
func watchHeap(w *heapWatch) {
	if w.run != runs.Load() {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		if p := percentFor(sample[0].Value.Uint64()); p != w.percent {
			debug.SetGCPercent(p)
			w.percent = p
		}
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
// size bytes: twice the report and room for the program, so that the heap
// a collection lets grow stays within the four times the report
// docs/hostile-input.md states, whatever the moment a collection happens
// to start and whatever the report holds (at 75 % alone, one report of
// 200,000 events took 3.3 to 4.2 times its size from run to run, and
// with two and a half times and 24 MiB, a report of 30,000 diagnostics
// 4.5 times).
func reportLimit(size int) int64 { return 2*int64(size) + 16<<20 }

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
