package main

import (
	"context"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// reportRun is what the report folder is made from: the command line, the
// -run selection and the limits of the run, and its real-host runs.
type reportRun struct {
	args   []string
	run    string
	limits verifier.Limits
	// answerBytes is -max-answer-bytes.
	answerBytes int64
	// fault is the model fault the run was judged under (tests only).
	fault *scenario.QualifiedFault
	runs  []*realhost.Run
}

// modelReport is the report of the run: the model's results for the
// selected cases, as deskcheck verify -host NAME@V writes them for the
// model release each real host was compared with, and the real hosts'
// results as its real-code section. Where the real code ran on several
// releases of a host (-host NAME@*), each case of that host is judged on
// the model of each of them, and its verdicts on all of them are the
// case's releases (modelResults); the provenance then pins no one
// release of that host.
func modelReport(ctx context.Context, rr reportRun) (*reports.Report, error) {
	reg := all.Registry()
	var cases []*verifier.Case
	var desks []*verifier.Desk
	seen := map[*verifier.Desk]bool{}
	releases := map[string][]string{}
	for i, run := range rr.runs {
		if release, _ := realhost.ModelRelease(run.Host, run.Hello); release != "" && !slices.Contains(releases[run.Host], release) {
			releases[run.Host] = append(releases[run.Host], release)
		}
		if i > 0 {
			continue // every run judges the same selection
		}
		for _, r := range run.Results {
			cases = append(cases, r.Case)
			if !seen[r.Case.Desk] {
				seen[r.Case.Desk] = true
				desks = append(desks, r.Case.Desk)
			}
		}
	}
	var pin verifier.Hosts
	for host, rs := range releases {
		if len(rs) == 1 {
			if pin == nil {
				pin = verifier.Hosts{}
			}
			pin[host] = rs[0]
		}
	}
	var re *regexp.Regexp
	if rr.run != "" {
		var err error
		if re, err = regexp.Compile(rr.run); err != nil {
			return nil, err
		}
	}
	_, claims := verifier.Select(desks, re)
	limits := rr.limits.WithDefaults()
	results, err := modelResults(ctx, cases, releases, verifier.RunOptions{Within: &limits, Fault: rr.fault})
	if err != nil {
		return nil, err
	}
	suite := &verifier.SuiteResult{Registry: reg, Desks: desks, Results: results, Claims: claims, Summary: verifier.Summarize(results, claims), Hosts: pin}
	rep := reports.Build(suite, origin())
	rep.RealCode = realhost.Section(rr.runs)
	rep.Stamp(append([]string{"deskcheck-host", "verify"}, rr.args...), map[string]int64{
		"max-file-size": limits.FileSize, "max-work": int64(limits.Work), "max-run-work": int64(limits.RunWork),
		"max-copy-bytes": int64(limits.CopyBytes), "max-answer-bytes": rr.answerBytes,
	})
	return rep, nil
}

// modelResults judges the cases on the model pinned to each real host's
// release (releases: by host, in the order the runs were given). A host
// with one release is judged as deskcheck verify -host NAME@V judges; a
// case of a host with several is judged on each, once per release, and
// its results joined as deskcheck joins the releases of a range: its
// verdict on each release, oldest first, errored, failed or passed if
// any release was (otherwise not applicable), and the evidence of the
// newest release that did not pass, or of the newest when all passed.
func modelResults(ctx context.Context, cases []*verifier.Case, releases map[string][]string, o verifier.RunOptions) ([]verifier.Result, error) {
	passes := 1
	for _, rs := range releases {
		passes = max(passes, len(rs))
	}
	runs := make([][]verifier.Result, passes)
	for i := range runs {
		pin := verifier.Hosts{}
		for host, rs := range releases {
			pin[host] = rs[min(i, len(rs)-1)]
		}
		if len(pin) == 0 {
			pin = nil
		}
		o.Pin = pin
		var err error
		if runs[i], err = verifier.Run(ctx, cases, o); err != nil {
			return nil, err
		}
	}
	out := runs[0]
	for j, c := range cases {
		_, fam := c.Spec()
		if fam == nil || len(releases[fam.Host.Name]) < 2 {
			continue
		}
		per := make([]verifier.Result, len(releases[fam.Host.Name]))
		for i := range per {
			per[i] = runs[i][j]
		}
		out[j] = joinReleases(fam.Host, per)
	}
	return out, nil
}

// joinReleases joins one case's results on several releases of host.
func joinReleases(host scenario.Host, per []verifier.Result) verifier.Result {
	order := func(v string) int {
		for i, r := range host.Releases {
			if r.Version == v {
				return i
			}
		}
		return len(host.Releases)
	}
	// Newest first: the shown run is the newest that did not pass, else
	// the newest.
	sort.SliceStable(per, func(a, b int) bool { return order(per[a].Release) > order(per[b].Release) })
	var shown *verifier.Result
	for i := range per {
		r := &per[i]
		if r.Status == verifier.NotApplicable {
			continue
		}
		if shown == nil || (shown.Status == verifier.Pass && r.Status != verifier.Pass) {
			shown = r
		}
	}
	var res verifier.Result
	var reasons []string
	if shown != nil {
		res = *shown
	} else {
		res = per[0]
	}
	res.Releases = nil
	res.Asked = 0
	for _, r := range per {
		res.Releases = append(res.Releases, r.Releases...)
		res.Asked |= r.Asked
		if r.Status == verifier.NotApplicable && r.Reason != "" && !slices.Contains(reasons, r.Reason) {
			reasons = append(reasons, r.Reason)
		}
		switch {
		case r.Status == verifier.Errored:
			res.Status = verifier.Errored
		case r.Status == verifier.Fail && res.Status != verifier.Errored:
			res.Status = verifier.Fail
		}
	}
	sort.SliceStable(res.Releases, func(a, b int) bool { return order(res.Releases[a].Release) < order(res.Releases[b].Release) })
	if shown == nil {
		res.Reason = strings.Join(reasons, "; ")
	}
	return res
}

// origin is what the report says of the process: the time
// (SOURCE_DATE_EPOCH when it is a whole number of seconds), the home and
// working folders its paths are shown under, and the build.
func origin() reports.Origin {
	o := reports.Origin{Time: time.Now(), GoVersion: runtime.Version()}
	if secs, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil && secs >= 0 && secs <= 253402300799 {
		o.Time = time.Unix(secs, 0)
	}
	o.Home, _ = os.UserHomeDir()
	o.Wd, _ = os.Getwd()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			o.Deskcheck = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				o.Revision = s.Value
			}
		}
	}
	return o
}
