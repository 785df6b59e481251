package conformance

import (
	"strconv"
	"testing"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/host/omp/ompcheck"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestCoverageInputsAgree runs every generated input of the OMP family,
// from which cover and mutants make their cases, through both the model
// and the release: a case the tool makes to reach a point or to kill a
// mutant states what the release does, not only what the model does.
func TestCoverageInputsAgree(t *testing.T) {
	h := host(t, requireInstalled(t, omp.Reference.String()))
	inputs := ompcheck.Generate()
	made := make([]*verifier.Made, len(inputs))
	for i, c := range inputs {
		// The expected block only has to be valid: the comparison is of
		// what both sides observe.
		expected := []verifier.Suggestion{{Key: "outcome", Value: "return"}, {Key: "effects", Value: 0}}
		if c.Scenario == "classify-error" {
			expected[0] = verifier.Suggestion{Key: "permissionDenied", Value: false}
		}
		made[i] = &verifier.Made{ID: "generated-" + strconv.Itoa(i+1), Title: c.Title, Why: "a generated input",
			Scenario: c.Scenario, Given: c.Given, Expected: expected}
	}
	data := verifier.MadeDesk(all.Registry(), "coverage-inputs", "the OMP family's generated inputs", made)
	real, ids := realObserve(t, h, data)
	model, _ := goObserve(t, "coverage-inputs.json", data, omp.Reference.String(), "")
	c := compare(t, omp.Reference.String(), real, model, ids)
	c.report(t, "generated coverage inputs")
	if c.compared != len(inputs) {
		t.Fatalf("compared %d of %d generated inputs", c.compared, len(inputs))
	}
}
