package agentloop

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/calc"
	"github.com/deskcheck/deskcheck/internal/fault"
)

// req is a tool request; args is raw JSON, "" for absent arguments.
func req(tool, args string) Entry {
	if args == "" {
		return ToolRequest(tool, nil)
	}
	return ToolRequest(tool, json.RawMessage(args))
}

func calcReq(expr string) Entry {
	b, _ := json.Marshal(map[string]string{"expression": expr})
	return ToolRequest("calc", b)
}

func final(text string) Entry { return FinalAnswer(text) }

func row(step int, tool, result, obs string) Row { return Row{step, tool, result, obs} }

const (
	obsUnknown  = "ValueError: Unknown tool"
	obsGrant    = "PermissionError: Write capability not granted"
	obsNames    = "ValueError: Exact argument names required"
	obsShort    = "ValueError: Arguments must be short strings"
	obsBudget   = "PermissionError: Tool-call budget exhausted"
	obsArith    = "ValueError: Only finite arithmetic with + - * / is supported"
	obsZero     = "ZeroDivisionError: division by zero"
	obsNoUser   = "LookupError: Unknown fictional user"
	obsTooLong  = "ValueError: Expression too long"
	obsComplex  = "ValueError: Expression too complex"
	obsLinh     = "{'name': 'Linh', 'tier': 'gold'}"
	obsResult2  = "{'result': 2}"
	obsSaved1   = "{'saved': True, 'drafts': 1}"
	answerSeedN = "The fictional user is Linh; the arithmetic result is 50."
	answerSeedP = "Blocked calls did not execute. No write or shell capability was granted."
)

// The four published traces (§3.7), with default settings.

func seedNormal() []Entry {
	return []Entry{
		req("lookup_user", `{"user_id": "u-100"}`),
		calcReq("100/2"),
		final(answerSeedN),
	}
}

func seedPermissions() []Entry {
	return []Entry{
		req("save_draft", `{"text": "Fictional draft: thank Linh for the visit."}`),
		req("shell", `{"command": "ls"}`),
		req("lookup_user", `{"name": "Linh"}`),
		final(answerSeedP),
	}
}

func seedBudget() []Entry {
	return append(repeat(calcReq("1+1"), 7), final("This answer is never reached."))
}

func seedInvalid() []Entry {
	return []Entry{
		calcReq("2**1000"),
		calcReq("1/0"),
		calcReq("(1+2)*7"),
		final("Only the bounded expression completed."),
	}
}

func repeat(e Entry, n int) []Entry {
	out := make([]Entry, n)
	for i := range out {
		out[i] = e
	}
	return out
}

