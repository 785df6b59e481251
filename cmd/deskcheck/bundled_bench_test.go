package main

import (
	"io"
	"testing"
)

// BenchmarkBundled runs 'deskcheck verify -out none' and 'deskcheck faults
// -out none' on the bundled desks in process. The registry and the
// compiled case schema are built once per process, as in the command, so
// only the first run pays for them: the start-up of a process is measured
// from outside (BENCHMARKS.md).
func BenchmarkBundled(b *testing.B) {
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
