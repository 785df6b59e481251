package agentloopcheck

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/scenario"
)

// TestRun runs small given blocks on the edge cases of the specification
// and checks the values the scenario reports.
func TestRun(t *testing.T) {
	long := strings.Repeat("é", 200)
	tests := []struct {
		name   string
		reason string
		given  string
		want   map[string]string // expected key → JSON value
	}{
		{"empty script", "the mock model has no decision at all: no step, no row",
			`{"script": []}`,
			map[string]string{"outcome": `"script_exhausted"`, "effects": `0`, "steps": `0`, "rows": `[]`, "validatedSeries": `[]`, "errorIncludes": `""`, "answer": `""`}},
		{"zero steps", "the step limit is checked before the script",
			`{"script": [{"final": "hi"}], "maxSteps": 0}`,
			map[string]string{"outcome": `"step_limit"`, "steps": `0`, "rows": `[]`, "answer": `""`}},
		{"a final answer is a step", "the answer row takes step 1 and ends the run",
			`{"script": [{"final": "hi"}, {"tool": "calc", "args": {"expression": "1"}}]}`,
			map[string]string{"outcome": `"answered"`, "steps": `1`, "rows": `[[1, "final", "answer", "hi"]]`, "validatedSeries": `[0]`, "answer": `"hi"`}},
		{"exactly maxSteps requests", "the step limit is checked before the script runs out",
			`{"script": [{"tool": "calc", "args": {"expression": "1"}}], "maxSteps": 1}`,
			map[string]string{"outcome": `"step_limit"`, "steps": `1`, "effects": `1`}},
		{"absent args", "absent arguments are {}, which lacks the argument name",
			`{"script": [{"tool": "calc"}]}`,
			map[string]string{"rows": `[[1, "calc", "blocked", "ValueError: Exact argument names required"]]`, "effects": `0`}},
		{"null args", "null is not an object of argument names",
			`{"script": [{"tool": "lookup_user", "args": null}]}`,
			map[string]string{"rows": `[[1, "lookup_user", "blocked", "ValueError: Exact argument names required"]]`}},
		{"array args", "an array is not an object of argument names",
			`{"script": [{"tool": "calc", "args": ["1+1"]}]}`,
			map[string]string{"errorIncludes": `"ValueError: Exact argument names required"`}},
		{"a tool named final", "a tool request named final is an unknown tool, not an answer",
			`{"script": [{"tool": "final", "args": {"text": "x"}}]}`,
			map[string]string{"rows": `[[1, "final", "blocked", "ValueError: Unknown tool"]]`, "outcome": `"script_exhausted"`}},
		{"names are exact", "Calc is not calc",
			`{"script": [{"tool": "Calc", "args": {"expression": "1"}}]}`,
			map[string]string{"rows": `[[1, "Calc", "blocked", "ValueError: Unknown tool"]]`}},
		{"unknown tool before the grant", "an unknown tool is refused as unknown even when nothing is granted",
			`{"script": [{"tool": "delete_draft", "args": {"text": "x"}}]}`,
			map[string]string{"errorIncludes": `"ValueError: Unknown tool"`}},
		{"grant before names", "an ungranted write is refused for the grant, whatever its arguments",
			`{"script": [{"tool": "save_draft", "args": {"body": 1}}]}`,
			map[string]string{"errorIncludes": `"PermissionError: Write capability not granted"`}},
		{"granted write", "save_draft appends to the draft list and reports its length",
			`{"script": [{"tool": "save_draft", "args": {"text": "a"}}, {"tool": "save_draft", "args": {"text": ""}}], "writeGranted": true}`,
			map[string]string{"drafts": `["a", ""]`, "rows": `[[1, "save_draft", "executed", "{'saved': True, 'drafts': 1}"], [2, "save_draft", "executed", "{'saved': True, 'drafts': 2}"]]`, "executed": `2`}},
		{"200 code points", "the short-string limit counts code points, not bytes",
			fmt.Sprintf(`{"script": [{"tool": "lookup_user", "args": {"user_id": %q}}]}`, long),
			map[string]string{"errorIncludes": `"LookupError: Unknown fictional user"`, "effects": `1`}},
		{"201 code points", "one code point more is not short",
			fmt.Sprintf(`{"script": [{"tool": "lookup_user", "args": {"user_id": %q}}]}`, long+"e"),
			map[string]string{"errorIncludes": `"ValueError: Arguments must be short strings"`, "effects": `0`}},
		{"empty string", "an empty string is short; the lookup then fails inside the tool",
			`{"script": [{"tool": "lookup_user", "args": {"user_id": ""}}]}`,
			map[string]string{"rows": `[[1, "lookup_user", "blocked", "LookupError: Unknown fictional user"]]`, "effects": `1`, "blocked": `1`, "executed": `0`}},
		{"second user", "u-200 is the second fixture",
			`{"script": [{"tool": "lookup_user", "args": {"user_id": "u-200"}}]}`,
			map[string]string{"rows": `[[1, "lookup_user", "executed", "{'name': 'Bao', 'tier': 'silver'}"]]`}},
		{"budget after names", "with no attempt left a malformed request is refused for its names",
			`{"script": [{"tool": "calc", "args": {"expression": 1}}, {"tool": "calc", "args": {"expression": "1"}}], "maxCalls": 0}`,
			map[string]string{"rows": `[[1, "calc", "blocked", "ValueError: Arguments must be short strings"], [2, "calc", "blocked", "PermissionError: Tool-call budget exhausted"]]`, "blockedSeries": `[1, 2]`}},
		{"python numbers", "ints stay ints, / is true division, small floats print in exponent form",
			`{"script": [{"tool": "calc", "args": {"expression": " 2*(3+4)"}}, {"tool": "calc", "args": {"expression": "1/3"}}, {"tool": "calc", "args": {"expression": "-0.0001/10"}}], "maxSteps": 3}`,
			map[string]string{"rows": `[[1, "calc", "executed", "{'result': 14}"], [2, "calc", "executed", "{'result': 0.3333333333333333}"], [3, "calc", "executed", "{'result': -1e-05}"]]`, "outcome": `"step_limit"`}},
		{"evaluation order", "1/0 is reached before the out-of-bounds literal",
			`{"script": [{"tool": "calc", "args": {"expression": "1/0+1000000000001"}}, {"tool": "calc", "args": {"expression": "1000000000001+1/0"}}]}`,
			map[string]string{"rows": `[[1, "calc", "blocked", "ZeroDivisionError: division by zero"], [2, "calc", "blocked", "ValueError: Only finite arithmetic with + - * / is supported"]]`}},
		{"errorIncludes is the last blocked row", "a later executed row does not clear it",
			`{"script": [{"tool": "shell"}, {"tool": "calc", "args": {"expression": "1"}}]}`,
			map[string]string{"errorIncludes": `"ValueError: Unknown tool"`, "executed": `1`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs, _ := run(t, tt.given, "")
			for key, want := range tt.want {
				assert.Equal(t, norm(t, want), obs.Values[key], "%s: %s", key, tt.reason)
			}
		})
	}
}

