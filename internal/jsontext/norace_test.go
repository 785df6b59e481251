//go:build !race

package jsontext

// raceEnabled: this test binary runs under the race detector, whose
// sync.Pool drops some of what is put back.
const raceEnabled = false
