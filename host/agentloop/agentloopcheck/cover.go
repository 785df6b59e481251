package agentloopcheck

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/internal/calc"
	"github.com/deskcheck/deskcheck/scenario"
)

var refusals = []agentloop.Refusal{agentloop.RefusedUnknownTool, agentloop.RefusedNotGranted, agentloop.RefusedArgumentNames, agentloop.RefusedShortStrings, agentloop.RefusedBudget}

var outcomes = []agentloop.Outcome{agentloop.Answered, agentloop.StepLimit, agentloop.ScriptExhausted}

// calcKinds are the calculator's error kinds a case can reach (0 raised
// to a negative power needs powers, which the grammar refuses).
var calcKinds = []struct {
	kind calc.ErrorKind
	name string
	text string
}{
	{calc.TooLong, "too-long", "an expression longer than the calculator's limit"},
	{calc.Unsupported, "unsupported", "a character, token or literal outside the grammar"},
	{calc.TooComplex, "too-complex", "an expression with more nodes than the limit"},
	{calc.DivisionByZero, "division-by-zero", "a division by zero"},
	{calc.OutOfBounds, "out-of-bounds", "a value beyond the calculator's bound"},
}

func slugOf(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, " ", "-"), "_", "-") }

// Points are the runner's boundary points.
var Points = func() []scenario.Point {
	var out []scenario.Point
	add := func(name, text string) {
		out = append(out, scenario.Point{Name: "runner/" + name, Scenario: "runner", Text: text})
	}
	for _, r := range refusals {
		add("refused-"+slugOf(r.String()), "a request is refused before it runs: "+r.Text())
	}
	for _, t := range []string{"calc", "lookup_user", "save_draft"} {
		add("ran-"+slugOf(t), "a "+t+" request passes every check and runs")
	}
	for _, k := range calcKinds {
		add("calc-"+k.name, "calc fails inside the tool: "+k.text)
	}
	add("lookup-unknown-user", "lookup_user fails inside the tool: the user is not in the directory")
	for _, o := range outcomes {
		add("stop-"+slugOf(string(o)), "the run stops: "+string(o))
	}
	return out
}()

// observedPoints reads the points of one run from the runner's record of
// its requests and its outcome.
func observedPoints(res agentloop.Result) []string {
	var out []string
	for _, q := range res.Requests {
		switch {
		case q.Refused():
			out = append(out, "runner/refused-"+slugOf(q.Refusal.String()))
		case q.Failed && q.Tool == "calc":
			for _, k := range calcKinds {
				if k.kind == q.CalcError {
					out = append(out, "runner/calc-"+k.name)
				}
			}
		case q.Failed && q.Tool == "lookup_user":
			out = append(out, "runner/lookup-unknown-user")
		case q.Ran:
			out = append(out, "runner/ran-"+slugOf(q.Tool))
		}
	}
	return append(out, "runner/stop-"+slugOf(string(res.Outcome)))
}

var mutants = func() []adapter.Mutant[agentloop.Mutation] {
	var out []adapter.Mutant[agentloop.Mutation]
	add := func(name, text string, m agentloop.Mutation) {
		out = append(out, adapter.Mutant[agentloop.Mutation]{Name: name, Text: text, Mutation: m})
	}
	for _, l := range []struct {
		name, what string
		kind       agentloop.MutationKind
	}{{"steps", "the step limit", agentloop.MutStepLimit}, {"budget", "the tool budget", agentloop.MutBudget}, {"arg-chars", "the short-string limit", agentloop.MutArgChars}} {
		add("limit/"+l.name+"/raise", l.what+" is one higher", agentloop.Mutation{Kind: l.kind, Delta: 1})
		add("limit/"+l.name+"/lower", l.what+" is one lower", agentloop.Mutation{Kind: l.kind, Delta: -1})
	}
	add("check/step-limit/inverted", "the step limit's comparison is inverted: the run stops while steps are left and goes on past the limit", agentloop.Mutation{Kind: agentloop.MutStepLimitInverted})
	add("check/budget/inverted", "the budget comparison is inverted: a request within the budget is refused, one beyond it runs", agentloop.Mutation{Kind: agentloop.MutBudgetInverted})
	add("check/grant/drop", "the write-capability check is dropped: save_draft runs without writeGranted", agentloop.Mutation{Kind: agentloop.MutDropGrant})
	add("check/budget/drop", "the budget check is dropped", agentloop.Mutation{Kind: agentloop.MutDropBudget})
	add("check/length/drop", "the short-string length check is dropped", agentloop.Mutation{Kind: agentloop.MutDropLength})
	add("order/budget/swap", "the budget is checked before the argument checks", agentloop.Mutation{Kind: agentloop.MutBudgetFirst})
	add("event/draft/drop", "a saved draft is not recorded in the draft list", agentloop.Mutation{Kind: agentloop.MutDropDraftRecord})
	add("event/blocked/drop", "a refused request is not counted as blocked", agentloop.Mutation{Kind: agentloop.MutDropBlockedCount})
	return out
}()

