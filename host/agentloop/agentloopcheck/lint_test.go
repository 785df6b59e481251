package agentloopcheck

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestLint checks what the schema cannot see: counts written as whole
// numbers inside rows and series (errors) and likely slips (warnings).
func TestLint(t *testing.T) {
	type problem struct {
		pointer string
		warning bool
		text    string
	}
	tests := []struct {
		name     string
		reason   string
		given    string
		expected string
		want     []problem
	}{
		{"clean", "a case that follows its script draws nothing",
			`{"script": [{"tool": "calc", "args": {"expression": "1"}}, {"final": "x"}]}`,
			`{"outcome": "answered", "effects": 1, "steps": 2, "rows": [[1, "calc", "executed", "{'result': 1}"], [2, "final", "answer", "x"]], "validatedSeries": [1, 1], "blockedSeries": [0, 0]}`,
			nil},
		{"fraction step", "a step of 2.0 is not how a count is written",
			`{"script": [{"final": "x"}]}`, `{"outcome": "answered", "effects": 0, "rows": [[1.0, "final", "answer", "x"]]}`,
			[]problem{{"/expected/rows/0/0", false, "whole number"}}},
		{"exponent in a series", "1e0 is not how a count is written",
			`{"script": [{"final": "x"}]}`, `{"outcome": "answered", "effects": 0, "validatedSeries": [1e0], "blockedSeries": [0]}`,
			[]problem{{"/expected/validatedSeries/0", false, "found 1e0"}}},
		{"after the final answer", "the final answer ends the run",
			`{"script": [{"final": "x"}, {"tool": "calc"}]}`, `{"outcome": "answered", "effects": 0}`,
			[]problem{{"/given/script/1", true, "never reached"}}},
		{"near miss", "lookup-user is refused as unknown, which is rarely what was meant",
			`{"script": [{"tool": "lookup-user", "args": {"user_id": "u-100"}}]}`, `{"outcome": "script_exhausted", "effects": 0}`,
			[]problem{{"/given/script/0/tool", true, `is not "lookup_user"`}}},
		{"far from every tool", "shell is plainly another tool",
			`{"script": [{"tool": "shell"}]}`, `{"outcome": "script_exhausted", "effects": 0}`, nil},
		{"rows off the script", "a row's tool, step and kind follow the script entry of its step",
			`{"script": [{"tool": "calc", "args": {"expression": "1"}}, {"final": "x"}]}`,
			`{"outcome": "answered", "effects": 1, "rows": [[1, "lookup_user", "executed", "{'result': 1}"], [3, "calc", "answer", "x"], [3, "final", "answer", "y"]]}`,
			[]problem{
				{"/expected/rows/0/1", true, `names tool "lookup_user"`},
				{"/expected/rows/1/0", true, "numbered step 3"},
				{"/expected/rows/1", true, "is a final answer"},
				{"/expected/rows/2", true, "has no script entry"},
			}},
		{"answer row for a request", "a tool request is executed or blocked",
			`{"script": [{"tool": "calc", "args": {"expression": "1"}}]}`,
			`{"outcome": "answered", "effects": 1, "rows": [[1, "calc", "answer", "x"]]}`,
			[]problem{{"/expected/rows/0/2", true, "not answer"}}},
		{"lengths", "one step, one row, one value of each series",
			`{"script": [{"final": "x"}]}`,
			`{"outcome": "answered", "effects": 0, "steps": 2, "rows": [[1, "final", "answer", "x"]], "validatedSeries": [0, 0], "blockedSeries": []}`,
			[]problem{
				{"/expected/steps", true, "2 steps expected but 1 row"},
				{"/expected/validatedSeries", true, "2 values"},
				{"/expected/blockedSeries", true, "0 values"},
			}},
		{"effects beyond the requests", "each request spends at most one attempt",
			`{"script": [{"tool": "calc", "args": {"expression": "1"}}]}`, `{"outcome": "script_exhausted", "effects": 2}`,
			[]problem{{"/expected/effects", true, "from 1 tool request"}}},
		{"effects beyond the budget", "the budget bounds the attempts",
			`{"script": [{"tool": "calc"}, {"tool": "calc"}], "maxCalls": 1}`, `{"outcome": "script_exhausted", "effects": 2}`,
			[]problem{{"/expected/effects", true, "budget (maxCalls) is 1"}}},
		{"drafts without the grant", "only a granted save_draft writes a draft",
			`{"script": []}`, `{"outcome": "script_exhausted", "effects": 0, "drafts": ["x"]}`,
			[]problem{{"/expected/drafts", true, "not granted"}}},
		{"vacuous errorIncludes", `"" is a substring of everything`,
			`{"script": []}`, `{"outcome": "script_exhausted", "effects": 0, "errorIncludes": ""}`,
			[]problem{{"/expected/errorIncludes", true, "holds for every observation"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lintRunner(decode(t, tt.given), checktest.Fields(t, tt.expected))
			require.Len(t, got, len(tt.want), "%s: %v", tt.reason, got)
			for i, w := range tt.want {
				assert.Equal(t, w.pointer, got[i].Pointer, tt.reason)
				assert.Equal(t, w.warning, got[i].Warning, "%s: severity of %q", tt.reason, got[i].Message)
				assert.Contains(t, got[i].Message, w.text, tt.reason)
			}
		})
	}
}

// desk wraps runner cases (given, expected) into a desk file.
func desk(cases ...[2]string) []byte {
	var b strings.Builder
	b.WriteString(`{"schemaVersion": 1, "id": "t", "title": "t", "label": "DO NOT EXECUTE", "cases": [`)
	for i, c := range cases {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "c%d", "title": "t", "scenario": "runner", "given": %s, "expected": %s}`, i, c[0], c[1])
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// TestInvalidInput: every shape §3.2 does not allow, and every limit
// exceeded, is an error located in the case before anything runs.
func TestInvalidInput(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	const ok = `{"outcome": "answered", "effects": 0}`
	tests := []struct {
		name, given, expected string
		pointer, text         string
		reason                string
	}{
		{"no script", `{}`, ok, "/cases/0/given", `missing required key "script"`, "the script is required"},
		{"entry not an object", `{"script": ["calc"]}`, ok, "/cases/0/given/script/0", "expected object", "an entry is an object"},
		{"both tool and final", `{"script": [{"tool": "calc", "final": "x"}]}`, ok, "/cases/0/given/script/0/final", `unknown key "final"`, "a request has no final"},
		{"args on a final answer", `{"script": [{"final": "x", "args": {}}]}`, ok, "/cases/0/given/script/0/args", `unknown key "args"`, "an answer has no args"},
		{"other key", `{"script": [{"tool": "calc", "arg": {}}]}`, ok, "/cases/0/given/script/0/arg", `unknown key "arg"`, "no other key"},
		{"neither", `{"script": [{}]}`, ok, "/cases/0/given/script/0", "missing required key", "an entry says what it is"},
		{"non-string name", `{"script": [{"tool": 1}]}`, ok, "/cases/0/given/script/0/tool", "expected string", "NAME is a string"},
		{"non-string answer", `{"script": [{"final": null}]}`, ok, "/cases/0/given/script/0/final", "expected string", "TEXT is a string"},
		{"negative budget", `{"script": [], "maxCalls": -1}`, ok, "/cases/0/given/maxCalls", "greater than or equal to 0", "budgets are whole numbers ≥ 0"},
		{"fractional steps", `{"script": [], "maxSteps": 6.0}`, ok, "/cases/0/given/maxSteps", "whole number", "limits are written as whole numbers"},
		{"unknown given key", `{"script": [], "maxstep": 3}`, ok, "/cases/0/given/maxstep", `given key "maxstep" is not read by scenario runner; did you mean "maxSteps"?`, "a misspelt key never passes"},
		{"unknown expected key", `{"script": []}`, `{"outcome": "answered", "effects": 0, "row": []}`, "/cases/0/expected/row", `did you mean "rows"?`, "a misspelt key never passes"},
		{"unknown outcome", `{"script": []}`, `{"outcome": "done", "effects": 0}`, "/cases/0/expected/outcome", "must be one of", "outcomes are a closed vocabulary"},
		{"row shape", `{"script": []}`, `{"outcome": "answered", "effects": 0, "rows": [[1, "calc", "ran", "x"]]}`, "/cases/0/expected/rows/0/2", "must be one of", "results are a closed vocabulary"},
		{"missing effects", `{"script": []}`, `{"outcome": "answered"}`, "/cases/0/expected", `missing required key "effects"`, "outcome and effects are required"},
		{"steps over the limit", `{"script": [], "maxSteps": 1001}`, ok, "/cases/0/given/maxSteps", "runner.maxSteps", "maxSteps is bounded"},
		{"budget over the limit", `{"script": [], "maxCalls": 1001}`, ok, "/cases/0/given/maxCalls", "runner.maxCalls", "maxCalls is bounded"},
		{"script over the limit", `{"script": [` + strings.Repeat(`{"final": "x"},`, 1000) + `{"final": "x"}]}`, ok, "/cases/0/given/script", "runner.script", "the script's length is bounded"},
		{"fractional row step", `{"script": [{"final": "x"}]}`, `{"outcome": "answered", "effects": 0, "rows": [[1.0, "final", "answer", "x"]]}`, "/cases/0/expected/rows/0/0", "whole number", "counts inside rows are whole numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := verifier.LoadAll(reg, []verifier.Input{{Path: "t.json", Data: desk([2]string{tt.given, tt.expected})}}, verifier.Limits{})
			require.True(t, ds.HasErrors(), "%s: %v", tt.reason, ds)
			found := false
			for _, d := range ds {
				if d.Severity == verifier.Error && d.Pointer == tt.pointer && strings.Contains(d.Summary, tt.text) {
					found = found || d.Line > 0
				}
			}
			assert.True(t, found, "%s: an error at %s saying %q, with its line; got %v", tt.reason, tt.pointer, tt.text, ds)
		})
	}
}

// TestBundledDeskIsClean: the bundled desk loads and lints with no
// diagnostic at all.
func TestBundledDeskIsClean(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	data, err := os.ReadFile(deskPath)
	require.NoError(t, err)
	_, ds := verifier.LoadAll(reg, []verifier.Input{{Path: deskPath, Data: data}}, verifier.Limits{})
	assert.Empty(t, ds)
}

// TestOneDecodePerCase: loading the bundled desk decodes each case's given
// block once, and running every case under the correct model and every
// fault, and suggesting its keys, decodes none again.
func TestOneDecodePerCase(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	data, err := os.ReadFile(deskPath)
	require.NoError(t, err)
	before := scenario.Calls.Decodes.Load()
	desks, ds := verifier.LoadAll(reg, []verifier.Input{{Path: deskPath, Data: data}}, verifier.Limits{})
	require.Empty(t, ds)
	cases, _ := verifier.Select(desks, nil)
	require.Len(t, cases, len(checktest.Desk(t, deskPath)))
	assert.Equal(t, int64(len(cases)), scenario.Calls.Decodes.Load()-before, "one decode per case at load")
	results, err := verifier.Run(t.Context(), cases, verifier.RunOptions{})
	require.NoError(t, err)
	for _, f := range reg.Faults() {
		under, err := verifier.Run(t.Context(), cases, verifier.RunOptions{Fault: &f})
		require.NoError(t, err)
		results = append(results, under...)
	}
	for _, r := range results {
		require.NotEqual(t, verifier.Errored, r.Status, r.Err)
		require.NotNil(t, r.Boundary, r.Case.ID)
		var keys []string
		for _, x := range r.Suggestions() {
			keys = append(keys, x.Key)
		}
		require.Contains(t, keys, "outcome")
	}
	assert.Len(t, results, len(cases)*(1+len(reg.Faults())))
	assert.Equal(t, int64(len(cases)), scenario.Calls.Decodes.Load()-before, "no decode when the cases run")
}