func TestPublishedTraces(t *testing.T) {
	tests := []struct {
		name   string
		script []Entry
		want   Result
	}{
		{"normal", seedNormal(), Result{
			Outcome: Answered, Effects: 2, Blocked: 0, Executed: 2, Steps: 3,
			Rows: []Row{
				row(1, "lookup_user", ResultExecuted, obsLinh),
				row(2, "calc", ResultExecuted, "{'result': 50.0}"),
				row(3, "final", ResultAnswer, answerSeedN),
			},
			ValidatedSeries: []int{1, 2, 2}, BlockedSeries: []int{0, 0, 0},
			Drafts: []string{}, LastBlocked: "", Answer: answerSeedN,
		}},
		{"permissions", seedPermissions(), Result{
			Outcome: Answered, Effects: 0, Blocked: 3, Executed: 0, Steps: 4,
			Rows: []Row{
				row(1, "save_draft", ResultBlocked, obsGrant),
				row(2, "shell", ResultBlocked, obsUnknown),
				row(3, "lookup_user", ResultBlocked, obsNames),
				row(4, "final", ResultAnswer, answerSeedP),
			},
			ValidatedSeries: []int{0, 0, 0, 0}, BlockedSeries: []int{1, 2, 3, 3},
			Drafts: []string{}, LastBlocked: obsNames, Answer: answerSeedP,
		}},
		{"budget", seedBudget(), Result{
			Outcome: StepLimit, Effects: 3, Blocked: 3, Executed: 3, Steps: 6,
			Rows: []Row{
				row(1, "calc", ResultExecuted, obsResult2),
				row(2, "calc", ResultExecuted, obsResult2),
				row(3, "calc", ResultExecuted, obsResult2),
				row(4, "calc", ResultBlocked, obsBudget),
				row(5, "calc", ResultBlocked, obsBudget),
				row(6, "calc", ResultBlocked, obsBudget),
			},
			ValidatedSeries: []int{1, 2, 3, 3, 3, 3}, BlockedSeries: []int{0, 0, 0, 1, 2, 3},
			Drafts: []string{}, LastBlocked: obsBudget, Answer: "",
		}},
		{"invalid", seedInvalid(), Result{
			Outcome: Answered, Effects: 3, Blocked: 2, Executed: 1, Steps: 4,
			Rows: []Row{
				row(1, "calc", ResultBlocked, obsArith),
				row(2, "calc", ResultBlocked, obsZero),
				row(3, "calc", ResultExecuted, "{'result': 21}"),
				row(4, "final", ResultAnswer, "Only the bounded expression completed."),
			},
			ValidatedSeries: []int{1, 2, 3, 3}, BlockedSeries: []int{1, 2, 2, 2},
			Drafts: []string{}, LastBlocked: obsZero, Answer: "Only the bounded expression completed.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Run(NewConfig(tt.script))
			assert.Equal(t, tt.want.Outcome, got.Outcome)
			assert.Equal(t, tt.want.Effects, got.Effects)
			assert.Equal(t, tt.want.Blocked, got.Blocked)
			assert.Equal(t, tt.want.Executed, got.Executed)
			assert.Equal(t, tt.want.Steps, got.Steps)
			assert.Equal(t, tt.want.Rows, got.Rows)
			assert.Equal(t, tt.want.ValidatedSeries, got.ValidatedSeries)
			assert.Equal(t, tt.want.BlockedSeries, got.BlockedSeries)
			assert.Equal(t, tt.want.Drafts, got.Drafts)
			assert.Equal(t, tt.want.LastBlocked, got.LastBlocked)
			assert.Equal(t, tt.want.Answer, got.Answer)
		})
	}
}

// observations returns the observation column of the rows.
func observations(res Result) []string {
	out := make([]string, len(res.Rows))
	for i, r := range res.Rows {
		out[i] = r.Observation
	}
	return out
}

