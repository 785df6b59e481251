package agentloopcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
)

// publishedTrace is one of the four step-by-step traces the "Permission to
// act" showcase publishes (runner spec §3.7): its rows, both cumulative
// series and the final state, written out here from the specification,
// not from the desk or the model.
type publishedTrace struct {
	name   string // the trace's name in the showcase
	caseID string // the bundled case that reproduces it
	rows   string
	// validated and blocked are the cumulative series.
	validated, blocked string
	outcome            string
	effects, failed    int
	steps              int
	answer             string
}

// publishedTraces returns the four traces in the showcase's order.
func publishedTraces() []publishedTrace {
	return []publishedTrace{
		{
			name: "normal", caseID: "seed-normal",
			rows: `[[1, "lookup_user", "executed", "{'name': 'Linh', 'tier': 'gold'}"],
			        [2, "calc", "executed", "{'result': 50.0}"],
			        [3, "final", "answer", "The fictional user is Linh; the arithmetic result is 50."]]`,
			validated: `[1,2,2]`, blocked: `[0,0,0]`,
			outcome: "answered", effects: 2, failed: 0, steps: 3,
			answer: "The fictional user is Linh; the arithmetic result is 50.",
		},
		{
			name: "permissions", caseID: "seed-permissions",
			rows: `[[1, "save_draft", "blocked", "PermissionError: Write capability not granted"],
			        [2, "shell", "blocked", "ValueError: Unknown tool"],
			        [3, "lookup_user", "blocked", "ValueError: Exact argument names required"],
			        [4, "final", "answer", "Blocked calls did not execute. No write or shell capability was granted."]]`,
			validated: `[0,0,0,0]`, blocked: `[1,2,3,3]`,
			outcome: "answered", effects: 0, failed: 3, steps: 4,
			answer: "Blocked calls did not execute. No write or shell capability was granted.",
		},
		{
			name: "budget", caseID: "seed-budget",
			rows: `[[1, "calc", "executed", "{'result': 2}"],
			        [2, "calc", "executed", "{'result': 2}"],
			        [3, "calc", "executed", "{'result': 2}"],
			        [4, "calc", "blocked", "PermissionError: Tool-call budget exhausted"],
			        [5, "calc", "blocked", "PermissionError: Tool-call budget exhausted"],
			        [6, "calc", "blocked", "PermissionError: Tool-call budget exhausted"]]`,
			validated: `[1,2,3,3,3,3]`, blocked: `[0,0,0,1,2,3]`,
			outcome: "step_limit", effects: 3, failed: 3, steps: 6,
			answer: "",
		},
		{
			name: "invalid", caseID: "seed-invalid",
			rows: `[[1, "calc", "blocked", "ValueError: Only finite arithmetic with + - * / is supported"],
			        [2, "calc", "blocked", "ZeroDivisionError: division by zero"],
			        [3, "calc", "executed", "{'result': 21}"],
			        [4, "final", "answer", "Only the bounded expression completed."]]`,
			validated: `[1,2,3,3]`, blocked: `[1,2,2,2]`,
			outcome: "answered", effects: 3, failed: 2, steps: 4,
			answer: "Only the bounded expression completed.",
		},
	}
}

// TestPublishedTraces runs the first four cases of the bundled desk and
// checks, trace by trace, that the model's rows, validated and blocked
// series and final state are the published ones — and that the desk
// asserts exactly those.
func TestPublishedTraces(t *testing.T) {
	cases := checktest.Desk(t, deskPath)
	traces := publishedTraces()
	require.GreaterOrEqual(t, len(cases), len(traces))
	for i, p := range traces {
		t.Run(p.name, func(t *testing.T) {
			c := cases[i]
			require.Equal(t, p.caseID, c.ID, "case %d of the bundled desk reproduces the published %s trace", i, p.name)
			obs, _ := run(t, string(c.Given), "")
			v := obs.Values
			assert.Equal(t, norm(t, p.rows), v["rows"], "published %s trace: rows", p.name)
			assert.Equal(t, norm(t, p.validated), v["validatedSeries"], "published %s trace: validated series", p.name)
			assert.Equal(t, norm(t, p.blocked), v["blockedSeries"], "published %s trace: blocked series", p.name)
			assert.Equal(t, p.outcome, v["outcome"], "published %s trace: final state", p.name)
			assert.Equal(t, float64(p.effects), v["effects"], "published %s trace: validated attempts", p.name)
			assert.Equal(t, float64(p.failed), v["blocked"], "published %s trace: blocked or failed requests", p.name)
			assert.Equal(t, float64(p.steps), v["steps"], "published %s trace: steps", p.name)
			assert.Equal(t, p.answer, v["answer"], "published %s trace: answer", p.name)

			want := map[string]any{"rows": norm(t, p.rows), "validatedSeries": norm(t, p.validated), "blockedSeries": norm(t, p.blocked)}
			for _, f := range c.Expected {
				if w, ok := want[f.Key]; ok {
					assert.Equal(t, w, norm(t, string(f.Raw)), "case %s asserts the published %s trace's %s", c.ID, p.name, f.Key)
					delete(want, f.Key)
				}
			}
			assert.Empty(t, want, "case %s asserts every part of the published %s trace", c.ID, p.name)
			if !t.Failed() {
				t.Logf("published trace %q reproduced by case %s: rows, validated series, blocked series and final state equal", p.name, c.ID)
			}
		})
	}
}
