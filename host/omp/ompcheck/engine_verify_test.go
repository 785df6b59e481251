package ompcheck_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/omp/ompcheck"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// The tests of this package's engine_ files run OMP's desks through the
// engine, with every family registered, as the command does.
var registered = all.Registry()

// releasesDeskPath is the family's desk of lessons pinned to releases.
const releasesDeskPath = "testdata/releases-desk.json"

func readDesk(t *testing.T, path string) verifier.Input {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return verifier.Input{Path: path, Data: data}
}

// loadDeskCases loads the desks at paths, which must be valid, and returns
// their cases.
func loadDeskCases(t *testing.T, paths ...string) []*verifier.Case {
	t.Helper()
	var in []verifier.Input
	for _, p := range paths {
		in = append(in, readDesk(t, p))
	}
	desks, ds := verifier.LoadAll(registered, in, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	cases, _ := verifier.Select(desks, nil)
	return cases
}

func diagLines(ds verifier.Diagnostics) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.String()
	}
	return out
}

// ompFaults are the faults of the OMP host, or those of them named.
func ompFaults(t *testing.T, names ...string) []scenario.QualifiedFault {
	t.Helper()
	var out []scenario.QualifiedFault
	for _, q := range registered.Faults() {
		if q.Host == ompcheck.Family.Host.Name {
			out = append(out, q)
		}
	}
	require.NotEmpty(t, out)
	if len(names) == 0 {
		return out
	}
	var some []scenario.QualifiedFault
	for _, n := range names {
		q, err := registered.LookupFault(ompcheck.Family.Host.Name + "/" + n)
		require.NoError(t, err)
		some = append(some, q)
	}
	return some
}

// bundled is the desk of the bundled suite at path (cases/NAME.json).
func bundled(t *testing.T, path string) verifier.Input {
	t.Helper()
	for _, f := range all.Desks() {
		if f.Path == path {
			return verifier.Input{Path: f.Path, Data: f.Data}
		}
	}
	t.Fatalf("no bundled desk %s", path)
	return verifier.Input{}
}

// boundaryCases are the cases of the bundled seed desk.
func boundaryCases(t *testing.T) []*verifier.Case {
	t.Helper()
	desks, ds := verifier.LoadAll(registered, []verifier.Input{bundled(t, "cases/boundary-desk.json")}, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	cases, _ := verifier.Select(desks, nil)
	return cases
}

// runCases judges cases on the releases each selects.
func runCases(t *testing.T, cases []*verifier.Case) []verifier.Result {
	t.Helper()
	out, err := verifier.Run(context.Background(), cases, verifier.RunOptions{})
	require.NoError(t, err)
	return out
}

// TestVerifyOMPDesk: the family's own desk verifies whole, every case
// passing and its one claim left to the source.
func TestVerifyOMPDesk(t *testing.T) {
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{readDesk(t, "testdata/omp-desk.json")}, verifier.Options{Registry: registered})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	for _, r := range suite.Results {
		assert.Equal(t, verifier.Pass, r.Status, "%s: %v %s", r.Case.FullID(), r.Mismatches, r.Err)
	}
	assert.Equal(t, verifier.Summary{Cases: 23, Passed: 23, SourceOnly: 1}, suite.Summary)
	assert.True(t, suite.Passed())
}
