package verifier

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
)

// Drift is what changes across a host's releases for a set of cases, and
// which of the host's release changes none of them exercises.
type Drift struct {
	Cases []DriftCase `json:"cases"`
	// Unexercised lists, per host and change point, the release changes
	// no case exercises.
	Unexercised []DriftChange `json:"unexercised"`
	// Skipped counts the cases of hosts that model no releases.
	Skipped int `json:"skipped"`
	// InRange: each case ran only on the releases its hosts range
	// selects (MeasureDriftInRange).
	InRange bool `json:"inRange,omitempty"`
}

// DriftCase is one case run on every behaviour group of its host.
type DriftCase struct {
	Desk  string `json:"desk"`
	ID    string `json:"id"`
	Title string `json:"title"`
	Host  string `json:"host"`
	// Newest is the release the others are compared with.
	Newest string `json:"newest"`
	// Same: every group observed what the newest release did.
	Same   bool         `json:"same"`
	Groups []DriftGroup `json:"groups"`
}

// DriftGroup is a case's run on one behaviour group.
type DriftGroup struct {
	Group    string   `json:"group"`
	Releases []string `json:"releases"`
	// Release is the release the group's run behaved as (its newest).
	Release string `json:"release"`
	// Status is same, differs, not-applicable or errored.
	Status      string            `json:"status"`
	Reason      string            `json:"reason,omitempty"`
	Differences []DriftDifference `json:"differences"`
}

// DriftDifference is one observed key whose value differs from the newest
// release's.
type DriftDifference struct {
	Key      string `json:"key"`
	Observed any    `json:"observed"`
	Newest   any    `json:"newest"`
}

// DriftChange is a release change that no case exercises.
type DriftChange struct {
	Host  string `json:"host"`
	Since string `json:"since"`
	ID    string `json:"id"`
	What  string `json:"what"`
	// Why says what no case does: "no case uses an unknown mode".
	Why string `json:"why"`
}

// The statuses of a DriftGroup.
const (
	DriftSame          = "same"
	DriftDiffers       = "differs"
	DriftNotApplicable = "not-applicable"
	DriftErrored       = "errored"
)

// DriftRuns is how many times MeasureDrift runs a case: once per run
// group of its host that has the case's scenario (at least once).
func DriftRuns(c *Case) int {
	if c.fam == nil {
		return 1
	}
	n := 0
	for _, g := range groupsOf(c) {
		if _, lacks := g.releases[len(g.releases)-1].Lacks[c.Scenario]; !lacks {
			n++
		}
	}
	return max(n, 1)
}

// groupOf is one behaviour group of a host: its releases, oldest first.
type groupOf struct {
	name     string
	releases []scenario.Release
}

// groupsOf lists the run groups of c's host for c (see Host.GroupFor),
// oldest first.
func groupsOf(c *Case) []groupOf {
	var out []groupOf
	index := map[string]int{}
	h := c.fam.Host
	for _, r := range h.Releases {
		key := c.compiled.Group(r)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, groupOf{name: key})
		}
		out[i].releases = append(out[i].releases, r)
	}
	return out
}

// MeasureDrift runs every case on every behaviour group of its host,
// whatever its hosts key says, each group on its newest release, and
// compares every observed key with the newest release's run. Then, per
// host, it lists the release changes no case exercises. It never judges:
// a difference is no failure.
func MeasureDrift(ctx context.Context, cases []*Case) Drift { return measureDrift(ctx, cases, false) }

// MeasureDriftInRange is MeasureDrift with each case's hosts range
// applied, as verify -host applies it: a group outside the range is not
// applicable, and the newest release inside is the one compared with.
func MeasureDriftInRange(ctx context.Context, cases []*Case) Drift {
	return measureDrift(ctx, cases, true)
}

