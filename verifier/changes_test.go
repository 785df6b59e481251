package verifier

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/deskcheck/deskcheck/scenario"
)

// TestChangesListOnlyValuesThatDiffer: a mismatch's changes name a value
// only where the host's language tells the two apart.
func TestChangesListOnlyValuesThatDiffer(t *testing.T) {
	row := func(n any, text string) []any { return []any{n, "final", "answer", text} }
	tests := []struct {
		name      string
		values    scenario.Values
		want, got any
		changes   []scenario.Change
	}{
		{"a Python integer equals the double of its value", scenario.Python,
			[]any{row(json.Number("1"), "a"), row(json.Number("2"), "b")}, []any{row(1.0, "a"), row(2.0, "c")},
			[]scenario.Change{{Path: "[1][3]", Kind: "changed", Expected: "b", Observed: "c"}}},
		{"but not a double of another value", scenario.Python,
			[]any{json.Number("9007199254740993")}, []any{9007199254740992.0},
			[]scenario.Change{{Path: "[0]", Kind: "changed", Expected: json.Number("9007199254740993"), Observed: 9007199254740992.0}}},
		{"a key's value as well", scenario.Python,
			map[string]any{"n": json.Number("0"), "s": "x"}, map[string]any{"n": 0.0, "s": "y"},
			[]scenario.Change{{Path: `["s"]`, Kind: "changed", Expected: "x", Observed: "y"}}},
		{"an element missing or extra keeps its value", scenario.Python,
			[]any{json.Number("1"), []any{json.Number("5")}}, []any{1.0},
			[]scenario.Change{{Path: "[1]", Kind: "missing", Expected: []any{json.Number("5")}}}},
		{"a JavaScript pair equals its halves written apart", scenario.JavaScript,
			[]any{"\U0001F600", "a"}, []any{"\xed\xa0\xbd\xed\xb8\x80", "b"},
			[]scenario.Change{{Path: "[1]", Kind: "changed", Expected: "a", Observed: "b"}}},
		{"a Python pair does not", scenario.Python,
			[]any{"\U0001F600"}, []any{"\xed\xa0\xbd\xed\xb8\x80"},
			[]scenario.Change{{Path: "[0]", Kind: "changed", Expected: "\U0001F600", Observed: "\xed\xa0\xbd\xed\xb8\x80"}}},
		{"types still differ", scenario.Python,
			[]any{json.Number("1")}, []any{"1"},
			[]scenario.Change{{Path: "[0]", Kind: "changed", Expected: json.Number("1"), Observed: "1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.changes, diffIn(tt.values, tt.want, tt.got))
		})
	}
}
