package ompcheck

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// DefaultToolName is the tool a wrapper case calls unless it names one.
const DefaultToolName = "seed_note"

// DefaultSafetyCheck is the message of the check `"safetyCheck": true` adds.
const DefaultSafetyCheck = "Fictional seed shelf check"

//go:embed wrapper.schema.json
var wrapperSchema []byte

// Wrapper is the scenario of calls through the host's tool wrapper.
var Wrapper = &scenario.Scenario{
	Name:        "wrapper",
	Description: "calls through the host's tool wrapper: approval resolution, tool_call, the approval dialog, execution",
	Unit:        "call",
	Schema:      wrapperSchema,
	Expected: scenario.Observables{
		{Key: "outcome", Comparer: scenario.Exact}, {Key: "effects", Comparer: scenario.Exact, Count: true},
		{Key: "prompts", Comparer: scenario.Exact, Count: true}, {Key: "toolCalls", Comparer: scenario.Exact, Count: true},
		{Key: "successfulCalls", Comparer: scenario.Exact, Count: true}, {Key: "input", Comparer: scenario.JSONEqual},
		{Key: "errorIncludes", Comparer: scenario.Substring}, {Key: "promptIncludes", Comparer: scenario.AnySubstring},
		{Key: "rpcRequests", Comparer: scenario.Exact, Count: true}, {Key: "providerSafetyApproved", Comparer: scenario.Exact},
	},
	Limits: []scenario.Limit{
		{Name: "repeat", Pointer: "/given/repeat", Default: 1000, Help: "largest given.repeat of a wrapper case"},
		{Name: "choices", Pointer: "/given/choices", Count: true, Default: 1000, Help: "most scripted choices in one wrapper case"},
		{Name: limitCopyBytes, Pointer: "/given", Measure: copyBytes, Default: 4 << 20, Help: "the given block but its choices, times repeat, and the choices once"},
	},
	Lint: lintWrapper,
	Warnings: []scenario.Warning{
		{Name: "unknown-mode", Help: "an approval mode the host does not know (no tier auto-approved up to 18.2.0, every tier from 18.2.3)"},
		{Name: "non-object-policies", Help: "userPolicies that are not an object (read by own property up to 18.2.0, as {} from 18.2.3)"},
		{Name: "unknown-tier", Help: "an approval tier the host does not know (it is treated as exec)"},
		{Name: "effects-vs-calls", Help: "more effects expected than calls made"},
		{Name: "choices-vs-prompts", Help: "the number of scripted choices differs from the prompts expected"},
	},
	Script: wrapperScript,
	Suggest: func(givenJSON []byte, obs map[string]any) []string {
		given := gjson.ParseBytes(givenJSON)
		keys := []string{"outcome", "effects", "prompts", "toolCalls"}
		if given.Get("repeat").Int() > 1 {
			keys = append(keys, "successfulCalls")
		}
		if obs["input"] != nil {
			keys = append(keys, "input")
		}
		if obs["errorIncludes"] != nil {
			keys = append(keys, "errorIncludes")
		}
		if given.Get("ui").String() == "rpc" {
			keys = append(keys, "rpcRequests")
		}
		if sc := given.Get("safetyCheck"); sc.Exists() && sc.Type != gjson.False {
			if v, _ := firstTitle("promptIncludes", obs["promptIncludes"]); v != "" {
				keys = append(keys, "promptIncludes")
			}
			keys = append(keys, "providerSafetyApproved")
		}
		return keys
	},
	Shape: firstTitle,
	Template: `{
        "tool": "seed_note",
        "approval": { "tier": "exec", "reason": "Placeholder: why this tool asks" },
        "args": { "action": "publish" },
        "mode": "always-ask",
        "autoApprove": false,
        "userPolicies": { "seed_note": "prompt" },
        "ui": "rpc",
        "choices": ["Approve", "Deny"],
        "repeat": 2,
        "revise": { "action": "inspect" },
        "safetyCheck": false
      }`,
	SourceKey: "wrapper",
	Run:       runWrapper,
}

