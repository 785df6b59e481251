package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// gcPercent reads the collector's percentage without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// The collector runs at 400 % until a run has read 16 MiB of case files,
// then at Go's default; GOGC in the environment is left alone.
func TestCollectorPolicy(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())

	t.Setenv("GOGC", "")
	startCollector()
	assert.Equal(t, smallPercent, gcPercent(), "a run starts at 400 %")
	readCaseBytes(smallRun - 10)
	readCaseBytes(10)
	assert.Equal(t, smallPercent, gcPercent(), "16 MiB read: still small")
	readCaseBytes(1)
	assert.Equal(t, 100, gcPercent(), "past 16 MiB: Go's default")
	readCaseBytes(smallRun)
	assert.Equal(t, 100, gcPercent(), "and it stays there")

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	startCollector()
	readCaseBytes(smallRun + 1)
	assert.Equal(t, 50, gcPercent(), "GOGC in the environment wins")
}
