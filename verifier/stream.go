package verifier

import (
	"context"
	"fmt"
	"runtime"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
)

// LoadWindow is how many case files LoadEach holds at most at a time, per
// processor: those being loaded and those loaded but not yet handed on.
// One is enough ahead: verify loads a desk in about a third of the time
// it runs its cases, and each desk more held ahead was a few megabytes
// more for every collection to mark (BENCHMARKS.md).
const LoadWindow = 1

// LoadEach loads and lints the inputs as LoadAll does, with the same
// diagnostics, but one window of files at a time: each desk without
// errors is handed to each in input order and then let go, so that the
// memory held is that of a few files, not of the suite. Inputs listed by
// ListPaths are read when their turn comes. each may be nil.
func LoadEach(reg *scenario.Registry, inputs []Input, limits Limits, each func(*Desk)) Diagnostics {
	return loadEach(reg, inputs, limits, func(d *Desk, _ bool) {
		if each != nil {
			each(d)
		}
	})
}

// loadEach is LoadEach telling each, with each desk, whether every
// diagnostic so far, the desk's own included, is a warning.
func loadEach(reg *scenario.Registry, inputs []Input, limits Limits, each func(d *Desk, clean bool)) Diagnostics {
	limits = limits.WithDefaults()
	clean := true
	type loaded struct {
		desk           *Desk
		problems, lint Diagnostics
	}
	var ds Diagnostics
	deskIDs := map[string]string{} // desk id → the file it was first used in
	window := LoadWindow * runtime.GOMAXPROCS(0)
	parallel.Ordered(len(inputs), window, func(i int) loaded {
		in := inputs[i]
		in, err := in.fill(limits.FileSize)
		if err != nil {
			return loaded{problems: Diagnostics{{Severity: Warning, Name: "skipped", File: in.Path, Summary: "skipped: " + err.Error()}}}
		}
		d, problems := Load(reg, in.Path, in.Data, limits)
		if d == nil {
			return loaded{problems: problems}
		}
		own := lintDesk(d, limits)
		own.resolve()
		return loaded{desk: d, problems: problems, lint: own}
	}, func(i int, l loaded) {
		ds = append(ds, l.problems...)
		clean = clean && !l.problems.HasErrors()
		d := l.desk
		if d == nil {
			return
		}
		// What LoadAll's Lint adds across desks, and its cap on each
		// file's lint diagnostics.
		var mine Diagnostics
		if first, dup := deskIDs[d.ID]; dup {
			mine = append(mine, d.diag(Error, "/id", false, "duplicate desk id %s (first in %s)", jsontext.Quote(d.ID), first))
		} else {
			deskIDs[d.ID] = d.Path
		}
		mine = append(mine, l.lint...)
		mine.resolve()
		mine.Sort()
		mine = mine.capPerFile(limits.Diagnostics)
		ds = append(ds, mine...)
		clean = clean && !mine.HasErrors()
		each(d, clean)
	})
	ds.Sort()
	return ds
}

// RanBeforeInvalid is VerifyEach's error when a file with an error was
// read after the cases of files before it had run: nothing is reported
// of them.
type RanBeforeInvalid struct {
	// Files and Cases count what had run.
	Files, Cases int
}

