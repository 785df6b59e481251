package verifier

import (
	"context"
	"fmt"
	"io"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/recorders"
)

// DefaultToolName is the tool a wrapper case calls unless it names one.
const DefaultToolName = "seed_note"

// DefaultSafetyCheck is the message of the check `"safetyCheck": true` adds.
const DefaultSafetyCheck = "Fictional seed shelf check"

var wrapperScenario = Scenario{
	Name:        "wrapper",
	Description: "calls through the host's tool wrapper: approval resolution, tool_call, the approval dialog, execution",
	Given:       []string{"tool", "approval", "args", "mode", "autoApprove", "userPolicies", "ui", "choices", "repeat", "revise", "safetyCheck"},
	Expected: Observables{
		{"outcome", Exact}, {"effects", Exact}, {"prompts", Exact}, {"toolCalls", Exact}, {"successfulCalls", Exact},
		{"input", JSONEqual}, {"errorIncludes", Substring}, {"promptIncludes", AnySubstring},
		{"rpcRequests", Exact}, {"providerSafetyApproved", Exact},
	},
	Suggest: func(given gjson.Result, obs map[string]any) []string {
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
			if suggestionValue("promptIncludes", obs["promptIncludes"]) != "" {
				keys = append(keys, "promptIncludes")
			}
			keys = append(keys, "providerSafetyApproved")
		}
		return keys
	},
	Run: runWrapper,
}

// wrapperGiven is the decoded given block of a wrapper case.
type wrapperGiven struct {
	Tool         string
	Approval     any
	Args         gjson.Result
	Mode         string
	AutoApprove  bool
	UserPolicies map[string]any
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
			g.Tool = v.Str
		case "approval":
			g.Approval = v.Value()
		case "args":
			g.Args = v
		case "mode":
			g.Mode = v.Str
		case "autoApprove":
			g.AutoApprove = v.Bool()
		case "ui":
			g.UI = v.Value()
		case "repeat":
			g.Repeat = int(v.Int())
		case "userPolicies":
			g.UserPolicies, _ = v.Value().(map[string]any)
		case "revise":
			g.Revise, _ = v.Value().(map[string]any)
		case "choices":
			v.ForEach(func(_, c gjson.Result) bool {
				if c.Type == gjson.String {
					s := c.Str
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
				g.SafetyChecks = []omp.SafetyCheck{{Message: v.Str}}
			case v.IsArray():
				v.ForEach(func(_, c gjson.Result) bool {
					g.SafetyChecks = append(g.SafetyChecks, omp.SafetyCheck{ID: c.Get("id").String(), Code: c.Get("code").String(), Message: c.Get("message").String()})
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
	return g.Args.Value()
}

func runWrapper(ctx context.Context, c *Case, faults omp.Faults) (Observation, error) {
	g := readWrapperGiven(c.Given)
	if g.Tool == "" {
		g.Tool = DefaultToolName
	}
	if g.Repeat == 0 {
		g.Repeat = 1
	}
	checks := g.SafetyChecks

	trace := &recorders.Trace{}
	script := recorders.NewScript(g.Choices, trace)
	runner := omp.NewRunner()
	var dialogs *recorders.Dialogs
	var client *recorders.RPCClient
	var finish func()
	switch g.UI {
	case false:
		// No UI: the runner keeps its own no-op UI.
	case "rpc":
		var ui *omp.RPCUI
		client, ui, finish = wireRPC(script, trace)
		ui.Faults = faults
		dialogs = &recorders.Dialogs{Inner: ui, Trace: trace}
	default:
		dialogs = &recorders.Dialogs{Inner: recorders.ScriptedUI{Script: script}, Trace: trace}
	}
	if dialogs != nil {
		runner.SetUI(dialogs)
	}
	toolCalls := &recorders.ToolCalls{Trace: trace}
	if g.Revise != nil {
		toolCalls.Revise = g.Revise
	}
	runner.OnToolCall(toolCalls.Handler())
	exec := &recorders.Executor{Trace: trace}
	w := &omp.Wrapper{Tool: omp.Tool{Name: g.Tool, Approval: g.Approval}, Exec: exec, Runner: runner, Observe: trace.Note, Faults: faults}

	var lastErr error
	var lastCall *omp.CallContext
	successes := 0
	for i := 1; i <= g.Repeat; i++ {
		trace.StartCall(i)
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
			successes++
			trace.AddText("outcome", "return")
		} else {
			trace.AddText("outcome", "throw: "+lastErr.Error())
		}
	}
	trace.StartCall(0)
	if finish != nil {
		finish()
	}

	obs := Observation{Values: map[string]any{
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
	obs.Trace = trace.Events()
	return obs, nil
}

// wireRPC connects the host's RPC select UI to a synthetic client over two
// pipes. finish closes the host's output and waits until both sides have
// stopped.
func wireRPC(script *recorders.Script, trace *recorders.Trace) (*recorders.RPCClient, *omp.RPCUI, func()) {
	toClient, hostOut := io.Pipe()
	toHost, clientOut := io.Pipe()
	ui := omp.NewRPCUI(hostOut, toHost)
	client := &recorders.RPCClient{Script: script, Trace: trace}
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
