package main

import (
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
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
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				if code := run([]string{command, "-out", "none"}, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			cpu.report(b)
		})
	}
}

// The budgets of the bundled desks, as the median over interleaved rounds
// of a command's CPU time over the reference's: the floor (gojsonschema
// alone, on every processor) validating the bundled case files, run in the
// same round. They are the budgets in milliseconds on an idle machine
// (30 ms for verify, 60 ms for faults) turned into ratios: each command's
// ratio as measured, times its budget over its last idle time (23 and
// 51 ms), on a binary whose CPU time is the same as that one's
// (BENCHMARKS.md).
const (
	verifyBudget = 1.65 // verify -out none: 1.28 × 30/23
	faultsBudget = 5.5  // faults -out none: 4.68 × 60/51
)

// BenchmarkBundledBudget holds 'verify -out none' and 'faults -out none'
// on the bundled desks to their budgets as ratios to a reference measured
// in the same rounds, so that a loaded machine, which slows both, does not
// move the target. Each of the b.N rounds runs the floor on the bundled
// case files, 'deskcheck validate', 'verify -out none' and 'faults -out
// none', one after another, each from a collected heap and with the
// collector set as a fresh process of it would be. It reports the median
// over rounds of each command's CPU time and wall time over the floor's
// (verify-cpu-x-floor, ...; validate is there to compare references with),
// and fails when a CPU ratio is over its budget over at least ten rounds:
//
//	go test -run '^$' -bench BundledBudget -benchtime 40x ./cmd/deskcheck
func BenchmarkBundledBudget(b *testing.B) {
	validate := floorValidator(b)
	paths, err := filepath.Glob("../../cases/*.json")
	if err != nil || len(paths) == 0 {
		b.Fatalf("no bundled case files: %v", err)
	}
	base := startPercent
	floor := func() sample {
		runs.Add(1) // a command's watch of the heap ends here
		debug.SetGCPercent(base)
		runtime.GC()
		return measure(func() { floorParallel(b, validate, paths) })
	}
	command := func(args ...string) sample {
		runtime.GC()
		startCollector()
		return measure(func() {
			if code := run(args, io.Discard, io.Discard); code != 0 {
				b.Fatalf("%v: exit %d", args, code)
			}
		})
	}
	// One untimed round: the registry, the case schema and the bundled
	// desks' parse are built once per process, as in the command.
	floor()
	command("validate")
	command("verify", "-out", "none")
	command("faults", "-out", "none")
	defer debug.SetGCPercent(base)
	defer runs.Add(1) // the last command's watch of the heap ends

	var ref, val, ver, flt []sample
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ref = append(ref, floor())
		val = append(val, command("validate"))
		ver = append(ver, command("verify", "-out", "none"))
		flt = append(flt, command("faults", "-out", "none"))
	}
	b.StopTimer()
	verifyCPU, faultsCPU := medianRatio(ver, ref, cpuOf), medianRatio(flt, ref, cpuOf)
	b.ReportMetric(medianRatio(val, ref, cpuOf), "validate-cpu-x-floor")
	b.ReportMetric(verifyCPU, "verify-cpu-x-floor")
	b.ReportMetric(faultsCPU, "faults-cpu-x-floor")
	b.ReportMetric(medianRatio(ver, ref, wallOf), "verify-wall-x-floor")
	b.ReportMetric(medianRatio(flt, ref, wallOf), "faults-wall-x-floor")
	b.ReportMetric(medianRatio(ver, val, cpuOf), "verify-cpu-x-validate")
	b.ReportMetric(medianRatio(flt, val, cpuOf), "faults-cpu-x-validate")
	b.ReportMetric(float64(medianOf(ref, cpuOf))/1e6, "floor-cpu-ms")
	if b.N < 10 {
		return // too few rounds for a median to judge by
	}
	if verifyCPU > verifyBudget {
		b.Errorf("verify -out none: %.2f× the floor's CPU time, over its budget of %.2f×", verifyCPU, verifyBudget)
	}
	if faultsCPU > faultsBudget {
		b.Errorf("faults -out none: %.2f× the floor's CPU time, over its budget of %.2f×", faultsCPU, faultsBudget)
	}
}
