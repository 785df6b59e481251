package all

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
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
