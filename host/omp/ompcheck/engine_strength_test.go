package ompcheck_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/verifier"
)

func TestStrengthOfTheBoundaryDesk(t *testing.T) {
	cases := boundaryCases(t)
	all := ompFaults(t)
	s := verifier.MeasureStrength(context.Background(), runCases(t, cases), all)
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
	// The bash tool's own rules are taught by cases/omp-tools-desk.json.
	gaps := []string{"revision-ignored", "approve-case-insensitive", "yolo-user-allow-beats-tool-prompt",
		"critical-family-missing", "allow-despite-shell-control", "segment-matching-off", "first-match-not-first", "yolo-prompts-critical"}
	for _, gap := range gaps {
		assert.Empty(t, caught[gap], gap)
	}
	assert.Equal(t, len(all)-len(gaps), s.Caught())
}

func TestStrengthExcludesCasesThatFailAlready(t *testing.T) {
	cases := boundaryCases(t)
	cases[0].Expected[1].Value = gjson.Parse("99") // effects: a wrong expectation
	cases[0].Expected[1].Want = 99.0
	s := verifier.MeasureStrength(context.Background(), runCases(t, cases[:1]), ompFaults(t)[:1])
	assert.Equal(t, []string{"boundary-desk/boundary-approval-does-not-persist"}, s.Excluded)
	assert.False(t, s.Faults[0].Caught(), "a case that fails anyway catches nothing")
}

func TestScenarioDeskCatchesTheDeskGaps(t *testing.T) {
	cases := loadDeskCases(t, "testdata/omp-desk.json")
	gaps := ompFaults(t, "revision-ignored", "yolo-user-allow-beats-tool-prompt", "approve-case-insensitive")
	for _, f := range verifier.MeasureStrength(context.Background(), runCases(t, cases), gaps).Faults {
		assert.True(t, f.Caught(), f.Fault.Name)
	}
}

func TestAskedNamesTheFaultsARunChecked(t *testing.T) {
	cases := boundaryCases(t)
	byID := map[string]verifier.Result{}
	for _, r := range runCases(t, cases) {
		byID[r.Case.FullID()] = r
	}
	id := func(name string) uint64 {
		q, err := registered.LookupFault(name)
		require.NoError(t, err)
		return q.ID
	}
	dialog := byID["boundary-desk/boundary-dismiss-one-call"]
	require.Equal(t, verifier.Pass, dialog.Status)
	assert.NotZero(t, dialog.Asked&id("omp/dismiss-approves"), "a dismissed dialog checks whether dismissing approves")
	assert.Zero(t, dialog.Asked&id("omp/fallback-retries"), "a wrapper call never reaches the write fallback")
	fallback := byID["boundary-desk/boundary-fallback-code-precedence"]
	require.Equal(t, verifier.Pass, fallback.Status)
	assert.NotZero(t, fallback.Asked&id("omp/classifier-message-first"))
	assert.Zero(t, fallback.Asked&id("omp/dismiss-approves"), "the fallback opens no dialog")
}
