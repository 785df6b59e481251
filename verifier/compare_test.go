package verifier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// compared is a scenario of the test's own, whose keys each compare as
// one of the comparers does.
var compared = &scenario.Scenario{Name: "compared", Expected: scenario.Observables{
	{Key: "verdict", Comparer: scenario.Exact}, {Key: "effects", Comparer: scenario.Exact, Count: true},
	{Key: "prompts", Comparer: scenario.Exact, Count: true}, {Key: "input", Comparer: scenario.JSONEqual},
	{Key: "errorIncludes", Comparer: scenario.Substring}, {Key: "promptIncludes", Comparer: scenario.AnySubstring},
	{Key: "rpcRequests", Comparer: scenario.Exact, Count: true}, {Key: "providerSafetyApproved", Comparer: scenario.Exact},
}}

func TestCompare(t *testing.T) {
	sc := compared
	field := func(key, raw string) Field { return Field{Key: key, Value: gjson.Parse(raw)} }
	obs := normalized(map[string]any{
		"verdict": "throw", "effects": 0, "prompts": 2, "providerSafetyApproved": false,
		"input":          map[string]any{"b": 1, "a": []any{"x"}},
		"errorIncludes":  "Tool call denied by user: seed_note",
		"promptIncludes": []string{"Allow tool: a", "Allow tool: b\nReason: r"},
	})
	tests := []struct {
		reason string
		field  Field
		want   *Mismatch
	}{
		{"equal counts match", field("prompts", "2"), nil},
		{"different counts mismatch", field("prompts", "1"), mm("prompts", scenario.Exact.Name(), 1.0, 2.0)},
		{"zero is asserted, not skipped", field("effects", "0"), nil},
		{"false is asserted", field("providerSafetyApproved", "true"), mm("providerSafetyApproved", scenario.Exact.Name(), true, false)},
		{"a count does not match a boolean", field("effects", "false"), mm("effects", scenario.Exact.Name(), false, 0.0)},
		{"words compare exactly", field("verdict", `"throw"`), nil},
		{"input compares as JSON, whatever the key order", field("input", `{"a":["x"],"b":1.0}`), nil},
		{"input differences are caught", field("input", `{"a":["y"],"b":1}`), mm("input", scenario.JSONEqual.Name(), map[string]any{"a": []any{"y"}, "b": 1.0}, map[string]any{"a": []any{"x"}, "b": 1.0})},
		{"a substring of the error matches", field("errorIncludes", `"denied by user"`), nil},
		{"substrings are case-sensitive", field("errorIncludes", `"Denied"`), mm("errorIncludes", scenario.Substring.Name(), "Denied", "Tool call denied by user: seed_note")},
		{"the empty substring matches any error", field("errorIncludes", `""`), nil},
		{"a substring of any title matches", field("promptIncludes", `"Reason: r"`), nil},
		{"no title holds it", field("promptIncludes", `"Origin"`), mm("promptIncludes", scenario.AnySubstring.Name(), "Origin", []any{"Allow tool: a", "Allow tool: b\nReason: r"})},
		{"a key the scenario does not observe is a mismatch", field("promts", "2"), mm("promts", "not observed by scenario compared", 2.0, nil)},
		{"a key with no observation is a mismatch", field("rpcRequests", "0"), mm("rpcRequests", "not observed by scenario compared", 0.0, nil)},
	}
	for _, tt := range tests {
		got := Compare([]Field{tt.field}, obs, sc)
		if tt.want == nil {
			assert.Empty(t, got, tt.reason)
		} else {
			assert.Equal(t, []Mismatch{*tt.want}, got, tt.reason)
		}
	}
	noError := map[string]any{"errorIncludes": nil}
	assert.Equal(t, []Mismatch{*mm("errorIncludes", "substring", "x", nil)}, Compare([]Field{field("errorIncludes", `"x"`)}, noError, sc), "no error never matches a substring")
}

func mm(field, comparison string, want, got any) *Mismatch {
	return &Mismatch{Field: field, Comparison: comparison, Expected: want, Observed: got, Changes: scenario.Diff(want, got, maxChanges, nil)}
}

func normalized(m map[string]any) map[string]any {
	for k, v := range m {
		m[k] = scenario.Normalize(v)
	}
	return m
}

func parseJSON(s string) gjson.Result { return gjson.Parse(s) }
