package main

import (
	"io"
	"testing"
)

// BenchmarkBundled runs 'deskcheck verify -out none' and 'deskcheck faults
// -out none' on the bundled desks in process. Each run builds its own
// registry, so it compiles the case schema as a process does.
func BenchmarkBundled(b *testing.B) {
	tuneGC() // as the command does
	for _, command := range []string{"verify", "faults"} {
		b.Run(command, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if code := run([]string{command, "-out", "none"}, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
