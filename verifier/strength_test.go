package verifier

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
)

func TestStrengthOfTheBoundaryDesk(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	desks, ds := LoadAll([]Input{in}, Limits{})
	require.False(t, ds.HasErrors())
	cases, _ := Select(desks, nil)
	s := MeasureStrength(context.Background(), cases, omp.FaultList)
	require.Len(t, s.Faults, len(omp.FaultList))
	assert.Empty(t, s.Excluded)
	caught := map[string][]string{}
	for _, f := range s.Faults {
		caught[f.Fault.Name] = f.CaughtBy
	}
	assert.Equal(t, []string{"boundary-desk/boundary-approval-does-not-persist"}, caught["approval-remembered"])
	assert.Contains(t, caught["dismiss-approves"], "boundary-desk/boundary-dismiss-one-call")
	assert.Contains(t, caught["rpc-cancel-approves"], "boundary-desk/boundary-rpc-cancel")
	assert.Equal(t, []string{"boundary-desk/boundary-fallback-code-precedence"}, caught["classifier-message-first"])
	// The desk has no case for these: they are gaps in the desk, reported
	// as missed.
	for _, gap := range []string{"revision-ignored", "approve-case-insensitive", "yolo-user-allow-beats-tool-prompt"} {
		assert.Empty(t, caught[gap], gap)
	}
	assert.Equal(t, len(omp.FaultList)-3, s.Caught())
}

func TestStrengthExcludesCasesThatFailAlready(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	desks, _ := LoadAll([]Input{in}, Limits{})
	cases, _ := Select(desks, nil)
	cases[0].Expected[1].Value = gjson.Parse("99") // effects: a wrong expectation
	s := MeasureStrength(context.Background(), cases[:1], []omp.FaultInfo{omp.FaultList[0]})
	assert.Equal(t, []string{"boundary-desk/boundary-approval-does-not-persist"}, s.Excluded)
	assert.False(t, s.Faults[0].Caught(), "a case that fails anyway catches nothing")
}

func TestScenarioDeskCatchesTheDeskGaps(t *testing.T) {
	in := readInput(t, "testdata/scenarios.json")
	desks, _ := LoadAll([]Input{in}, Limits{})
	cases, _ := Select(desks, nil)
	var gaps []omp.FaultInfo
	for _, n := range []string{"revision-ignored", "yolo-user-allow-beats-tool-prompt", "approve-case-insensitive"} {
		f, _ := omp.LookupFault(n)
		gaps = append(gaps, f)
	}
	for _, f := range MeasureStrength(context.Background(), cases, gaps).Faults {
		assert.True(t, f.Caught(), f.Fault.Name)
	}
}