func TestChecks(t *testing.T) {
	long := strings.Repeat("a", MaxArgChars)
	tests := []struct {
		name     string
		script   []Entry
		write    bool
		maxCalls int
		want     []string
		refusals []Refusal
	}{
		// Check 1: known tool.
		{"unknown tool", []Entry{req("shell", `{"command": "ls"}`)}, false, 3, []string{obsUnknown}, []Refusal{RefusedUnknownTool}},
		{"calc passes every check", []Entry{calcReq("1")}, false, 3, []string{"{'result': 1}"}, []Refusal{NotRefused}},
		{"Calc is unknown", []Entry{req("Calc", `{"expression": "1"}`)}, false, 3, []string{obsUnknown}, []Refusal{RefusedUnknownTool}},
		{"a tool request named final is unknown", []Entry{req("final", `{"text": "x"}`)}, false, 3, []string{obsUnknown}, []Refusal{RefusedUnknownTool}},
		// Check 2: write grant.
		{"save_draft not granted", []Entry{req("save_draft", `{"text": "x"}`)}, false, 3, []string{obsGrant}, []Refusal{RefusedNotGranted}},
		{"save_draft granted", []Entry{req("save_draft", `{"text": "x"}`)}, true, 3, []string{obsSaved1}, []Refusal{NotRefused}},
		// Check 3: exact argument names.
		{"wrong argument name", []Entry{req("lookup_user", `{"name": "Linh"}`)}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"extra argument", []Entry{req("calc", `{"expression": "1+1", "precision": "2"}`)}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"absent arguments", []Entry{req("calc", "")}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"empty object", []Entry{req("calc", `{}`)}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"null arguments", []Entry{req("calc", `null`)}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"array arguments", []Entry{req("calc", `["1+1"]`)}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"string arguments", []Entry{req("calc", `"1+1"`)}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"duplicate key is one name", []Entry{req("calc", `{"expression": "1", "expression": "2+2"}`)}, false, 3, []string{"{'result': 4}"}, []Refusal{NotRefused}},
		// Check 4: short strings.
		{"number value", []Entry{req("calc", `{"expression": 42}`)}, false, 3, []string{obsShort}, []Refusal{RefusedShortStrings}},
		{"null value", []Entry{req("lookup_user", `{"user_id": null}`)}, false, 3, []string{obsShort}, []Refusal{RefusedShortStrings}},
		{"object value", []Entry{req("save_draft", `{"text": {"a": "b"}}`)}, true, 3, []string{obsShort}, []Refusal{RefusedShortStrings}},
		{"200 characters pass", []Entry{req("lookup_user", `{"user_id": "`+long+`"}`)}, false, 3, []string{obsNoUser}, []Refusal{NotRefused}},
		{"201 characters are refused", []Entry{req("lookup_user", `{"user_id": "`+long+`a"}`)}, false, 3, []string{obsShort}, []Refusal{RefusedShortStrings}},
		{"200 two-byte characters pass", []Entry{req("lookup_user", `{"user_id": "`+strings.Repeat("é", 200)+`"}`)}, false, 3, []string{obsNoUser}, []Refusal{NotRefused}},
		{"escapes count as one character", []Entry{req("lookup_user", `{"user_id": "`+strings.Repeat(`\u00e9`, 200)+`"}`)}, false, 3, []string{obsNoUser}, []Refusal{NotRefused}},
		{"empty string passes", []Entry{calcReq("")}, false, 3, []string{obsArith}, []Refusal{NotRefused}},
		// Check 5: budget.
		{"budget of zero", []Entry{calcReq("1+1")}, false, 0, []string{obsBudget}, []Refusal{RefusedBudget}},
		{"budget of one", []Entry{calcReq("1+1"), calcReq("1+1")}, false, 1, []string{obsResult2, obsBudget}, []Refusal{NotRefused, RefusedBudget}},
		// Order.
		{"unknown before budget and arguments", []Entry{req("shell", `[]`)}, false, 0, []string{obsUnknown}, []Refusal{RefusedUnknownTool}},
		{"grant before arguments and budget", []Entry{req("save_draft", `{"x": 1}`)}, false, 0, []string{obsGrant}, []Refusal{RefusedNotGranted}},
		{"names before strings", []Entry{req("calc", `{"expression": 42, "extra": "x"}`)}, false, 3, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"names before budget", []Entry{req("calc", `{"expr": "1+1"}`)}, false, 0, []string{obsNames}, []Refusal{RefusedArgumentNames}},
		{"strings before budget", []Entry{req("calc", `{"expression": 42}`)}, false, 0, []string{obsShort}, []Refusal{RefusedShortStrings}},
		{"over-long string before budget", []Entry{req("lookup_user", `{"user_id": "`+long+`a"}`)}, false, 0, []string{obsShort}, []Refusal{RefusedShortStrings}},
		{"budget after a validated failure", []Entry{calcReq("1/0"), calcReq("1+1")}, false, 1, []string{obsZero, obsBudget}, []Refusal{NotRefused, RefusedBudget}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := NewConfig(tt.script)
			cfg.WriteGranted = tt.write
			cfg.MaxCalls = tt.maxCalls
			res := Run(cfg)
			assert.Equal(t, tt.want, observations(res))
			require.Len(t, res.Requests, len(tt.refusals))
			for i, q := range res.Requests {
				assert.Equal(t, tt.refusals[i], q.Refusal, "request %d", i)
				assert.Equal(t, q.Refusal != NotRefused, q.Refused())
				assert.Equal(t, q.Refusal == NotRefused, q.Ran)
				if q.Refused() {
					assert.Equal(t, q.Refusal.Text(), q.Observation)
				}
			}
			assert.Equal(t, ScriptExhausted, res.Outcome)
		})
	}
}