// unknownModeMeanings says, per group of releases, what an unknown mode
// means.
var unknownModeMeanings = meanings(func(g omp.Group) string {
	switch {
	case !g.HasApprovalGate():
		return "have no approval gate, so the mode means nothing"
	case g.UnknownModeIsYolo():
		return "read it as yolo, which auto-approves every tier"
	}
	return "keep it as a mode that auto-approves no tier, so every call that no policy decides asks for approval"
})

// nonObjectPolicyMeanings says, per run of releases, what a tools.approval
// that is not an object means.
var nonObjectPolicyMeanings = meanings(func(g omp.Group) string {
	switch {
	case !g.HasApprovalGate():
		return "have no approval gate, so it means nothing"
	case g.PoliciesMustBeObject():
		return "read it as {}, no user policy"
	}
	return "read its own properties as JavaScript does: a string's or an array's indexes and length are keys, so an array's first entry is the policy of a tool named 0"
})

// meanings writes what something means on each run of releases, adjacent
// groups with one meaning making one run.
func meanings(meaning func(omp.Group) string) string {
	type run struct {
		first, last omp.Version
		what        string
	}
	var runs []run
	for _, g := range omp.Groups() {
		rs := g.Releases()
		if n := len(runs); n > 0 && runs[n-1].what == meaning(g) {
			runs[n-1].last = rs[len(rs)-1]
			continue
		}
		runs = append(runs, run{rs[0], rs[len(rs)-1], meaning(g)})
	}
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = fmt.Sprintf("omp %s … %s %s", r.first, r.last, r.what)
	}
	return strings.Join(parts, "; ")
}

// firstTitle shapes promptIncludes as an author writes it: the first
// dialog title.
func firstTitle(key string, v any) (any, bool) {
	if key != "promptIncludes" {
		return v, true
	}
	if titles, ok := v.([]any); ok && len(titles) > 0 {
		return titles[0], true
	}
	return "", true
}

