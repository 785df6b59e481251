package ompcheck

import (
	"fmt"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
)

// Releases are the modelled OMP releases as the engine knows them, oldest
// first: each with its behaviour group (G0 … G3) and, for the releases
// before 18.1.16, the scenarios they lack.
var Releases = buildReleases()

func buildReleases() []scenario.Release {
	var out []scenario.Release
	for _, v := range omp.Releases() {
		g, _ := omp.GroupOf(v)
		r := scenario.Release{Version: v.String(), Group: g.String()}
		if !g.HasFallback() {
			r.Lacks = lacksFallback
		}
		out = append(out, r)
	}
	return out
}

// toolEraSplits names the releases whose real tools declare differently
// from the first release of their behaviour group (18.3.4's write tool
// inside G3).
var toolEraSplits = func() map[string]bool {
	split := map[string]bool{}
	firstEra := map[omp.Group]omp.ToolEra{}
	for _, v := range omp.Releases() {
		g, _ := omp.GroupOf(v)
		era := omp.ToolEraFor(v.String())
		if e, seen := firstEra[g]; !seen {
			firstEra[g] = era
		} else if e != era {
			split[v.String()] = true
		}
	}
	return split
}()

// lacksFallback is what the releases before 18.1.16 lack, by scenario.
var lacksFallback = map[string]string{
	"fallback":       "has no file-write fallback",
	"classify-error": "has no permission-denied classifier",
}

// release reads the release a run behaves as: env.Release, or the newest
// when it is empty (a case that names no release is judged on the newest). A release the model does not know is an error, and so
// is a scenario the release does not have.
func release(env scenario.Env, scenarioName string) (omp.Version, omp.Group, error) {
	if env.Release == "" {
		v := omp.Newest()
		g, _ := omp.GroupOf(v)
		return v, g, nil
	}
	v, g, err := omp.Lookup(env.Release)
	if err != nil {
		return omp.Version{}, 0, err
	}
	if what, ok := lacksFallback[scenarioName]; ok && !g.HasFallback() {
		return omp.Version{}, 0, fmt.Errorf("omp %s %s", v, what)
	}
	return v, g, nil
}

// Changes are the behaviour changes between the groups, with what a case
// must do to exercise each (deskcheck drift lists those no case does).
var Changes = buildChanges()

func buildChanges() []scenario.ReleaseChange {
	named := func(name string) func(*scenario.Compiled) bool {
		return func(c *scenario.Compiled) bool { return c.Scenario().Name == name }
	}
	wrapper := func(f func(g *wrapperGiven) bool) func(*scenario.Compiled) bool {
		return func(c *scenario.Compiled) bool {
			g, ok := scenario.GivenOf[*wrapperGiven](c)
			return ok && f(g)
		}
	}
	uses := map[string]struct {
		unexercised string
		exercised   func(*scenario.Compiled) bool
	}{
		"approval-gate": {"no wrapper case", named("wrapper")},
		"revision-runs": {"no wrapper case has a handler revise the input", wrapper(func(g *wrapperGiven) bool {
			return g.Revise.Exists()
		})},
		"tool-deny-text": {"no wrapper case has its tool's own policy deny", wrapper(func(g *wrapperGiven) bool {
			return g.Approval.IsObject() && omp.NormalizePolicy(jsValue(g.Approval.Get("policy"))) == omp.PolicyDeny
		})},
		"fallback":   {"no fallback case", named("fallback")},
		"classifier": {"no classify-error case", named("classify-error")},
		"unknown-mode": {"no case uses an unknown mode", wrapper(func(g *wrapperGiven) bool {
			m := g.lint.mode
			return m != nil && *m != omp.ModeAlwaysAsk && *m != omp.ModeWrite && *m != omp.ModeYolo
		})},
		"non-object-policies": {"no case has userPolicies that are not an object", wrapper(func(g *wrapperGiven) bool {
			return g.UserPolicies.Exists() && !g.UserPolicies.IsObject()
		})},
		"missing-context": {"no desk key reaches it (every case runs with settings)", nil},
		"legacy-names":    {"no desk key reaches it (no case names a renamed tool's legacy name)", nil},
	}
	var out []scenario.ReleaseChange
	for _, c := range omp.Changes() {
		u := uses[c.ID]
		ch := scenario.ReleaseChange{Since: c.Since.String(), ID: c.ID, What: c.What, Unexercised: u.unexercised}
		ch.Exercised = u.exercised
		out = append(out, ch)
	}
	return out
}