func TestTools(t *testing.T) {
	tests := []struct {
		name   string
		script []Entry
		drafts []string
		want   []string
	}{
		{"lookup u-100", []Entry{req("lookup_user", `{"user_id": "u-100"}`)}, []string{}, []string{obsLinh}},
		{"lookup u-200", []Entry{req("lookup_user", `{"user_id": "u-200"}`)}, []string{}, []string{"{'name': 'Bao', 'tier': 'silver'}"}},
		{"lookup is case-sensitive", []Entry{req("lookup_user", `{"user_id": "U-100"}`)}, []string{}, []string{obsNoUser}},
		{"lookup compares bytes", []Entry{req("lookup_user", `{"user_id": " u-100"}`)}, []string{}, []string{obsNoUser}},
		{"two drafts", []Entry{req("save_draft", `{"text": "a"}`), req("save_draft", `{"text": ""}`)}, []string{"a", ""}, []string{obsSaved1, "{'saved': True, 'drafts': 2}"}},
		{"calc float", []Entry{calcReq("1/100000")}, []string{}, []string{"{'result': 1e-05}"}},
		{"calc negative zero", []Entry{calcReq("0/-5")}, []string{}, []string{"{'result': -0.0}"}},
		{"calc too long", []Entry{calcReq("1+1" + strings.Repeat(" ", 118))}, []string{}, []string{obsTooLong}},
		{"calc too complex", []Entry{calcReq(strings.TrimSuffix(strings.Repeat("1+", 21), "+"))}, []string{}, []string{obsComplex}},
		{"calc out of bounds", []Entry{calcReq("1000000*1000000+1")}, []string{}, []string{obsArith}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := NewConfig(tt.script)
			cfg.WriteGranted = true
			res := Run(cfg)
			assert.Equal(t, tt.want, observations(res))
			assert.Equal(t, tt.drafts, res.Drafts)
			assert.Equal(t, len(tt.script), res.Effects, "every validated attempt counts, failures included")
			assert.Equal(t, len(tt.script), res.ServiceCalls)
		})
	}
}

func TestLoop(t *testing.T) {
	tests := []struct {
		name     string
		script   []Entry
		maxSteps int
		outcome  Outcome
		steps    int
		answer   string
	}{
		{"empty script", nil, 6, ScriptExhausted, 0, ""},
		{"zero steps", []Entry{final("x")}, 0, StepLimit, 0, ""},
		{"final answer only", []Entry{final("x")}, 6, Answered, 1, "x"},
		{"script of exactly maxSteps requests ends at the step limit", repeat(calcReq("1"), 6), 6, StepLimit, 6, ""},
		{"script shorter than maxSteps is exhausted", repeat(calcReq("1"), 5), 6, ScriptExhausted, 5, ""},
		{"the final answer counts against maxSteps", []Entry{calcReq("1"), final("x")}, 1, StepLimit, 1, ""},
		{"final answer at the last step", []Entry{calcReq("1"), final("x")}, 2, Answered, 2, "x"},
		{"entries after the final answer are not taken", []Entry{final("x"), calcReq("1")}, 6, Answered, 1, "x"},
		{"empty final answer", []Entry{final("")}, 6, Answered, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := NewConfig(tt.script)
			cfg.MaxSteps = tt.maxSteps
			res := Run(cfg)
			assert.Equal(t, tt.outcome, res.Outcome)
			assert.Equal(t, tt.steps, res.Steps)
			assert.Len(t, res.Rows, tt.steps)
			assert.Len(t, res.ValidatedSeries, tt.steps)
			assert.Len(t, res.BlockedSeries, tt.steps)
			assert.Equal(t, tt.answer, res.Answer)
			for i, r := range res.Rows {
				assert.Equal(t, i+1, r.Step)
			}
		})
	}
}

