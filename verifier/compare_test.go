package verifier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tidwall/gjson"
)

func TestCompare(t *testing.T) {
	sc := wrapperScenario
	field := func(key, raw string) Field { return Field{Key: key, Value: gjson.Parse(raw)} }
	obs := Observation{Values: map[string]any{
		"outcome": "throw", "effects": 0, "prompts": 2, "providerSafetyApproved": false,
		"input":          map[string]any{"b": 1, "a": []any{"x"}},
		"errorIncludes":  "Tool call denied by user: seed_note",
		"promptIncludes": []string{"Allow tool: a", "Allow tool: b\nReason: r"},
	}}
	tests := []struct {
		reason string
		field  Field
		want   *Mismatch
	}{
		{"equal counts match", field("prompts", "2"), nil},
		{"different counts mismatch", field("prompts", "1"), &Mismatch{"prompts", Exact, 1.0, 2.0}},
		{"zero is asserted, not skipped", field("effects", "0"), nil},
		{"false is asserted", field("providerSafetyApproved", "true"), &Mismatch{"providerSafetyApproved", Exact, true, false}},
		{"a count does not match a boolean", field("effects", "false"), &Mismatch{"effects", Exact, false, 0.0}},
		{"words compare exactly", field("outcome", `"throw"`), nil},
		{"input compares as JSON, whatever the key order", field("input", `{"a":["x"],"b":1.0}`), nil},
		{"input differences are caught", field("input", `{"a":["y"],"b":1}`), &Mismatch{"input", JSONEqual, map[string]any{"a": []any{"y"}, "b": 1.0}, map[string]any{"a": []any{"x"}, "b": 1.0}}},
		{"a substring of the error matches", field("errorIncludes", `"denied by user"`), nil},
		{"substrings are case-sensitive", field("errorIncludes", `"Denied"`), &Mismatch{"errorIncludes", Substring, "Denied", "Tool call denied by user: seed_note"}},
		{"the empty substring matches any error", field("errorIncludes", `""`), nil},
		{"a substring of any title matches", field("promptIncludes", `"Reason: r"`), nil},
		{"no title holds it", field("promptIncludes", `"Origin"`), &Mismatch{"promptIncludes", AnySubstring, "Origin", []any{"Allow tool: a", "Allow tool: b\nReason: r"}}},
		{"a key the scenario does not observe is a mismatch", field("promts", "2"), &Mismatch{"promts", "not observed by scenario wrapper", 2.0, nil}},
		{"a key with no observation is a mismatch", field("rpcRequests", "0"), &Mismatch{"rpcRequests", "not observed by scenario wrapper", 0.0, nil}},
	}
	for _, tt := range tests {
		got := Compare([]Field{tt.field}, obs, sc)
		if tt.want == nil {
			assert.Empty(t, got, tt.reason)
		} else {
			assert.Equal(t, []Mismatch{*tt.want}, got, tt.reason)
		}
	}
	noError := Observation{Values: map[string]any{"errorIncludes": nil}}
	assert.Equal(t, []Mismatch{{"errorIncludes", Substring, "x", nil}}, Compare([]Field{field("errorIncludes", `"x"`)}, noError, sc), "no error never matches a substring")
}

func parseJSON(s string) gjson.Result { return gjson.Parse(s) }

func TestNormalize(t *testing.T) {
	type odd struct{ A int }
	for _, tt := range []struct{ in, want any }{
		{nil, nil}, {true, true}, {"s", "s"}, {2, 2.0}, {1.5, 1.5},
		{[]string{"a"}, []any{"a"}},
		{[]any{1, map[string]any{"b": []any{2}}}, []any{1.0, map[string]any{"b": []any{2.0}}}},
		{odd{A: 3}, map[string]any{"A": 3.0}},
		{map[string]any{"k": []any{"v", 1.0, nil, map[string]any{}}}, map[string]any{"k": []any{"v", 1.0, nil, map[string]any{}}}},
		{map[string]any{"k": []any{"v", 1}}, map[string]any{"k": []any{"v", 1.0}}},
	} {
		assert.Equal(t, tt.want, normalize(tt.in))
	}
	// Plain values come back as they are; others are copied, never changed.
	list := []any{"a", 1.0}
	assert.Same(t, &list[0], &normalize(list).([]any)[0])
	mixed := []any{"a", 1}
	assert.Equal(t, []any{"a", 1.0}, normalize(mixed))
	assert.Equal(t, []any{"a", 1}, mixed)
}