// lintWrapper warns when the scripted choices and the prompts expected
// differ in number, and when more effects are expected than calls are
// made (each call runs the executor at most once).
func lintWrapper(givenJSON []byte, expected []scenario.Field, _ map[string]int) []scenario.Problem {
	var out []scenario.Problem
	// A mode or tier the host does not know is accepted and has a meaning,
	// so it is no error; but it is almost always a slip ("Write",
	// "paranoid"), so it is named with what the host does with it.
	known := func(v string, list ...string) bool {
		for _, k := range list {
			if v == k {
				return true
			}
		}
		return false
	}
	lower := func(v string) string {
		b := []byte(v)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	closest := func(v string, list ...string) string {
		for _, k := range list {
			if lower(v) == k {
				return fmt.Sprintf("; did you mean %q?", k)
			}
		}
		return ""
	}
	if m := gjson.GetBytes(givenJSON, "mode"); m.Type == gjson.String && !known(jsString(m), omp.ModeAlwaysAsk, omp.ModeWrite, omp.ModeYolo) {
		out = append(out, scenario.Problem{Pointer: "/given/mode", Warning: true, Name: "unknown-mode", Message: fmt.Sprintf(
			"mode %s is not one the host knows (always-ask, write, yolo, matched exactly), and what it means depends on the release: %s%s",
			jsontext.Quote(jsString(m)), unknownModeMeanings, closest(jsString(m), omp.ModeAlwaysAsk, omp.ModeWrite, omp.ModeYolo))})
	}
	if p := gjson.GetBytes(givenJSON, "userPolicies"); p.Exists() && !p.IsObject() && p.Type != gjson.Null {
		out = append(out, scenario.Problem{Pointer: "/given/userPolicies", Warning: true, Name: "non-object-policies", Message: "userPolicies is not an object, and what it means depends on the release: " + nonObjectPolicyMeanings})
	}
	tiers := []string{string(omp.TierRead), string(omp.TierWrite), string(omp.TierExec)}
	tierWarning := func(ptr, v string) {
		out = append(out, scenario.Problem{Pointer: ptr, Warning: true, Name: "unknown-tier", Message: fmt.Sprintf(
			"tier %s is not one the host knows (read, write, exec, matched exactly): it treats the tool as exec, the highest tier%s",
			jsontext.Quote(v), closest(v, tiers...))})
	}
	switch a := gjson.GetBytes(givenJSON, "approval"); {
	case a.Type == gjson.String && !known(jsString(a), tiers...):
		tierWarning("/given/approval", jsString(a))
	case a.IsObject():
		if t := a.Get("tier"); t.Type == gjson.String && !known(jsString(t), tiers...) {
			tierWarning("/given/approval/tier", jsString(t))
		}
	}
	calls := int64(1)
	if r := gjson.GetBytes(givenJSON, "repeat"); r.Exists() {
		calls = r.Int()
	}
	if effects := int64(expectedEffects(expected)); effects > calls {
		out = append(out, scenario.Problem{Pointer: "/expected/effects", Warning: true, Name: "effects-vs-calls", Message: fmt.Sprintf("%d effects expected from %d calls: each call runs the executor at most once", effects, calls)})
	}
	choices := gjson.GetBytes(givenJSON, "choices")
	if !choices.Exists() {
		return out
	}
	n := 0
	choices.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	for _, f := range expected {
		if p := gjson.ParseBytes(f.Raw); f.Key == "prompts" && p.Int() != int64(n) {
			out = append(out, scenario.Problem{Pointer: "/given/choices", Warning: true, Name: "choices-vs-prompts", Message: fmt.Sprintf("%d scripted choices but %d prompts expected", n, p.Int())})
		}
	}
	return out
}

// wrapperGiven is the decoded given block of a wrapper case.
type wrapperGiven struct {
	Tool         string
	Approval     any
	Args         gjson.Result
	Mode         string
	AutoApprove  bool
	UserPolicies any // any JSON value; nil when absent
	UI           any // nil (absent), true, false or "rpc"
	Choices      []*string
	Repeat       int
	Revise       map[string]any
	SafetyChecks []omp.SafetyCheck
}

// readWrapperGiven reads a schema-valid given block in one pass.
func readWrapperGiven(given gjson.Result) wrapperGiven {
	var g wrapperGiven
	given.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "tool":
			g.Tool = jsString(v)
		case "approval":
			g.Approval = jsValue(v)
		case "args":
			g.Args = v
		case "mode":
			g.Mode = jsString(v)
		case "autoApprove":
			g.AutoApprove = v.Bool()
		case "ui":
			g.UI = jsValue(v)
		case "repeat":
			g.Repeat = int(v.Int())
		case "userPolicies":
			g.UserPolicies = jsValue(v)
		case "revise":
			g.Revise, _ = jsValue(v).(map[string]any)
		case "choices":
			v.ForEach(func(_, c gjson.Result) bool {
				if c.Type == gjson.String {
					s := jsString(c)
					g.Choices = append(g.Choices, &s)
				} else {
					g.Choices = append(g.Choices, nil)
				}
				return true
			})
		case "safetyCheck":
			switch {
			case v.Type == gjson.True:
				g.SafetyChecks = []omp.SafetyCheck{{Message: DefaultSafetyCheck}}
			case v.Type == gjson.String:
				g.SafetyChecks = []omp.SafetyCheck{{Message: jsString(v)}}
			case v.IsArray():
				v.ForEach(func(_, c gjson.Result) bool {
					id := c.Get("id")
					g.SafetyChecks = append(g.SafetyChecks, omp.SafetyCheck{ID: jsString(id), HasID: id.Exists(), Code: jsString(c.Get("code")), Message: jsString(c.Get("message"))})
					return true
				})
			}
		}
		return true
	})
	return g
}

// args returns a fresh copy of the call's parameters ({} when absent).
func (g *wrapperGiven) args() any {
	if !g.Args.Exists() {
		return map[string]any{}
	}
	return jsValue(g.Args)
}

