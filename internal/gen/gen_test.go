package gen_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/verifier"
)

func TestGeneratedSuitePasses(t *testing.T) {
	files := gen.Suite(2500, 1000)
	require.Len(t, files, 3)
	var inputs []verifier.Input
	for _, f := range files {
		inputs = append(inputs, verifier.Input{Path: f.Name, Data: f.Data})
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: all.Registry()})
	require.NoError(t, err)
	require.Empty(t, ds, "%d diagnostics", len(ds))
	assert.Equal(t, verifier.Summary{Cases: 2500, Passed: 2500}, suite.Summary)
	scenarios := map[string]int{}
	for _, r := range suite.Results {
		scenarios[r.Case.Scenario]++
	}
	assert.Len(t, scenarios, len(all.Registry().Names()), "every scenario of every family")
	assert.True(t, bytes.Equal(gen.Desk(1, 10, 10), gen.Desk(1, 10, 10)), "deterministic")
}
