package householdcheck

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/household"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

//go:embed household.schema.json
var householdSchema []byte

// The limits a household case is held to. Each bounds the work of one run:
// the runtime processes at most min(maxDecisions, len(decisions)+1)
// responses (after the script runs out the model answers with the empty
// response, a parser failure), reads at most that many latencies, and
// looks tools and households up in sets built from the lists.
const (
	DefaultMaxDecisionsLimit = 1000
	DefaultListLimit         = 1000
)

// Household is the scenario of one run of the bounded household runtime.
var Household = scenario.Declare(&scenario.Scenario{
	Name:        "household",
	Description: "one run of a bounded financial-agent runtime: scripted decisions, a recording tool boundary, tool contracts, a step budget and a deadline, result assembly",
	Unit:        "decision",
	Schema:      householdSchema,
	Expected: scenario.Observables{
		{Key: "outcome", Comparer: scenario.Exact}, {Key: "effects", Comparer: scenario.Exact, Count: true},
		{Key: "attempts", Comparer: scenario.Exact, Count: true}, {Key: "denied", Comparer: scenario.Exact, Count: true},
		{Key: "invalid", Comparer: scenario.Exact, Count: true}, {Key: "toolCalls", Comparer: scenario.JSONEqual},
		{Key: "statuses", Comparer: scenario.JSONEqual}, {Key: "observations", Comparer: scenario.JSONEqual},
		{Key: "result", Comparer: scenario.JSONEqual}, {Key: "policyCode", Comparer: scenario.Exact},
		{Key: "modelCalls", Comparer: scenario.Exact, Count: true}, {Key: "decisions", Comparer: scenario.Exact, Count: true},
		{Key: "claimsVerified", Comparer: scenario.Exact}, {Key: "diagnostics", Comparer: scenario.JSONEqual},
		{Key: "resultExcludes", Comparer: scenario.Absent},
	},
	Limits: []scenario.Limit{
		{Name: "decisions", Pointer: "/given/decisions", Count: true, Default: DefaultListLimit, Help: "most scripted responses in one household case"},
		{Name: "maxDecisions", Pointer: "/given/maxDecisions", Default: DefaultMaxDecisionsLimit, Help: "largest decision budget (given.maxDecisions) of a household case"},
		{Name: "latencies", Pointer: "/given/latencies", Count: true, Default: DefaultListLimit, Help: "most scripted latencies in one household case"},
		{Name: "households", Pointer: "/given/households", Count: true, Default: DefaultListLimit, Help: "most authorised households in one household case"},
		{Name: "tools", Pointer: "/given/tools", Count: true, Default: DefaultListLimit, Help: "most entries of given.tools in one household case"},
		{Name: "timeouts", Pointer: "/given/timeouts", Count: true, Default: DefaultListLimit, Help: "most entries of given.timeouts in one household case"},
	},
	Warnings: []scenario.Warning{
		{Name: "statuses-vs-attempts", Help: "statuses whose number is not the attempts expected"},
		{Name: "statuses-vs-effects", Help: "ok and timeout statuses that are not the effects expected"},
		{Name: "statuses-vs-denied", Help: "denied statuses that are not the denied count expected"},
		{Name: "statuses-vs-invalid", Help: "invalid statuses that are not the invalid count expected"},
		{Name: "statuses-vs-observations", Help: "observations that are not one per status that did not time out"},
		{Name: "timeout-not-last", Help: "a timeout status that is not the last one"},
		{Name: "effects-vs-attempts", Help: "more effects expected than attempts"},
		{Name: "toolcalls-vs-attempts", Help: "recorded tool calls that are not the attempts expected"},
	},
	Shape: shape,
	Template: `{
        "decisions": [
          { "tool": "portfolio.read", "arguments": { "household": "hh-anand" } },
          { "tool": "portfolio.read", "arguments": { "household": "hh-bose" } },
          { "tool": "concentration", "arguments": { "equity_inr": 48000000, "eligible_inr": "120000000" } },
          "{\"final\": {\"outcome\": \"answered\", \"claims\": [{\"concentration\": 0.4, \"household\": \"hh-anand\", \"as_of\": \"2026-03-31\", \"method\": \"calc-conc-v1\", \"evidence_id\": \"ev-3\"}], \"evidence_ids\": [\"ev-1\", \"ev-3\"], \"policy_code\": \"OK\", \"notes\": \"placeholder\"}}"
        ],
        "latencies": [1.5, 2, 2.5, 3],
        "households": ["hh-anand"],
        "tools": ["portfolio.read", "future_value", "concentration"],
        "timeouts": ["future_value"],
        "toolSeconds": 0.5,
        "maxDecisions": 4,
        "deadlineSeconds": 30
      }`,
	SourceKey: "household",
	Picture:   picture,
	Deciding:  []string{"admitted", "denied", "invalid"},
}, scenario.Kind[*given, scripted, *evidence]{
	Decode:   decodeGiven,
	Plan:     plan,
	Run:      run,
	Boundary: boundary,
	Suggest:  suggest,
})

