package main

import (
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
)

// boundaryBench names the sub-benchmarks of the boundary desk after its
// file (and BenchmarkEndToEnd's of the bundled suite, which it once was).
var boundaryBench = strings.TrimSuffix(path.Base(boundaryDesk), "-desk.json")

// BenchmarkCover compares 'deskcheck cover' with 'deskcheck verify' on the
// same desks, in process: the bundled boundary desk and all the bundled
// desks. Each iteration of cover measures the points and makes (and runs)
// a case for every point no case reaches; nothing is kept between
// iterations. The sub-benchmarks interleave under -count.
func BenchmarkCover(b *testing.B) {
	out := filepath.Join(b.TempDir(), "out")
	for _, desks := range []struct {
		name  string
		paths []string
	}{{boundaryBench, []string{boundaryDesk}}, {"bundled", nil}} {
		for _, cmd := range []string{"verify", "cover"} {
			b.Run(desks.name+"/"+cmd, func(b *testing.B) {
				args := []string{cmd}
				if cmd == "verify" {
					args = append(args, "-out", out)
				}
				args = append(args, desks.paths...)
				cpu := startCPU()
				for i := 0; i < b.N; i++ {
					if code := run(args, io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}
				cpu.report(b)
			})
		}
	}
}

// BenchmarkMutants is the full mutant run on the bundled desks: every
// generated mutant of every family against its family's cases, and a
// killing case searched for (and checked) for every survivor.
func BenchmarkMutants(b *testing.B) {
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"mutants"}, io.Discard, io.Discard); code != 1 {
			b.Fatalf("exit %d, want 1 (the bundled desks let mutants survive)", code)
		}
	}
	cpu.report(b)
}

// BenchmarkCoverEngine compares the engine's work alone, with no report
// written: verifying the boundary desk, and verifying it then measuring
// its coverage with a case made and run for every unreached point.
func BenchmarkCoverEngine(b *testing.B) {
	data, err := os.ReadFile("../../cases/boundary-desk.json")
	if err != nil {
		b.Fatal(err)
	}
	inputs := []verifier.Input{{Path: "boundary-desk.json", Data: data}}
	opts := verifier.Options{Registry: all.Registry()}
	ctx := context.Background()
	for _, cover := range []bool{false, true} {
		name := "verify"
		if cover {
			name = "verify+cover"
		}
		b.Run(name, func(b *testing.B) {
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				suite, _, err := verifier.Verify(ctx, inputs, opts)
				if err != nil || suite == nil {
					b.Fatal(err)
				}
				if cover {
					if c := verifier.MeasureCoverage(ctx, suite.Results, true); len(c.Desks) != 1 {
						b.Fatal("no coverage")
					}
				}
			}
			cpu.report(b)
		})
	}
}
