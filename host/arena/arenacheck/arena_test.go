package arenacheck

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func plan(t *testing.T, givenJSON, expectedJSON string) scenario.Plan[script] {
	t.Helper()
	g, err := readGiven([]byte(givenJSON))
	require.NoError(t, err)
	var fields []scenario.Field
	if expectedJSON != "" {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(expectedJSON), &m))
		for _, k := range []string{"decisions", "reasons", "effects"} {
			if raw, ok := m[k]; ok {
				fields = append(fields, scenario.Field{Key: k, Raw: raw})
			}
		}
	}
	return planArena(g, fields)
}

func messages(p scenario.Plan[script]) []string {
	var out []string
	for _, pr := range p.Problems {
		kind := "error"
		if pr.Warning {
			kind = pr.Name
		}
		out = append(out, kind+" "+pr.Pointer+": "+pr.Message)
	}
	return out
}

func TestLint(t *testing.T) {
	for _, tc := range []struct {
		name, given, expected string
		want                  []string
	}{
		{"clean", `{"turns":[[{"action":"file.read.workspace"},{"action":"file.read.protected"}]]}`,
			`{"decisions":["allow","deny"],"reasons":["allowed","protected_path"],"effects":1}`, nil},
		{"label outside the pattern", `{"turns":[[{"action":"File.Read"}]]}`, `{"decisions":["deny"],"reasons":["unknown_action"],"effects":0}`,
			[]string{`error /given/turns/0/0/action: the label "File.Read" does not match ^[a-z0-9][a-z0-9._-]{0,63}$`}},
		{"decisions too short", `{"turns":[[{"action":"file.read.workspace"}],[{"action":"file.read.workspace"}]]}`, `{"decisions":["allow"],"reasons":["allowed","allowed"],"effects":2}`,
			[]string{"list-vs-calls /expected/decisions: 1 decision for 2 calls: one per call, in script order; the dimensions count the table's decisions instead"}},
		{"reasons too long", `{"turns":[[{"action":"file.read.workspace"}]]}`, `{"decisions":["allow"],"reasons":["allowed","allowed"],"effects":1}`,
			[]string{"list-vs-calls /expected/reasons: 2 reasons for 1 call: one per call, in script order"}},
		{"unknown reason", `{"turns":[[{"action":"file.read.protected"}]]}`, `{"decisions":["deny"],"reasons":["forbidden"],"effects":0}`,
			[]string{"error /expected/reasons/0: \"forbidden\" is not a reason; the reasons are [allowed protected_path destination_not_allowed credential_exposure approval_rejected unknown_action policy_unavailable malformed_request unknown_ticket]"}},
		{"contradicts the table", `{"turns":[[{"action":"file.read.protected"}]]}`, `{"decisions":["allow"],"reasons":["allowed"],"effects":1}`,
			[]string{"contradicts-table /expected/reasons/0: allowed: the table gives file.read.protected the reason protected_path",
				"contradicts-table /expected/decisions/0: allow: the table decides file.read.protected deny"}},
		{"broken adapter", `{"turns":[[{"action":"file.read.protected"}]]}`, `{"decisions":["deny"],"reasons":["unknown_ticket"],"effects":0}`,
			[]string{"broken-adapter-reason /expected/reasons/0: unknown_ticket: a correct adapter never produces it"}},
		{"effects", `{"turns":[[{"action":"file.read.workspace"}]]}`, `{"decisions":["allow"],"reasons":["allowed"],"effects":0}`,
			[]string{"effects-vs-allows /expected/effects: 0 effects expected for 1 allow decision: an allowed call writes one ledger entry"}},
		{"near label", `{"turns":[[{"action":"file.read.workspce"}]]}`, `{"decisions":["deny"],"reasons":["unknown_action"],"effects":0}`,
			[]string{`near-label /given/turns/0/0/action: "file.read.workspce": did you mean "file.read.workspace"? It is denied as unknown_action`}},
		{"turn limit", `{"turns":[[{"action":"a"}],[{"action":"a"}],[{"action":"a"}],[{"action":"a"}],[{"action":"a"}],[{"action":"a"}]]}`, "",
			[]string{"turn-limit /given/turns: 6 tool turns need 7 model requests; the adapters stop at 6, so the item cannot complete"}},
		{"unavailable", `{"turns":[[{"action":"service.status.read","unavailable":true}]]}`, `{"decisions":["deny"],"reasons":["policy_unavailable"],"effects":0}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, messages(plan(t, tc.given, tc.expected)))
		})
	}
}

func TestPlanCountsControls(t *testing.T) {
	p := plan(t, `{"turns":[[{"action":"file.read.workspace"},{"action":"file.read.protected"}],[{"action":"x"}]]}`,
		`{"decisions":["allow","deny",null],"reasons":["allowed","protected_path",null],"effects":1}`)
	assert.Equal(t, 1, p.Permitted)
	assert.Equal(t, 1, p.Denied)
	assert.Equal(t, []string{"allow", "deny", ""}, p.Script.decisions)
	// Without an expected block the table decides.
	p = plan(t, `{"turns":[[{"action":"file.read.workspace"},{"action":"zzz"}]]}`, "")
	assert.Equal(t, []string{"allow", "deny"}, p.Script.decisions)
	assert.Equal(t, 1, p.Script.effects)
}

func TestReadGivenRefusesUnknownKeys(t *testing.T) {
	_, err := readGiven([]byte(`{"turns":[[{"action":"a","extra":1}]]}`))
	assert.ErrorContains(t, err, "the given block of an arena case")
}

func TestRunNarratesInScriptOrder(t *testing.T) {
	g, err := readGiven([]byte(`{"turns":[[{"action":"file.read.workspace"},{"action":"file.read.protected"}]]}`))
	require.NoError(t, err)
	var tr scenario.Trace
	ob, ev, err := runArena(context.Background(), g, scenario.Env{Trace: &tr})
	require.NoError(t, err)
	assert.Equal(t, []any{"allow", "deny"}, ob.Values["decisions"])
	b := runBoundary(script{decisions: []string{"allow", "deny"}, effects: 1}, ev)
	assert.Equal(t, scenario.Boundary{Actions: 2, Denied: 1, DeniedVisible: 1, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 2, ServiceExpected: 2, AmplificationBasis: "scripted", Complete: true}, *b)
	var lines []string
	for _, e := range tr.Events() {
		lines = append(lines, e.Text)
	}
	text := strings.Join(lines, "\n")
	assert.Less(t, strings.Index(text, "call_1_1_1 emitted"), strings.Index(text, "call_1_1_2 emitted"))
	assert.Contains(t, text, "call_1_1_2 denial visible in the next model request")
	assert.Contains(t, ob.Points, "arena/batch-mixed")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = runArena(ctx, g, scenario.Env{})
	assert.Error(t, err)
}
