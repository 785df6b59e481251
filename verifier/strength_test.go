package verifier

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// ompFaults are the faults of the OMP host.
func ompFaults(t *testing.T, names ...string) []scenario.QualifiedFault {
	var out []scenario.QualifiedFault
	for _, q := range testReg.Faults() {
		if q.Host == "omp" {
			out = append(out, q)
		}
	}
	if len(names) == 0 {
		return out
	}
	var some []scenario.QualifiedFault
	for _, n := range names {
		q, err := testReg.LookupFault("omp/" + n)
		require.NoError(t, err)
		some = append(some, q)
	}
	return some
}

func TestStrengthOfTheBoundaryDesk(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	desks, ds := LoadAll(testReg, []Input{in}, Limits{})
	require.False(t, ds.HasErrors())
	cases, _ := Select(desks, nil)
	all := ompFaults(t)
	s := MeasureStrength(context.Background(), Run(context.Background(), cases, nil), all)
	require.Len(t, s.Faults, len(all))
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
	assert.Equal(t, len(all)-3, s.Caught())
}

func TestStrengthExcludesCasesThatFailAlready(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	desks, _ := LoadAll(testReg, []Input{in}, Limits{})
	cases, _ := Select(desks, nil)
	cases[0].Expected[1].Value = gjson.Parse("99") // effects: a wrong expectation
	cases[0].Expected[1].Want = 99.0
	s := MeasureStrength(context.Background(), Run(context.Background(), cases[:1], nil), ompFaults(t)[:1])
	assert.Equal(t, []string{"boundary-desk/boundary-approval-does-not-persist"}, s.Excluded)
	assert.False(t, s.Faults[0].Caught(), "a case that fails anyway catches nothing")
}

func TestScenarioDeskCatchesTheDeskGaps(t *testing.T) {
	in := readInput(t, "../host/omp/ompcheck/testdata/omp-desk.json")
	desks, _ := LoadAll(testReg, []Input{in}, Limits{})
	cases, _ := Select(desks, nil)
	gaps := ompFaults(t, "revision-ignored", "yolo-user-allow-beats-tool-prompt", "approve-case-insensitive")
	for _, f := range MeasureStrength(context.Background(), Run(context.Background(), cases, nil), gaps).Faults {
		assert.True(t, f.Caught(), f.Fault.Name)
	}
}
