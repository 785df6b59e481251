package schema

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPruneDefinitions: a part of a split keeps the definitions its root
// reaches, through other definitions too, and every definition when a
// reference or an $id could reach one some other way.
func TestPruneDefinitions(t *testing.T) {
	defs := `"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"type": "string"}, "c": {"$ref": "#/definitions/c"}, "d": {}, "e/f": {}}`
	tests := []struct {
		name, root string
		want       []string
	}{
		{"reached through another", `{"properties": {"x": {"$ref": "#/definitions/a"}}, ` + defs + `}`, []string{"a", "b"}},
		{"none reached", `{"type": "object", ` + defs + `}`, nil},
		{"a cycle", `{"items": [{"$ref": "#/definitions/c"}], ` + defs + `}`, []string{"c"}},
		{"a definition's own references do not count", `{"not": {"$ref": "#/definitions/b"}, ` + defs + `}`, []string{"b"}},
		{"a pointer into a definition", `{"$ref": "#/definitions/a/properties", ` + defs + `}`, []string{"a", "b", "c", "d", "e/f"}},
		{"an escaped name", `{"$ref": "#/definitions/e~1f", ` + defs + `}`, []string{"a", "b", "c", "d", "e/f"}},
		{"an unknown name", `{"$ref": "#/definitions/z", ` + defs + `}`, []string{"a", "b", "c", "d", "e/f"}},
		{"the root", `{"$ref": "#", ` + defs + `}`, []string{"a", "b", "c", "d", "e/f"}},
		{"an $id", `{"properties": {"x": {"$id": "http://x.invalid/y"}}, ` + defs + `}`, []string{"a", "b", "c", "d", "e/f"}},
		{"an $id at the root", `{"$id": "http://x.invalid/y", ` + defs + `}`, []string{"a", "b", "c", "d", "e/f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var root map[string]any
			require.NoError(t, json.Unmarshal([]byte(tt.root), &root))
			d := root["definitions"].(map[string]any)
			pruneDefinitions(root, d)
			var got []string
			for k := range d {
				got = append(got, k)
			}
			sort.Strings(got)
			assert.Equal(t, tt.want, got)
		})
	}
}