func runWrapper(ctx context.Context, givenJSON []byte, env scenario.Env) (scenario.Observation, error) {
	rel, _, err := release(env, "wrapper")
	if err != nil {
		return scenario.Observation{}, err
	}
	faults := omp.Faults(env.Faults)
	g := readWrapperGiven(gjson.ParseBytes(givenJSON))
	if g.Tool == "" {
		g.Tool = DefaultToolName
	}
	if g.Repeat == 0 {
		g.Repeat = 1
	}
	checks := g.SafetyChecks

	trace := env.Trace
	script := NewScript(g.Choices, trace)
	runner := omp.NewRunner()
	var dialogs *Dialogs
	var client *RPCClient
	var finish func()
	switch g.UI {
	case false:
		// No UI: the runner keeps its own no-op UI.
	case "rpc":
		var ui *omp.RPCUI
		client, ui, finish = wireRPC(script, trace)
		ui.Faults = faults
		dialogs = &Dialogs{Inner: ui, Trace: trace}
	default:
		dialogs = &Dialogs{Inner: ScriptedUI{Script: script}, Trace: trace}
	}
	if dialogs != nil {
		runner.SetUI(dialogs)
	}
	toolCalls := &ToolCalls{Trace: trace}
	if g.Revise != nil {
		toolCalls.Revise = g.Revise
	}
	runner.OnToolCall(toolCalls.Handler())
	exec := &Executor{Trace: trace}
	w := &omp.Wrapper{Tool: omp.Tool{Name: g.Tool, Approval: g.Approval}, Exec: exec, Runner: runner, Observe: noter(trace), Faults: faults, Release: rel}

	var lastErr error
	outcomes := make([]callOutcome, 0, g.Repeat)
	var lastCall *omp.CallContext
	successes := 0
	for i := 1; i <= g.Repeat; i++ {
		trace.Start(i)
		args := g.args()
		call := &omp.CallContext{
			Settings:    &omp.Settings{ApprovalMode: g.Mode, Approval: g.UserPolicies},
			AutoApprove: g.AutoApprove,
		}
		if len(checks) > 0 {
			call.Computer = &omp.ComputerCall{Actions: []any{args}, PendingSafetyChecks: checks}
		}
		_, lastErr = w.Execute(ctx, fmt.Sprintf("call-%d", i), args, call)
		lastCall = call
		if lastErr == nil {
			outcomes = append(outcomes, callOutcome{})
			successes++
			trace.AddText("outcome", "return")
		} else {
			outcomes = append(outcomes, callOutcome{threw: true, message: lastErr.Error()})
			trace.AddText("outcome", "throw: "+lastErr.Error())
		}
	}
	trace.Start(0)
	if finish != nil {
		finish()
	}

	obs := scenario.Observation{Values: map[string]any{
		"outcome":                "return",
		"effects":                exec.Effects(),
		"prompts":                0,
		"toolCalls":              toolCalls.Events(),
		"successfulCalls":        successes,
		"input":                  exec.LastInput(),
		"errorIncludes":          nil,
		"promptIncludes":         []string{},
		"rpcRequests":            0,
		"providerSafetyApproved": lastCall.ProviderSafetyApproved,
	}}
	if lastErr != nil {
		obs.Values["outcome"] = "throw"
		obs.Values["errorIncludes"] = lastErr.Error()
	}
	if dialogs != nil {
		obs.Values["prompts"] = dialogs.Count()
		obs.Values["promptIncludes"] = dialogs.Titles()
	}
	if client != nil {
		obs.Values["rpcRequests"] = client.SelectRequests()
	}
	if n := script.Unused(); n > 0 {
		trace.Add("script", "%d scripted answer(s) never asked for", n)
	}
	obs.Boundary = wrapperBoundary(givenJSON, env.Expected, outcomes, exec.Effects(), trace.Events())
	return obs, nil
}

// wireRPC connects the host's RPC select UI to a synthetic client over two
// pipes. finish closes the host's output and waits until both sides have
// stopped.
func wireRPC(script *Script, trace *Trace) (*RPCClient, *omp.RPCUI, func()) {
	toClient, hostOut := io.Pipe()
	toHost, clientOut := io.Pipe()
	ui := omp.NewRPCUI(hostOut, toHost)
	client := &RPCClient{Script: script, Trace: trace}
	served := make(chan struct{})
	go func() {
		defer close(served)
		client.Serve(toClient, clientOut)
	}()
	return client, ui, func() {
		hostOut.Close()
		<-served
		<-ui.Done()
		for _, p := range ui.Problems() {
			trace.Add("rpc", "host ignored a frame: %v", p)
		}
	}
}
