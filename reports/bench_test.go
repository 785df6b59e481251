package reports

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/deskcheck/deskcheck/host/all"

	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/verifier"
)

// BenchmarkReport renders each format for a generated 1,000-case suite.
func BenchmarkReport(b *testing.B) {
	suite, _, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "bench.json", Data: gen.Desk(0, 0, 1000)}}, verifier.Options{Registry: all.Registry()})
	if err != nil {
		b.Fatal(err)
	}
	r := Build(suite, Origin{Time: time.Unix(0, 0)})
	for _, f := range Formats(Text{}) {
		b.Run(f.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := f.Reporter.Write(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLocate locates the failures of a suite of 100 files of 1,000
// cases whose cases asserting effects all fail: up to LocatedCases of
// them, one walk of each file.
func BenchmarkLocate(b *testing.B) {
	var inputs []verifier.Input
	for _, f := range gen.Suite(100_000, 1000) {
		inputs = append(inputs, verifier.Input{Path: f.Name, Data: wrongEffects.ReplaceAll(f.Data, []byte(`"effects": 7`))})
	}
	suite, _, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: all.Registry()})
	if err != nil {
		b.Fatal(err)
	}
	failed := 0
	for _, r := range suite.Results {
		if r.Status != verifier.Pass {
			failed++
		}
	}
	b.Logf("%d cases, %d failed", len(suite.Results), failed)
	cases := make([]Case, len(suite.Results))
	// Rounds interleave the two ways, so that a loaded machine slows both
	// alike: one walk of each file for up to LocatedCases cases, and the
	// walk per case the report made before, for its first 200.
	b.Run("one walk per file", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			locate(suite.Results, cases, LocatedCases, locateBudget)
		}
	})
	b.Run("a walk per case, 200 cases", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			n := 0
			for _, r := range suite.Results {
				if r.Status != verifier.Pass && n < 200 {
					r.Case.Desk.Locate(r.Case.Pointer, false)
					n++
				}
			}
		}
	})
}
