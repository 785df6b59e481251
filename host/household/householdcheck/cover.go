package householdcheck

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/host/household"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// refusals are the messages of admit and the tool contracts, with the
// check each stands for.
var refusals = []struct{ msg, text string }{
	{"tool is not available", "admit: the tool is not available to the caller"},
	{"arguments must be an object", "admit: the arguments are not an object"},
	{"household is not authorised", "admit: the household is not in the authenticated context"},
	{"unexpected portfolio fields", "portfolio.read's contract: exactly {household}"},
	{"no snapshot for household", "portfolio.read's contract: the household has a snapshot"},
	{"unexpected calculator fields", "a calculator's contract: exactly its fields"},
	{"invalid calculator input", "future_value's contract: valid inputs"},
	{"no authorised snapshot read", "concentration's contract: a snapshot was read first"},
	{"argument differs from authorised evidence", "concentration's contract: the figures are the snapshot's"},
}

var statuses = []household.Status{household.StatusOK, household.StatusDenied, household.StatusInvalid, household.StatusTimeout}

func slug(s string) string { return slugDashes.Replace(s) }

// slugDashes is built once: a Replacer builds its tables on first use, and
// slug runs for every point of every household run.
var slugDashes = strings.NewReplacer(" ", "-", "_", "-", ".", "-")

// Points are the household runtime's boundary points.
var Points = func() []scenario.Point {
	var out []scenario.Point
	add := func(name, text string) {
		out = append(out, scenario.Point{Name: "household/" + name, Scenario: "household", Text: text})
	}
	for _, s := range statuses {
		add("attempt-"+string(s), "a tool attempt ends "+string(s))
	}
	for _, r := range refusals {
		add("refused-"+slug(r.msg), r.text+" refuses an attempt")
	}
	for _, o := range household.Outcomes() {
		add("outcome-"+slug(string(o)), "the run ends "+string(o))
	}
	return out
}()

// observedPoints reads the points of one run from the runtime's record of
// its attempts and its outcome.
func observedPoints(res *household.Result) []string {
	var out []string
	for _, a := range res.Attempts {
		out = append(out, "household/attempt-"+string(a.Status))
		if a.Reason != "" {
			out = append(out, "household/refused-"+slug(a.Reason))
		}
	}
	return append(out, "household/outcome-"+slug(string(res.Outcome)))
}

var mutants = func() []adapter.Mutant[household.Mutation] {
	var out []adapter.Mutant[household.Mutation]
	add := func(name, text string, m household.Mutation) {
		out = append(out, adapter.Mutant[household.Mutation]{Name: name, Text: text, Mutation: m})
	}
	add("limit/decisions/raise", "the decision budget is one higher", household.Mutation{Kind: household.MutDecisionBudget, Delta: 1})
	add("limit/decisions/lower", "the decision budget is one lower", household.Mutation{Kind: household.MutDecisionBudget, Delta: -1})
	add("check/decisions/inverted", "the decision budget's comparison is inverted: the run stops while decisions are left", household.Mutation{Kind: household.MutDecisionBudgetInverted})
	add("limit/deadline/raise", "the deadline is one second later", household.Mutation{Kind: household.MutDeadline, Delta: 1})
	add("limit/deadline/lower", "the deadline is one second earlier", household.Mutation{Kind: household.MutDeadline, Delta: -1})
	add("check/deadline/inverted", "the clock's comparison with the deadline is inverted", household.Mutation{Kind: household.MutDeadlineInverted})
	add("check/tool/drop", "admit's tool check is dropped: a catalogue tool the caller was not given runs", household.Mutation{Kind: household.MutDropToolCheck})
	add("check/household/drop", "admit's household check is dropped", household.Mutation{Kind: household.MutDropHouseholdCheck})
	add("order/admit/swap", "admit checks the household before the tool's availability", household.Mutation{Kind: household.MutSwapAdmit})
	add("check/portfolio-fields/drop", "portfolio.read's field check is dropped", household.Mutation{Kind: household.MutDropPortfolioFields})
	add("check/calculator-fields/drop", "future_value's field check is dropped", household.Mutation{Kind: household.MutDropCalculatorFields})
	add("check/snapshot-figures/drop", "concentration no longer compares its figures with the snapshot read", household.Mutation{Kind: household.MutDropSnapshotArgs})
	add("check/timeout/drop", "a worker that should time out runs", household.Mutation{Kind: household.MutDropTimeout})
	add("check/deadline-before/drop", "the clock is not checked before a model request", household.Mutation{Kind: household.MutDropDeadlineBefore})
	add("check/deadline-after/drop", "the clock is not checked after a response", household.Mutation{Kind: household.MutDropDeadlineAfter})
	add("event/timeout-diagnostic/drop", "the diagnostic of a timed-out worker is dropped", household.Mutation{Kind: household.MutDropTimeoutDiagnostic})
	return out
}()

// Mutants are the household runtime's generated mutants as the engine
// registers them.
var Mutants = adapter.Mutants(mutants)

// Generate is generate, made once: the inputs are a fixed table, which
// every search only reads.
var Generate = sync.OnceValue(generate)

