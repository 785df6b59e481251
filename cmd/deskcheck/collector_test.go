package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// gcPercent reads the collector's percentage without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// The percentage set after a collection lets the heap grow by heapRoom,
// or by what is live when that is more, within 1000 %.
func TestPercentFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 1000},
		{1 << 20, 1000},
		{heapRoom / 10, 1000},
		{heapRoom/10 + 1, 999},
		{16 << 20, 800},
		{32 << 20, 400},
		{48 << 20, 266},
		{64 << 20, 200},
		{heapRoom - 1, 100},
		{heapRoom, 100},
		{200 << 20, 100},
		{4 << 30, 100},
	} {
		assert.Equal(t, tc.want, percentFor(tc.live), "%d bytes live", tc.live)
	}
}

// The collector runs at 1000 % while the live heap is small and at Go's
// default once a collection finds heapRoom live or more; GOGC in
// the environment is left alone.
func TestCollectorPolicy(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())

	runtime.GC() // what an earlier test left live is not this run's
	t.Setenv("GOGC", "")
	startCollector()
	assert.Equal(t, smallPercent, gcPercent(), "a run starts at 1000 %")
	runtime.GC()
	runtime.GC()
	assert.Equal(t, smallPercent, gcPercent(), "a small heap keeps it")

	live := make([][]byte, 0, 64)
	for range heapRoom >> 20 {
		live = append(live, make([]byte, 1<<20)) // heapRoom live
	}
	// The watch runs as a finalizer after a collection; collect until it
	// has (a generous bound, not a timing).
	for deadline := time.Now().Add(20 * time.Second); gcPercent() != 100 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	assert.Equal(t, 100, gcPercent(), "a large live heap: Go's default")
	runtime.KeepAlive(live)

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	startCollector()
	assert.Equal(t, 50, gcPercent(), "GOGC in the environment wins")
}
