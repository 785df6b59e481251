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

// lacksFallback is what the releases before 18.1.16 lack, by scenario.
var lacksFallback = map[string]string{
	"fallback":       "has no file-write fallback",
	"classify-error": "has no permission-denied classifier",
}

// release reads the release a run behaves as: env.Release, or Reference
// (18.1.16) when it is empty, as before desks could name releases. A release the model does not know is an error, and so
// is a scenario the release does not have.
func release(env scenario.Env, scenarioName string) (omp.Version, omp.Group, error) {
	if env.Release == "" {
		v := omp.Reference
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
