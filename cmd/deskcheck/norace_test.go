//go:build !race

package main

// raceEnabled: this test binary runs under the race detector, which
// multiplies what a process holds.
const raceEnabled = false