// evidence is what one run leaves for the boundary counts: the caller's
// context it ran in, what the runtime recorded, and its decoded records.
type evidence struct {
	cfg household.Config
	res *household.Result
	v   *runView
}

func run(_ context.Context, g *given, env scenario.Env) (scenario.Observation, *evidence, error) {
	cfg, keys := g.cfg, g.keys
	cfg.Faults = adapter.FaultSet[household.Fault](env)
	cfg.Mutation = adapter.Mutation(mutants, env.Mutant)
	trace := env.Trace
	narrateContext(trace, keys, cfg)
	res, err := household.Run(cfg)
	if err != nil {
		// Schema and lint reject every input the model refuses, so this
		// is a case that could not run, never a verdict.
		return scenario.Observation{}, nil, err
	}
	v := decodeRun(res)
	narrateRun(trace, cfg, res, v)

	statuses := make([]any, len(res.Attempts))
	for i, a := range res.Attempts {
		statuses[i] = statusWord(a.Status)
	}
	obs := scenario.Observation{Values: map[string]any{
		"outcome":        string(res.Outcome),
		"effects":        scenario.Count(res.Effects),
		"attempts":       scenario.Count(res.Recorded()),
		"denied":         scenario.Count(res.Count(household.StatusDenied)),
		"invalid":        scenario.Count(res.Count(household.StatusInvalid)),
		"toolCalls":      v.toolCalls,
		"statuses":       statuses,
		"observations":   v.observations(res),
		"result":         v.result,
		"policyCode":     v.policyCode,
		"modelCalls":     scenario.Count(res.ModelCalls),
		"decisions":      scenario.Count(res.Decisions),
		"claimsVerified": res.ClaimsVerified,
		"diagnostics":    stringsValue(res.Diagnostics),
		"resultExcludes": v.result,
	}}
	obs.Points = observedPoints(res)
	return obs, &evidence{cfg: cfg, res: res, v: v}, nil
}

// runView is the plain form of every JSON text of a run's result, each
// decoded once: the observation, the boundary counts and the narration
// all read them, and decoding each anew was most of the adapter's cost.
// The values are only read after decoding.
type runView struct {
	result, toolCalls, policyCode any
	// obs and args are each attempt's observation and recorded
	// arguments, as plain gives them ("" for an attempt without one).
	obs, args []any
}

func decodeRun(res *household.Result) *runView {
	v := &runView{
		result:     plainOf(res.UserResult),
		toolCalls:  plainOf(res.ToolCalls),
		policyCode: plainOf(res.PolicyCode),
		obs:        make([]any, len(res.Attempts)),
		args:       make([]any, len(res.Attempts)),
	}
	for i := range res.Attempts {
		v.obs[i] = plainOf(res.Attempts[i].Observation)
		v.args[i] = plainOf(res.Attempts[i].Arguments)
	}
	return v
}

// statusWord is a status as an interface value; the four statuses are
// constants, which cost no allocation.
func statusWord(s household.Status) any {
	switch s {
	case household.StatusOK:
		return string(household.StatusOK)
	case household.StatusDenied:
		return string(household.StatusDenied)
	case household.StatusInvalid:
		return string(household.StatusInvalid)
	case household.StatusTimeout:
		return string(household.StatusTimeout)
	}
	return string(s)
}

