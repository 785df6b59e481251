package agentloopcheck

import (
	"context"
	"testing"

	"github.com/deskcheck/deskcheck/scenario"
)

// BenchmarkRun runs every case of the bundled desk once per iteration:
// decoding the given block, the decision loop, the narration, the
// observation and the boundary counts.
func BenchmarkRun(b *testing.B) {
	cases := readDesk(b, deskPath)
	limits := defaultLimits()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			if _, err := Runner.Run(ctx, c.Given, scenario.Env{Trace: &scenario.Trace{}, Limits: limits, Expected: c.Expected}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}
