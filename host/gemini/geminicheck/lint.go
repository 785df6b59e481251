package geminicheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/scenario"
)

// plan is the scenario's Plan: the case's lint problems. A policy-check
// case scripts no action.
func plan(g *given, expected []scenario.Field) scenario.Plan[struct{}] {
	return scenario.Plan[struct{}]{Problems: lint(g, expected)}
}

var knownModes = map[string]bool{gemini.ModeDefault: true, gemini.ModeAutoEdit: true, gemini.ModePlan: true, gemini.ModeYolo: true}

func lint(g *given, expected []scenario.Field) []scenario.Problem {
	var out []scenario.Problem
	warn := func(ptr, name, format string, args ...any) {
		out = append(out, scenario.Problem{Pointer: ptr, Warning: true, Name: name, Message: fmt.Sprintf(format, args...)})
	}
	fail := func(ptr, format string, args ...any) {
		out = append(out, scenario.Problem{Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	if g.shellErr != nil {
		out = append(out, scenario.Problem{Pointer: "/given/args/command", OutsideModel: true,
			Message: fmt.Sprintf("%v (shell-outside-model: deskcheck-host judges it on the release's own parser)", g.shellErr)})
	}
	if !knownModes[g.mode] {
		warn("/given/mode", "unknown-mode", "mode %q is none of default, autoEdit, plan, yolo: the host accepts it, but no rule's modes match it, no YOLO branch runs, and yolo.toml and plan.toml stay inactive", g.mode)
	}
	for _, f := range expected {
		if f.Key == "outcome" {
			var o string
			if json.Unmarshal(f.Raw, &o) == nil && o == "asks" && !g.interactive {
				fail("/expected/outcome", "outcome asks with interactive false: a headless run cannot ask (outcome-vs-interactive)")
			}
		}
	}
	out = append(out, lintFiles(g)...)
	out = append(out, lintShadows(g)...)
	out = append(out, lintRemembered(g)...)
	out = append(out, lintCall(g)...)
	return out
}

// lintFiles reads each policy file as written.
func lintFiles(g *given) []scenario.Problem {
	var out []scenario.Problem
	warn := func(ptr, name, format string, args ...any) {
		out = append(out, scenario.Problem{Pointer: ptr, Warning: true, Name: name, Message: fmt.Sprintf(format, args...)})
	}
	for i, f := range g.policies {
		ptr := "/given/policies/" + strconv.Itoa(i)
		if strings.Contains(f.text, "safety_checker") {
			warn(ptr, "checker-not-modelled", "a safety checker decides here in the CLI; not modelled")
		}
		tables, err := gemini.RuleTables(f.text)
		if err != nil {
			continue
		}
		for j, t := range tables {
			rptr := ptr
			if f.fromRules {
				rptr = ptr + "/rules/" + strconv.Itoa(j)
			}
			p, isNum := t["priority"].(float64)
			if !isNum || p != math.Trunc(p) || p < 0 || p > 999 {
				warn(rptr, "priority-out-of-range", "the priority is not an integer in 0…999: the host rejects the whole file %s: none of its rules load", f.name)
			}
			names, _ := t["toolName"].([]any)
			if s, ok := t["toolName"].(string); ok {
				names = []any{s}
			}
			for _, n := range names {
				s, _ := n.(string)
				switch {
				case strings.Contains(s, "__"):
					warn(rptr, "legacy-mcp-syntax", "toolName %q: deprecated, the host warns and the rule matches only that literal name", s)
				case strings.Contains(s, "*") && s != "*" && s != "mcp_*" && !(strings.HasPrefix(s, "mcp_") && strings.HasSuffix(s, "_*") && !strings.Contains(s[4:len(s)-2], "*")):
					warn(rptr, "toolname-glob", "toolName %q matches only the literal name", s)
				}
			}
			_, prefix := t["commandPrefix"]
			_, regex := t["commandRegex"]
			_, pattern := t["argsPattern"]
			if prefix || regex {
				tn, _ := t["toolName"].(string)
				if tn != "run_shell_command" || pattern {
					warn(rptr, "prefix-on-other-tool", "the host reports an error (policyErrors) and loads the rule anyway: on another tool it never matches; beside argsPattern the prefix wins")
				}
			}
			if ap, ok := t["argsPattern"].(string); ok && (strings.HasPrefix(ap, `^\{"`) || strings.Contains(ap, `","`) || strings.Contains(ap, `"}`)) {
				warn(rptr, "args-pattern-framing", "arguments are stringified with sorted keys and each top-level \"key\":value framed by NUL characters (\\x00): {\\x00\"a\":1\\x00,\\x00\"b\":2\\x00}")
			}
			if f.tier == gemini.TierExtension {
				d, _ := t["decision"].(string)
				modes, _ := t["modes"].([]any)
				yolo := false
				for _, m := range modes {
					yolo = yolo || m == "yolo"
				}
				if d == gemini.Allow || yolo {
					warn(rptr, "extension-dropped", "the host drops this extension rule at load (an extension cannot allow or add a YOLO rule)")
				}
			}
		}
	}
	return out
}

// The shadow and tie checks compare the engine's rules pair by pair: they
// run for at most shadowRules rules (the release's defaults among them)
// and list at most shadowListed warnings, counting the rest. A case of a
// hundred policy files of a thousand rules each took minutes and
// gigabytes otherwise.
const (
	shadowRules  = 4096
	shadowListed = 100
)

// lintShadows builds the engine (newest release) and reports the desk's
// rules that never decide.
func lintShadows(g *given) []scenario.Problem {
	var out []scenario.Problem
	cfg := g.config(gemini.Newest())
	eng, err := gemini.NewEngine(cfg)
	if errors.Is(err, gemini.ErrRegexOutsideModel) {
		return []scenario.Problem{{Pointer: "/given/policies", OutsideModel: true,
			Message: fmt.Sprintf("%v (regex-outside-model: deskcheck-host judges it on the release's own engine)", err)}}
	}
	if err != nil {
		return nil
	}
	rules := eng.Rules()
	if len(rules) > shadowRules {
		return []scenario.Problem{{Pointer: "/given/policies", Warning: true, Name: "rules-not-compared",
			Message: fmt.Sprintf("%d rules, more than the %d the checks for rules that never decide and for ties across files compare pair by pair: not checked", len(rules), shadowRules)}}
	}
	// add lists the problem problem makes, or counts it past shadowListed
	// (without making it).
	more := 0
	add := func(problem func() scenario.Problem) {
		if len(out) < shadowListed {
			out = append(out, problem())
		} else {
			more++
		}
	}
	fileIndex := func(r *gemini.Rule) int {
		for i, f := range g.policies {
			if f.name == r.File && f.tier == r.Tier {
				return i
			}
		}
		return -1
	}
	pointer := func(r *gemini.Rule) string {
		if r.Settings != "" {
			return "/given/settings"
		}
		i := fileIndex(r)
		if i < 0 {
			return "/given/policies"
		}
		if g.policies[i].fromRules {
			return "/given/policies/" + strconv.Itoa(i) + "/rules/" + strconv.Itoa(r.Index)
		}
		return "/given/policies/" + strconv.Itoa(i)
	}
	for i, d := range rules {
		if d.Remembered || d.Tier == gemini.TierDefault && d.Settings == "" {
			continue
		}
		for _, s := range rules[:i] {
			if s == d || !covers(s, d) {
				continue
			}
			if d.Decision == gemini.Deny && s.Decision == gemini.Deny {
				continue
			}
			switch {
			case d.Settings == "tools.exclude" && s.Decision == gemini.Allow:
				add(func() scenario.Problem {
					return scenario.Problem{Pointer: "/given/settings/tools/exclude", Warning: true, Name: "exclude-reallowed",
						Message: fmt.Sprintf("tools.exclude is a deny at 4.4; this allow at %s re-allows %s (%s)", gemini.JSNumber(s.Priority), d.ToolName, s.Source)}
				})
			case d.Settings != "":
			case d.Decision == gemini.Deny:
				add(func() scenario.Problem {
					return scenario.Problem{Pointer: pointer(d), Warning: true, Name: "deny-never-decides",
						Message: fmt.Sprintf("this deny never decides: %s at %s is tried first", s.Source, gemini.JSNumber(s.Priority))}
				})
			default:
				add(func() scenario.Problem {
					return scenario.Problem{Pointer: pointer(d), Warning: true, Name: "shadowed-rule",
						Message: fmt.Sprintf("this %s rule never decides: %s (%s) at %s is tried first", d.Decision, s.Source, s.Decision, gemini.JSNumber(s.Priority))}
				})
			}
			break
		}
	}
	// Ties across files of one tier (the saved answers' auto-saved.toml
	// is a file of the user folder too).
	for i, a := range rules {
		if a.File == "" || a.Tier == gemini.TierDefault {
			continue
		}
		for _, b := range rules[i+1:] {
			if b.File == "" || b.Tier != a.Tier || b.File == a.File || b.Priority != a.Priority {
				continue
			}
			if a.ToolName == b.ToolName || a.ToolName == "*" || b.ToolName == "*" {
				add(func() scenario.Problem {
					return scenario.Problem{Pointer: pointer(b), Warning: true, Name: "tie-across-files",
						Message: fmt.Sprintf("%s and %s have equal priority %s: the host reads a folder in directory-listing order, so which one decides is not defined (the model uses desk order)", a.File, b.File, gemini.JSNumber(a.Priority))}
				})
			}
		}
	}
	if more > 0 {
		out = append(out, scenario.Problem{Pointer: "/given/policies", Warning: true, Name: "rules-not-compared",
			Message: fmt.Sprintf("and %d more rules that never decide or tie across files, not listed (the checks list %d)", more, shadowListed)})
	}
	return out
}

// covers reports whether rule s matches every call rule d matches.
func covers(s, d *gemini.Rule) bool {
	if s.ToolName != "*" && s.ToolName != d.ToolName {
		return false
	}
	if len(s.Modes) > 0 {
		if len(d.Modes) == 0 {
			return false
		}
		for _, m := range d.Modes {
			found := false
			for _, x := range s.Modes {
				found = found || x == m
			}
			if !found {
				return false
			}
		}
	}
	if s.Interactive != nil && (d.Interactive == nil || *d.Interactive != *s.Interactive) {
		return false
	}
	eqPtr := func(a, b *string) bool { return a == nil || b != nil && *a == *b }
	if !eqPtr(s.McpName, d.McpName) || !eqPtr(s.Subagent, d.Subagent) {
		return false
	}
	if s.Annotations != nil && !reflect.DeepEqual(s.Annotations, d.Annotations) {
		return false
	}
	if s.Pattern == nil {
		return true
	}
	if !s.HasPrefix || !d.HasPrefix {
		return false
	}
	return d.Prefix == s.Prefix || strings.HasPrefix(d.Prefix, s.Prefix+" ")
}

func lintRemembered(g *given) []scenario.Problem {
	var out []scenario.Problem
	for i, m := range g.remembered {
		ptr := "/given/remembered/" + strconv.Itoa(i)
		warnAnswer := func(name, format string, args ...any) {
			out = append(out, scenario.Problem{Pointer: ptr, Warning: true, Name: name, Message: fmt.Sprintf(format, args...)})
		}
		if gemini.NeedsNarrowing(m.Tool) && !m.HasPrefix && !m.HasFilePath {
			warnAnswer("remembered-needs-narrowing", "the host drops an answer for %s without a commandPrefix or filePath", m.Tool)
		}
		if m.HasFilePath {
			warnAnswer("remembered-file-path", "observed on every modelled release: the pattern the host builds (\\\\0\"file_path\":…\\\\0) looks for the two characters \\0, the arguments carry NUL characters, so it never matches")
		}
		if g.settings.DisableAlwaysAllow {
			warnAnswer("remembered-disabled", "disableAlwaysAllow is on: the answer is ignored — and so is any rule of yours at priority 950")
		}
	}
	return out
}

func lintCall(g *given) []scenario.Problem {
	var out []scenario.Problem
	args, _ := g.call.Args.(map[string]any)
	if gemini.IsShellTool(g.call.Name) {
		if cmd, ok := args["command"].(string); ok && g.shellErr == nil {
			for _, w := range strings.Fields(cmd) {
				w = strings.Trim(w, `"'`)
				if strings.HasPrefix(w, "/") && (path.Base(w) == "rg" || path.Base(w) == "rg.exe") {
					out = append(out, scenario.Problem{Pointer: "/given/args/command", Warning: true, Name: "environment-dependent",
						Message: "the host reads the file system here (an absolute rg path); the model assumes an empty workspace"})
					break
				}
			}
		}
	}
	if g.mode == gemini.ModeAutoEdit && (g.call.Name == "write_file" || g.call.Name == "replace") {
		if p, ok := args["file_path"].(string); ok && (strings.HasPrefix(p, "/") || strings.Contains(p, "..")) {
			out = append(out, scenario.Problem{Pointer: "/given/args/file_path", Warning: true, Name: "checker-not-modelled",
				Message: "a safety checker (allowed-path) decides here in the CLI; not modelled"})
		}
	}
	return out
}