func TestRequestRecords(t *testing.T) {
	tests := []struct {
		name     string
		script   []Entry
		write    bool
		faults   Faults
		want     []Request
		services int
		effects  int
	}{
		{"permissions", seedPermissions(), false, Faults{}, []Request{
			{Index: 0, Entry: 0, Step: 1, Tool: "save_draft", Refusal: RefusedNotGranted, Observation: obsGrant},
			{Index: 1, Entry: 1, Step: 2, Tool: "shell", Refusal: RefusedUnknownTool, Observation: obsUnknown},
			{Index: 2, Entry: 2, Step: 3, Tool: "lookup_user", Refusal: RefusedArgumentNames, Observation: obsNames},
		}, 0, 0},
		{"invalid", seedInvalid(), false, Faults{}, []Request{
			{Index: 0, Entry: 0, Step: 1, Tool: "calc", Ran: true, Failed: true, Observation: obsArith, CalcError: calc.Unsupported},
			{Index: 1, Entry: 1, Step: 2, Tool: "calc", Ran: true, Failed: true, Observation: obsZero, CalcError: calc.DivisionByZero},
			{Index: 2, Entry: 2, Step: 3, Tool: "calc", Ran: true, Observation: "{'result': 21}"},
		}, 3, 3},
		{"a final answer alone has no requests", []Entry{final("x")}, true, Faults{}, []Request{}, 0, 0},
		{"final answers are not requests", []Entry{calcReq("1"), req("save_draft", `{"text": "t"}`), calcReq("1")}, true, Faults{}, []Request{
			{Index: 0, Entry: 0, Step: 1, Tool: "calc", Ran: true, Observation: "{'result': 1}"},
			{Index: 1, Entry: 1, Step: 2, Tool: "save_draft", Ran: true, Effect: true, Observation: obsSaved1},
			{Index: 2, Entry: 2, Step: 3, Tool: "calc", Ran: true, Observation: "{'result': 1}"},
		}, 3, 3},
		{"service calls differ from effects when failures are not counted", seedInvalid(), false, Faults{}.With(FaultBudgetSkipsFailures), []Request{
			{Index: 0, Entry: 0, Step: 1, Tool: "calc", Ran: true, Failed: true, Observation: obsArith, CalcError: calc.Unsupported},
			{Index: 1, Entry: 1, Step: 2, Tool: "calc", Ran: true, Failed: true, Observation: obsZero, CalcError: calc.DivisionByZero},
			{Index: 2, Entry: 2, Step: 3, Tool: "calc", Ran: true, Observation: "{'result': 21}"},
		}, 3, 1},
		{"budget refusal", seedBudget(), false, Faults{}, []Request{
			{Index: 0, Entry: 0, Step: 1, Tool: "calc", Ran: true, Observation: obsResult2},
			{Index: 1, Entry: 1, Step: 2, Tool: "calc", Ran: true, Observation: obsResult2},
			{Index: 2, Entry: 2, Step: 3, Tool: "calc", Ran: true, Observation: obsResult2},
			{Index: 3, Entry: 3, Step: 4, Tool: "calc", Refusal: RefusedBudget, Observation: obsBudget},
			{Index: 4, Entry: 4, Step: 5, Tool: "calc", Refusal: RefusedBudget, Observation: obsBudget},
			{Index: 5, Entry: 5, Step: 6, Tool: "calc", Refusal: RefusedBudget, Observation: obsBudget},
		}, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := NewConfig(tt.script)
			cfg.WriteGranted = tt.write
			cfg.Faults = tt.faults
			res := Run(cfg)
			assert.Equal(t, tt.want, res.Requests)
			assert.Equal(t, tt.services, res.ServiceCalls)
			assert.Equal(t, tt.effects, res.Effects)
		})
	}
}

