package main

import (
	"context"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
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
// results as its real-code section.
func modelReport(ctx context.Context, rr reportRun) (*reports.Report, error) {
	reg := all.Registry()
	var cases []*verifier.Case
	var desks []*verifier.Desk
	seen := map[*verifier.Desk]bool{}
	pin := verifier.Hosts{}
	for i, run := range rr.runs {
		if release, _ := realhost.ModelRelease(run.Host, run.Hello); release != "" {
			pin[run.Host] = release
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
	if len(pin) == 0 {
		pin = nil
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
	results, err := verifier.Run(ctx, cases, verifier.RunOptions{Pin: pin, Within: &limits, Fault: rr.fault})
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