// TestObservesEveryKey: a run reports a value for every expected key and
// nothing else.
func TestObservesEveryKey(t *testing.T) {
	obs, _ := run(t, `{"script": [{"final": "x"}]}`, "")
	keys := make([]string, 0, len(obs.Values))
	for k := range obs.Values {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, Runner.Expected.Keys(), keys)
}

// TestRunRefusesUncheckedInput: Run reports a given block the schema would
// have refused as an error, never as an observation.
func TestRunRefusesUncheckedInput(t *testing.T) {
	tests := []struct{ name, given, reason string }{
		{"not JSON", `{`, "a broken block cannot be run"},
		{"both tool and final", `{"script": [{"tool": "calc", "final": "x"}]}`, "an entry is a request or an answer"},
		{"neither", `{"script": [{}]}`, "an entry must say what it is"},
		{"args on an answer", `{"script": [{"final": "x", "args": {}}]}`, "a final answer has no arguments"},
		{"null args on an answer", `{"script": [{"final": "x", "args": null}]}`, "not even null ones"},
		{"unknown key", `{"script": [], "budget": 3}`, "the scenario reads no other key"},
		{"not a whole number", `{"script": [], "maxSteps": 1.5}`, "limits are whole numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Runner.Compile([]byte(tt.given), nil).Run(context.Background(), scenario.Env{Trace: &scenario.Trace{}})
			assert.Error(t, err, tt.reason)
		})
	}
}

// TestRunHonoursCancellation: a cancelled context stops a case before it
// runs.
func TestRunHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Runner.Compile([]byte(`{"script": []}`), nil).Run(ctx, scenario.Env{Trace: &scenario.Trace{}})
	assert.ErrorIs(t, err, context.Canceled)
}

