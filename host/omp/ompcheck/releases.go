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
	// The real tools' declarations have boundaries of their own (18.3.4's
	// write tool inside G3): a release whose tools differ from the first
	// of its group runs apart from it, under a group name saying so.
	firstEra := map[omp.Group]omp.ToolEra{}
	for _, v := range omp.Releases() {
		g, _ := omp.GroupOf(v)
		group, era := g.String(), omp.ToolEraFor(v.String())
		if e, seen := firstEra[g]; !seen {
			firstEra[g] = era
		} else if e != era {
			group += " (" + v.String() + " tools)"
		}
		r := scenario.Release{Version: v.String(), Group: group}
		if !g.HasFallback() {
			r.Lacks = lacksFallback
		}
		out = append(out, r)
	}
	return out
}

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