func (e *RanBeforeInvalid) Error() string {
	return fmt.Sprintf("the %s of the %s read before the first invalid one had already run", plural(e.Cases, "case", "cases"), plural(e.Files, "file", "files"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// VerifyEach is Verify for a suite of any size. It reads the inputs a
// window at a time, as LoadEach does, and runs the selected cases of each
// desk as soon as the desk is read, provided every file read so far is
// valid: each is handed the desk (valid until each returns), the results
// of its selected cases and its selected claims, in file order. Nothing of
// them is kept: the suite returned holds the summary alone (no desks, no
// results), and what a report needs of them is each's to keep.
//
// Errors and diagnostics are VerifyStream's. VerifyEach holds a desk's
// results until each has them; VerifyStream hands them on case by case.
func VerifyEach(ctx context.Context, inputs []Input, opts Options, each func(d *Desk, results []Result, claims []*Claim) error) (*SuiteResult, Diagnostics, error) {
	return VerifyStream[Result](ctx, inputs, opts, &collect{each: each})
}

// collect is the Sink VerifyEach streams to: it holds a desk's results
// until the desk is done.
type collect struct {
	each    func(d *Desk, results []Result, claims []*Claim) error
	results []Result
}

func (c *collect) Prepare(r *Result) Result { return *r }

func (c *collect) Take(_ *Desk, r Result) error {
	c.results = append(c.results, r)
	return nil
}

func (c *collect) Done(d *Desk, claims []*Claim) error {
	results := c.results
	if results == nil {
		results = []Result{}
	}
	c.results = nil
	return c.each(d, results, claims)
}

// Sink takes the results of a run one case at a time, as VerifyStream
// runs them, so that what a run holds is what the sink keeps of them and
// the few cases in flight, not every result of a desk.
type Sink[T any] interface {
	// Prepare makes what Take is handed of one result. It is called on the
	// goroutine that ran the case, while other cases run and are
	// prepared: it may read r and its case but must not keep r, and it
	// shares nothing with another call unguarded.
	Prepare(r *Result) T
	// Take is handed, on the caller's goroutine and in file order, what
	// Prepare made of each selected case of desk d (valid until Done
	// returns). An error stops the run.
	Take(d *Desk, v T) error
	// Done ends desk d once every selected case of it has been taken;
	// claims are its selected source-only claims. An error stops the run.
	Done(d *Desk, claims []*Claim) error
}

// ResultWindow is how many cases' results VerifyStream holds at most at a
// time, per processor: those running and those run but not yet taken.
const ResultWindow = 1

// VerifyStream is VerifyEach handing the results on case by case: each
// selected case of a desk runs, is prepared by s on the goroutine that ran
// it and let go, and what s prepared is taken in file order; then the desk
// is done. At most ResultWindow results per processor are held at once.
//
// Errors and diagnostics are Verify's, with two differences that come
// from not holding the suite. A file with an error stops the run at it:
// no later desk runs, the diagnostics are returned as Verify returns
// them, and the error is a *RanBeforeInvalid when desks before it had run
// (nil when none had). And the limits of the run (its scripted work and
// copied bytes, its trace events and text) are checked as the desks come:
// no desk runs that would take the sums over, no case starts once the
// trace limits are spent (and its desk is not done), the rest are still
// read so that the error gives the whole suite's sums, and nothing is
// reported. An error from s stops the run and is returned.
func VerifyStream[T any](ctx context.Context, inputs []Input, opts Options, s Sink[T]) (*SuiteResult, Diagnostics, error) {
	limits := opts.Limits.WithDefaults()
	budget := newTraceBudget(limits)
	var work runWork
	var desks []deskShape
	var stopped error
	ranFiles, ranCases, selected := 0, 0, 0
	var summary Summary
	type prepared struct {
		v      T
		status Status
		ran    bool
	}
	ds := loadEach(opts.Registry, inputs, limits, func(d *Desk, clean bool) {
		desks = append(desks, deskShape{d.Path, len(d.Cases)})
		cases, claims := Select([]*Desk{d}, opts.Run)
		selected += len(cases)
		work.add(cases, opts.Runs)
		if !clean || stopped != nil || work.over(limits) || budget.spent() {
			return
		}
		var counts Summary
		window := ResultWindow * runtime.GOMAXPROCS(0)
		parallel.Ordered(len(cases), window, func(i int) prepared {
			if budget.spent() {
				return prepared{}
			}
			r := judge(ctx, cases[i], opts.Hosts, nil)
			budget.charge(r.Trace)
			return prepared{v: s.Prepare(&r), status: r.Status, ran: true}
		}, func(_ int, p prepared) {
			if !p.ran || stopped != nil || budget.spent() {
				return
			}
			if err := s.Take(d, p.v); err != nil {
				stopped = err
				return
			}
			counts = counts.Plus(Summarize([]Result{{Status: p.status}}, nil))
		})
		if budget.spent() || stopped != nil {
			return
		}
		ranFiles++
		ranCases += len(cases)
		if err := s.Done(d, claims); err != nil {
			stopped = err
			return
		}
		counts.SourceOnly = len(claims)
		summary = summary.Plus(counts)
	})
	switch {
	case ds.HasErrors() && ranFiles > 0:
		return nil, ds, &RanBeforeInvalid{Files: ranFiles, Cases: ranCases}
	case ds.HasErrors():
		return nil, ds, nil
	case selected == 0:
		return nil, ds, whyNoCases(desks, opts.Run)
	}
	if err := work.err(limits); err != nil {
		return nil, ds, err
	}
	if err := budget.err(); err != nil {
		return nil, ds, err
	}
	if stopped != nil {
		return nil, ds, stopped
	}
	return &SuiteResult{Registry: opts.Registry, Hosts: opts.Hosts, Summary: summary}, ds, nil
}
