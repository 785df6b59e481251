package agentloopcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
)

const (
	givenPermissions = `{"script": [
		{"tool": "save_draft", "args": {"text": "Fictional draft"}},
		{"tool": "shell", "args": {"command": "ls"}},
		{"tool": "lookup_user", "args": {"name": "Linh"}},
		{"final": "Blocked calls did not execute."}]}`
	givenInvalid = `{"script": [
		{"tool": "calc", "args": {"expression": "2**1000"}},
		{"tool": "calc", "args": {"expression": "1/0"}},
		{"tool": "calc", "args": {"expression": "(1+2)*7"}},
		{"final": "Only the bounded expression completed."}]}`
	givenBudget = `{"script": [
		{"tool": "calc", "args": {"expression": "1+1"}}, {"tool": "calc", "args": {"expression": "1+1"}},
		{"tool": "calc", "args": {"expression": "1+1"}}, {"tool": "calc", "args": {"expression": "1+1"}},
		{"tool": "calc", "args": {"expression": "1+1"}}, {"tool": "calc", "args": {"expression": "1+1"}},
		{"tool": "calc", "args": {"expression": "1+1"}}, {"final": "never reached"}]}`
	rowsBudget = `{"outcome": "step_limit", "effects": 3, "rows": [
		[1, "calc", "executed", "{'result': 2}"], [2, "calc", "executed", "{'result': 2}"],
		[3, "calc", "executed", "{'result': 2}"], [4, "calc", "blocked", "PermissionError: Tool-call budget exhausted"],
		[5, "calc", "blocked", "PermissionError: Tool-call budget exhausted"], [6, "calc", "blocked", "PermissionError: Tool-call budget exhausted"]]}`
	givenZeroBudget = `{"script": [
		{"tool": "calc", "args": {"expr": "1+1"}}, {"tool": "calc", "args": {"expression": "1+1"}}, {"final": "nothing ran"}],
		"maxCalls": 0}`
	rowsZeroBudget = `{"outcome": "answered", "effects": 0, "rows": [
		[1, "calc", "blocked", "ValueError: Exact argument names required"],
		[2, "calc", "blocked", "PermissionError: Tool-call budget exhausted"], [3, "final", "answer", "nothing ran"]]}`
	givenSave = `{"script": [{"tool": "save_draft", "args": {"text": "t"}}]}`
)

// TestBoundary counts actions by hand: denominators from the script (rows
// when expected, else the given block), numerators from the run.
func TestBoundary(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		given    string
		expected string
		faults   []agentloop.Fault
		want     scenario.Boundary
	}{
		{"permissions from the given block", "three requests refused before execution, each showing its refusal; nothing reaches a tool",
			givenPermissions, "", nil,
			scenario.Boundary{Actions: 3, Denied: 3, DeniedVisible: 3, FailClosed: true, Complete: true}},
		{"tool failures are permitted without work", "2**1000 and 1/0 pass the checks and fail inside calc: permitted, no work; (1+2)*7 works",
			givenInvalid, "", nil,
			scenario.Boundary{Actions: 3, Permitted: 3, Worked: 1, FailClosed: true, ServiceRequests: 3, ServiceExpected: 3, Complete: true}},
		{"budget from the given block", "six requests before the step limit, three within the budget; the seventh is never reached and is no action",
			givenBudget, "", nil,
			scenario.Boundary{Actions: 6, Permitted: 3, Denied: 3, DeniedVisible: 3, Worked: 3, FailClosed: true, ServiceRequests: 3, ServiceExpected: 3, Complete: true}},
		{"budget from the rows", "the rows say the same as the given block",
			givenBudget, rowsBudget, nil,
			scenario.Boundary{Actions: 6, Permitted: 3, Denied: 3, DeniedVisible: 3, Worked: 3, FailClosed: true, ServiceRequests: 3, ServiceExpected: 3, Complete: true}},
		{"a granted write", "the draft is a permitted effect",
			`{"script": [{"tool": "save_draft", "args": {"text": "t"}}], "writeGranted": true}`, "", nil,
			scenario.Boundary{Actions: 1, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 1, ServiceExpected: 1, Complete: true}},
		{"a write granted by fault", "the denied save_draft runs: its denial never shows, its draft is an extra effect and the case is not fail-closed",
			givenSave, "", []agentloop.Fault{agentloop.FaultWriteGrantedByDefault},
			scenario.Boundary{Actions: 1, Denied: 1, FailClosed: false, ServiceRequests: 1, ServiceExpected: 0, Complete: true, ExtraEffects: 1}},
		{"one attempt too many", "the fourth request is denied by the budget but runs: one denial fewer shows and calc is reached four times for three",
			givenBudget, rowsBudget, []agentloop.Fault{agentloop.FaultBudgetOffByOne},
			scenario.Boundary{Actions: 6, Permitted: 3, Denied: 3, DeniedVisible: 2, Worked: 3, FailClosed: true, ServiceRequests: 4, ServiceExpected: 3, Complete: true}},
		{"one step too many", "a seventh request is taken that the script never reaches: the trace no longer reconciles",
			givenBudget, rowsBudget, []agentloop.Fault{agentloop.FaultStepLimitOffByOne},
			scenario.Boundary{Actions: 6, Permitted: 3, Denied: 3, DeniedVisible: 3, Worked: 3, FailClosed: true, ServiceRequests: 3, ServiceExpected: 3, Complete: false}},
		{"the wrong reason", "budget checked first: the malformed request is refused, but for the budget, not its argument names",
			givenZeroBudget, rowsZeroBudget, []agentloop.Fault{agentloop.FaultBudgetCheckedFirst},
			scenario.Boundary{Actions: 2, Denied: 2, DeniedVisible: 1, FailClosed: true, Complete: true}},
		{"the rows decide", "rows that script shell as executed make it permitted and expected at a tool; it is refused, so it does no work and reaches none",
			`{"script": [{"tool": "shell"}]}`, `{"outcome": "script_exhausted", "effects": 0, "rows": [[1, "shell", "executed", "{}"]]}`, nil,
			scenario.Boundary{Actions: 1, Permitted: 1, FailClosed: true, ServiceExpected: 1, Complete: true}},
		{"rows that stop early", "a request without a row is no action, so the request the runner takes does not reconcile",
			`{"script": [{"tool": "calc", "args": {"expression": "1"}}]}`, `{"outcome": "step_limit", "effects": 0, "rows": []}`, nil,
			scenario.Boundary{FailClosed: true, ServiceRequests: 1, Complete: false}},
		{"an answer is no action", "a final answer alone scripts nothing",
			`{"script": [{"final": "x"}]}`, "", nil,
			scenario.Boundary{FailClosed: true, Complete: true}},
		{"the final not counted", "the answer row repeats a step number, but requests and rows still pair one to one",
			`{"script": [{"tool": "calc", "args": {"expression": "1"}}, {"final": "x"}]}`, "", []agentloop.Fault{agentloop.FaultFinalNotCounted},
			scenario.Boundary{Actions: 1, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 1, ServiceExpected: 1, Complete: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs, _ := run(t, tt.given, tt.expected, tt.faults...)
			require.NotNil(t, obs.Boundary)
			assert.Equal(t, tt.want, *obs.Boundary, tt.reason)
			p := planRunner(decode(t, tt.given), checktest.Fields(t, tt.expected))
			assert.Equal(t, [2]int{tt.want.Permitted, tt.want.Denied}, [2]int{p.Permitted, p.Denied}, "the plan agrees with the boundary counts")
		})
	}
}

