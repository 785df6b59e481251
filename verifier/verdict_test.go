package verifier

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

// Under a fault only the verdict is kept: compared without details, every
// bundled case under every fault of its host mismatches exactly when it
// does with them, on the same keys, and the runs' verdicts are those the
// detailed comparison gives.
func TestVerdictComparisonAgrees(t *testing.T) {
	var inputs []Input
	for _, f := range all.Desks() {
		inputs = append(inputs, Input{Path: f.Path, Data: f.Data})
	}
	suite, _, err := Verify(context.Background(), inputs, Options{Registry: testReg})
	require.NoError(t, err)
	runs, mismatched := 0, 0
	for _, f := range testReg.Faults() {
		for _, r := range suite.Results {
			c := r.Case
			if _, fam := c.Spec(); fam.Host.Name != f.Host {
				continue
			}
			under := runOn(context.Background(), c, "", &f)
			if under.Status == Errored {
				continue
			}
			runs++
			sc, fam := c.sc, c.fam
			full := compareIn(fam.Host.Values, c.Expected, under.Observed, sc, true)
			brief := compareIn(fam.Host.Values, c.Expected, under.Observed, sc, false)
			assert.Equal(t, len(full) > 0, len(brief) > 0, "%s under %s", c.FullID(), f.FullName())
			assert.Equal(t, len(full) > 0, under.Status == Fail, "%s under %s", c.FullID(), f.FullName())
			keys := map[string]bool{}
			for _, m := range brief {
				keys[m.Field] = true
				assert.Nil(t, m.Changes)
			}
			for _, m := range full {
				key := m.Field
				if i := strings.IndexAny(key, "[."); i > 0 && !keys[key] {
					key = key[:i]
				}
				assert.True(t, keys[key], "%s under %s: %s", c.FullID(), f.FullName(), m.Field)
			}
			if len(full) > 0 {
				mismatched++
			}
		}
	}
	assert.Greater(t, runs, 500)
	assert.Greater(t, mismatched, 100, "the faults must make cases fail for the comparison to be tried")
}
