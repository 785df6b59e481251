package gatewaycheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
)

func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}

func TestSequence(t *testing.T) {
	tests := []struct {
		reason    string
		want, got string
		parts     []scenario.Part
	}{
		{"equal sequences match", `["allow","deny"]`, `["allow","deny"]`, nil},
		{"each differing index is its own mismatch", `["allow","deny","deny"]`, `["deny","deny","allow"]`,
			[]scenario.Part{{Name: "[0]", Expected: "allow", Observed: "deny"}, {Name: "[2]", Expected: "deny", Observed: "allow"}}},
		{"a shorter observation is one mismatch of the whole sequence", `["allow","deny"]`, `["allow"]`,
			[]scenario.Part{{Name: "", Expected: []any{"allow", "deny"}, Observed: []any{"allow"}}}},
		{"an empty expectation is still a length", `[]`, `["allow"]`,
			[]scenario.Part{{Name: "", Expected: []any{}, Observed: []any{"allow"}}}},
		{"the same elements in another order do not match", `["a","b"]`, `["b","a"]`,
			[]scenario.Part{{Name: "[0]", Expected: "a", Observed: "b"}, {Name: "[1]", Expected: "b", Observed: "a"}}},
		{"a value that is not an array never matches", `["allow"]`, `"allow"`,
			[]scenario.Part{{Name: "", Expected: []any{"allow"}, Observed: "allow"}}},
	}
	p := Sequence.(scenario.Parter)
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			want, got := jsonValue(t, tt.want), jsonValue(t, tt.got)
			assert.Equal(t, tt.parts == nil, Sequence.Match(want, got))
			assert.Equal(t, tt.parts, p.Parts(want, got))
		})
	}
}

func TestAuditSubsets(t *testing.T) {
	observed := `[{"sequence":1,"reason":"allowed","action":null,"effectCount":0},{"sequence":2,"reason":"text_empty","action":"create_draft","effectCount":0}]`
	tests := []struct {
		reason string
		want   string
		parts  []scenario.Part
	}{
		{"keys left out are not checked", `[{},{"reason":"text_empty"}]`, nil},
		{"every key named is checked", `[{"sequence":1,"reason":"allowed","action":null,"effectCount":0},{"sequence":2,"reason":"text_empty","action":"create_draft","effectCount":0}]`, nil},
		{"null is a value: a string where null was recorded differs", `[{"action":"read"},{}]`,
			[]scenario.Part{{Name: "[0].action", Expected: "read", Observed: nil}}},
		{"numbers compare by value", `[{"effectCount":0.0},{"sequence":2e0}]`, nil},
		{"each mismatch is named by event and key, in the order the gateway writes keys",
			`[{"effectCount":1,"sequence":1},{"reason":"allowed","sequence":3}]`,
			[]scenario.Part{
				{Name: "[0].effectCount", Expected: float64(1), Observed: float64(0)},
				{Name: "[1].sequence", Expected: float64(3), Observed: float64(2)},
				{Name: "[1].reason", Expected: "allowed", Observed: "text_empty"},
			}},
		{"a key the gateway does not record is a mismatch (lint reports it first)", `[{"extra":1},{}]`,
			[]scenario.Part{{Name: "[0].extra", Expected: float64(1), Observed: nil}}},
		{"a length difference is one mismatch", `[{}]`,
			[]scenario.Part{{Name: ".length", Expected: 1, Observed: 2}}},
	}
	p := AuditSubsets.(scenario.Parter)
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			want, got := jsonValue(t, tt.want), jsonValue(t, observed)
			assert.Equal(t, tt.parts == nil, AuditSubsets.Match(want, got))
			assert.Equal(t, tt.parts, p.Parts(want, got))
		})
	}
}

// TestBundledDeskMatches compares every case of the bundled desk with the
// scenario's own comparers, as the engine does.
func TestBundledDeskMatches(t *testing.T) {
	for _, c := range checktest.Desk(t, "../../../cases/gateway-desk.json") {
		obs, _ := run(t, string(c.Given), 0, c.Expected...)
		for _, f := range c.Expected {
			cmp, ok := Gateway.Expected.Comparer(f.Key)
			require.True(t, ok, "%s: %s", c.ID, f.Key)
			var want any
			require.NoError(t, json.Unmarshal(f.Raw, &want))
			assert.True(t, cmp.Match(want, obs.Values[f.Key]), "%s: %s", c.ID, f.Key)
		}
	}
}
