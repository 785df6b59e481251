package verifier

import (
	"context"

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

// MeasureStrength runs each fault against the cases of its own family
// that passed on the correct model (baseline, the results of a verify run)
// and says which cases noticed it: a case notices a fault when it fails or
// cannot run under it.
func MeasureStrength(ctx context.Context, baseline []Result, faults []scenario.QualifiedFault) Strength {
	return MeasureStrengthPinned(ctx, baseline, faults, nil)
}

// MeasureStrengthPinned is MeasureStrength with pin naming the one release
// of a host the cases are judged on (-host), as in the baseline run. A
// case not applicable there is neither used nor left out as failing.
func MeasureStrengthPinned(ctx context.Context, baseline []Result, faults []scenario.QualifiedFault, pin Hosts) Strength {
	var s Strength
	sound := map[string][]*Case{} // host → cases that pass
	for _, r := range baseline {
		if r.Status == NotApplicable {
			continue
		}
		if r.Status == Pass {
			_, fam := r.Case.Spec()
			sound[fam.Host.Name] = append(sound[fam.Host.Name], r.Case)
		} else {
			s.Excluded = append(s.Excluded, r.Case.FullID())
		}
	}
	for _, f := range faults {
		fr := FaultResult{Fault: f, Cases: len(sound[f.Host])}
		for _, r := range RunPinned(ctx, sound[f.Host], pin, &f) {
			if r.Status != Pass {
				fr.CaughtBy = append(fr.CaughtBy, r.Case.FullID())
			}
		}
		s.Faults = append(s.Faults, fr)
	}
	return s
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
