package householdcheck

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/household"
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
var Household = &scenario.Scenario{
	Name:        "household",
	Description: "one run of a bounded financial-agent runtime: scripted decisions, a recording tool boundary, tool contracts, a step budget and a deadline, result assembly",
	Unit:        "decision",
	Schema:      householdSchema,
	Expected: scenario.Observables{
		{Key: "outcome", Comparer: scenario.Exact}, {Key: "effects", Comparer: scenario.Exact},
		{Key: "attempts", Comparer: scenario.Exact}, {Key: "denied", Comparer: scenario.Exact},
		{Key: "invalid", Comparer: scenario.Exact}, {Key: "toolCalls", Comparer: scenario.JSONEqual},
		{Key: "statuses", Comparer: scenario.JSONEqual}, {Key: "observations", Comparer: scenario.JSONEqual},
		{Key: "result", Comparer: scenario.JSONEqual}, {Key: "policyCode", Comparer: scenario.Exact},
		{Key: "modelCalls", Comparer: scenario.Exact}, {Key: "decisions", Comparer: scenario.Exact},
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
	Lint:    lintHousehold,
	Script:  script,
	Suggest: suggest,
	Shape:   shape,
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
	Run:       run,
}

// readGiven builds the runtime's input from a schema-valid given block:
// the defaults of household.NewConfig, then only the keys the case sets.
func readGiven(givenJSON []byte) household.Config {
	given := gjson.ParseBytes(givenJSON)
	var decisions []household.Decision
	each(given.Get("decisions"), func(_, d gjson.Result) bool {
		if d.Type == gjson.String {
			decisions = append(decisions, household.Decision{Text: d.Str})
		} else {
			// The raw text keeps every number literal as written
			// (48000000.0 is not 48000000 to the snapshot check).
			decisions = append(decisions, household.Decision{Object: json.RawMessage(d.Raw)})
		}
		return true
	})
	cfg := household.NewConfig(decisions...)
	given.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "latencies":
			cfg.Latencies = numbers(v)
		case "households":
			cfg.Households = strs(v)
		case "tools":
			cfg.Tools = strs(v)
		case "timeouts":
			cfg.Timeouts = strs(v)
		case "toolSeconds":
			cfg.ToolSeconds = v.Float()
		case "maxDecisions":
			cfg.MaxDecisions = int(v.Int())
		case "deadlineSeconds":
			cfg.DeadlineSeconds = v.Float()
		}
		return true
	})
	return cfg
}

// strs reads an array of strings; an empty array is an empty, not a nil,
// list (no household, no tool).
func strs(v gjson.Result) []string {
	out := []string{}
	each(v, func(_, s gjson.Result) bool {
		out = append(out, s.Str)
		return true
	})
	return out
}

func numbers(v gjson.Result) []float64 {
	out := []float64{}
	each(v, func(_, n gjson.Result) bool {
		out = append(out, n.Float())
		return true
	})
	return out
}

// each iterates over the elements of an array (gjson's ForEach would call
// back once for a scalar).
func each(v gjson.Result, f func(k, v gjson.Result) bool) {
	if v.IsArray() {
		v.ForEach(f)
	}
}

func run(_ context.Context, givenJSON []byte, env scenario.Env) (scenario.Observation, error) {
	cfg := readGiven(givenJSON)
	cfg.Faults = household.Faults(env.Faults)
	trace := env.Trace
	narrateContext(trace, givenJSON, cfg)
	res, err := household.Run(cfg)
	if err != nil {
		// Schema and lint reject every input the model refuses, so this
		// is a case that could not run, never a verdict.
		return scenario.Observation{}, err
	}
	narrateRun(trace, cfg, res)

	result := plain(res.UserResult)
	obs := scenario.Observation{Values: map[string]any{
		"outcome":        string(res.Outcome),
		"effects":        float64(res.Effects),
		"attempts":       float64(res.Recorded()),
		"denied":         float64(res.Count(household.StatusDenied)),
		"invalid":        float64(res.Count(household.StatusInvalid)),
		"toolCalls":      plain(res.ToolCalls),
		"statuses":       stringsValue(res.Statuses()),
		"observations":   observations(res),
		"result":         result,
		"policyCode":     plain(res.PolicyCode),
		"modelCalls":     float64(res.ModelCalls),
		"decisions":      float64(res.Decisions),
		"claimsVerified": res.ClaimsVerified,
		"diagnostics":    stringsValue(res.Diagnostics),
		"resultExcludes": result,
	}}
	obs.Boundary = boundary(givenJSON, env.Expected, cfg, res)
	return obs, nil
}

