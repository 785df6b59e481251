package all

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// TestCountsAreTheSchemasCounts: the keys a scenario declares as counts
// (the only ones the whole-number rule applies to) are exactly the keys
// its schema fragment types as a count.
func TestCountsAreTheSchemasCounts(t *testing.T) {
	reg := Registry()
	n := 0
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		for _, o := range sc.Expected {
			ref := gjson.GetBytes(sc.Schema, "expected.properties."+gjson.Escape(o.Key)+".$ref").String()
			assert.Equal(t, ref == "#/definitions/count", o.Count, "%s: expected.%s", name, o.Key)
			if o.Count {
				n++
			}
		}
	}
	assert.Positive(t, n, "count keys across the scenarios")
	page, err := os.ReadFile("../../docs/values.md")
	require.NoError(t, err)
	assert.Contains(t, string(page), "the keys a scenario declares as\n  counts (each typed as a count by its schema")
}

// TestEachFamilyNamesItsHostsLanguage: OMP is JavaScript, the others are
// Python programs.
func TestEachFamilyNamesItsHostsLanguage(t *testing.T) {
	want := map[string]scenario.Values{"omp": scenario.JavaScript, "gateway": scenario.Python, "runner": scenario.Python, "household": scenario.Python, "arena": scenario.Python}
	reg := Registry()
	for _, name := range reg.Names() {
		_, fam, _ := reg.Lookup(name)
		assert.Equal(t, want[fam.Host.Name], fam.Host.Values, fam.Host.Name)
	}
}
