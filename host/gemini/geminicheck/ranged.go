package geminicheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/scenario"
)

// ranged is the lint of the releases a case is judged on: a folder's
// trust that the releases selected do not read, and a range that reaches
// releases the model does not follow.
func ranged(g *given, expr string, selected []scenario.Release) []scenario.Problem {
	var out []scenario.Problem
	if g.trustedSet && !g.trusted {
		var ignore []string
		for _, r := range selected {
			if rel, err := gemini.Lookup(r.Version); err == nil && rel.Group < gemini.G4 {
				ignore = append(ignore, r.Version)
			}
		}
		if len(ignore) > 0 {
			out = append(out, scenario.Problem{Pointer: "/given/trustedFolder", Warning: true, Name: "trust-not-read",
				Message: fmt.Sprintf("trustedFolder: false is not read by %s: the engine of releases before 0.58.0 treats every folder alike, so there the case runs as in a trusted one", releaseList(ignore))})
		}
	}
	if expr != "" {
		if covered := unmodelledIn(expr); len(covered) > 0 {
			out = append(out, scenario.Problem{Pointer: "/hosts/" + hostName, Warning: true, Name: "unmodelled-release",
				Message: fmt.Sprintf("the range %q also covers %s, which the model does not follow (their policy engine differs: see the manual); the case is judged on the modelled releases it selects only", expr, releaseList(covered))})
		}
	}
	return out
}

// unmodelledIn lists the unmodelled releases the range expr selects.
func unmodelledIn(expr string) []string {
	shadow := scenario.Host{Name: hostName}
	for _, u := range gemini.Unmodelled {
		for _, v := range u.Versions {
			shadow.Releases = append(shadow.Releases, scenario.Release{Version: v})
		}
	}
	rs, err := shadow.SelectReleases(expr)
	if err != nil {
		return nil
	}
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Version
	}
	slices.SortFunc(out, scenario.CompareVersions)
	return out
}

// releaseList names releases, the first and last of a long list.
func releaseList(vs []string) string {
	switch {
	case len(vs) == 1:
		return "gemini " + vs[0]
	case len(vs) <= 4:
		return "gemini " + strings.Join(vs, ", ")
	}
	return fmt.Sprintf("%d gemini releases (%s … %s)", len(vs), vs[0], vs[len(vs)-1])
}
