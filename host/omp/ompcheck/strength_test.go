package ompcheck

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestToolsDeskCatchesTheToolsFaults: the tools desk catches each of the
// five faults of the bash tool's rules, which the seed desk leaves to it.
func TestToolsDeskCatchesTheToolsFaults(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	var inputs []verifier.Input
	for _, f := range cases.Files() {
		if f.Path == "cases/omp-tools-desk.json" {
			inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
		}
	}
	require.Len(t, inputs, 1)
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	caught := map[string]bool{}
	for _, f := range verifier.MeasureStrength(context.Background(), suite.Results, reg.Faults()).Faults {
		caught[f.Fault.Name] = f.Caught()
	}
	for _, name := range []string{"critical-family-missing", "allow-despite-shell-control", "segment-matching-off", "first-match-not-first", "yolo-prompts-critical"} {
		assert.True(t, caught[name], "the tools desk catches %s", name)
	}
}
