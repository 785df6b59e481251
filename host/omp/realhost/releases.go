package realhost

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// The pinned package.json and package-lock.json of every release, and the
// harness with its failing stub package.
//
//go:embed releases/*/package.json releases/*/package-lock.json
var releaseFiles embed.FS

//go:embed harness/harness.ts harness/inert.ts harness/absent.ts harness/absent/index.js harness/absent/package.json
var harnessFiles embed.FS

// Release is one published OMP release deskcheck can install.
type Release struct {
	Version string
	// Substitute says why the release cannot be installed exactly as
	// published, "" when it can.
	Substitute string
	// Substituted lists the dependencies pinned to another version than
	// the release asks for (name → version), for a substituting release.
	Substituted map[string]string
}

// Releases returns the releases deskcheck ships an install for, oldest
// first.
func Releases() []Release {
	entries, err := fs.ReadDir(releaseFiles, "releases")
	if err != nil {
		panic(err)
	}
	var out []Release
	for _, e := range entries {
		r := Release{Version: e.Name(), Substitute: substituteReason[e.Name()]}
		if r.Substitute != "" {
			var pkg struct {
				Deskcheck struct {
					Substituted map[string]string `json:"substituted"`
				} `json:"deskcheck"`
			}
			data, _ := releaseFiles.ReadFile("releases/" + e.Name() + "/package.json")
			if err := json.Unmarshal(data, &pkg); err != nil {
				panic(err)
			}
			r.Substituted = pkg.Deskcheck.Substituted
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return scenario.CompareVersions(out[i].Version, out[j].Version) < 0 })
	return out
}

// substituteReason says, for the releases whose exact dependencies are not
// on the npm registry, which are missing.
var substituteReason = map[string]string{
	"18.2.9": "its exact dependencies are not all published: @oh-my-pi/omp-stats, omptype, pi-catalog, pi-wire, snapcompact and pi-natives-linux-x64 have no 18.2.9 and pi-ai has none either (the nearest: 18.2.11, pi-ai 18.2.10)",
	"18.3.4": "none of its @oh-my-pi dependencies is published at 18.3.4 (the nearest: pi-utils and pi-tui 18.2.9, pi-natives 18.2.10, the others 18.2.11); 15 modules and 24 named exports its sources import are then absent (as the harness finds them) and are replaced by values that throw when used",
}

// LookupRelease finds a release by version ("18.1.16"), or says which
// releases there are.
func LookupRelease(version string) (Release, error) {
	var names []string
	for _, r := range Releases() {
		if r.Version == version {
			return r, nil
		}
		names = append(names, r.Version)
	}
	return Release{}, fmt.Errorf("omp@%s is not a release deskcheck can install; the releases are %s", version, strings.Join(names, ", "))
}
