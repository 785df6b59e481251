package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/verifier"
)

// suite writes a generated suite of n cases (1,000 per file) into a
// temporary folder and returns the folder and the files' bytes.
func suite(b *testing.B, n int) (string, [][]byte) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "desks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	var files [][]byte
	for _, f := range gen.Suite(n, 1000) {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, f.Data)
	}
	return dir, files
}

// cpuMeter reports a benchmark's CPU time per operation besides its wall
// time: the whole process's user and system time, every thread counted.
type cpuMeter struct {
	start time.Duration
	ok    bool
}

// startCPU starts a meter; call it after b.ResetTimer.
func startCPU() cpuMeter {
	start, ok := processCPU()
	return cpuMeter{start, ok}
}

// report adds cpu-ns/op to the benchmark's line.
func (m cpuMeter) report(b *testing.B) {
	end, ok := processCPU()
	if m.ok && ok && b.N > 0 {
		b.ReportMetric(float64(end-m.start)/float64(b.N), "cpu-ns/op")
	}
}

// sample is the CPU and wall time of one call.
type sample struct{ cpu, wall time.Duration }

func measure(f func()) sample {
	c0, _ := processCPU()
	w0 := time.Now()
	f()
	wall := time.Since(w0)
	c1, _ := processCPU()
	return sample{cpu: c1 - c0, wall: wall}
}

// medianRatio is the median over pairs of a[i] / ref[i], each side read
// by field: pairs run one after the other share the machine's state, so
// the ratio of a pair moves far less with the load than either side.
func medianRatio(a, ref []sample, field func(sample) time.Duration) float64 {
	var r []float64
	for i := range a {
		if d := field(ref[i]); d > 0 {
			r = append(r, float64(field(a[i]))/float64(d))
		}
	}
	if len(r) == 0 {
		return 0
	}
	slices.Sort(r)
	if len(r)%2 == 1 {
		return r[len(r)/2]
	}
	return (r[len(r)/2-1] + r[len(r)/2]) / 2
}

// medianOf is the median of one side's field.
func medianOf(s []sample, field func(sample) time.Duration) time.Duration {
	var d []time.Duration
	for _, x := range s {
		d = append(d, field(x))
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	if len(d)%2 == 1 {
		return d[len(d)/2]
	}
	return (d[len(d)/2-1] + d[len(d)/2]) / 2
}

func cpuOf(s sample) time.Duration  { return s.cpu }
func wallOf(s sample) time.Duration { return s.wall }

// BenchmarkEndToEnd runs 'deskcheck verify' in process: read, validate,
// lint, run, compare, and write all four report files.
func BenchmarkEndToEnd(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{boundaryBench, 0}, {"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		b.Run(size.name, func(b *testing.B) {
			args := []string{"verify", "-out", filepath.Join(b.TempDir(), "out")}
			if size.n > 0 {
				dir, _ := suite(b, size.n)
				args = append(args, dir)
			}
			b.ResetTimer()
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

// BenchmarkSchemaFloor validates the same files with gojsonschema alone,
// reading them from disk and decoding them with gojsonschema's own loader:
// the floor the end-to-end figures are compared with. "serial" validates
// one file after the other, as a program using gojsonschema alone does;
// "parallel" spreads the files over GOMAXPROCS goroutines, as many as
// verify reads and runs files on (and as internal/gen/schemafloor does).
func BenchmarkSchemaFloor(b *testing.B) {
	validate := floorValidator(b)
	for _, size := range []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		var paths []string // generated on first use, kept for both modes
		parent := b
		for _, mode := range []string{"serial", "parallel"} {
			b.Run(size.name+"/"+mode, func(b *testing.B) {
				if paths == nil {
					dir, _ := suite(parent, size.n)
					paths, _ = filepath.Glob(filepath.Join(dir, "*.json"))
				}
				if len(paths) != size.n/1000 {
					b.Fatalf("%d files, want %d", len(paths), size.n/1000)
				}
				b.ResetTimer()
				cpu := startCPU()
				for i := 0; i < b.N; i++ {
					if mode == "serial" {
						for _, p := range paths {
							validate(b, p)
						}
					} else {
						floorParallel(b, validate, paths)
					}
				}
				cpu.report(b)
			})
		}
	}
}

// floorValidator returns what the floor does to one file: read it from
// disk and validate it against the whole case schema with gojsonschema's
// own loader.
func floorValidator(b *testing.B) func(*testing.B, string) {
	b.Helper()
	s, err := verifier.CompiledCaseSchema(all.Registry())
	if err != nil {
		b.Fatal(err)
	}
	return func(b *testing.B, path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Error(err)
			return
		}
		if problems, err := s.ValidateWithLoader(data); err != nil || len(problems) > 0 {
			b.Error(err, problems)
		}
	}
}

// startPercent is the collector's percentage the process started with
// (GOGC, or Go's default), read before any run sets its own: the floor's.
// Read later it could be what the watch of an earlier verify set.
var startPercent = gcPercent()

// floorParallel is the floor on every processor.
func floorParallel(b *testing.B, validate func(*testing.B, string), paths []string) {
	parallel.For(len(paths), func(j int) { validate(b, paths[j]) })
}

// BenchmarkFloorRatio runs 'deskcheck verify' (as BenchmarkEndToEnd does)
// and the parallel floor on the same generated files in turn, floor then
// verify, b.N pairs, and reports the median over pairs of verify's CPU
// time and of its wall time over the floor's (cpu-x-floor, wall-x-floor):
// both sides on GOMAXPROCS goroutines, in one process, one pair at a time.
// BENCHMARKS.md states the target on cpu-x-floor.
func BenchmarkFloorRatio(b *testing.B) {
	validate := floorValidator(b)
	for _, size := range []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		b.Run(size.name, func(b *testing.B) {
			dir, _ := suite(b, size.n)
			paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			args := []string{"verify", "-out", filepath.Join(b.TempDir(), "out"), dir}
			var floor, verify []sample
			base := startPercent
			defer debug.SetGCPercent(base)
			defer runs.Add(1) // this run's last watch of the heap ends
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// Each side from a collected heap, the collector as a fresh
				// process of it would have it: the floor at the default,
				// verify as main sets it.
				runs.Add(1)
				debug.SetGCPercent(base)
				runtime.GC()
				floor = append(floor, measure(func() { floorParallel(b, validate, paths) }))
				runtime.GC()
				startCollector()
				verify = append(verify, measure(func() {
					if code := run(args, io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}))
			}
			b.ReportMetric(medianRatio(verify, floor, cpuOf), "cpu-x-floor")
			b.ReportMetric(medianRatio(verify, floor, wallOf), "wall-x-floor")
		})
	}
}
