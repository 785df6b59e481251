package all

import (
	"context"
	"testing"

	"github.com/deskcheck/deskcheck/verifier"
)

// BenchmarkRun runs the bundled cases of each scenario through the engine
// (the host model, its recorders, the comparison and the boundary counts),
// one sub-benchmark per scenario, and reports the time per case.
func BenchmarkRun(b *testing.B) {
	reg := Registry()
	var inputs []verifier.Input
	for _, f := range Desks() {
		inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
	}
	desks, ds := verifier.LoadAll(reg, inputs, verifier.Limits{})
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	byScenario := map[string][]*verifier.Case{}
	all, _ := verifier.Select(desks, nil)
	for _, c := range all {
		byScenario[c.Scenario] = append(byScenario[c.Scenario], c)
	}
	ctx := context.Background()
	for _, name := range reg.Names() {
		cs := byScenario[name]
		if len(cs) == 0 {
			continue
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range cs {
					if rs, _ := verifier.Run(ctx, []*verifier.Case{c}, verifier.RunOptions{}); rs[0].Status != verifier.Pass {
						r := rs[0]
						b.Fatalf("%s: %s %v", c.FullID(), r.Status, r.Mismatches)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cs)), "ns/case")
		})
	}
}