func stringsValue(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// observations is the observation of each attempt that has one (every
// attempt but a timeout), in order.
func (v *runView) observations(res *household.Result) []any {
	out := make([]any, 0, len(res.Attempts))
	for i, a := range res.Attempts {
		if a.Observation != nil {
			out = append(out, v.obs[i])
		}
	}
	return out
}

// suggest picks the keys worth asserting: always the outcome, the effects
// and the counts that say how far the run got; the attempts in detail when
// there were any; the assembled result and the scorer after a final
// decision; the diagnostics when the runtime ended the run. resultExcludes
// is an assertion an author makes, never proposed.
func suggest(_ *given, obs map[string]any) []string {
	// Room for every key the function may add: growing the list cost
	// allocations per case.
	keys := make([]string, 0, 14)
	keys = append(keys, "outcome", "effects", "attempts")
	if n, _ := obs["attempts"].(float64); n > 0 || len(anyList(obs["statuses"])) > 0 {
		keys = append(keys, "denied", "invalid", "toolCalls", "statuses", "observations")
	}
	outcome, _ := obs["outcome"].(string)
	model := household.ModelOutcome(household.Outcome(outcome))
	if model {
		keys = append(keys, "result")
	}
	keys = append(keys, "policyCode", "modelCalls", "decisions")
	if model {
		keys = append(keys, "claimsVerified")
	}
	if len(anyList(obs["diagnostics"])) > 0 || !model {
		keys = append(keys, "diagnostics")
	}
	return keys
}

func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// shape: resultExcludes is never proposed (it is what an author asserts
// is absent, not something observed); every other key is written as
// observed.
func shape(key string, v any) (any, bool) {
	if key == "resultExcludes" {
		return nil, false
	}
	return v, true
}

// narrateContext says what the case gives the runtime, defaults named as
// such.
func narrateContext(trace *scenario.Trace, keys givenKeys, cfg household.Config) {
	def := func(key givenKeys) string {
		if keys&key != 0 {
			return ""
		}
		return " (default)"
	}
	list := func(l []string) string {
		if len(l) == 0 {
			return "none"
		}
		return strings.Join(l, ", ")
	}
	lat := "none: every request takes 0 s"
	if len(cfg.Latencies) > 0 {
		parts := make([]string, len(cfg.Latencies))
		for i, l := range cfg.Latencies {
			parts[i] = seconds(l)
		}
		lat = strings.Join(parts, ", ") + "; later requests take 0 s"
	}
	trace.AddText("context", strconv.Itoa(len(cfg.Decisions))+" scripted response(s); authorised households: "+list(cfg.Households)+def(keyHouseholds)+
		"; tools available: "+list(cfg.Tools)+def(keyTools)+"; workers that time out: "+list(cfg.Timeouts)+def(keyTimeouts))
	trace.AddText("context", "decision budget "+strconv.Itoa(cfg.MaxDecisions)+def(keyMaxDecisions)+"; deadline "+seconds(cfg.DeadlineSeconds)+def(keyDeadlineSeconds)+
		"; each tool run takes "+seconds(cfg.ToolSeconds)+def(keyToolSeconds)+"; model latencies: "+lat+def(keyLatencies))
}

// narrateRun copies the runtime's narration into the trace, decision by
// decision, then says what the caller got.
func narrateRun(trace *scenario.Trace, cfg household.Config, res *household.Result, v *runView) {
	tools, households := household.NewNameSet(cfg.Tools), household.NewNameSet(cfg.Households)
	for _, e := range res.Events {
		trace.Start(e.Step)
		text := e.Text
		if e.Kind == household.EventAdmitted {
			if n, ok := admittedAttempt(text); ok && n >= 1 && n <= len(res.Attempts) {
				text += " — " + admittedWhy(&res.Attempts[n-1], v.args[n-1], tools, households)
			}
		}
		trace.AddText(e.Kind, text)
	}
	trace.Start(0)
	trace.AddText("result", "user-facing result "+string(res.UserResult))
	if len(res.Diagnostics) == 0 {
		trace.AddText("diagnostics", "restricted diagnostics: none")
	}
	for _, d := range res.Diagnostics {
		trace.AddText("diagnostics", "restricted diagnostics: "+d)
	}
	trace.AddText("scorer", "claims verified: "+strconv.FormatBool(res.ClaimsVerified)+" — "+scorerWhy(res, v))
}

// admittedAttempt reads the attempt number n of an admission line,
// "attempt n passed admit ...", as fmt.Sscanf(text, "attempt %d passed
// admit", &n) does. The runtime writes n in plain digits, read here
// directly; any other text is left to Sscanf.
func admittedAttempt(text string) (int, bool) {
	if rest, ok := strings.CutPrefix(text, "attempt "); ok {
		j := 0
		for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
			j++
		}
		if j > 0 && rest[0] != '0' && strings.HasPrefix(rest[j:], " passed admit") {
			if n, err := strconv.Atoi(rest[:j]); err == nil {
				return n, true
			}
		}
	}
	var n int
	_, err := fmt.Sscanf(text, "attempt %d passed admit", &n)
	return n, err == nil
}