// plain decodes JSON text the model produced into plain JSON values.
func plain(raw json.RawMessage) any {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	return v
}

func stringsValue(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

func observations(res *household.Result) []any {
	obs := res.Observations()
	out := make([]any, len(obs))
	for i, o := range obs {
		out[i] = plain(o)
	}
	return out
}

// suggest picks the keys worth asserting: always the outcome, the effects
// and the counts that say how far the run got; the attempts in detail when
// there were any; the assembled result and the scorer after a final
// decision; the diagnostics when the runtime ended the run. resultExcludes
// is an assertion an author makes, never proposed.
func suggest(_ []byte, obs map[string]any) []string {
	keys := []string{"outcome", "effects", "attempts"}
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
func narrateContext(trace *scenario.Trace, givenJSON []byte, cfg household.Config) {
	given := gjson.ParseBytes(givenJSON)
	def := func(key string) string {
		if given.Get(key).Exists() {
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
	trace.Add("context", "%d scripted response(s); authorised households: %s%s; tools available: %s%s; workers that time out: %s%s",
		len(cfg.Decisions), list(cfg.Households), def("households"), list(cfg.Tools), def("tools"), list(cfg.Timeouts), def("timeouts"))
	trace.Add("context", "decision budget %d%s; deadline %s%s; each tool run takes %s%s; model latencies: %s%s",
		cfg.MaxDecisions, def("maxDecisions"), seconds(cfg.DeadlineSeconds), def("deadlineSeconds"),
		seconds(cfg.ToolSeconds), def("toolSeconds"), lat, def("latencies"))
}

// narrateRun copies the runtime's narration into the trace, decision by
// decision, then says what the caller got.
func narrateRun(trace *scenario.Trace, cfg household.Config, res *household.Result) {
	tools, households := set(cfg.Tools), set(cfg.Households)
	for _, e := range res.Events {
		trace.Start(e.Step)
		text := e.Text
		var n int
		if _, err := fmt.Sscanf(text, "attempt %d passed admit", &n); err == nil && e.Kind == household.EventAdmitted && n >= 1 && n <= len(res.Attempts) {
			text += " — " + admittedWhy(&res.Attempts[n-1], tools, households)
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
	trace.AddText("scorer", "claims verified: "+strconv.FormatBool(res.ClaimsVerified)+" — "+scorerWhy(res))
}

// admittedWhy says why admit let an attempt through, from the caller's
// context and the recorded arguments.
func admittedWhy(a *household.Attempt, tools, households map[string]bool) string {
	var parts []string
	if tools[a.Name] {
		parts = append(parts, a.Name+" is available to the caller")
	} else {
		parts = append(parts, a.Name+" is not among the tools available")
	}
	args, _ := plain(a.Arguments).(map[string]any)
	if args != nil {
		parts = append(parts, "the arguments are an object")
	}
	if h, ok := args["household"]; ok {
		name, isString := h.(string)
		switch {
		case isString && households[name]:
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
func scorerWhy(res *household.Result) string {
	if res.ClaimsVerified {
		return "every claim equals a recorded ok output plus its evidence_id"
	}
	if res.Outcome != household.Answered {
		return "only an answered run can carry verified claims"
	}
	result, _ := plain(res.UserResult).(map[string]any)
	claims, ok := result["claims"].([]any)
	if !ok || len(claims) == 0 {
		return "the final result carries no claim"
	}
	return "a claim is not equal to the output of a recorded ok attempt plus its evidence_id"
}

func seconds(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + " s" }
