package verifier

import (
	"context"
	"fmt"
	"regexp"
	"runtime/debug"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/recorders"
)

// Status is the verdict of one case.
type Status string

// The verdicts.
const (
	Pass    Status = "pass"
	Fail    Status = "fail"
	Errored Status = "errored"
)

// Result is the verdict of one case with its evidence.
type Result struct {
	Case       *Case
	Status     Status
	Observed   map[string]any
	Mismatches []Mismatch
	Trace      []recorders.Event
	// Err says why an errored case could not run.
	Err string
}

// Select returns the cases and source-only claims of desks, in file order,
// whose <desk-id>/<id> matches run (all when run is nil).
func Select(desks []*Desk, run *regexp.Regexp) ([]*Case, []*Claim) {
	var cases []*Case
	var claims []*Claim
	for _, d := range desks {
		for _, c := range d.Cases {
			if run == nil || run.MatchString(c.FullID()) {
				cases = append(cases, c)
			}
		}
		for _, c := range d.Claims {
			if run == nil || run.MatchString(c.FullID()) {
				claims = append(claims, c)
			}
		}
	}
	return cases, claims
}

// RunCase runs one case against the host model with the given faults (zero
// for the correct model) and judges it. A panic inside the run is recovered
// and makes the case errored.
func RunCase(ctx context.Context, c *Case, faults omp.Faults) (res Result) {
	res = Result{Case: c}
	defer func() {
		if p := recover(); p != nil {
			res.Status, res.Err = Errored, fmt.Sprintf("panic while running the case: %v\n%s", p, debug.Stack())
		}
	}()
	sc, ok := LookupScenario(c.Scenario)
	if !ok {
		res.Status, res.Err = Errored, fmt.Sprintf("unknown scenario %q", c.Scenario)
		return res
	}
	obs, err := sc.Run(ctx, c, faults)
	if err != nil {
		res.Status, res.Err = Errored, err.Error()
		return res
	}
	res.Trace = obs.Trace
	for k, v := range obs.Values {
		obs.Values[k] = normalize(v)
	}
	res.Observed = obs.Values
	res.Mismatches = Compare(c.Expected, Observation{Values: res.Observed}, sc)
	res.Status = Pass
	if len(res.Mismatches) > 0 {
		res.Status = Fail
	}
	return res
}

// Run runs cases against the host model with the given faults, spread over
// GOMAXPROCS goroutines; results come in the order of cases. Each case
// builds its own host model and recorders, so cases share nothing.
func Run(ctx context.Context, cases []*Case, faults omp.Faults) []Result {
	out := make([]Result, len(cases))
	parallel.For(len(cases), func(i int) { out[i] = RunCase(ctx, cases[i], faults) })
	return out
}

// Summary counts results.
type Summary struct {
	Cases      int `json:"cases"`
	Passed     int `json:"passed"`
	Failed     int `json:"failed"`
	Errored    int `json:"errored"`
	SourceOnly int `json:"sourceOnly"`
}

// Summarize counts results and source-only claims.
func Summarize(results []Result, claims []*Claim) Summary {
	s := Summary{Cases: len(results), SourceOnly: len(claims)}
	for _, r := range results {
		switch r.Status {
		case Pass:
			s.Passed++
		case Fail:
			s.Failed++
		default:
			s.Errored++
		}
	}
	return s
}
