package gatewaycheck

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gateway"
)

// fragment is the scenario's schema fragment, decoded.
func fragment(t *testing.T) map[string]any {
	t.Helper()
	var f map[string]any
	require.NoError(t, json.Unmarshal(Gateway.Schema, &f))
	return f
}

// propertiesAt follows a path of keys through the fragment and returns the
// sorted property names of the object schema it reaches.
func propertiesAt(t *testing.T, f map[string]any, path ...string) []string {
	t.Helper()
	var cur any = f
	for _, p := range path {
		m, ok := cur.(map[string]any)
		require.True(t, ok, "%v", path)
		cur = m[p]
	}
	props, _ := cur.(map[string]any)["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func TestSchemaHasEveryKeyOfTheSpec(t *testing.T) {
	f := fragment(t)
	tests := []struct {
		reason string
		path   []string
		want   []string
		closed bool
	}{
		{"given", []string{"given"}, []string{"approvals", "now", "principal", "records", "steps"}, true},
		{"expected", []string{"expected"}, sorted(Gateway.Expected.Keys()), true},
		{"an approval", []string{"definitions", "gatewayApproval"}, []string{"action", "arguments", "argumentsDigest", "consumed", "expiresAt", "id", "principal", "resource", "state"}, true},
		{"a step", []string{"definitions", "gatewayStep"}, []string{"approvalId", "policyUnavailable", "principal", "request", "tamper"}, true},
		{"records", []string{"given", "properties", "records"}, sorted(gateway.RecordResources()), true},
		{"an audit event: open in the schema, so that lint can suggest a key", []string{"definitions", "gatewayAuditEvent"}, sorted(gateway.AuditKeys()), false},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			assert.Equal(t, tt.want, propertiesAt(t, f, tt.path...))
			var cur any = f
			for _, p := range tt.path {
				cur = cur.(map[string]any)[p]
			}
			open, isBool := cur.(map[string]any)["additionalProperties"].(bool)
			assert.Equal(t, tt.closed, isBool && !open, "additionalProperties false")
		})
	}
	assert.Equal(t, []any{"decisions", "reasons", "draftEffects", "publicationEffects"}, f["expected"].(map[string]any)["required"])
	assert.Equal(t, []any{"principal", "steps"}, f["given"].(map[string]any)["required"])
}

func TestSchemaDefinitionsArePrefixed(t *testing.T) {
	for name := range fragment(t)["definitions"].(map[string]any) {
		assert.True(t, strings.HasPrefix(name, "gateway"), name)
	}
}

func TestTemplate(t *testing.T) {
	var g map[string]any
	require.NoError(t, json.Unmarshal([]byte(Gateway.Template), &g))
	t.Run("uses every given key", func(t *testing.T) {
		assert.Equal(t, propertiesAt(t, fragment(t), "given"), sorted(keysOf(g)))
	})
	// Between them, the entries of each list use every key of their
	// definition: the steps every step key, the approvals binding both
	// ways (by arguments and by digest).
	for _, tt := range []struct{ name, list, definition string }{
		{"uses every step key", "steps", "gatewayStep"},
		{"binds an approval both ways", "approvals", "gatewayApproval"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			used := map[string]any{}
			for _, e := range g[tt.list].([]any) {
				for k, v := range e.(map[string]any) {
					used[k] = v
				}
			}
			assert.Equal(t, propertiesAt(t, fragment(t), "definitions", tt.definition), sorted(keysOf(used)))
		})
	}
	t.Run("its digest is the digest of the pending publication's arguments", func(t *testing.T) {
		d, err := gateway.Digest([]byte(`{"text":"Placeholder: a summary awaiting review"}`))
		require.NoError(t, err)
		assert.Equal(t, d, "sha256:"+templatePendingDigest)
	})
	t.Run("lints clean and is a paired control", func(t *testing.T) {
		assert.Empty(t, compile(t, Gateway.Template).Problems())
		obs, _ := run(t, Gateway.Template, 0)
		assert.Equal(t, []any{"allow", "allow", "deny", "allow", "deny"}, obs.Values["decisions"])
	})
}