// TestFaultsReachTheModel: the fault bits of Env.Faults switch the model's
// faults on, one by one.
func TestFaultsReachTheModel(t *testing.T) {
	tests := []struct {
		fault  agentloop.Fault
		given  string
		key    string
		want   string
		reason string
	}{
		{agentloop.FaultCalcIntDivision, `{"script": [{"tool": "calc", "args": {"expression": "100/2"}}]}`, "rows",
			`[[1, "calc", "executed", "{'result': 50}"]]`, "exact int/int division yields an int"},
		{agentloop.FaultWriteGrantedByDefault, `{"script": [{"tool": "save_draft", "args": {"text": "t"}}]}`, "drafts",
			`["t"]`, "save_draft runs without the grant"},
		{agentloop.FaultFinalNotCounted, `{"script": [{"final": "x"}]}`, "steps",
			`0`, "the final answer does not advance the step counter"},
		{agentloop.FaultStepLimitOffByOne, `{"script": [{"final": "x"}], "maxSteps": 0}`, "outcome",
			`"answered"`, "one decision more than maxSteps"},
	}
	for _, tt := range tests {
		t.Run(faultName(tt.fault), func(t *testing.T) {
			obs, _ := run(t, tt.given, "", tt.fault)
			assert.Equal(t, norm(t, tt.want), obs.Values[tt.key], tt.reason)
			correct, _ := run(t, tt.given, "")
			assert.NotEqual(t, obs.Values[tt.key], correct.Values[tt.key], "the correct model differs: %s", tt.reason)
		})
	}
}

func faultName(f agentloop.Fault) string {
	for _, x := range agentloop.FaultList {
		if x.Fault == f {
			return x.Name
		}
	}
	return fmt.Sprint(uint64(f))
}

// TestFamily: the family names the host, and its faults are the model's,
// each with its bit as ID.
func TestFamily(t *testing.T) {
	assert.Equal(t, "runner", Family.Host.Name)
	assert.Equal(t, "host/agentloop", Family.Host.Model)
	require.Len(t, Family.Faults, len(agentloop.FaultList))
	for i, f := range agentloop.FaultList {
		assert.Equal(t, scenario.Fault{Name: f.Name, Bug: f.Bug, Hint: f.Hint, ID: uint64(f.Fault), Scenarios: []string{"runner"}}, Family.Faults[i])
	}
	_, err := scenario.NewRegistry(Family)
	require.NoError(t, err, "the family fits the registry on its own")
}

// TestNarration: explain shows each step as the published table's row and
// says why each block happened and why the run stopped.
func TestNarration(t *testing.T) {
	tests := []struct {
		name  string
		given string
		want  []string // in order, each in its own event
	}{
		{"refusals", `{"script": [
			{"tool": "save_draft", "args": {"text": "x"}},
			{"tool": "shell", "args": {"command": "ls"}},
			{"tool": "lookup_user", "args": {"name": "Linh"}},
			{"tool": "calc", "args": {"expression": 7}},
			{"final": "done"}]}`, []string{
			"runner: maxSteps 6, maxCalls 3, save_draft not granted; script of 5 entries (4 tool requests, 1 final answer)",
			"save_draft | blocked | PermissionError: Write capability not granted",
			"why: not granted: save_draft needs writeGranted; nothing ran, no attempt spent — args {\"text\":\"x\"}",
			"shell | blocked | ValueError: Unknown tool",
			"why: unknown tool",
			"lookup_user | blocked | ValueError: Exact argument names required",
			"why: argument names {name} ≠ {user_id}",
			"calc | blocked | ValueError: Arguments must be short strings",
			"why: short strings: expression is a number, not a string",
			"final | answer | done",
			"stop: answered",
			"final state: outcome answered, effects 0, blocked 4, executed 0, steps 5",
			"boundary, scripted from the given block (no rows expected): 0 permitted (0 worked), 4 denied (4 shown in their row)",
		}},
		{"budget and limit", `{"script": [
			{"tool": "calc", "args": {"expression": "1/0"}},
			{"tool": "calc", "args": {"expression": "1+1"}},
			{"tool": "lookup_user", "args": {"user_id": "u-100"}},
			{"final": "never"}], "maxSteps": 2, "maxCalls": 1}`, []string{
			"calc | blocked | ZeroDivisionError: division by zero",
			"checks passed: calc failed inside the tool, attempt 1 of 1 counted (1 / 0) — args {\"expression\":\"1/0\"}",
			"calc | blocked | PermissionError: Tool-call budget exhausted",
			"why: budget exhausted: 1 of 1 attempts used; nothing ran, no attempt spent",
			"stop: limit reached: step limit 2 reached; 2 script entries never reached (lookup_user, final answer)",
		}},
		{"script exhausted", `{"script": [{"tool": "calc", "args": {"expression": "6*7"}}]}`, []string{
			"calc | executed | {'result': 42}",
			"checks passed: calc ran, attempt 1 of 3 counted — args {\"expression\":\"6*7\"}",
			"stop: script exhausted",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, events := run(t, tt.given, "")
			at := 0
			for _, w := range tt.want {
				for at < len(events) && !strings.Contains(events[at].Text, w) {
					at++
				}
				if !assert.Less(t, at, len(events), "an event says %q, after the previous one", w) {
					return
				}
				at++
			}
		})
	}
}

