package verifier

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// releasesBenchDesk is n copies of a wrapper case with a prompt, a dialog
// and an RPC round trip, all pinned to the release range expr.
func releasesBenchDesk(n int, expr string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, named(`{"schemaVersion": 1, "id": "bench", "title": "t", "hosts": {"{host}": %q}, "cases": [`), expr)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, named(`{"id": "c%d", "title": "t", "scenario": "{prompt}", "given": {"approval": "exec", "mode": "always-ask", "ui": "rpc", "choices": ["Approve"]}, "expected": {"outcome": "return", "effects": 1}}`), i)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// BenchmarkReleaseGroups judges 200 cases on one, two and four behaviour
// groups (1, 8 and 12 releases): the cost grows with the groups, not the
// releases.
func BenchmarkReleaseGroups(b *testing.B) {
	for _, tt := range []struct {
		name, expr string
	}{{"1-group", "18.3.4"}, {"2-groups", ">=18.1.16"}, {"4-groups", "*"}} {
		desk, ds := Load(testReg, "bench.json", releasesBenchDesk(200, tt.expr), Limits{})
		if desk == nil {
			b.Fatal(ds)
		}
		b.Run(tt.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, r := range runAll(context.Background(), desk.Cases, nil, nil) {
					if r.Status != Pass {
						b.Fatal(r.Case.ID, r.Mismatches)
					}
				}
			}
		})
	}
}
