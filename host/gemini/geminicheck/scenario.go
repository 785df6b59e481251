package geminicheck

import (
	"context"
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

//go:embed policy-check.schema.json
var policyCheckSchema []byte

// The limits a policy-check case is held to.
const (
	DefaultPoliciesLimit   = 100
	DefaultRulesLimit      = 1000
	DefaultRememberedLimit = 100
	DefaultTextLimit       = 65536
)

// PolicyCheck is the scenario of one call of the policy engine's check.
var PolicyCheck = scenario.Declare(&scenario.Scenario{
	Name:        "policy-check",
	Description: "one tool call checked by Gemini CLI's policy engine: tiers and priorities, settings rules, remembered answers, modes, shell splitting and heuristics; nothing executed",
	Unit:        "check",
	Schema:      policyCheckSchema,
	Expected: scenario.Observables{
		{Key: "decision", Comparer: scenario.Exact},
		{Key: "outcome", Comparer: scenario.Exact},
		{Key: "rule", Comparer: RuleSubset},
		{Key: "heuristics", Comparer: SetEqual},
		{Key: "subcommands", Comparer: scenario.Exact},
		{Key: "policyErrors", Comparer: scenario.Exact, Count: true},
		{Key: "policyWarnings", Comparer: scenario.Exact, Count: true},
		{Key: "policyErrorIncludes", Comparer: scenario.AnySubstring},
	},
	Limits: []scenario.Limit{
		{Name: "policies", Pointer: "/given/policies", Count: true, Default: DefaultPoliciesLimit, Help: "most policy files in one policy-check case"},
		{Name: "remembered", Pointer: "/given/remembered", Count: true, Default: DefaultRememberedLimit, Help: "most remembered answers in one policy-check case"},
	},
	Warnings: []scenario.Warning{
		{Name: "trust-not-read", Help: "trustedFolder: false on releases before 0.58.0, whose engine does not read it"},
		{Name: "unmodelled-release", Help: "a hosts range that also covers releases older than the oldest modelled one"},
		{Name: "unknown-mode", Help: "a mode that is none of the four: no modes rule matches it and no YOLO branch runs"},
		{Name: "deny-never-decides", Help: "a deny rule a rule of higher priority that allows or asks is always tried first for"},
		{Name: "shadowed-rule", Help: "an allow or ask_user rule a rule tried first always decides for"},
		{Name: "exclude-reallowed", Help: "a tools.exclude entry a user or admin rule above 4.4 re-allows"},
		{Name: "priority-out-of-range", Help: "a TOML priority that is not an integer in 0…999: the host loads no rule of the file"},
		{Name: "tie-across-files", Help: "two rules of equal priority in different files of one tier: the host's order is the folder listing's"},
		{Name: "rules-not-compared", Help: "more rules than the shadow and tie checks compare pair by pair (4,096), or more of their warnings than they list (100)"},
		{Name: "toolname-glob", Help: "a toolName with * that is not *, mcp_* or mcp_<server>_*: it matches only the literal name"},
		{Name: "legacy-mcp-syntax", Help: "a toolName with __: deprecated, it matches only that literal name"},
		{Name: "args-pattern-framing", Help: "an argsPattern written for unframed JSON: the arguments are framed by NUL characters"},
		{Name: "prefix-on-other-tool", Help: "commandPrefix or commandRegex on another tool or beside argsPattern"},
		{Name: "remembered-needs-narrowing", Help: "a remembered answer the host drops: its tool needs a command prefix or a file path"},
		{Name: "remembered-file-path", Help: "a remembered filePath: the pattern the host builds never matches"},
		{Name: "remembered-disabled", Help: "remembered answers with disableAlwaysAllow: ignored, as are rules at priority 950"},
		{Name: "environment-dependent", Help: "a command whose answer reads the file system (an absolute rg path, a symbolic link)"},
		{Name: "checker-not-modelled", Help: "a safety checker decides here in the CLI; the model has none"},
		{Name: "extension-dropped", Help: "an extension rule the host drops at load (allow, or modes with yolo)"},
	},
	Template: `{
        "tool": "run_shell_command",
        "args": { "command": "git push origin main" },
        "server": "",
        "annotations": { "readOnlyHint": false },
        "subagent": "",
        "mode": "default",
        "interactive": true,
        "trustedFolder": true,
        "policies": [
          { "tier": "user", "rules": [
            { "toolName": "run_shell_command", "commandPrefix": "git", "decision": "allow", "priority": 100 },
            { "toolName": "run_shell_command", "commandPrefix": "git push", "decision": "deny", "priority": 200 }
          ] }
        ],
        "settings": { "tools": { "exclude": [] } },
        "remembered": []
      }`,
	// policyErrorIncludes is what an author asserts, never proposed.
	Shape: func(key string, v any) (any, bool) {
		return v, key != "policyErrorIncludes"
	},
	SourceKey: "engine",
	Picture:   picture,
	Deciding:  []string{"decision"},
}, scenario.Kind[*given, struct{}, struct{}]{
	Decode:  decodeGiven,
	Plan:    plan,
	Ranged:  ranged,
	Run:     run,
	Suggest: suggest,
})

// release reads the release a run behaves as: env.Release, or the newest.
func release(env scenario.Env) (gemini.Release, error) {
	if env.Release == "" {
		return gemini.Newest(), nil
	}
	return gemini.Lookup(env.Release)
}

func run(_ context.Context, g *given, env scenario.Env) (scenario.Observation, struct{}, error) {
	if g.shellErr != nil {
		return scenario.Observation{}, struct{}{}, g.shellErr
	}
	rel, err := release(env)
	if err != nil {
		return scenario.Observation{}, struct{}{}, err
	}
	cfg := g.config(rel)
	cfg.Faults = adapter.FaultSet[gemini.Fault](env)
	cfg.Mutation = adapter.Mutation(mutants, env.Mutant)
	res, eng, err := Judge(cfg, g.call)
	if err != nil {
		return scenario.Observation{}, struct{}{}, err
	}
	narrate(env.Trace, g, rel, eng, res)
	obs := scenario.Observation{Values: Observed(res, eng, g.interactive, cfg.Faults)}
	obs.Points = append(obs.Points, res.Points...)
	obs.Points = append(obs.Points, "gemini/decision-"+res.Decision, "gemini/outcome-"+outcome(res.Decision, g.interactive, cfg.Faults))
	for i := range obs.Points {
		if !strings.HasPrefix(obs.Points[i], "gemini/") {
			obs.Points[i] = "gemini/" + obs.Points[i]
		}
	}
	return obs, struct{}{}, nil
}

// Judge builds the engine for cfg and checks call once.
func Judge(cfg gemini.Config, call gemini.Call) (*gemini.Result, *gemini.Engine, error) {
	eng, err := gemini.NewEngine(cfg)
	if err != nil {
		return nil, nil, err
	}
	res, err := eng.Check(call)
	if err != nil {
		return nil, nil, err
	}
	return res, eng, nil
}

// outcome is what the CLI's scheduler does with a decision.
func outcome(decision string, interactive bool, faults gemini.Faults) string {
	switch decision {
	case gemini.Allow:
		return "allowed"
	case gemini.AskUser:
		if interactive || faults.Has(gemini.FaultHeadlessAsks) {
			return "asks"
		}
	}
	return "refused"
}

// Observed is the observation of one check, keyed as the expected block.
func Observed(res *gemini.Result, eng *gemini.Engine, interactive bool, faults gemini.Faults) map[string]any {
	var rule any
	if res.Rule != nil {
		r := map[string]any{
			"source":   res.Rule.Source,
			"priority": res.Rule.Priority,
			"decision": res.Rule.Decision,
			"toolName": res.Rule.ToolName,
		}
		if res.Rule.DenyMessage != nil {
			r["denyMessage"] = *res.Rule.DenyMessage
		}
		rule = r
	}
	heur := heuristicSet(res.Heuristics)
	var sub any
	if res.Subcommands >= 0 {
		sub = float64(res.Subcommands)
	}
	errs, warns := 0, 0
	texts := []any{}
	for _, p := range eng.Problems {
		if p.Warning {
			warns++
		} else {
			errs++
		}
		texts = append(texts, p.Text)
	}
	return map[string]any{
		"decision":            res.Decision,
		"outcome":             outcome(res.Decision, interactive, faults),
		"rule":                rule,
		"heuristics":          heur,
		"subcommands":         sub,
		"policyErrors":        scenario.Count(errs),
		"policyWarnings":      scenario.Count(warns),
		"policyErrorIncludes": texts,
	}
}

// heuristicSet is the names that fired, each once, sorted.
func heuristicSet(list []string) []any {
	seen := map[string]bool{}
	var names []string
	for _, h := range list {
		if !seen[h] {
			seen[h] = true
			names = append(names, h)
		}
	}
	sort.Strings(names)
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// suggest proposes the decision and outcome always, the rule, the
// heuristics, and for the shell the number of parts; the policy-file
// counts when a file reported a problem.
func suggest(g *given, obs map[string]any) []string {
	keys := []string{"decision", "outcome", "rule", "heuristics"}
	if gemini.IsShellTool(g.call.Name) {
		keys = append(keys, "subcommands")
	}
	if n, _ := obs["policyErrors"].(float64); n > 0 {
		keys = append(keys, "policyErrors")
	}
	if n, _ := obs["policyWarnings"].(float64); n > 0 {
		keys = append(keys, "policyWarnings")
	}
	return keys
}

// RuleSubset compares the reported rule: null asserts none; an object
// asserts each key written (numbers by value, strings exactly), and a key
// the reported rule lacks is a mismatch.
var RuleSubset scenario.Comparer = ruleSubset{}

type ruleSubset struct{}

func (ruleSubset) Name() string { return "the keys written, null for none" }

func (ruleSubset) Match(want, got any) bool {
	if want == nil {
		return got == nil
	}
	w, ok := want.(map[string]any)
	g, ok2 := got.(map[string]any)
	if !ok || !ok2 {
		return false
	}
	for k, v := range w {
		x, found := g[k]
		if !found || !scenario.Equal(v, x) {
			return false
		}
	}
	return true
}

// SetEqual compares lists as sets of strings: order and repeats aside.
var SetEqual scenario.Comparer = setEqual{}

type setEqual struct{}

func (setEqual) Name() string { return "set-equal" }

func (setEqual) Match(want, got any) bool {
	w, ok := want.([]any)
	g, ok2 := got.([]any)
	if !ok || !ok2 {
		return false
	}
	set := func(l []any) map[string]bool {
		m := map[string]bool{}
		for _, x := range l {
			s, _ := x.(string)
			m[s] = true
		}
		return m
	}
	a, b := set(w), set(g)
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// narrate writes what the case gives the engine and what check did: the
// deciding rule with its tier and priority.
func narrate(t *scenario.Trace, g *given, rel gemini.Release, eng *gemini.Engine, res *gemini.Result) {
	if t == nil {
		return
	}
	mode := g.mode
	if !g.modeSet {
		mode += " (default)"
	}
	run := "interactive"
	if !g.interactive {
		run = "headless"
	}
	t.AddText("release", "gemini "+rel.Version+" ("+rel.Group.String()+"): mode "+mode+", "+run+", folder trusted: "+strconv.FormatBool(g.trusted))
	for _, p := range g.policies {
		where := p.tier.String() + " tier"
		if p.tier == gemini.TierExtension {
			where += ", extension " + p.extension
		}
		t.AddText("policies", p.name+" ("+where+")")
	}
	if len(g.settingsKeys) > 0 {
		t.Add("settings", "%s", strings.Join(g.settingsKeys, ", "))
	}
	for _, p := range eng.Problems {
		kind := "error"
		if p.Warning {
			kind = "warning"
		}
		t.Add("policy-file", "%s: %s", kind, p.Text)
	}
	for _, s := range res.Steps {
		t.AddText("check", s)
	}
	if res.Rule != nil {
		t.AddText("decision", res.Decision+", decided by "+ruleWords(res.Rule))
	} else {
		t.Add("decision", "%s, no rule held responsible", res.Decision)
	}
}

// ruleWords names a rule with its tier and priority.
func ruleWords(r *gemini.Rule) string {
	tier, ok := ruleTiers[int(r.Priority)]
	if !ok {
		tier = "tier " + fmt.Sprint(int(r.Priority))
	}
	if r.Priority > 1000 {
		tier = "above every tier"
	}
	return r.Source + " (" + r.Decision + " rule, " + tier + ", priority " + gemini.JSNumber(r.Priority) + ")"
}

// ruleTiers names the tiers by their whole priority.
var ruleTiers = map[int]string{1: "default tier 1", 2: "extension tier 2", 3: "session tier 3", 4: "user tier 4", 5: "admin tier 5"}
