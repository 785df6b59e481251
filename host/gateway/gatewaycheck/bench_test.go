package gatewaycheck

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/deskcheck/deskcheck/scenario"
)

// BenchmarkRun runs every case of the bundled desk once per iteration:
// decoding the given block, the model, the narration, the observation and
// the boundary counts.
func BenchmarkRun(b *testing.B) {
	data, err := os.ReadFile("../../../cases/gateway-desk.json")
	if err != nil {
		b.Fatal(err)
	}
	var desk struct {
		Cases []struct {
			Given    json.RawMessage            `json:"given"`
			Expected map[string]json.RawMessage `json:"expected"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &desk); err != nil {
		b.Fatal(err)
	}
	type prepared struct {
		given    []byte
		expected []scenario.Field
	}
	cases := make([]prepared, len(desk.Cases))
	for i, c := range desk.Cases {
		cases[i].given = c.Given
		for k, v := range c.Expected {
			cases[i].expected = append(cases[i].expected, scenario.Field{Key: k, Raw: v})
		}
	}
	limits := map[string]int{LimitSteps: 1000, LimitApprovals: 1000}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			if _, err := Gateway.Run(ctx, c.given, scenario.Env{Trace: &scenario.Trace{}, Limits: limits, Expected: c.expected}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/case")
}
