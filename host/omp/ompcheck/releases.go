package ompcheck

import (
	"fmt"

	"github.com/tidwall/gjson"

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
	wrapper := func(sc string) bool { return sc == "wrapper" }
	uses := map[string]struct {
		unexercised string
		exercised   func(sc string, given gjson.Result) bool
	}{
		"approval-gate": {"no wrapper case", func(sc string, _ gjson.Result) bool { return wrapper(sc) }},
		"revision-runs": {"no wrapper case has a handler revise the input", func(sc string, g gjson.Result) bool {
			return wrapper(sc) && g.Get("revise").Exists()
		}},
		"tool-deny-text": {"no wrapper case has its tool's own policy deny", func(sc string, g gjson.Result) bool {
			a := g.Get("approval")
			return wrapper(sc) && a.IsObject() && omp.NormalizePolicy(a.Get("policy").Value()) == omp.PolicyDeny
		}},
		"fallback":   {"no fallback case", func(sc string, _ gjson.Result) bool { return sc == "fallback" }},
		"classifier": {"no classify-error case", func(sc string, _ gjson.Result) bool { return sc == "classify-error" }},
		"unknown-mode": {"no case uses an unknown mode", func(sc string, g gjson.Result) bool {
			m := g.Get("mode")
			return wrapper(sc) && m.Type == gjson.String && m.Str != omp.ModeAlwaysAsk && m.Str != omp.ModeWrite && m.Str != omp.ModeYolo
		}},
		"non-object-policies": {"no case has userPolicies that are not an object", func(sc string, g gjson.Result) bool {
			p := g.Get("userPolicies")
			return wrapper(sc) && p.Exists() && !p.IsObject()
		}},
		"missing-context": {"no desk key reaches it (every case runs with settings)", nil},
		"legacy-names":    {"no desk key reaches it (no case names a renamed tool's legacy name)", nil},
	}
	var out []scenario.ReleaseChange
	for _, c := range omp.Changes() {
		u := uses[c.ID]
		ch := scenario.ReleaseChange{Since: c.Since.String(), ID: c.ID, What: c.What, Unexercised: u.unexercised}
		if f := u.exercised; f != nil {
			ch.Exercised = func(sc string, given []byte) bool { return f(sc, gjson.ParseBytes(given)) }
		}
		out = append(out, ch)
	}
	return out
}
