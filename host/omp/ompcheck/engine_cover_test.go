package ompcheck_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

// Coverage comes from what the runs recorded: without making cases it
// runs nothing more, and the counts agree with the cases listed.
func TestCoverageOfTheBoundaryDesk(t *testing.T) {
	results := runCases(t, boundaryCases(t))
	c := verifier.MeasureCoverage(context.Background(), results, false)
	require.Len(t, c.Desks, 1)
	require.Len(t, c.Families, 1)
	d := c.Desks[0]
	assert.Equal(t, "boundary-desk", d.Desk)
	assert.Equal(t, "omp", d.Host)
	byName := map[string]verifier.PointStatus{}
	for _, p := range d.Points {
		byName[p.Point.Name] = p
		assert.Nil(t, p.Made, "no case is made without makeCases")
		assert.LessOrEqual(t, len(p.Cases), verifier.ListedCases)
		assert.Equal(t, p.Count > 0, len(p.Cases) > 0)
	}
	// The seven always-ask cases of the desk all end at row 9; every one
	// is counted.
	assert.Equal(t, 7, byName["wrapper/row-9"].Count)
	assert.Zero(t, byName["wrapper/row-8"].Count)
	assert.Equal(t, []string{"boundary-desk/boundary-deny-before-handler"}, byName["wrapper/row-1"].Cases)
	assert.Equal(t, d.Reached(), c.Families[0].Reached())
	pct := d.Percent()
	assert.Empty(t, c.Missing(pct))
	assert.Len(t, c.Missing(pct+1), 1)
}

// Every case made for an unreached point reaches it, passes, and the
// desk of them loads and runs as printed.
func TestCoverageMakesCheckedCases(t *testing.T) {
	c := verifier.MeasureCoverage(context.Background(), runCases(t, boundaryCases(t)), true)
	var made []*verifier.Made
	for _, p := range c.Desks[0].Points {
		if p.Count == 0 {
			require.NotNil(t, p.Made, "a case for %s", p.Point.Name)
			assert.Equal(t, p.Point.Name, p.Made.Point)
			made = append(made, p.Made)
		}
	}
	require.NotEmpty(t, made)
	desk := verifier.MadeDesk(registered, "made", "made", made)
	require.NoError(t, verifier.CheckMade(context.Background(), registered, desk, made))

	// A case that claims a point it does not reach is refused.
	wrong := *made[0]
	wrong.Point = "wrapper/row-8"
	if made[0].Point == "wrapper/row-8" {
		wrong.Point = "wrapper/row-3"
	}
	err := verifier.CheckMade(context.Background(), registered, verifier.MadeDesk(registered, "made", "made", []*verifier.Made{&wrong}), []*verifier.Made{&wrong})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "does not reach")
}
