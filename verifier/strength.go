package verifier

import (
	"context"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// FaultResult says whether a suite caught one fault.
type FaultResult struct {
	Fault scenario.QualifiedFault
	// Cases is how many cases of the fault's family ran under it.
	Cases int
	// CaughtBy lists the <desk-id>/<case-id> of every case that did not
	// pass under the fault.
	CaughtBy []string
	// NotAddressed, for a fault no case caught, says why the selection
	// cannot teach it: it holds no passing case of the scenarios that can
	// expose it ("no case of scenario fallback"). "" when it does.
	NotAddressed string
	// Exposed names the boundary-response dimensions of the host's cases
	// that differ under the fault from the correct run, as
	// "allowed work 17/17 → 0/17".
	Exposed []string
}

// Caught reports whether at least one case noticed the fault.
func (r FaultResult) Caught() bool { return len(r.CaughtBy) > 0 }

// Strength is how many deliberate boundary bugs a suite notices.
type Strength struct {
	Faults []FaultResult
	// Excluded lists cases that do not pass on the correct model; they
	// cannot tell a fault from their own failure and are left out.
	Excluded []string
}

// Caught counts the faults caught.
func (s Strength) Caught() int {
	n := 0
	for _, f := range s.Faults {
		if f.Caught() {
			n++
		}
	}
	return n
}

// NotAddressed counts the faults the selection has no case to address.
func (s Strength) NotAddressed() int {
	n := 0
	for _, f := range s.Faults {
		if f.NotAddressed != "" {
			n++
		}
	}
	return n
}

// Missed counts the faults the selection addresses and does not catch.
func (s Strength) Missed() int { return len(s.Faults) - s.Caught() - s.NotAddressed() }

// MeasureStrength runs each fault against the cases of its own family
// that passed on the correct model (baseline, the results of a verify run)
// and says which cases noticed it: a case notices a fault when it fails or
// cannot run under it. A fault no case noticed whose scenarios have no
// such case is not addressed rather than missed.
func MeasureStrength(ctx context.Context, baseline []Result, faults []scenario.QualifiedFault) Strength {
	return MeasureStrengthPinned(ctx, baseline, faults, nil)
}

// MeasureStrengthPinned is MeasureStrength with pin naming the one release
// of a host the cases are judged on (-host), as in the baseline run. A
// case not applicable there is neither used nor left out as failing.
func MeasureStrengthPinned(ctx context.Context, baseline []Result, faults []scenario.QualifiedFault, pin Hosts) Strength {
	var s Strength
	sound := map[string][]*Case{}    // host → cases that pass
	correct := map[string][]Result{} // host → their results
	scenarios := map[string]map[string]bool{}
	for _, r := range baseline {
		if r.Status == NotApplicable {
			continue
		}
		if r.Status == Pass {
			_, fam := r.Case.Spec()
			sound[fam.Host.Name] = append(sound[fam.Host.Name], r.Case)
			correct[fam.Host.Name] = append(correct[fam.Host.Name], r)
			if scenarios[fam.Host.Name] == nil {
				scenarios[fam.Host.Name] = map[string]bool{}
			}
			scenarios[fam.Host.Name][r.Case.Scenario] = true
		} else {
			s.Excluded = append(s.Excluded, r.Case.FullID())
		}
	}
	var scratch []Result // the results under one fault, reused for the next
	for _, f := range faults {
		fr := FaultResult{Fault: f, Cases: len(sound[f.Host])}
		under := runUnder(ctx, sound[f.Host], correct[f.Host], pin, f, scratch)
		scratch = under
		for _, r := range under {
			if r.Status != Pass {
				fr.CaughtBy = append(fr.CaughtBy, r.Case.FullID())
			}
		}
		if !fr.Caught() {
			fr.NotAddressed = notAddressed(f, scenarios[f.Host])
		}
		fr.Exposed = exposed(SumDimensions(correct[f.Host]), SumDimensions(under))
		s.Faults = append(s.Faults, fr)
		clear(under) // holds no run's trace on while the next fault runs
	}
	return s
}

// reuseUnasked lets runUnder take a case's correct result for its result
// under a fault its correct run never checked; tests switch it off to
// compare with running everything.
var reuseUnasked = true

// runUnder runs cases (whose correct results are correct, in the same
// order) under f. A run differs from the correct one only from the first
// point where the model checks f, so a case whose correct run never
// checked f would give its correct result again: that result is taken
// instead of running the case. A generated mutant is not a fault bit and
// always runs. The results are written over scratch when it has room: the
// caller keeps nothing of the last fault's.
func runUnder(ctx context.Context, cases []*Case, correct []Result, pin Hosts, f scenario.QualifiedFault, scratch []Result) []Result {
	if !reuseUnasked || f.Mutant != 0 {
		return runAll(ctx, cases, pin, &f)
	}
	var at []int // where the cases that checked f are
	var asked []*Case
	for i, c := range cases {
		if correct[i].Asked&f.ID != 0 {
			at = append(at, i)
			asked = append(asked, c)
		}
	}
	out := append(scratch[:0], correct...)
	for k, r := range runAll(ctx, asked, pin, &f) {
		out[at[k]] = r
	}
	return out
}

// notAddressed says why no case can expose f when none of the scenarios
// it names has a passing case, "" when one has.
func notAddressed(f scenario.QualifiedFault, have map[string]bool) string {
	if len(f.Scenarios) == 0 {
		if len(have) == 0 {
			return "no passing case of host " + f.Host
		}
		return ""
	}
	for _, sc := range f.Scenarios {
		if have[sc] {
			return ""
		}
	}
	return "no case of scenario " + strings.Join(f.Scenarios, " or ")
}

// exposed lists the dimensions that differ between the correct run and
// the run under a fault.
func exposed(correct, faulty Dimensions) []string {
	var out []string
	frac := func(d Dimension) string {
		if !d.Applicable {
			return "n/a"
		}
		return strconv.Itoa(d.Numerator) + "/" + strconv.Itoa(d.Denominator)
	}
	for _, x := range []struct {
		name string
		a, b Dimension
	}{
		{"denial propagation", correct.DenialPropagation, faulty.DenialPropagation},
		{"allowed work", correct.AllowedWork, faulty.AllowedWork},
		{"fail closed", correct.FailClosed, faulty.FailClosed},
		{"trace completeness", correct.TraceCompleteness, faulty.TraceCompleteness},
	} {
		if x.a != x.b {
			out = append(out, x.name+" "+frac(x.a)+" → "+frac(x.b))
		}
		if x.name == "fail closed" && correct.RetryAmplification.Dimension != faulty.RetryAmplification.Dimension {
			ratio := func(a Amplification) string {
				if !a.Applicable {
					return "n/a"
				}
				return a.Ratio + " (" + frac(a.Dimension) + ")"
			}
			out = append(out, "retry amplification "+ratio(correct.RetryAmplification)+" → "+ratio(faulty.RetryAmplification))
		}
	}
	if correct.ExtraEffects != faulty.ExtraEffects {
		out = append(out, "extra effects "+strconv.Itoa(correct.ExtraEffects)+" → "+strconv.Itoa(faulty.ExtraEffects))
	}
	return out
}

// FaultsOf keeps the faults of the hosts that have at least one case among
// results: a fault runs only against its own host's cases, so a host with
// none could only ever be reported missed.
func FaultsOf(results []Result, faults []scenario.QualifiedFault) []scenario.QualifiedFault {
	hosts := map[string]bool{}
	for _, r := range results {
		if _, fam := r.Case.Spec(); fam != nil {
			hosts[fam.Host.Name] = true
		}
	}
	var out []scenario.QualifiedFault
	for _, f := range faults {
		if hosts[f.Host] {
			out = append(out, f)
		}
	}
	return out
}
