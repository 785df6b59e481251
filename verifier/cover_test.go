package verifier

import (
	"context"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func boundaryResults(t *testing.T) []Result {
	t.Helper()
	desks, ds := LoadAll(testReg, []Input{readInput(t, "../cases/boundary-desk.json")}, Limits{})
	require.False(t, ds.HasErrors())
	cases, _ := Select(desks, nil)
	return runAll(context.Background(), cases, nil, nil)
}

func TestUniquePoints(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{"b", "a", "b", "a", "c"}, []string{"a", "b", "c"}},
		{[]string{"x"}, []string{"x"}},
	} {
		assert.Equal(t, tt.want, uniquePoints(tt.in))
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"scenario/row-3": "scenario-row-3", "host/cap/always-ask/raise": "host-cap-always-ask-raise", "classify/code-EPERM/drop": "classify-code-eperm-drop", "a  b": "a-b"} {
		assert.Equal(t, want, slug(in), in)
	}
}

// Mutants are scored per desk and family; an equivalent mutant is left
// out and not run; each survivor gets a case that kills it.
func TestMutantsOfTheBoundaryDesk(t *testing.T) {
	keep := regexp.MustCompile(named(`^{host}/cap/`)).MatchString
	m := MeasureMutants(context.Background(), boundaryResults(t), keep)
	assert.Empty(t, m.Excluded)
	require.Len(t, m.Equivalent, 1)
	assert.Equal(t, named("{host}/cap/yolo/lower"), m.Equivalent[0].FullName())
	require.Len(t, m.Results, 4)
	assert.Equal(t, 4, m.Survived())
	require.Len(t, m.Desks, 1)
	assert.Equal(t, MutantScore{Desk: "boundary-desk", Host: hostOf(exPrompt), Killed: 0, Total: 4,
		Survivors: []string{named("{host}/cap/always-ask/raise"), named("{host}/cap/always-ask/lower"), named("{host}/cap/write/raise"), named("{host}/cap/write/lower")}}, m.Desks[0])
	var made []*Made
	for _, r := range m.Results {
		assert.Equal(t, 15, r.Cases)
		require.NotNil(t, r.Made, r.FullName())
		assert.Equal(t, r.FullName(), r.Made.Mutant)
		made = append(made, r.Made)
	}
	desk := MadeDesk(testReg, "kill", "kill", made)
	require.NoError(t, CheckMade(context.Background(), testReg, desk, made))

	// Claimed against another mutant, a killing case that does not kill
	// it is refused.
	other := *made[0]
	for _, r := range m.Results {
		if r.Mutant.Name == "cap/write/raise" {
			other.mutantID = r.Mutant.ID
		}
	}
	require.Equal(t, named("{host}/cap/always-ask/raise"), made[0].Mutant, "results come in declaration order")
	err := CheckMade(context.Background(), testReg, MadeDesk(testReg, "kill", "kill", []*Made{&other}), []*Made{&other})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "passes under")
}

// A case that fails on the correct model is left out of the mutant run.
func TestMutantsExcludeFailingCases(t *testing.T) {
	results := boundaryResults(t)
	results[0].Status = Fail
	m := MeasureMutants(context.Background(), results, regexp.MustCompile(named(`^{host}/cap/always-ask/raise$`)).MatchString)
	assert.Equal(t, []string{results[0].Case.FullID()}, m.Excluded)
	require.Len(t, m.Results, 1)
	assert.Equal(t, 14, m.Results[0].Cases)
}
