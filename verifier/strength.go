package verifier

import (
	"context"

	"github.com/deskcheck/deskcheck/host/omp"
)

// FaultResult says whether a suite caught one fault.
type FaultResult struct {
	Fault omp.FaultInfo
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

// MeasureStrength runs the cases once on the correct model and once under
// each fault. A fault is caught when at least one case that passes on the
// correct model fails (or cannot run) under it.
func MeasureStrength(ctx context.Context, cases []*Case, faults []omp.FaultInfo) Strength {
	var s Strength
	var sound []*Case
	for _, r := range Run(ctx, cases, 0) {
		if r.Status == Pass {
			sound = append(sound, r.Case)
		} else {
			s.Excluded = append(s.Excluded, r.Case.FullID())
		}
	}
	for _, f := range faults {
		fr := FaultResult{Fault: f}
		for _, r := range Run(ctx, sound, omp.Faults(0).With(f.Fault)) {
			if r.Status != Pass {
				fr.CaughtBy = append(fr.CaughtBy, r.Case.FullID())
			}
		}
		s.Faults = append(s.Faults, fr)
	}
	return s
}
