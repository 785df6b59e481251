package verifier

import (
	"context"
	"fmt"
	"regexp"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
)

// Status is the verdict of one case.
type Status string

// The verdicts.
const (
	Pass    Status = "pass"
	Fail    Status = "fail"
	Errored Status = "errored"
)

// Result is the verdict of one case with its evidence. It carries what a
// report needs to show it without asking the scenario again.
type Result struct {
	Case       *Case
	Status     Status
	Observed   map[string]any
	Mismatches []Mismatch
	Trace      []scenario.Event
	// Unit is what the trace's Seq counts (call, step, request).
	Unit string
	// Comparisons names the comparer of every key the scenario observes.
	// One map serves every result of a scenario: read it, never write it.
	Comparisons map[string]string
	// Boundary is the case's contribution to the boundary-response
	// dimensions; nil when it scripts no action or did not run.
	Boundary *scenario.Boundary
	// Points names the family's boundary points the run reached, as the
	// recorders saw them, sorted and without repeats.
	Points []string
	// Err says why an errored case could not run.
	Err string
	// Releases is the case's verdict on each host release it was judged
	// on or found not applicable to, oldest first; nil for a host without
	// releases. Status folds them: errored, failed or passed if any
	// release was, otherwise not applicable.
	Releases []ReleaseVerdict
	// Release is the release whose run the evidence above (observed
	// values, mismatches, trace) comes from: the newest that did not pass,
	// or the newest when all passed (of named releases, the first in the
	// host's order).
	Release string
	// Reason says why a not-applicable case was not judged.
	Reason string
	// Asked is the OR of the IDs of the faults of the case's family that
	// its runs checked, switched on or not: a fault outside it cannot
	// change the result (see MeasureStrength).
	Asked uint64
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

// RunOptions says how Run runs its cases. The zero value judges every
// case on the correct model, on every release it selects, with no bound
// on the trace.
type RunOptions struct {
	// Fault is switched on in the cases of its own family (nil: the
	// correct model).
	Fault *scenario.QualifiedFault
	// Pin names, for a host, the one release to judge on (-host omp@V); a
	// case whose releases do not hold it is not applicable. Releases of
	// one behaviour group share one run.
	Pin Hosts
	// Once runs each case once, with its host behaving as Release (one of
	// the family's Host.Releases; "" lets the host choose), whatever
	// releases the case selects: the scenario decides what a release it
	// lacks means, and Pin is not read.
	Once    bool
	Release string
	// Within, when set, bounds the run by its Events and TraceBytes: once
	// the cases have recorded more trace events, or more bytes of trace
	// text, than that, the remaining cases are not started and Run returns
	// an error and no result. One case cannot go far over: its own
	// declared limits bound its trace.
	Within *Limits
}

// Run runs cases against the host models, spread over GOMAXPROCS
// goroutines; results come in the order of cases. Each case builds its own
// host model and recorders; what cases share (the case's expected block,
// its desk's resolved limits, the comparer names) is only read. A panic
// inside a case's run is recovered and makes the case errored.
func Run(ctx context.Context, cases []*Case, o RunOptions) ([]Result, error) {
	one := func(c *Case) Result { return judge(ctx, c, o.Pin, o.Fault) }
	if o.Once {
		one = func(c *Case) Result { return runOn(ctx, c, o.Release, o.Fault) }
	}
	if o.Within == nil {
		out := make([]Result, len(cases))
		parallel.For(len(cases), func(i int) { out[i] = one(cases[i]) })
		return out, nil
	}
	b := newTraceBudget(*o.Within)
	out := b.run(cases, one)
	if err := b.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// runAll judges cases as Run does with no bound on the trace.
func runAll(ctx context.Context, cases []*Case, pin Hosts, fault *scenario.QualifiedFault) []Result {
	out := make([]Result, len(cases))
	parallel.For(len(cases), func(i int) { out[i] = judge(ctx, cases[i], pin, fault) })
	return out
}

// runOn runs c once with the host behaving as release ("" lets the host
// choose), fault switched on when it is one of the case's own family.
func runOn(ctx context.Context, c *Case, release string, fault *scenario.QualifiedFault) (res Result) {
	sc, fam := c.sc, c.fam
	res = Result{Case: c, Unit: sc.Unit, Comparisons: comparisons(sc)}
	defer func() {
		if p := recover(); p != nil {
			res.Status, res.Err = Errored, fmt.Sprintf("panic while running the case: %v\n%s", p, debug.Stack())
		}
	}()
	env := scenario.Env{Trace: &scenario.Trace{}, Release: release, Asked: new(uint64)}
	faulty := fault != nil && fault.Host == fam.Host.Name
	if faulty {
		env.Faults, env.Mutant = fault.ID, fault.Mutant
	}
	obs, err := c.compiled.Run(ctx, env)
	res.Trace = env.Trace.Events()
	res.Asked = atomic.LoadUint64(env.Asked)
	if err != nil {
		res.Status, res.Err = Errored, err.Error()
		return res
	}
	for k, v := range obs.Values {
		obs.Values[k] = scenario.Normalize(v)
	}
	res.Observed = obs.Values
	res.Boundary = obs.Boundary
	res.Points = uniquePoints(obs.Points)
	// Under a fault or a mutant only the verdict counts.
	res.Mismatches = compareIn(fam.Host.Values, c.Expected, res.Observed, sc, !faulty)
	res.Status = Pass
	if len(res.Mismatches) > 0 {
		res.Status = Fail
	}
	return res
}

// comparisons names each observed key's comparer; the map is built once
// per scenario value and shared, as results only read it.
func comparisons(sc *scenario.Scenario) map[string]string {
	if m, ok := comparers.Load(sc); ok {
		return m.(map[string]string)
	}
	out := make(map[string]string, len(sc.Expected))
	for _, o := range sc.Expected {
		out[o.Key] = o.Comparer.Name()
	}
	m, _ := comparers.LoadOrStore(sc, out)
	return m.(map[string]string)
}

// comparers holds comparisons' maps by scenario.
var comparers sync.Map

// Summary counts results.
type Summary struct {
	Cases   int `json:"cases"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errored int `json:"errored"`
	// NotApplicable counts the cases not judged on any release asked for.
	NotApplicable int `json:"notApplicable"`
	SourceOnly    int `json:"sourceOnly"`
}

// Plus is the sum of two summaries, count by count.
func (s Summary) Plus(o Summary) Summary {
	return Summary{Cases: s.Cases + o.Cases, Passed: s.Passed + o.Passed, Failed: s.Failed + o.Failed, Errored: s.Errored + o.Errored,
		NotApplicable: s.NotApplicable + o.NotApplicable, SourceOnly: s.SourceOnly + o.SourceOnly}
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
		case NotApplicable:
			s.NotApplicable++
		default:
			s.Errored++
		}
	}
	return s
}