// TestScriptMatchesBoundaryOnTheDesk: on every bundled case, under the
// correct model and every fault, Script counts what Boundary counts, and
// the reference model gives the desk's dimensions.
func TestScriptMatchesBoundaryOnTheDesk(t *testing.T) {
	cases := checktest.Desk(t, deskPath)
	faults := []agentloop.Fault{0}
	for _, f := range agentloop.FaultList {
		faults = append(faults, f.Fault)
	}
	var sum scenario.Boundary
	complete, failClosed := 0, 0
	for _, c := range cases {
		g := decode(t, string(c.Given))
		p := planRunner(g, c.Expected)
		for _, f := range faults {
			obs, e, err := runRunner(t.Context(), g, scenario.Env{Faults: uint64(f), Trace: &scenario.Trace{}})
			require.NoError(t, err)
			require.Nil(t, obs.Boundary, "Run leaves the boundary to Boundary")
			b := runBoundary(p.Script, e)
			assert.Equal(t, [2]int{p.Permitted, p.Denied}, [2]int{b.Permitted, b.Denied}, "%s under fault %d", c.ID, f)
			if f != 0 {
				continue
			}
			sum.Actions += b.Actions
			sum.Denied += b.Denied
			sum.DeniedVisible += b.DeniedVisible
			sum.Permitted += b.Permitted
			sum.Worked += b.Worked
			sum.ServiceRequests += b.ServiceRequests
			sum.ServiceExpected += b.ServiceExpected
			sum.ExtraEffects += b.ExtraEffects
			if b.Complete {
				complete++
			}
			if b.FailClosed {
				failClosed++
			}
		}
	}
	// By hand from the desk's rows: 14 refusal rows; 27 permitted
	// requests, of which 6 fail inside a tool (u-999, 2**1000, 1/0, a
	// 121-character and a 41-node expression, one out of bounds).
	assert.Equal(t, 14, sum.Denied, "denied")
	assert.Equal(t, 14, sum.DeniedVisible, "denials shown")
	assert.Equal(t, 27, sum.Permitted, "permitted")
	assert.Equal(t, 21, sum.Worked, "worked")
	assert.Equal(t, 27, sum.ServiceRequests, "tool runs")
	assert.Equal(t, 27, sum.ServiceExpected, "tool runs expected")
	assert.Equal(t, 0, sum.ExtraEffects, "extra effects")
	assert.Equal(t, len(cases), complete, "complete")
	assert.Equal(t, len(cases), failClosed, "fail closed")
}