// Mutants are the runner's generated mutants as the engine registers them.
var Mutants = adapter.Mutants(mutants)

// Generate is generate, made once: the inputs are a fixed table, which
// every search only reads.
var Generate = sync.OnceValue(generate)

// generate returns the runner's generated inputs: each refusal, each tool,
// each calculator error, each stop, and the limits at and beyond their
// bound.
func generate() []scenario.Candidate {
	type entry = map[string]any
	tool := func(name string, args any) entry { return entry{"tool": name, "args": args} }
	calcE := func(e string) entry { return tool("calc", entry{"expression": e}) }
	final := entry{"final": "Done."}
	var out []scenario.Candidate
	add := func(title string, aims []string, g entry) {
		b, _ := json.Marshal(g)
		full := make([]string, len(aims))
		for i, a := range aims {
			full[i] = "runner/" + a
		}
		out = append(out, scenario.Candidate{Scenario: "runner", Given: string(b), Aims: full, Title: title})
	}
	add("one calculation, then an answer", []string{"ran-calc", "stop-answered"}, entry{"script": []any{calcE("100/2"), final}})
	add("a lookup", []string{"ran-lookup-user"}, entry{"script": []any{tool("lookup_user", entry{"user_id": "u-100"}), final}})
	add("a granted draft", []string{"ran-save-draft"}, entry{"script": []any{tool("save_draft", entry{"text": "A fictional draft."}), final}, "writeGranted": true})
	add("an ungranted draft", []string{"refused-not-granted"}, entry{"script": []any{tool("save_draft", entry{"text": "A fictional draft."}), final}})
	add("an unknown tool", []string{"refused-unknown-tool"}, entry{"script": []any{tool("shell", entry{"command": "ls"}), final}})
	add("wrong argument names", []string{"refused-argument-names"}, entry{"script": []any{tool("lookup_user", entry{"id": "u-100"}), final}})
	add("a number for a string", []string{"refused-short-strings"}, entry{"script": []any{tool("lookup_user", entry{"user_id": 100}), final}})
	add("an argument one character too long", []string{"refused-short-strings"}, entry{"script": []any{tool("save_draft", entry{"text": strings.Repeat("a", agentloop.MaxArgChars+1)}), final}, "writeGranted": true})
	add("an argument exactly at the limit", []string{"ran-save-draft"}, entry{"script": []any{tool("save_draft", entry{"text": strings.Repeat("a", agentloop.MaxArgChars)}), final}, "writeGranted": true})
	add("a request beyond the budget", []string{"refused-budget-exhausted"}, entry{"script": []any{calcE("1+1"), calcE("1+2"), final}, "maxCalls": 1})
	add("requests up to the budget", []string{"ran-calc"}, entry{"script": []any{calcE("1+1"), calcE("1+2"), final}, "maxCalls": 2})
	add("a budget refusal with bad arguments", []string{"refused-argument-names"}, entry{"script": []any{calcE("1+1"), tool("calc", entry{"expr": "1"}), final}, "maxCalls": 1})
	add("a long expression", []string{"calc-too-long"}, entry{"script": []any{calcE(strings.Repeat("1+", 60) + "1"), final}})
	add("a power", []string{"calc-unsupported"}, entry{"script": []any{calcE("2**3"), final}})
	add("an expression of more nodes than the limit", []string{"calc-too-complex"}, entry{"script": []any{calcE(strings.Repeat("1+", 30) + "1"), final}})
	add("a division by zero", []string{"calc-division-by-zero"}, entry{"script": []any{calcE("1/0"), final}})
	add("an overflowing product", []string{"calc-out-of-bounds"}, entry{"script": []any{calcE("99999999*99999999*99999999*99999999*99999999*99999999"), final}})
	add("an unknown user", []string{"lookup-unknown-user"}, entry{"script": []any{tool("lookup_user", entry{"user_id": "u-999"}), final}})
	add("more steps than the limit", []string{"stop-step-limit"}, entry{"script": []any{calcE("1+1"), calcE("1+1"), calcE("1+1"), final}, "maxSteps": 2})
	add("steps exactly at the limit", []string{"stop-answered"}, entry{"script": []any{calcE("1+1"), final}, "maxSteps": 2})
	add("a script with no answer", []string{"stop-script-exhausted"}, entry{"script": []any{calcE("1+1")}})
	for n := 1; n <= 3; n++ {
		add("a refusal then an answer, budget "+strconv.Itoa(n), []string{"refused-unknown-tool"}, entry{"script": []any{tool("shell", entry{"command": "ls"}), calcE("1+1"), final}, "maxCalls": n})
	}
	return out
}
