package conformance

// This file is the only one that knows how deskcheck is put together. When
// the package layout changes, re-point goObserve (and adapterGap) here and
// nothing else.

import (
	"github.com/deskcheck/deskcheck/internal/jsonx"

	"context"
	"testing"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// goCase is what deskcheck observed for one case.
type goCase struct {
	Scenario string
	// Given is the case's given block as written.
	Given string
	// Observed holds deskcheck's observations, as JSON values (numbers
	// are float64), as the harness's are once decoded.
	Observed map[string]any
	// NotApplicable says why the release lacks the case's scenario.
	NotApplicable string
}

// lacks reports whether the model's release has no such scenario.
func lacks(scenarioName, release string) bool {
	_, fam, ok := all.Registry().Lookup(scenarioName)
	if !ok || fam == nil {
		return false
	}
	r, ok := fam.Host.Release(release)
	return ok && fam.Host.NotApplicable(r, scenarioName) != ""
}

// goObserve loads a desk with deskcheck's own loader and runs every case
// through deskcheck's OMP scenarios, behaving as release, with the
// host/omp fault named fault switched on ("" for the correct model). It
// returns the observations by case id, in file order of ids; a case the
// release lacks the scenario of is returned with NotApplicable set.
func goObserve(t testing.TB, path string, data []byte, release, fault string) (map[string]goCase, []string) {
	t.Helper()
	reg := all.Registry()
	desk, diags := verifier.Load(reg, path, data, verifier.Limits{})
	if desk == nil {
		t.Fatalf("deskcheck does not load %s: %v", path, diags)
	}
	var qf *scenario.QualifiedFault
	if fault != "" {
		q, err := reg.LookupFault("omp/" + fault)
		if err != nil {
			t.Fatalf("fault %s: %v", fault, err)
		}
		qf = &q
	}
	results, err := verifier.Run(context.Background(), desk.Cases, verifier.RunOptions{Once: true, Release: release, Fault: qf})
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]goCase, len(results))
	ids := make([]string, 0, len(results))
	for _, r := range results {
		if r.Status == verifier.Errored && lacks(r.Case.Scenario, release) {
			out[r.Case.ID] = goCase{Scenario: r.Case.Scenario, Given: r.Case.Given.Raw, NotApplicable: r.Err}
			ids = append(ids, r.Case.ID)
			continue
		}
		if r.Status == verifier.Errored {
			t.Fatalf("deskcheck could not run %s: %s", r.Case.ID, r.Err)
		}
		// Written as the reports write them (an unpaired surrogate as its
		// escape) and read as JSON.parse reads the release's.
		var obs jsObservations
		if err := obs.UnmarshalJSON(jsonx.Append(nil, r.Observed)); err != nil {
			t.Fatalf("%s: %v", r.Case.ID, err)
		}
		out[r.Case.ID] = goCase{Scenario: r.Case.Scenario, Given: r.Case.Given.Raw, Observed: obs}
		ids = append(ids, r.Case.ID)
	}
	return out, ids
}

// givenKeys returns the given keys deskcheck's scenario reads.
func givenKeys(scenarioName string) []string {
	return all.Registry().GivenKeys(scenarioName)
}
