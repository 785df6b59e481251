package ompcheck

import (
	"fmt"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
)

// The host's own bash and write tools in wrapper cases: a case naming one
// of them without given.approval gets the tool's own declaration, computed
// by the model from given.args and given.settings. The command or path is
// data: it is classified and never run.

// readBashSettings reads given.settings (schema-valid).
func readBashSettings(v gjson.Result) omp.BashSettings {
	var s omp.BashSettings
	if p := v.Get(`bash\.patterns`); p.Exists() {
		s.Patterns = jsValue(p)
	}
	s.AllowCompound = v.Get(`bash\.allowCompoundCommands`).Bool()
	return s
}

// declaredComparer compares the declared key: every key written must equal
// the observed declaration's; keys not written are not checked; a written
// key the declaration lacks differs.
type declaredComparer struct{}

func (declaredComparer) Name() string { return "the keys written" }

func (c declaredComparer) Match(want, got any) bool { return len(c.Parts(want, got)) == 0 }

func (declaredComparer) Parts(want, got any) []scenario.Part {
	w, ok := want.(map[string]any)
	if !ok {
		return []scenario.Part{{Expected: want, Observed: got}}
	}
	g, _ := got.(map[string]any)
	keys := make([]string, 0, len(w))
	for k := range w {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []scenario.Part
	for _, k := range keys {
		v, has := g[k]
		if !has {
			out = append(out, scenario.Part{Name: "." + k, Expected: w[k], Observed: nil})
			continue
		}
		if !scenario.Equal(w[k], v) {
			out = append(out, scenario.Part{Name: "." + k, Expected: w[k], Observed: v})
		}
	}
	return out
}

// Declared is the comparer of the wrapper's declared key.
var Declared scenario.Comparer = declaredComparer{}

// observedDeclaration shapes a raw declaration as the declared key
// observes it: a bare string is {"tier": …}, an object is itself, and no
// declaration is null.
func observedDeclaration(raw any) any {
	switch v := raw.(type) {
	case nil:
		return nil
	case string:
		return map[string]any{"tier": v}
	case map[string]any:
		return v
	}
	return raw
}

// lintTools warns where a case's tool setup is not what it seems: an
// approval that replaces a real tool's declaration, and a write to an
// xd:// device that would need a mounted device (not modelled).
func lintTools(g *wrapperGiven) []scenario.Problem {
	var out []scenario.Problem
	name := g.Tool
	if (name == "bash" || name == "write") && g.HasApproval {
		out = append(out, scenario.Problem{Pointer: "/given/approval", Warning: true, Name: "fake-tool", Message: fmt.Sprintf(
			"given.approval replaces the real %s tool's own declaration: the case calls a fake tool named %s that declares exactly this, and none of %s's rules apply; drop approval to use them",
			name, name, name)})
	}
	if g.realTool() && name == "write" {
		if p := g.lint.writePath; p != nil {
			if dev, ok := omp.ParseXdName(omp.UnwrapHashlinePath(*p)); ok && dev != "" && dev != omp.XdReportIssue && dev != "resolve" && dev != "reject" && dev != "propose" {
				out = append(out, scenario.Problem{Pointer: "/given/args/path", Warning: true, Name: "xd-device", Message: fmt.Sprintf(
					"xd://%s would need a mounted xd:// device, which reads session state and is not modelled: the model declares exec, as the host does with no device mounted", dev)})
			}
		}
	}
	return out
}
