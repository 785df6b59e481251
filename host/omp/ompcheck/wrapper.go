package ompcheck

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/internal/adapter"
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
var Wrapper = scenario.Declare(&scenario.Scenario{
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
		{Key: "declared", Comparer: Declared},
	},
	Limits: []scenario.Limit{
		{Name: "repeat", Pointer: "/given/repeat", Default: 1000, Help: "largest given.repeat of a wrapper case", Flag: "max-repeat"},
		{Name: "choices", Pointer: "/given/choices", Count: true, Default: 1000, Help: "most scripted choices in one wrapper case", Flag: "max-choices"},
		{Name: limitCopyBytes, Pointer: "/given", Measured: true, Default: 4 << 20, Help: "the given block but its choices, times repeat, and the choices once"},
	},
	Warnings: []scenario.Warning{
		{Name: "unknown-mode", Help: "an approval mode the host does not know (every tier auto-approved, as yolo, from 18.2.3 and on the default 18.3.4; no tier on 17.2.15 … 18.2.0)"},
		{Name: "non-object-policies", Help: "userPolicies that are not an object (read by own property up to 18.2.0, as {} from 18.2.3)"},
		{Name: "unknown-tier", Help: "an approval tier the host does not know (it is treated as exec)"},
		{Name: "effects-vs-calls", Help: "more effects expected than calls made"},
		{Name: "choices-vs-prompts", Help: "the number of scripted choices differs from the prompts expected"},
		{Name: "fake-tool", Help: "approval given with tool bash or write: a fake tool replaces the real tool's own declaration"},
		{Name: "xd-device", Help: "a write to an xd:// device, which would need a mounted device (not modelled: exec is declared)"},
	},
	Shape: firstTitle,
	Template: `{
        "tool": "seed_note",
        "approval": { "tier": "exec", "reason": "Placeholder: why this tool asks" },
        "args": { "action": "publish" },
        "settings": { "bash.patterns": [{ "match": "git push *", "approval": "prompt" }], "bash.allowCompoundCommands": false },
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
	Picture:   picture,
	Deciding:  []string{"resolve"},
}, scenario.Kind[*wrapperGiven, wrapperPlan, wrapperEvidence]{
	Decode:   decodeWrapper,
	Plan:     planWrapper,
	Measure:  func(g *wrapperGiven, _ string) int { return g.copyBytes },
	Run:      runWrapper,
	Boundary: wrapperBoundary,
	Suggest:  suggestWrapper,
	Group:    wrapperGroup,
})

// suggestWrapper picks the keys worth asserting for a wrapper case.
func suggestWrapper(g *wrapperGiven, obs map[string]any) []string {
	keys := []string{"outcome", "effects", "prompts", "toolCalls"}
	if g.repeat > 1 {
		keys = append(keys, "successfulCalls")
	}
	if obs["input"] != nil {
		keys = append(keys, "input")
	}
	if obs["errorIncludes"] != nil {
		keys = append(keys, "errorIncludes")
	}
	if g.UI == "rpc" {
		keys = append(keys, "rpcRequests")
	}
	if g.realTool() && obs["declared"] != nil {
		keys = append(keys, "declared")
	}
	if g.safetyCheck {
		if v, _ := firstTitle("promptIncludes", obs["promptIncludes"]); v != "" {
			keys = append(keys, "promptIncludes")
		}
		keys = append(keys, "providerSafetyApproved")
	}
	return keys
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

// planWrapper scripts repeat calls, expected.effects of them permitted,
// and warns when the scripted choices and the prompts expected differ in
// number, and when more effects are expected than calls are made (each
// call runs the executor at most once).
func planWrapper(g *wrapperGiven, expected []scenario.Field) scenario.Plan[wrapperPlan] {
	p := wrapperScript(g, expected)
	return scenario.Plan[wrapperPlan]{Problems: lintWrapper(g, expected), Permitted: p.permitted, Denied: p.denied, Script: p}
}

// lintWrapper is the wrapper case's lint problems.
func lintWrapper(g *wrapperGiven, expected []scenario.Field) []scenario.Problem {
	out := lintTools(g)
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
	if m := g.lint.mode; m != nil && !known(*m, omp.ModeAlwaysAsk, omp.ModeWrite, omp.ModeYolo) {
		out = append(out, scenario.Problem{Pointer: "/given/mode", Warning: true, Name: "unknown-mode", Message: fmt.Sprintf(
			"mode %s is not one the host knows (always-ask, write, yolo, matched exactly), and what it means depends on the release: %s%s",
			jsontext.Quote(*m), unknownModeMeanings, closest(*m, omp.ModeAlwaysAsk, omp.ModeWrite, omp.ModeYolo))})
	}
	if g.lint.nonObjectPolicies {
		out = append(out, scenario.Problem{Pointer: "/given/userPolicies", Warning: true, Name: "non-object-policies", Message: "userPolicies is not an object, and what it means depends on the release: " + nonObjectPolicyMeanings})
	}
	tiers := []string{string(omp.TierRead), string(omp.TierWrite), string(omp.TierExec)}
	tierWarning := func(ptr, v string) {
		out = append(out, scenario.Problem{Pointer: ptr, Warning: true, Name: "unknown-tier", Message: fmt.Sprintf(
			"tier %s is not one the host knows (read, write, exec, matched exactly): it treats the tool as exec, the highest tier%s",
			jsontext.Quote(v), closest(v, tiers...))})
	}
	if t := g.lint.tier; t != nil && !known(*t, tiers...) {
		tierWarning(g.lint.tierPointer, *t)
	}
	calls := int64(1)
	if g.lint.hasRepeat {
		calls = g.repeat
	}
	if effects := int64(expectedEffects(expected)); effects > calls {
		out = append(out, scenario.Problem{Pointer: "/expected/effects", Warning: true, Name: "effects-vs-calls", Message: fmt.Sprintf("%d effects expected from %d calls: each call runs the executor at most once", effects, calls)})
	}
	if !g.lint.hasChoices {
		return out
	}
	n := len(g.Choices)
	for _, f := range expected {
		if p := gjson.ParseBytes(f.Raw); f.Key == "prompts" && p.Int() != int64(n) {
			out = append(out, scenario.Problem{Pointer: "/given/choices", Warning: true, Name: "choices-vs-prompts", Message: fmt.Sprintf("%d scripted choices but %d prompts expected", n, p.Int())})
		}
	}
	return out
}

// wrapperGiven is the decoded given block of a wrapper case. It is shared
// by every run of the case: the values a run hands to the host (the
// arguments, the approval, the settings, the user policies, the revised
// input) are kept as their JSON text and decoded afresh for each run.
type wrapperGiven struct {
	Tool         string
	Approval     gjson.Result
	HasApproval  bool
	Args         gjson.Result
	Settings     gjson.Result
	Mode         string
	AutoApprove  bool
	UserPolicies gjson.Result // any JSON value
	UI           any          // nil (absent), true, false or "rpc"
	Choices      []*string
	Repeat       int
	Revise       gjson.Result
	SafetyChecks []omp.SafetyCheck

	// What the plan, the suggestions and the run group read.
	repeat      int64 // given.repeat as written, 0 when absent
	safetyCheck bool  // given.safetyCheck is present and not false
	copyBytes   int   // the copyBytes measure
	lint        wrapperLint
}

// wrapperLint is what lintWrapper reads of a given block.
type wrapperLint struct {
	mode              *string // given.mode when it is a string
	nonObjectPolicies bool    // userPolicies present, neither an object nor null
	tier              *string // the approval's tier when it is a string
	tierPointer       string  // where that tier is
	hasRepeat         bool
	hasChoices        bool
	writePath         *string // given.args.path when it is a string
}

// decodeWrapper reads a schema-valid given block in one pass.
func decodeWrapper(givenJSON []byte) (*wrapperGiven, error) {
	given := gjson.ParseBytes(givenJSON)
	g := readWrapperGiven(given)
	g.copyBytes = copyBytes(given)
	if m := given.Get("mode"); m.Type == gjson.String {
		s := jsString(m)
		g.lint.mode = &s
	}
	p := given.Get("userPolicies")
	g.lint.nonObjectPolicies = p.Exists() && !p.IsObject() && p.Type != gjson.Null
	switch a := given.Get("approval"); {
	case a.Type == gjson.String:
		s := jsString(a)
		g.lint.tier, g.lint.tierPointer = &s, "/given/approval"
	case a.IsObject():
		if t := a.Get("tier"); t.Type == gjson.String {
			s := jsString(t)
			g.lint.tier, g.lint.tierPointer = &s, "/given/approval/tier"
		}
	}
	r := given.Get("repeat")
	g.repeat, g.lint.hasRepeat = r.Int(), r.Exists()
	g.lint.hasChoices = given.Get("choices").Exists()
	if path := given.Get("args.path"); path.Type == gjson.String {
		s := jsString(path)
		g.lint.writePath = &s
	}
	sc := given.Get("safetyCheck")
	g.safetyCheck = sc.Exists() && sc.Type != gjson.False
	return g, nil
}

// realTool reports whether the case calls the host's own bash or write
// tool: that name and no approval of its own.
func (g *wrapperGiven) realTool() bool {
	return (g.Tool == "bash" || g.Tool == "write") && !g.HasApproval
}

// readWrapperGiven reads the values a run needs, in one pass.
func readWrapperGiven(given gjson.Result) *wrapperGiven {
	g := &wrapperGiven{}
	given.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "tool":
			g.Tool = jsString(v)
		case "approval":
			g.Approval = v
			g.HasApproval = true
		case "settings":
			g.Settings = v
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
			g.UserPolicies = v
		case "revise":
			g.Revise = v
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

// wrapperGroup splits a behaviour group only for a case that uses a real
// tool's own declaration, where the tools' boundaries apply; every other
// case runs once per group.
func wrapperGroup(g *wrapperGiven, r scenario.Release) string {
	if toolEraSplits[r.Version] && g.realTool() {
		return r.Group + " (" + r.Version + " tools)"
	}
	return r.Group
}

func runWrapper(ctx context.Context, g *wrapperGiven, env scenario.Env) (scenario.Observation, wrapperEvidence, error) {
	rel, _, err := release(env, "wrapper")
	if err != nil {
		return scenario.Observation{}, wrapperEvidence{}, err
	}
	faults := adapter.FaultSet[omp.Fault](env)
	reached := &adapter.Reached{}
	if g.Mode != "" && modeName(g.Mode) == "unknown" {
		// What the release makes of it is in the mode it resolves in.
		reached.Add("wrapper/mode-unknown")
	}
	toolName, repeat := g.Tool, g.Repeat
	if toolName == "" {
		toolName = DefaultToolName
	}
	if repeat == 0 {
		repeat = 1
	}
	checks := slices.Clone(g.SafetyChecks)
	approval := jsValue(g.Approval)
	settings := readBashSettings(g.Settings)
	userPolicies := jsValue(g.UserPolicies)
	revise, _ := jsValue(g.Revise).(map[string]any)

	trace := env.Trace
	script := NewScript(slices.Clone(g.Choices), trace)
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
	if revise != nil {
		toolCalls.Revise = revise
	}
	runner.OnToolCall(toolCalls.Handler())
	runner.OnApproval(func(ev omp.ApprovalEvent) { approvalPoint(reached, ev, dialogs, client != nil) })
	exec := &Executor{Trace: trace}
	tool := omp.Tool{Name: toolName, Approval: approval}
	era := omp.ToolEraOf(rel)
	var declared any
	if !g.HasApproval {
		if real, ok := omp.RealTool(toolName, era, settings, faults); ok {
			tool = real
			if real.Approval != nil {
				// The first evaluation is the declaration the case observes;
				// the trace names the rule that decided each one.
				evaluated := false
				tool.Approval = omp.ApprovalFunc(func(args any) (any, error) {
					d, _ := omp.Declare(toolName, era, settings, args, faults)
					if !evaluated {
						evaluated = true
						declared = observedDeclaration(d.Raw)
					}
					trace.Add("declare", "%s declares %s: %s", toolName, scenario.JSONText(observedDeclaration(d.Raw)), d.Why)
					return d.Raw, nil
				})
			}
		}
	} else {
		declared = observedDeclaration(approval)
	}
	noteTrace := noter(trace)
	observe := func(n omp.Note) {
		noteTrace(n)
		wrapperPoint(reached, n)
	}
	w := &omp.Wrapper{Tool: tool, Exec: exec, Runner: runner, Observe: observe, Faults: faults, Mutation: mutationOf(env), Release: rel}

	var lastErr error
	outcomes := make([]callOutcome, 0, repeat)
	var lastCall *omp.CallContext
	successes := 0
	for i := 1; i <= repeat; i++ {
		trace.Start(i)
		args := g.args()
		call := &omp.CallContext{
			Settings:    &omp.Settings{ApprovalMode: g.Mode, Approval: userPolicies},
			AutoApprove: g.AutoApprove,
		}
		if len(checks) > 0 {
			call.Computer = &omp.ComputerCall{Actions: []any{args}, PendingSafetyChecks: checks}
		}
		_, lastErr = w.Execute(ctx, fmt.Sprintf("call-%d", i), args, call)
		lastCall = call
		if call.ProviderSafetyApproved {
			reached.Add("wrapper/safety-approved")
		}
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
		"declared":               declared,
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
	if revise != nil && toolCalls.Events() > 0 && scenario.Equal(scenario.Normalize(exec.LastInput()), scenario.Normalize(revise)) {
		reached.Add("wrapper/tool-call-revised")
	}
	if dialogs != nil && len(checks) > 0 {
		for _, t := range dialogs.Titles() {
			if strings.Contains(t, "\nProvider safety checks:\n") {
				reached.Add("wrapper/safety-dialog")
			}
		}
	}
	if lastErr != nil && strings.Contains(lastErr.Error(), "has pending provider safety checks but no interactive UI") {
		reached.Add("wrapper/safety-no-ui")
	}
	obs.Points = reached.Names()
	return obs, wrapperEvidence{calls: outcomes, runs: exec.Effects(), events: trace.Events()}, nil
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