// generate returns the household runtime's generated inputs: each admit
// and contract check, each attempt status and each outcome.
func generate() []scenario.Candidate {
	type obj = map[string]any
	tool := func(name string, args any) obj { return obj{"tool": name, "arguments": args} }
	final := func(outcome, code string) obj {
		return obj{"final": obj{"outcome": outcome, "claims": []any{}, "evidence_ids": []any{}, "policy_code": code}}
	}
	read := tool("portfolio.read", obj{"household": "hh-anand"})
	fv := obj{"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": "scenario-A"}
	var out []scenario.Candidate
	add := func(title string, aims []string, g obj) {
		b, _ := json.Marshal(g)
		full := make([]string, len(aims))
		for i, a := range aims {
			full[i] = "household/" + a
		}
		out = append(out, scenario.Candidate{Scenario: "household", Given: string(b), Aims: full, Title: title})
	}
	ds := func(d ...any) []any { return d }
	add("a snapshot read, then an answer", []string{"attempt-ok", "outcome-answered"}, obj{"decisions": ds(read, final("answered", "OK"))})
	add("a clarification", []string{"outcome-clarify"}, obj{"decisions": ds(final("clarify", "NEED_SNAPSHOT"))})
	add("an escalation", []string{"outcome-escalated"}, obj{"decisions": ds(final("escalated", "ACCESS_DENIED"))})
	add("a tool outside the catalogue", []string{"attempt-denied", "refused-tool-is-not-available"}, obj{"decisions": ds(tool("portfolio.export", obj{"household": "hh-anand"}), final("escalated", "NO_APPROVED_CONTENT"))})
	add("a catalogue tool the caller was not given", []string{"refused-tool-is-not-available"}, obj{"decisions": ds(read, final("escalated", "ACCESS_DENIED")), "tools": []any{"future_value"}})
	add("an unavailable tool for another household", []string{"refused-tool-is-not-available"}, obj{"decisions": ds(tool("portfolio.export", obj{"household": "hh-bose"}), final("escalated", "ACCESS_DENIED"))})
	add("arguments that are a string", []string{"attempt-invalid", "refused-arguments-must-be-an-object"}, obj{"decisions": ds(tool("portfolio.read", "hh-anand"), final("clarify", "NEED_SNAPSHOT"))})
	add("another household", []string{"refused-household-is-not-authorised"}, obj{"decisions": ds(tool("portfolio.read", obj{"household": "hh-bose"}), final("escalated", "ACCESS_DENIED"))})
	add("an extra portfolio field", []string{"refused-unexpected-portfolio-fields"}, obj{"decisions": ds(tool("portfolio.read", obj{"household": "hh-anand", "format": "csv"}), final("clarify", "NEED_SNAPSHOT"))})
	add("an authorised household with no snapshot", []string{"refused-no-snapshot-for-household"}, obj{"decisions": ds(tool("portfolio.read", obj{"household": "hh-mehta"}), final("clarify", "NEED_SNAPSHOT")), "households": []any{"hh-anand", "hh-mehta"}})
	add("a future value", []string{"attempt-ok"}, obj{"decisions": ds(tool("future_value", fv), final("answered", "OK"))})
	add("an extra calculator field", []string{"refused-unexpected-calculator-fields"}, obj{"decisions": ds(tool("future_value", obj{"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": "scenario-A", "compounding": "monthly"}), final("clarify", "BAD_INPUT"))})
	add("a negative principal", []string{"refused-invalid-calculator-input"}, obj{"decisions": ds(tool("future_value", obj{"principal_inr": -1, "annual_rate": 0.06, "years": 5, "scenario": "scenario-A"}), final("clarify", "BAD_INPUT"))})
	add("a concentration with no snapshot read", []string{"refused-no-authorised-snapshot-read"}, obj{"decisions": ds(tool("concentration", obj{"equity_inr": 48000000, "eligible_inr": 120000000}), final("clarify", "NEED_SNAPSHOT"))})
	add("a concentration of the snapshot's figures", []string{"attempt-ok"}, obj{"decisions": ds(read, tool("concentration", obj{"equity_inr": 48000000, "eligible_inr": 120000000}), final("answered", "OK"))})
	add("a concentration of altered figures", []string{"refused-argument-differs-from-authorised-evidence"}, obj{"decisions": ds(read, tool("concentration", obj{"equity_inr": 4800000, "eligible_inr": 120000000}), final("escalated", "EVIDENCE_MISMATCH"))})
	add("a worker that times out", []string{"attempt-timeout", "outcome-unavailable"}, obj{"decisions": ds(tool("future_value", fv), final("answered", "OK")), "timeouts": []any{"future_value"}})
	add("more decisions than the budget", []string{"outcome-step-limit"}, obj{"decisions": ds(read, read, final("answered", "OK")), "maxDecisions": 2})
	add("decisions exactly at the budget", []string{"outcome-answered"}, obj{"decisions": ds(read, final("answered", "OK")), "maxDecisions": 2})
	add("a slow model", []string{"outcome-deadline-exceeded"}, obj{"decisions": ds(read, final("answered", "OK")), "latencies": []any{31}})
	add("a response half a second after the deadline", []string{"outcome-deadline-exceeded"}, obj{"decisions": ds(read, final("answered", "OK")), "latencies": []any{30.5}})
	add("a response half a second before the deadline", []string{"outcome-answered"}, obj{"decisions": ds(read, final("answered", "OK")), "latencies": []any{29.5}})
	add("a model that runs out the clock between requests", []string{"outcome-deadline-exceeded"}, obj{"decisions": ds(read, final("answered", "OK")), "latencies": []any{29}, "toolSeconds": 2})
	add("a response that is not JSON", []string{"outcome-parser-failure"}, obj{"decisions": ds("not json")})
	add("a model that claims a runtime outcome", []string{"outcome-parser-failure"}, obj{"decisions": ds(final("unavailable", "OK"))})
	return out
}