// TestNarrationNumbersSteps: row events belong to their step, the rest to
// none.
func TestNarrationNumbersSteps(t *testing.T) {
	_, events := run(t, `{"script": [{"tool": "calc", "args": {"expression": "1"}}, {"final": "x"}]}`, "")
	var rows []int
	for _, e := range events {
		if e.Kind == "row" {
			rows = append(rows, e.Seq)
		}
		if e.Kind == "stop" || e.Kind == "state" || e.Kind == "boundary" {
			assert.Zero(t, e.Seq, "%s belongs to no step", e.Kind)
		}
	}
	assert.Equal(t, []int{1, 2}, rows)
}

// TestNarrationSaysWhenARefusalSpends: under the fault that spends the
// budget on refusals, the narration says the attempts rose.
func TestNarrationSaysWhenARefusalSpends(t *testing.T) {
	_, events := run(t, `{"script": [{"tool": "shell"}]}`, "", agentloop.FaultBudgetCountsBlocked)
	found := false
	for _, e := range events {
		found = found || strings.Contains(e.Text, "yet the attempts rose to 1 of 3")
	}
	assert.True(t, found, "the narration does not claim no attempt was spent")
}

// TestShowArgs: long arguments are cut in the narration, on a code point.
func TestShowArgs(t *testing.T) {
	tests := []struct{ raw, want, reason string }{
		{`{ "a" : 1 }`, `{"a":1}`, "compacted"},
		{``, `(no args)`, "absent"},
		{`"` + strings.Repeat("é", 100) + `"`, `"` + strings.Repeat("é", 79) + `… (102 characters)`, "cut after 80 code points"},
	}
	for _, tt := range tests {
		var raw []byte
		if tt.raw != "" {
			raw = []byte(tt.raw)
		}
		assert.Equal(t, tt.want, showArgs(raw), tt.reason)
	}
}

// TestSuggest proposes the keys a case is worth asserting.
func TestSuggest(t *testing.T) {
	base := []string{"outcome", "effects", "blocked", "executed", "steps", "rows", "validatedSeries", "blockedSeries"}
	tests := []struct {
		name, given string
		want        []string
		reason      string
	}{
		{"plain", `{"script": [{"tool": "calc", "args": {"expression": "1"}}]}`, base, "the counts, rows and series always"},
		{"drafts", `{"script": [{"tool": "save_draft", "args": {"text": "x"}}]}`, append(append([]string{}, base...), "drafts", "errorIncludes"), "drafts when save_draft is asked for; errorIncludes when a row is blocked"},
		{"answer", `{"script": [{"final": "x"}]}`, append(append([]string{}, base...), "answer"), "the answer when the script has one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs, _ := run(t, tt.given, "")
			got := Runner.Compile([]byte(tt.given), nil).Suggest(obs.Values)
			assert.Equal(t, tt.want, got, tt.reason)
			for _, k := range got {
				_, ok := Runner.Expected.Comparer(k)
				assert.True(t, ok, "%s is declared", k)
			}
		})
	}
}

// TestTemplate: the template uses every given key, runs, and scripts both
// a permitted and a denied request.
func TestTemplate(t *testing.T) {
	g, err := readGiven([]byte(Runner.Template))
	require.NoError(t, err)
	assert.NotNil(t, g.MaxSteps)
	assert.NotNil(t, g.MaxCalls)
	assert.Contains(t, Runner.Template, `"writeGranted"`)
	obs, _ := run(t, Runner.Template, "")
	require.NotNil(t, obs.Boundary)
	assert.Positive(t, obs.Boundary.Permitted, "an allowed control")
	assert.Positive(t, obs.Boundary.Denied, "a denied control")
	assert.Empty(t, lintRunner(g, nil), "the template draws no lint")
}
