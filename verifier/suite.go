package verifier

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
)

// ErrNoCases is returned when a selection holds no executable case: an
// empty suite is never a pass. The error returned wraps it and says which
// files hold no case or what -run left out.
var ErrNoCases = errors.New("no cases: nothing was selected to verify, so there is no evidence")

// noCases says why nothing was selected.
type noCases struct{ why string }

func (e noCases) Error() string        { return "no cases: " + e.why + ", so there is no evidence" }
func (e noCases) Is(target error) bool { return target == ErrNoCases }

// Options steer Verify.
type Options struct {
	// Registry holds the scenarios cases may name.
	Registry *scenario.Registry
	// Run selects cases whose <desk-id>/<case-id> matches; nil selects all.
	Run *regexp.Regexp
	// Limits bound what cases may ask for; zero fields take DefaultLimits.
	Limits Limits
	// Runs says how many times the caller will run a case in all (the
	// faults command runs it once per fault of its host too); the run's
	// scripted work counts each case that many times. Nil: once.
	Runs func(*Case) int
	// Hosts pins a host to one release (-host omp@V); cases whose range
	// excludes it are not applicable. Nil: every case on its own releases.
	Hosts Hosts
}

// SuiteResult is the outcome of verifying a set of desks.
type SuiteResult struct {
	// Registry holds the scenarios the suite ran.
	Registry *scenario.Registry
	Desks    []*Desk
	Results  []Result
	Claims   []*Claim
	Summary  Summary
	// Hosts is the -host pin the suite ran with (nil: none).
	Hosts Hosts
	// Unshown: nothing will show a case's suggested expected block (faults
	// printing its table alone), so a report of the suite computes none.
	Unshown bool
}

// Passed reports whether every case passed or was not applicable, and at
// least one passed: a suite of cases none of which applies is no evidence.
func (s *SuiteResult) Passed() bool {
	return s.Summary.Passed > 0 && s.Summary.Passed+s.Summary.NotApplicable == s.Summary.Cases
}

// Verify loads, lints, selects and runs. Diagnostics are returned in every
// case; when they hold an error, nothing was run and the result is nil.
// An error wrapping ErrNoCases means the files were valid but no case was
// selected; any other error means the run was refused or stopped for going
// over a limit of the run (its scripted work, before anything runs, or its
// trace events), and nothing is reported.
func Verify(ctx context.Context, inputs []Input, opts Options) (*SuiteResult, Diagnostics, error) {
	limits := opts.Limits.WithDefaults()
	desks, ds := LoadAll(opts.Registry, inputs, limits)
	if ds.HasErrors() {
		return nil, ds, nil
	}
	cases, claims := Select(desks, opts.Run)
	if len(cases) == 0 {
		return nil, ds, whyNoCases(desks, opts.Run)
	}
	if err := CheckRunWork(cases, opts.Runs, limits); err != nil {
		return nil, ds, err
	}
	results, err := RunWithinPinned(ctx, cases, opts.Hosts, nil, limits)
	if err != nil {
		return nil, ds, err
	}
	return &SuiteResult{Registry: opts.Registry, Desks: desks, Results: results, Claims: claims, Summary: Summarize(results, claims), Hosts: opts.Hosts}, ds, nil
}

// whyNoCases names the files that hold no case, or says that -run
// selected none.
func whyNoCases(desks []*Desk, run *regexp.Regexp) error {
	var empty []string
	for _, d := range desks {
		if len(d.Cases) == 0 {
			empty = append(empty, d.Path)
		}
	}
	switch {
	case len(desks) == 0:
		return noCases{"no case file was read"}
	case run != nil && len(empty) < len(desks):
		return noCases{fmt.Sprintf("no case of %s matches -run %q", fileList(desks), run.String())}
	case len(empty) == 1:
		return noCases{empty[0] + " holds no case"}
	default:
		return noCases{strings.Join(empty, ", ") + " hold no case"}
	}
}

func fileList(desks []*Desk) string {
	if len(desks) == 1 {
		return desks[0].Path
	}
	if len(desks) <= 3 {
		var names []string
		for _, d := range desks {
			names = append(names, d.Path)
		}
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("the %d files read", len(desks))
}

// RunWithinPinned is Run bounded by limits.Events and limits.TraceBytes: once
// the cases have recorded more trace events, or more bytes of trace text,
// than that, the remaining cases are not started and the run is an error
// (no result is returned). One case cannot go far over: its own declared
// limits bound its trace.
//
// pin names, for a host, the one release to judge on (-host; nil: every
// case on its own releases).
func RunWithinPinned(ctx context.Context, cases []*Case, pin Hosts, fault *scenario.QualifiedFault, limits Limits) ([]Result, error) {
	limits = limits.WithDefaults()
	var events, bytes atomic.Int64
	events.Store(int64(limits.Events))
	bytes.Store(int64(limits.TraceBytes))
	out := make([]Result, len(cases))
	parallel.For(len(cases), func(i int) {
		if events.Load() < 0 || bytes.Load() < 0 {
			return
		}
		out[i] = RunCasePinned(ctx, cases[i], pin, fault)
		n := 0
		for _, e := range out[i].Trace {
			n += len(e.Kind) + len(e.Text)
		}
		events.Add(-int64(len(out[i].Trace)))
		bytes.Add(-int64(n))
	})
	switch {
	case events.Load() < 0:
		return nil, fmt.Errorf("the cases recorded more than %s trace events, the limit per run, so the run was stopped and nothing is reported; select fewer cases with -run or raise the limit with -max-events N",
			thousands(limits.Events))
	case bytes.Load() < 0:
		return nil, fmt.Errorf("the cases recorded more than %s bytes of trace text, the limit per run, so the run was stopped and nothing is reported; select fewer cases with -run or raise the limit with -max-trace-bytes N",
			thousands(limits.TraceBytes))
	}
	return out, nil
}
