package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// Release is one published release of a host that its family models.
// Releases of one Group behave the same on every case, so the engine runs
// a case once per group and judges every release of the group by that run.
type Release struct {
	// Version is MAJOR.MINOR.PATCH.
	Version string
	// Group names the release's behaviour group.
	Group string
	// Lacks says, per scenario name, what the release does not have, for
	// the reason of "not applicable": "has no file-write fallback" is
	// shown as "omp 17.3.5 has no file-write fallback".
	Lacks map[string]string
}

// Newest returns the host's newest modelled release; false when the host
// has no release axis.
func (h Host) Newest() (Release, bool) {
	if len(h.Releases) == 0 {
		return Release{}, false
	}
	return h.Releases[len(h.Releases)-1], true
}

// Release finds a modelled release by version.
func (h Host) Release(version string) (Release, bool) {
	for _, r := range h.Releases {
		if r.Version == version {
			return r, true
		}
	}
	return Release{}, false
}

// ReleaseNames lists the host's modelled releases: "13.19.0, 14.9.9, …".
func (h Host) ReleaseNames() string {
	names := make([]string, len(h.Releases))
	for i, r := range h.Releases {
		names[i] = r.Version
	}
	return strings.Join(names, ", ")
}

// NotApplicable says why a scenario cannot run on a release ("" when it
// can): "omp 17.3.5 has no file-write fallback".
func (h Host) NotApplicable(r Release, scenario string) string {
	if what, ok := r.Lacks[scenario]; ok {
		return h.Name + " " + r.Version + " " + what
	}
	return ""
}

// version is a parsed MAJOR.MINOR.PATCH.
type version [3]int

func parseVersion(s string) (version, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return version{}, false
	}
	var v version
	for i, p := range parts {
		if p == "" || len(p) > 9 || (len(p) > 1 && p[0] == '0') || strings.TrimLeft(p, "0123456789") != "" {
			return version{}, false
		}
		v[i], _ = strconv.Atoi(p)
	}
	return v, true
}

func (v version) cmp(w version) int {
	for i := range v {
		switch {
		case v[i] < w[i]:
			return -1
		case v[i] > w[i]:
			return 1
		}
	}
	return 0
}

// SelectReleases returns the releases of h that the range expression
// selects, oldest first. The grammar is a small subset of npm's:
// comparators separated by spaces, all of which must hold — >=V, >V, <=V,
// <V, =V or a bare V (exactly V) — or * (every modelled release); V is a
// full MAJOR.MINOR.PATCH. A range that does not parse or selects no
// modelled release is an error that lists the modelled releases.
func (h Host) SelectReleases(expr string) ([]Release, error) {
	known := "modelled " + h.Name + " releases: " + h.ReleaseNames()
	if len(h.Releases) == 0 {
		return nil, fmt.Errorf("host %s models no releases", h.Name)
	}
	words := strings.Fields(expr)
	if len(words) == 0 {
		return nil, fmt.Errorf("empty release range; write * for every release (%s)", known)
	}
	type comparator struct {
		op string
		v  version
	}
	var cs []comparator
	for _, w := range words {
		if w == "*" {
			continue
		}
		word, op := w, ""
		for _, o := range []string{">=", "<=", ">", "<", "="} {
			if strings.HasPrefix(w, o) {
				op, w = o, w[len(o):]
				break
			}
		}
		if op == "" {
			op = "="
		}
		v, ok := parseVersion(w)
		if !ok {
			return nil, fmt.Errorf("release range %q: %q is not a comparator (>=V, >V, <=V, <V, =V, V or *, V a full MAJOR.MINOR.PATCH, no space after the operator) (%s)", expr, word, known)
		}
		cs = append(cs, comparator{op, v})
	}
	var out []Release
	for _, r := range h.Releases {
		rv, _ := parseVersion(r.Version)
		holds := true
		for _, c := range cs {
			d := rv.cmp(c.v)
			switch c.op {
			case ">=":
				holds = holds && d >= 0
			case ">":
				holds = holds && d > 0
			case "<=":
				holds = holds && d <= 0
			case "<":
				holds = holds && d < 0
			case "=":
				holds = holds && d == 0
			}
		}
		if holds {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("release range %q selects no modelled release (%s)", expr, known)
	}
	return out, nil
}

// ReleaseChange is one behaviour change between two groups of a host's releases,
// as the model knows it.
type ReleaseChange struct {
	// Since is the first release that has the change.
	Since string
	// ID names the change; What says what changed.
	ID, What string
	// Unexercised says what no case does when none exercises the change:
	// "no case uses an unknown mode".
	Unexercised string
	// Exercised reports whether a compiled case exercises the change
	// (GivenOf reads its given block); nil when no desk key reaches it.
	Exercised func(c *Compiled) bool
}

// CompareVersions orders two MAJOR.MINOR.PATCH versions numerically: -1,
// 0 or 1; one that is no such version sorts before every version.
func CompareVersions(a, b string) int {
	va, okA := parseVersion(a)
	vb, okB := parseVersion(b)
	switch {
	case !okA && !okB:
		return strings.Compare(a, b)
	case !okA:
		return -1
	case !okB:
		return 1
	}
	return va.cmp(vb)
}