func TestEvents(t *testing.T) {
	tests := []struct {
		name   string
		script []Entry
		cfg    func(*Config)
		want   []string // substrings, each in its own event, in order
	}{
		{"permissions", seedPermissions(), nil, []string{
			"step 1, refused: not granted: save_draft needs writeGranted",
			`step 2, refused: unknown tool: "shell"`,
			"step 3, refused: argument names {name} ≠ {user_id}",
			"step 4, answer: final answer",
			"step 4, stop: answered",
		}},
		{"budget", seedBudget(), nil, []string{
			"step 1, executed: calc ran, attempt 1 of 3 counted: {'result': 2}",
			"step 2, executed",
			"step 3, executed",
			"step 4, refused: budget exhausted: 3 of 3 attempts used",
			"step 5, refused: budget exhausted",
			"step 6, refused: budget exhausted",
			"step 6, stop: step limit 6 reached",
		}},
		{"invalid", seedInvalid(), nil, []string{
			"step 1, failed: calc failed inside the tool, attempt 1 of 3 counted: " + obsArith,
			"step 2, failed: calc failed inside the tool, attempt 2 of 3 counted: " + obsZero,
			"step 3, executed",
			"step 4, answer",
			"step 4, stop: answered",
		}},
		{"short strings and exhausted script", []Entry{req("calc", `{"expression": 42}`), req("calc", "")}, nil, []string{
			"step 1, refused: short strings: expression is a number, not a string",
			"step 2, refused: argument names {} ≠ {expression}",
			"step 2, stop: script exhausted",
		}},
		{"non-object arguments", []Entry{req("calc", `[1]`)}, nil, []string{
			"step 1, refused: argument names: the arguments are an array, not an object with {expression}",
			"step 1, stop: script exhausted",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := NewConfig(tt.script)
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			res := Run(cfg)
			require.Len(t, res.Events, len(tt.want))
			for i, e := range res.Events {
				assert.Contains(t, e.String(), tt.want[i])
			}
		})
	}
}

// fingerprint is everything observable about a run, as one string.
func fingerprint(res Result) string {
	return fmt.Sprintf("%s effects=%d blocked=%d executed=%d steps=%d rows=%v validated=%v blocked=%v drafts=%q answer=%q",
		res.Outcome, res.Effects, res.Blocked, res.Executed, res.Steps, res.Rows, res.ValidatedSeries, res.BlockedSeries, res.Drafts, res.Answer)
}