// admittedWhy says why admit let an attempt through, from the caller's
// context and the recorded arguments.
func admittedWhy(a *household.Attempt, recorded any, tools, households household.NameSet) string {
	var parts []string
	if tools.Has(a.Name) {
		parts = append(parts, a.Name+" is available to the caller")
	} else {
		parts = append(parts, a.Name+" is not among the tools available")
	}
	args, _ := recorded.(map[string]any)
	if args != nil {
		parts = append(parts, "the arguments are an object")
	}
	if h, ok := args["household"]; ok {
		name, isString := h.(string)
		switch {
		case isString && households.Has(name):
			parts = append(parts, "household "+name+" is authorised")
		case isString:
			parts = append(parts, "household "+name+" is NOT among the authorised households")
		default:
			parts = append(parts, "the household argument is not a string, so it is NOT authorised")
		}
	} else if args != nil {
		parts = append(parts, "no household is named")
	}
	return "admitted: " + strings.Join(parts, ", ")
}

// scorerWhy says in words why the scorer decided as it did.
func scorerWhy(res *household.Result, v *runView) string {
	if res.ClaimsVerified {
		return "every claim equals a recorded ok output plus its evidence_id"
	}
	if res.Outcome != household.Answered {
		return "only an answered run can carry verified claims"
	}
	result, _ := v.result.(map[string]any)
	claims, ok := result["claims"].([]any)
	if !ok || len(claims) == 0 {
		return "the final result carries no claim"
	}
	return claimDiffers(claims, v.obs)
}

// claimDiffers names the first claim that is not the output of a recorded
// ok attempt plus its evidence_id, and the field that differs.
func claimDiffers(claims []any, obs []any) string {
	outputs := map[string]map[string]any{}
	for _, o := range obs {
		m, _ := o.(map[string]any)
		id, _ := m["evidence_id"].(string)
		if out, ok := m["output"].(map[string]any); ok && id != "" {
			outputs[id] = out
		}
	}
	show := func(x any) string {
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	for k, c := range claims {
		claim, ok := c.(map[string]any)
		if !ok {
			return fmt.Sprintf("claim %d is not an object", k)
		}
		id, ok := claim["evidence_id"].(string)
		if !ok {
			return fmt.Sprintf("claim %d has no evidence_id string", k)
		}
		out, ok := outputs[id]
		if !ok {
			return fmt.Sprintf("claim %d names evidence %s, which no recorded ok attempt has", k, show(id))
		}
		keys := make([]string, 0, len(claim)+len(out))
		for f := range claim {
			keys = append(keys, f)
		}
		for f := range out {
			if _, dup := claim[f]; !dup {
				keys = append(keys, f)
			}
		}
		sort.Strings(keys)
		for _, f := range keys {
			if f == "evidence_id" {
				continue
			}
			cv, inClaim := claim[f]
			ov, inOut := out[f]
			switch {
			case !inOut:
				return fmt.Sprintf("claim %d field %s is not in the output of %s", k, f, id)
			case !inClaim:
				return fmt.Sprintf("claim %d lacks field %s of the output of %s (%s)", k, f, id, show(ov))
			case !scenario.Equal(cv, ov):
				return fmt.Sprintf("claim %d field %s is %s, the output of %s has %s", k, f, show(cv), id, show(ov))
			}
		}
	}
	return "a claim is not equal to the output of a recorded ok attempt plus its evidence_id"
}

func seconds(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + " s" }
