package all

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

var update = flag.Bool("update", false, "rewrite schema/case.schema.json from the registry")

// TestCaseSchemaIsCurrent keeps the committed case schema, which editors
// read, equal to the one the registry composes from the scenarios'
// fragments. Regenerate it with go test ./host/all -update (or deskcheck
// schema > schema/case.schema.json).
func TestCaseSchemaIsCurrent(t *testing.T) {
	want := Registry().CaseSchema()
	const path = "../../schema/case.schema.json"
	if *update {
		require.NoError(t, os.WriteFile(path, want, 0o644))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "schema/case.schema.json is stale: run go test ./host/all -update")
}

// desks are the bundled suite and every adapter's testdata desks.
func desks(t *testing.T) []verifier.Input {
	t.Helper()
	var inputs []verifier.Input
	for _, f := range Desks() {
		inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
	}
	paths, err := filepath.Glob("../*/*check/testdata/*.json")
	require.NoError(t, err)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		inputs = append(inputs, verifier.Input{Path: p, Data: data})
	}
	return inputs
}

// TestEveryFamily holds every registered family to the same rules: its
// desks pass, every fault of the family is caught by at least one case of
// its own family, a fault changes nothing in another family's cases, and
// every suggestion names a key the scenario declares.
func TestEveryFamily(t *testing.T) {
	reg := Registry()
	suite, ds, err := verifier.Verify(context.Background(), desks(t), verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	for _, r := range suite.Results {
		require.Equal(t, verifier.Pass, r.Status, "%s: %+v %s", r.Case.FullID(), r.Mismatches, r.Err)
		sc, _ := r.Case.Spec()
		for _, s := range r.Suggestions() {
			_, ok := sc.Expected.Comparer(s.Key)
			assert.True(t, ok, "%s suggests %s, which %s does not declare", r.Case.FullID(), s.Key, sc.Name)
		}
	}
	seen := map[string]bool{}
	for _, r := range suite.Results {
		_, fam := r.Case.Spec()
		seen[fam.Host.Name] = true
	}
	for _, f := range reg.Families() {
		assert.True(t, seen[f.Host.Name], "family %s has cases in its desks", f.Host.Name)
	}
	strength := verifier.MeasureStrength(context.Background(), suite.Results, reg.Faults())
	for _, f := range strength.Faults {
		assert.True(t, f.Caught(), "%s is caught by a case (hint: %s)", f.Fault.FullName(), f.Fault.Hint)
		for _, id := range f.CaughtBy {
			for _, r := range suite.Results {
				if r.Case.FullID() == id {
					_, fam := r.Case.Spec()
					assert.Equal(t, f.Fault.Host, fam.Host.Name, "%s is caught only by cases of its own family", f.Fault.FullName())
				}
			}
		}
	}
}
