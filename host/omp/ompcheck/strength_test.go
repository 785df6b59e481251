package ompcheck

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// verifyBundled verifies the bundled desk at path (cases/<name>.json) on
// this family alone.
func verifyBundled(t *testing.T, path string) (*scenario.Registry, *verifier.SuiteResult) {
	t.Helper()
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	var inputs []verifier.Input
	for _, f := range cases.Files() {
		if f.Path == path {
			inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
		}
	}
	require.Len(t, inputs, 1, path)
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	return reg, suite
}

// TestSeedDeskLeavesRowsOpen: the seed desk reaches decision rows 1, 2, 4
// and 9 and always-ask mode, and leaves rows 3, 5, 6, 7 and 8 and write
// mode unreached, each with a case that reaches it; it lets both
// mode-cap mutants that grant more than configured survive, and the cap
// of yolo lowered is equivalent. docs/strength.md says so.
func TestSeedDeskLeavesRowsOpen(t *testing.T) {
	_, suite := verifyBundled(t, "cases/boundary-desk.json")
	ctx := context.Background()
	cov := verifier.MeasureCoverage(ctx, suite.Results, true)
	require.Len(t, cov.Desks, 1)
	reached := map[string]bool{}
	var rows []string
	for _, p := range cov.Desks[0].Points {
		reached[p.Point.Name] = p.Count > 0
		if !reached[p.Point.Name] {
			assert.NotNil(t, p.Made, "%s has a case that reaches it", p.Point.Name)
		} else if row, ok := strings.CutPrefix(p.Point.Name, "wrapper/row-"); ok {
			rows = append(rows, row)
		}
	}
	for _, p := range []string{"wrapper/row-1", "wrapper/row-2", "wrapper/row-4", "wrapper/row-9", "wrapper/mode-always-ask"} {
		assert.True(t, reached[p], "the desk reaches %s", p)
	}
	for _, p := range []string{"wrapper/row-3", "wrapper/row-5", "wrapper/row-6", "wrapper/row-7", "wrapper/row-8", "wrapper/mode-write"} {
		r, declared := reached[p]
		assert.True(t, declared && !r, "the desk leaves %s unreached", p)
	}

	m := verifier.MeasureMutants(ctx, suite.Results, nil)
	require.Len(t, m.Desks, 1)
	assert.Contains(t, m.Desks[0].Survivors, "omp/cap/write/raise")
	assert.Contains(t, m.Desks[0].Survivors, "omp/cap/always-ask/raise")
	var equivalent []string
	for _, e := range m.Equivalent {
		equivalent = append(equivalent, e.FullName())
	}
	assert.Contains(t, equivalent, "omp/cap/yolo/lower")

	page, err := os.ReadFile("../../../docs/strength.md")
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(page)), " ")
	require.Len(t, rows, 4)
	assert.Contains(t, doc, "decision rows "+rows[0]+", "+rows[1]+", "+rows[2]+" and "+rows[3]+" only")
	unreached := len(cov.Desks[0].Points) - cov.Desks[0].Reached()
	assert.Contains(t, doc, "running a case for each of its "+strconv.Itoa(unreached)+" unreached points")
	assert.Contains(t, doc, "The OMP family's "+strconv.Itoa(len(Generate()))+" generated inputs")
}

// TestToolsDeskCatchesTheToolsFaults: the tools desk catches each of the
// five faults of the bash tool's rules, which the seed desk leaves to it.
func TestToolsDeskCatchesTheToolsFaults(t *testing.T) {
	reg, suite := verifyBundled(t, "cases/omp-tools-desk.json")
	caught := map[string]bool{}
	for _, f := range verifier.MeasureStrength(context.Background(), suite.Results, reg.Faults()).Faults {
		caught[f.Fault.Name] = f.Caught()
	}
	for _, name := range []string{"critical-family-missing", "allow-despite-shell-control", "segment-matching-off", "first-match-not-first", "yolo-prompts-critical"} {
		assert.True(t, caught[name], "the tools desk catches %s", name)
	}
}
