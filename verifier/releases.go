package verifier

import (
	"context"
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// NotApplicable is the status of a case that was not judged: the release
// asked for is outside its range, or no release it selects has its
// scenario. It is never a pass and never a failure.
const NotApplicable Status = "not-applicable"

// ReleaseVerdict is a case's verdict on one host release.
type ReleaseVerdict struct {
	Host    string `json:"host"`
	Release string `json:"release"`
	Group   string `json:"group"`
	Status  Status `json:"status"`
	// Reason says why the case is not applicable to the release.
	Reason string `json:"reason,omitempty"`
	// Boundary is the case's part in the boundary-response dimensions on
	// this release (nil when it was not run there or scripts no action).
	Boundary *scenario.Boundary `json:"-"`
}

// Hosts pins host families to one release each, as -host omp@V does:
// family name → version.
type Hosts map[string]string

// ParseHost reads one -host value, FAMILY@VERSION, against the registry:
// the family must model releases and VERSION must be one of them (of a
// host of named releases, NAME@VERSION or NAME alone). The version
// returned is the release's own.
func ParseHost(reg *scenario.Registry, v string) (family, version string, err error) {
	name, ver, ok := strings.Cut(v, "@")
	var names []string
	example := "" // the newest release of the first host with releases
	for _, f := range reg.Families() {
		if rs := f.Host.Releases; len(rs) > 0 {
			names = append(names, f.Host.Name)
			if example == "" {
				example = ", e.g. " + f.Host.Name + "@" + rs[len(rs)-1].Version
			}
		}
	}
	if !ok || name == "" || ver == "" {
		return "", "", fmt.Errorf("-host %q: write HOST@VERSION%s (hosts with releases: %s)", v, example, strings.Join(names, ", "))
	}
	for _, f := range reg.Families() {
		if f.Host.Name != name {
			continue
		}
		if len(f.Host.Releases) == 0 {
			return "", "", fmt.Errorf("-host %q: host %s models no releases (hosts with releases: %s)", v, name, strings.Join(names, ", "))
		}
		r, known := f.Host.Release(ver)
		if !known {
			return "", "", fmt.Errorf("-host %q: %s %s is not a modelled release (modelled %s releases: %s)", v, name, ver, name, f.Host.ReleaseNames())
		}
		return name, r.Version, nil
	}
	return "", "", fmt.Errorf("-host %q: unknown host %q (hosts with releases: %s)%s", v, name, strings.Join(names, ", "), suggest(name, names))
}

// groupRuns is the number of runs judging the case takes: one per
// behaviour group among its releases (1 for a host without releases).
func groupRuns(c *Case) int {
	seen := map[string]bool{}
	for _, r := range c.Releases() {
		if _, lacks := r.Lacks[c.Scenario]; !lacks {
			seen[c.compiled.Group(r)] = true
		}
	}
	return max(len(seen), 1)
}

// plan is what judging a case on its releases takes: the verdicts of the
// releases not applicable, and one run per behaviour group among the
// others (on the group's newest release, judging all of them).
type plan struct {
	verdicts []ReleaseVerdict // in release order; Status empty: to run
	runs     []groupRun       // newest group first
}

type groupRun struct {
	release string
	members []int // indexes into verdicts
}

// planFor plans the judging of c, with pin naming the one release of a
// host to judge on.
func planFor(c *Case, pin Hosts) plan {
	var p plan
	if c.fam == nil || len(c.fam.Host.Releases) == 0 {
		p.runs = []groupRun{{release: ""}}
		return p
	}
	h := c.fam.Host
	releases := c.Releases()
	if v, ok := pin[h.Name]; ok {
		// A case that names no range is judged on the pinned release
		// instead of the newest; one that names a range, only when the
		// range holds it.
		releases = nil
		if r, known := h.Release(v); known && c.Range == "" {
			releases = []scenario.Release{r}
		}
		for _, r := range c.Releases() {
			if r.Version == v {
				releases = []scenario.Release{r}
			}
		}
		if releases == nil {
			r, _ := h.Release(v)
			why := fmt.Sprintf("%s %s is outside the case's releases (%s)", h.Name, v, rangeText(c))
			p.verdicts = []ReleaseVerdict{{Host: h.Name, Release: v, Group: r.Group, Status: NotApplicable, Reason: why}}
			return p
		}
	}
	byGroup := map[string]int{}
	if len(releases) > 0 {
		p.verdicts = make([]ReleaseVerdict, 0, len(releases))
	}
	for _, r := range releases {
		v := ReleaseVerdict{Host: h.Name, Release: r.Version, Group: r.Group}
		if why := h.NotApplicable(r, c.Scenario); why != "" {
			v.Status, v.Reason = NotApplicable, why
		}
		p.verdicts = append(p.verdicts, v)
		if v.Status != "" {
			continue
		}
		i := len(p.verdicts) - 1
		key := c.compiled.Group(r)
		g, seen := byGroup[key]
		if !seen {
			g = len(p.runs)
			byGroup[key] = g
			p.runs = append(p.runs, groupRun{})
		}
		p.runs[g].release = r.Version // releases are oldest first: the last is the newest
		p.runs[g].members = append(p.runs[g].members, i)
	}
	// Newest group first: its run is the one a passing case shows. Named
	// releases have no newest: the first, the host's reference, is shown.
	for i, j := 0, len(p.runs)-1; i < j && !h.Named(); i, j = i+1, j-1 {
		p.runs[i], p.runs[j] = p.runs[j], p.runs[i]
	}
	return p
}

// rangeText says which releases a case's range names.
func rangeText(c *Case) string {
	return fmt.Sprintf("range %q", c.Range)
}

// judge runs c as planned and folds the runs into one result: errored if
// any run errored, failed if any failed, passed if any passed, otherwise
// not applicable. The result's evidence (observed values, mismatches,
// trace) is that of the newest group that did not pass, or of the newest
// group when all passed.
func judge(ctx context.Context, c *Case, pin Hosts, fault *scenario.QualifiedFault) Result {
	p := planFor(c, pin)
	if len(p.runs) == 0 {
		res := Result{Case: c, Status: NotApplicable, Unit: c.sc.Unit, Comparisons: comparisons(c.sc), Releases: p.verdicts}
		var reasons []string
		for _, v := range p.verdicts {
			reasons = appendNew(reasons, v.Reason)
		}
		res.Reason = strings.Join(reasons, "; ")
		return res
	}
	var shown Result
	var asked uint64
	have := false
	for _, run := range p.runs {
		r := runOn(ctx, c, run.release, fault)
		r.Release = run.release
		asked |= r.Asked
		for _, i := range run.members {
			p.verdicts[i].Status = r.Status
			if r.Status != Errored {
				p.verdicts[i].Boundary = r.Boundary
			}
		}
		if !have || (shown.Status == Pass && r.Status != Pass) {
			shown, have = r, true
		}
	}
	res := shown
	res.Releases, res.Asked = p.verdicts, asked
	for _, v := range p.verdicts {
		switch {
		case v.Status == Errored:
			res.Status = Errored
		case v.Status == Fail && res.Status != Errored:
			res.Status = Fail
		}
	}
	return res
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// FailedOn lists the releases the case failed or errored on.
func (r Result) FailedOn() []string {
	var out []string
	for _, v := range r.Releases {
		if v.Status == Fail || v.Status == Errored {
			out = append(out, v.Release)
		}
	}
	return out
}

// JudgedOn lists the releases the case was run and judged on.
func (r Result) JudgedOn() []string {
	var out []string
	for _, v := range r.Releases {
		if v.Status != NotApplicable {
			out = append(out, v.Release)
		}
	}
	return out
}