func measureDrift(ctx context.Context, cases []*Case, inRange bool) Drift {
	d := Drift{Cases: []DriftCase{}, Unexercised: []DriftChange{}, InRange: inRange}
	var runnable []*Case
	for _, c := range cases {
		if c.fam == nil || len(c.fam.Host.Releases) == 0 {
			d.Skipped++
			continue
		}
		runnable = append(runnable, c)
	}
	out := make([]DriftCase, len(runnable))
	parallel.For(len(runnable), func(i int) { out[i] = driftCase(ctx, runnable[i], inRange) })
	d.Cases = append(d.Cases, out...)

	// The hosts the cases run on, in registration order of first use.
	type hostCases struct {
		host  scenario.Host
		cases []*Case
	}
	var hosts []*hostCases
	byHost := map[string]*hostCases{}
	for _, c := range runnable {
		h := byHost[c.fam.Host.Name]
		if h == nil {
			h = &hostCases{host: c.fam.Host}
			byHost[c.fam.Host.Name] = h
			hosts = append(hosts, h)
		}
		h.cases = append(h.cases, c)
	}
	for _, h := range hosts {
		for _, ch := range h.host.Changes {
			exercised := false
			if ch.Exercised != nil {
				for _, c := range h.cases {
					if ch.Exercised(c.compiled) {
						exercised = true
						break
					}
				}
			}
			if !exercised {
				d.Unexercised = append(d.Unexercised, DriftChange{Host: h.host.Name, Since: ch.Since, ID: ch.ID, What: ch.What, Why: ch.Unexercised})
			}
		}
	}
	return d
}

// driftCase runs c on each group of its host, newest group first. With
// applyRange, a case with a hosts range runs only on the releases it
// selects, as verify -host judges it: a group outside the range is not
// applicable, a group partly inside runs on its newest release inside, and
// the newest release inside is the one the others are compared with.
func driftCase(ctx context.Context, c *Case, applyRange bool) DriftCase {
	h := c.fam.Host
	groups := groupsOf(c)
	newest, _ := h.Newest()
	inRange := func(r scenario.Release) bool { return true }
	if applyRange && c.Range != "" {
		selected := map[string]bool{}
		for _, r := range c.Releases() {
			selected[r.Version] = true
		}
		inRange = func(r scenario.Release) bool { return selected[r.Version] }
		if rs := c.Releases(); len(rs) > 0 {
			newest = rs[len(rs)-1]
		}
	}
	dc := DriftCase{Desk: c.Desk.ID, ID: c.ID, Title: c.Title, Host: h.Name, Newest: newest.Version, Same: true}
	var base map[string]any
	baseOK, ran := false, false
	for gi := len(groups) - 1; gi >= 0; gi-- {
		g := groups[gi]
		rep := g.releases[len(g.releases)-1]
		for i := len(g.releases) - 1; i >= 0; i-- {
			if inRange(g.releases[i]) {
				rep = g.releases[i]
				break
			}
		}
		dg := DriftGroup{Group: g.name, Release: rep.Version, Differences: []DriftDifference{}}
		for _, r := range g.releases {
			dg.Releases = append(dg.Releases, r.Version)
		}
		if !inRange(rep) {
			dg.Status, dg.Reason = DriftNotApplicable, fmt.Sprintf("%s %s: outside the case's hosts range %s", h.Name, strings.Join(dg.Releases, ", "), c.Range)
		} else if why := h.NotApplicable(rep, c.Scenario); why != "" {
			dg.Status, dg.Reason = DriftNotApplicable, why
			if len(g.releases) > 1 {
				dg.Reason = h.Name + " " + strings.Join(dg.Releases, ", ") + ": " + rep.Lacks[c.Scenario]
			}
		} else {
			res := runOn(ctx, c, rep.Version, nil)
			first := !ran
			ran = true
			switch {
			case res.Status == Errored:
				dg.Status, dg.Reason = DriftErrored, res.Err
			case first:
				base, baseOK = res.Observed, true
				dg.Status = DriftSame
			case !baseOK:
				// The newest release has no run to compare with: every
				// key is reported as it was observed.
				dg.Status = DriftDiffers
				for _, k := range sortedKeys(res.Observed) {
					dg.Differences = append(dg.Differences, DriftDifference{Key: k, Observed: res.Observed[k]})
				}
			default:
				dg.Status = DriftSame
				for _, k := range c.sc.Expected.Keys() {
					ov, bv := res.Observed[k], base[k]
					if !scenario.Equal(ov, bv) {
						dg.Status = DriftDiffers
						dg.Differences = append(dg.Differences, DriftDifference{Key: k, Observed: ov, Newest: bv})
					}
				}
			}
		}
		if dg.Status != DriftSame {
			dc.Same = false
		}
		dc.Groups = append(dc.Groups, dg)
	}
	// Oldest group first, as releases are listed.
	for i, j := 0, len(dc.Groups)-1; i < j; i, j = i+1, j-1 {
		dc.Groups[i], dc.Groups[j] = dc.Groups[j], dc.Groups[i]
	}
	return dc
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
