package verifier

import (
	"context"
	"errors"
	"regexp"

	"github.com/deskcheck/deskcheck/scenario"
)

// ErrNoCases is returned when a selection holds no executable case: an
// empty suite is never a pass.
var ErrNoCases = errors.New("no cases: nothing was selected to verify, so there is no evidence")

// Options steer Verify.
type Options struct {
	// Registry holds the scenarios cases may name.
	Registry *scenario.Registry
	// Run selects cases whose <desk-id>/<case-id> matches; nil selects all.
	Run *regexp.Regexp
	// Limits bound what cases may ask for; zero fields take DefaultLimits.
	Limits Limits
}

// SuiteResult is the outcome of verifying a set of desks.
type SuiteResult struct {
	// Registry holds the scenarios the suite ran.
	Registry *scenario.Registry
	Desks    []*Desk
	Results  []Result
	Claims   []*Claim
	Summary  Summary
}

// Passed reports whether every case passed.
func (s *SuiteResult) Passed() bool {
	return s.Summary.Cases > 0 && s.Summary.Passed == s.Summary.Cases
}

// Verify loads, lints, selects and runs. Diagnostics are returned in every
// case; when they hold an error, nothing was run and the result is nil.
// ErrNoCases means the files were valid but no case was selected.
func Verify(ctx context.Context, inputs []Input, opts Options) (*SuiteResult, Diagnostics, error) {
	desks, ds := LoadAll(opts.Registry, inputs, opts.Limits)
	if ds.HasErrors() {
		return nil, ds, nil
	}
	cases, claims := Select(desks, opts.Run)
	if len(cases) == 0 {
		return nil, ds, ErrNoCases
	}
	results := Run(ctx, cases, nil)
	return &SuiteResult{Registry: opts.Registry, Desks: desks, Results: results, Claims: claims, Summary: Summarize(results, claims)}, ds, nil
}
