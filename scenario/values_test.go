package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValuesDecode(t *testing.T) {
	js, ok := JavaScript.Decode([]byte(`{"n": 9007199254740993, "s": "\udc42\u0041BC"}`))
	require.True(t, ok)
	assert.Equal(t, map[string]any{"n": 9007199254740992.0, "s": "\xed\xb1\x82ABC"}, js)
	py, ok := Python.Decode([]byte(`{"n": 9007199254740993, "s": "\udc42\u0041BC", "f": 7.5}`))
	require.True(t, ok)
	assert.Equal(t, map[string]any{"n": json.Number("9007199254740993"), "s": "\xed\xb1\x82ABC", "f": 7.5}, py)
}

func TestNumbersCompareExactly(t *testing.T) {
	big, bigger := json.Number("9007199254740992"), json.Number("9007199254740993")
	tests := []struct {
		a, b any
		want bool
	}{
		{big, bigger, false},
		{bigger, bigger, true},
		{big, 9007199254740992.0, true},
		{bigger, 9007199254740992.0, false},
		{9007199254740992.0, bigger, false},
		{json.Number("-3"), -3.0, true},
		{json.Number("3"), 3.5, false},
		{json.Number("100000000000000000000"), 1e20, true},
		{json.Number("1"), "1", false},
		{json.Number("1"), true, false},
		{[]any{json.Number("2")}, []any{2.0}, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Equal(tt.a, tt.b), "%#v vs %#v", tt.a, tt.b)
		assert.Equal(t, tt.want, Equal(tt.b, tt.a), "%#v vs %#v", tt.b, tt.a)
	}
}

// TestComparersInTheHostsDomain: a JavaScript string is code units, a
// Python one code points.
func TestComparersInTheHostsDomain(t *testing.T) {
	const (
		pair    = "\U0001F600"         // 😀, U+D83D U+DE00
		low     = "\xed\xb8\x80"       // a lone U+DE00
		halves  = "\xed\xa0\xbd" + low // U+D83D then U+DE00, written apart
		smiling = "a" + pair + "b"
	)
	tests := []struct {
		name      string
		cmp       Comparer
		want, got any
		js, py    bool
	}{
		{"half a pair is a JavaScript substring", Substring, low, smiling, true, false},
		{"a lone surrogate sought in the same lone surrogate", Substring, low, "x" + low + "y", true, true},
		{"any substring", AnySubstring, low, []any{"x", smiling}, true, false},
		{"absent", Absent, low, map[string]any{"k": smiling}, false, true},
		{"two halves are the pair in JavaScript", Exact, halves, pair, true, false},
		{"JSON-equal inside a value", JSONEqual, []any{map[string]any{halves: 1.0}}, []any{map[string]any{pair: 1.0}}, true, false},
		{"U+FFFD is no surrogate", Exact, "\ufffd", low, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.js, JavaScript.Match(tt.cmp, tt.want, tt.got), "JavaScript")
			assert.Equal(t, tt.py, Python.Match(tt.cmp, tt.want, tt.got), "Python")
		})
	}
}
