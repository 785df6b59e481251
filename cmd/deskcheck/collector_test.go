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

// The collector runs at 400 % while the live heap is small and at Go's
// default once a collection finds more than 32 MiB live; GOGC in the
// environment is left alone.
func TestCollectorPolicy(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())

	runtime.GC() // what an earlier test left live is not this run's
	t.Setenv("GOGC", "")
	startCollector()
	assert.Equal(t, smallPercent, gcPercent(), "a run starts at 400 %")
	runtime.GC()
	runtime.GC()
	assert.Equal(t, smallPercent, gcPercent(), "a small heap keeps it")

	live := make([][]byte, 0, 64)
	for range 64 {
		live = append(live, make([]byte, 1<<20)) // 64 MiB live
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