func TestFaultsAreLive(t *testing.T) {
	tests := []struct {
		fault    Fault
		script   []Entry
		maxCalls int
		// want is a row, series or count that only the faulty runner
		// shows.
		want func(t *testing.T, res Result)
	}{
		{FaultBudgetSkipsFailures, seedInvalid(), 3, func(t *testing.T, res Result) {
			assert.Equal(t, []int{0, 0, 1, 1}, res.ValidatedSeries)
		}},
		{FaultBudgetCountsBlocked, seedPermissions(), 3, func(t *testing.T, res Result) {
			assert.Equal(t, []int{1, 2, 3, 3}, res.ValidatedSeries)
		}},
		{FaultBudgetOffByOne, seedBudget(), 3, func(t *testing.T, res Result) {
			assert.Equal(t, row(4, "calc", ResultExecuted, obsResult2), res.Rows[3])
		}},
		{FaultBudgetCheckedFirst, []Entry{req("calc", `{"expr": "1+1"}`)}, 0, func(t *testing.T, res Result) {
			assert.Equal(t, []string{obsBudget}, observations(res))
		}},
		{FaultWriteGrantedByDefault, seedPermissions(), 3, func(t *testing.T, res Result) {
			assert.Equal(t, row(1, "save_draft", ResultExecuted, obsSaved1), res.Rows[0])
			assert.Equal(t, []string{"Fictional draft: thank Linh for the visit."}, res.Drafts)
		}},
		{FaultArgsSubset, []Entry{req("calc", `{"expression": "1+1", "precision": "2"}`)}, 3, func(t *testing.T, res Result) {
			assert.Equal(t, []string{obsResult2}, observations(res))
		}},
		{FaultStringLengthUnchecked, []Entry{req("lookup_user", `{"user_id": "`+strings.Repeat("0", 201)+`"}`)}, 3, func(t *testing.T, res Result) {
			assert.Equal(t, []string{obsNoUser}, observations(res))
		}},
		{FaultCalcAllowsPow, []Entry{calcReq("2**10")}, 3, func(t *testing.T, res Result) {
			assert.Equal(t, []string{"{'result': 1024}"}, observations(res))
		}},
		{FaultCalcIntDivision, []Entry{calcReq("100/2")}, 3, func(t *testing.T, res Result) {
			assert.Equal(t, []string{"{'result': 50}"}, observations(res))
		}},
		{FaultCalcUnbounded, []Entry{calcReq("1000000*1000000+1")}, 3, func(t *testing.T, res Result) {
			assert.Equal(t, []string{"{'result': 1000000000001}"}, observations(res))
		}},
		{FaultCalcNodeLimitUnchecked, []Entry{calcReq(strings.TrimSuffix(strings.Repeat("1+", 21), "+"))}, 3, func(t *testing.T, res Result) {
			assert.Equal(t, []string{"{'result': 21}"}, observations(res))
		}},
		{FaultStepLimitOffByOne, seedBudget(), 3, func(t *testing.T, res Result) {
			assert.Equal(t, 7, res.Steps)
			assert.Len(t, res.Rows, 7)
		}},
		{FaultFinalNotCounted, seedNormal(), 3, func(t *testing.T, res Result) {
			assert.Equal(t, 2, res.Steps)
			assert.Equal(t, row(2, "final", ResultAnswer, answerSeedN), res.Rows[2])
		}},
		{FaultDenyAll, seedNormal(), 3, func(t *testing.T, res Result) {
			assert.Equal(t, 0, res.Effects)
			assert.Equal(t, []string{"PermissionError: Write capability not granted", "PermissionError: Write capability not granted"}, observations(res)[:2])
		}},
	}
	require.Len(t, tests, len(FaultList), "one row per fault")
	for _, tt := range tests {
		info, ok := fault.Find(FaultList, tt.fault)
		require.True(t, ok, "fault %d is in FaultList", tt.fault)
		t.Run(info.Name, func(t *testing.T) {
			cfg := NewConfig(tt.script)
			cfg.MaxCalls = tt.maxCalls
			correct := Run(cfg)
			cfg.Faults = Faults{}.With(tt.fault)
			faulty := Run(cfg)
			assert.NotEqual(t, fingerprint(correct), fingerprint(faulty))
			tt.want(t, faulty)
		})
	}
}

func TestFaultList(t *testing.T) {
	names := []string{
		"budget-skips-failures", "budget-counts-blocked", "budget-off-by-one", "budget-checked-first",
		"write-granted-by-default", "args-subset", "string-length-unchecked", "calc-allows-pow",
		"calc-int-division", "calc-unbounded", "calc-node-limit-unchecked", "step-limit-off-by-one",
		"final-not-counted", "deny-all",
	}
	require.NoError(t, fault.Check(FaultList, "scenario runner: "))
	require.Len(t, FaultList, len(names))
	for i, name := range names {
		assert.Equal(t, name, FaultList[i].Name, "declaration order")
	}
}

func TestRunsShareNothing(t *testing.T) {
	script := []Entry{req("save_draft", `{"text": "one"}`)}
	tests := []struct {
		name string
		runs int
	}{
		{"first run", 1},
		{"second run", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := NewConfig(script)
			cfg.WriteGranted = true
			var res Result
			for i := 0; i < tt.runs; i++ {
				res = Run(cfg)
			}
			assert.Equal(t, []string{"one"}, res.Drafts)
			assert.Equal(t, []string{obsSaved1}, observations(res))
		})
	}
}

func TestRowArray(t *testing.T) {
	tests := []struct {
		name string
		row  Row
		want string
	}{
		{"executed row", row(2, "calc", ResultExecuted, "{'result': 50.0}"), `[2,"calc","executed","{'result': 50.0}"]`},
		{"answer row", row(3, "final", ResultAnswer, "done"), `[3,"final","answer","done"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.row.Array())
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
		})
	}
}
