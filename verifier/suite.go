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
		return nil, ds, whyNoCases(deskShapes(desks), opts.Run)
	}
	if err := CheckRunWork(cases, opts.Runs, limits); err != nil {
		return nil, ds, err
	}
	results, err := Run(ctx, cases, RunOptions{Pin: opts.Hosts, Within: &limits})
	if err != nil {
		return nil, ds, err
	}
	return &SuiteResult{Registry: opts.Registry, Desks: desks, Results: results, Claims: claims, Summary: Summarize(results, claims), Hosts: opts.Hosts}, ds, nil
}

// deskShape is what whyNoCases needs of a desk: its path and how many cases
// it holds.
type deskShape struct {
	path  string
	cases int
}

func deskShapes(desks []*Desk) []deskShape {
	out := make([]deskShape, len(desks))
	for i, d := range desks {
		out[i] = deskShape{d.Path, len(d.Cases)}
	}
	return out
}

// whyNoCases names the files that hold no case, or says that -run
// selected none.
func whyNoCases(desks []deskShape, run *regexp.Regexp) error {
	var empty []string
	for _, d := range desks {
		if d.cases == 0 {
			empty = append(empty, d.path)
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

func fileList(desks []deskShape) string {
	if len(desks) == 1 {
		return desks[0].path
	}
	if len(desks) <= 3 {
		var names []string
		for _, d := range desks {
			names = append(names, d.path)
		}
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("the %d files read", len(desks))
}

// traceBudget is what is left of a run's limits on trace events and trace
// text, shared by every case of the run.
type traceBudget struct {
	limits        Limits
	events, bytes atomic.Int64
}

func newTraceBudget(limits Limits) *traceBudget {
	b := &traceBudget{limits: limits.WithDefaults()}
	b.events.Store(int64(b.limits.Events))
	b.bytes.Store(int64(b.limits.TraceBytes))
	return b
}

// spent reports whether the cases run so far went over either limit.
func (b *traceBudget) spent() bool { return b.events.Load() < 0 || b.bytes.Load() < 0 }

// run runs one case after another across the processors, starting none
// once the budget is spent.
func (b *traceBudget) run(cases []*Case, one func(*Case) Result) []Result {
	out := make([]Result, len(cases))
	parallel.For(len(cases), func(i int) {
		if b.spent() {
			return
		}
		out[i] = one(cases[i])
		b.charge(out[i].Trace)
	})
	return out
}

// charge takes one case's trace off the budget.
func (b *traceBudget) charge(trace []scenario.Event) {
	n := 0
	for _, e := range trace {
		n += len(e.Kind) + len(e.Text)
	}
	b.events.Add(-int64(len(trace)))
	b.bytes.Add(-int64(n))
}

// err says which limit the run went over; nil when neither.
func (b *traceBudget) err() error {
	switch {
	case b.events.Load() < 0:
		return &TraceLimitError{Over: Thousands(b.limits.Events) + " trace events", Flag: "-max-events N"}
	case b.bytes.Load() < 0:
		return &TraceLimitError{Over: Thousands(b.limits.TraceBytes) + " bytes of trace text", Flag: "-max-trace-bytes N"}
	}
	return nil
}

// TraceLimitError is a run stopped because its cases recorded more trace
// than the run's limit.
type TraceLimitError struct {
	Over string // the limit, in its unit: "1,000 trace events"
	Flag string // the flag that raises it
}

func (e *TraceLimitError) Error() string { return e.say("nothing is reported") }

// Shown is the error said by a command that prints each case as it has
// run: the cases before the stop are printed already.
func (e *TraceLimitError) Shown() string {
	return e.say("nothing more is shown")
}

func (e *TraceLimitError) say(what string) string {
	return "the cases recorded more than " + e.Over + ", the limit per run, so the run was stopped and " + what + "; select fewer cases with -run or raise the limit with " + e.Flag
}

// LoadAll loads and lints every input. Desks come back only for inputs
// without errors.
func LoadAll(reg *scenario.Registry, inputs []Input, limits Limits) ([]*Desk, Diagnostics) {
	loaded := make([]*Desk, len(inputs))
	problems := make([]Diagnostics, len(inputs))
	parallel.For(len(inputs), func(i int) { loaded[i], problems[i] = Load(reg, inputs[i].Path, inputs[i].Data, limits) })
	var desks []*Desk
	var ds Diagnostics
	for i := range inputs {
		ds = append(ds, problems[i]...)
		if loaded[i] != nil {
			desks = append(desks, loaded[i])
		}
	}
	ds = append(ds, Lint(desks, limits)...)
	ds.Sort()
	return desks, ds
}
