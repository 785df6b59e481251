package verifier

import (
	"context"
	"testing"

	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/schema"
)

// benchDesk is one generated file of 1,000 cases of all three scenarios.
var benchDesk = gen.Desk(0, 0, 1000)

func loadBench(b *testing.B) *Desk {
	b.Helper()
	d, ds := Load(testReg, "bench.json", benchDesk, Limits{})
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	return d
}

// BenchmarkLoad: parse, duplicate-key walk, schema validation and reading
// of one 1,000-case file.
func BenchmarkLoad(b *testing.B) {
	b.SetBytes(int64(len(benchDesk)))
	for i := 0; i < b.N; i++ {
		if _, ds := Load(testReg, "bench.json", benchDesk, Limits{}); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}

// BenchmarkSchemaValidate: schema validation alone on the same file, as
// gojsonschema does it from the bytes (loader) and as deskcheck does it
// (its own decoder feeding gojsonschema).
func BenchmarkSchemaValidate(b *testing.B) {
	s, err := CompiledCaseSchema(testReg)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []struct {
		name     string
		validate func([]byte) ([]schema.Problem, error)
	}{{"loader", s.ValidateWithLoader}, {"deskcheck", s.Validate}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(benchDesk)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if p, err := v.validate(benchDesk); err != nil || len(p) > 0 {
					b.Fatal(err, p)
				}
			}
		})
	}
}

// BenchmarkLint: lint of one 1,000-case desk.
func BenchmarkLint(b *testing.B) {
	d := loadBench(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ds := Lint([]*Desk{d}, Limits{}); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}

// BenchmarkRun: one case at a time, per scenario, on one goroutine.
func BenchmarkRun(b *testing.B) {
	d := loadBench(b)
	for _, name := range testReg.Names() {
		var cases []*Case
		for _, c := range d.Cases {
			if c.Scenario == name {
				cases = append(cases, c)
			}
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if r := judge(context.Background(), cases[i%len(cases)], nil, nil); r.Status != Pass {
					b.Fatal(r.Mismatches, r.Err)
				}
			}
		})
	}
}

// BenchmarkRunParallel: the 1,000 cases of the file across GOMAXPROCS.
func BenchmarkRunParallel(b *testing.B) {
	d := loadBench(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runAll(context.Background(), d.Cases, nil, nil)
	}
}

// BenchmarkCompare: comparing one case's expected block with its
// observation.
func BenchmarkCompare(b *testing.B) {
	d := loadBench(b)
	results := runAll(context.Background(), d.Cases, nil, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := results[i%len(results)]
		sc, _ := r.Case.Spec()
		if m := Compare(r.Case.Expected, r.Observed, sc); len(m) > 0 {
			b.Fatal(m)
		}
	}
}
