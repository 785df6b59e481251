package household

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStrictParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
		out  string // re-encoded form when ok
	}{
		{"object", `{"a": 1}`, true, `{"a":1}`},
		{"surrounding whitespace", " \t\r\n{\"a\": [1, 2]} \n", true, `{"a":[1,2]}`},
		{"key order kept", `{"z": 1, "a": 2, "m": 3}`, true, `{"z":1,"a":2,"m":3}`},
		{"number literals kept", `[1.50, 4.8e7, -0, 1E+2, 0.0]`, true, `[1.50,4.8e7,-0,1E+2,0.0]`},
		{"underflow is zero, not an error", `1e-400`, true, `1e-400`},
		{"large int that fits a double", `123456789012345678901234567890`, true, `123456789012345678901234567890`},
		{"escapes", `"\" \\ \/ \b \f \n \r \t \u00e9"`, true, `"\" \\ / \b \f \n \r \t é"`},
		{"surrogate pair", `"\ud83d\ude00"`, true, `"😀"`},
		{"same key in sibling objects", `[{"a": 1}, {"a": 2}]`, true, `[{"a":1},{"a":2}]`},
		{"same key at two depths", `{"a": {"a": 1}}`, true, `{"a":{"a":1}}`},
		{"literals", `[true, false, null]`, true, `[true,false,null]`},

		{"empty", ``, false, ""},
		{"whitespace only", "  \n ", false, ""},
		{"trailing comma in object", `{"a": 1,}`, false, ""},
		{"trailing comma in array", `[1,]`, false, ""},
		{"single quotes", `{'a': 1}`, false, ""},
		{"NaN", `{"a": NaN}`, false, ""},
		{"Infinity", `{"a": Infinity}`, false, ""},
		{"negative Infinity", `{"a": -Infinity}`, false, ""},
		{"overflowing number", `{"a": 1e400}`, false, ""},
		{"overflowing negative number", `[-1e309]`, false, ""},
		{"overflowing integer literal", `1` + strings.Repeat("0", 400), false, ""},
		{"duplicate key", `{"a": 1, "a": 1}`, false, ""},
		{"duplicate key nested", `{"x": [{"b": 1, "c": 2, "b": 3}]}`, false, ""},
		{"duplicate key written with an escape", `{"a": 1, "\u0061": 2}`, false, ""},
		{"lone high surrogate", `"\ud83d"`, false, ""},
		{"lone high surrogate then text", `"\ud83dx"`, false, ""},
		{"lone low surrogate", `"\ude00"`, false, ""},
		{"reversed pair", `"\ude00\ud83d"`, false, ""},
		{"high surrogate then a non-surrogate escape", `"\ud83d\u0041"`, false, ""},
		{"lone surrogate in a key", `{"\ud800": 1}`, false, ""},
		{"raw control character", "\"a\x01b\"", false, ""},
		{"invalid UTF-8", "\"\xff\"", false, ""},
		{"leading zero", `01`, false, ""},
		{"bare fraction", `1.`, false, ""},
		{"bare exponent", `1e`, false, ""},
		{"leading plus", `+1`, false, ""},
		{"two values", `{} {}`, false, ""},
		{"comment", `{} // x`, false, ""},
		{"byte order mark", "\ufeff{}", false, ""},
		{"unterminated string", `"abc`, false, ""},
		{"bad escape", `"\x"`, false, ""},
		{"short unicode escape", `"\u12"`, false, ""},
		{"nesting beyond the bound", strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2), false, ""},
		{"nesting at the bound", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), true, strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := parseJSON(tc.in, true)
			if !tc.ok {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.out, string(encodeJSON(v)))
		})
	}
}

func TestLenientParse(t *testing.T) {
	tests := []struct {
		name, in, out string
	}{
		{"duplicate key keeps first position and last value", `{"a": 1, "b": 2, "a": 3}`, `{"a":3,"b":2}`},
		{"lone surrogate kept, as json.loads keeps it", `"\ud83d\u0041"`, `"\ud83dA"`},
		{"overflowing number kept as written", `1e400`, `1e400`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := parseJSON(tc.in, false)
			require.NoError(t, err)
			assert.Equal(t, tc.out, string(encodeJSON(v)))
		})
	}
	_, err := parseJSON(`{"a": 1,}`, false)
	assert.Error(t, err, "malformed text is an error in both modes")
}

func TestEncodeDoesNotEscapeHTML(t *testing.T) {
	assert.Equal(t, `"<a&b>"`, string(encodeJSON("<a&b>")))
}

func TestCloneIsDeep(t *testing.T) {
	v, err := parseJSON(`{"a": {"b": [1, {"c": "x"}]}}`, true)
	require.NoError(t, err)
	c := clone(v)
	inner, _ := v.(*object).get("a")
	arr, _ := inner.(*object).get("b")
	arr.([]any)[1].(*object).set("c", "changed")
	inner.(*object).set("new", true)
	assert.Equal(t, `{"a":{"b":[1,{"c":"x"}]}}`, string(encodeJSON(c)))
}

func TestJSONEqual(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"int and float of same value", `1`, `1.0`, true},
		{"float literals of the same double", `3345563.94`, `3345563.940`, true},
		{"exponent form", `48000000`, `4.8e7`, true},
		{"different ints", `1`, `2`, false},
		{"big ints compared exactly", `12345678901234567891`, `12345678901234567890`, false},
		{"big int against a float", `9007199254740993`, `9007199254740992.0`, false},
		{"bool is not a number", `true`, `1`, false},
		{"null", `null`, `null`, true},
		{"null against false", `null`, `false`, false},
		{"string against number", `"1"`, `1`, false},
		{"objects ignore key order", `{"a": 1, "b": [1, 2]}`, `{"b": [1, 2.0], "a": 1}`, true},
		{"object with extra key", `{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{"arrays keep order", `[1, 2]`, `[2, 1]`, false},
		{"arrays of different length", `[1]`, `[1, 1]`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := parseJSON(tc.a, true)
			require.NoError(t, err)
			b, err := parseJSON(tc.b, true)
			require.NoError(t, err)
			assert.Equal(t, tc.want, jsonEqual(a, b))
			assert.Equal(t, tc.want, jsonEqual(b, a), "symmetric")
		})
	}
}

// TestFloatNumber: the numbers the model computes are written as Python
// writes them (pyrepr holds the rule and its tests), as valid JSON that
// reads back to the same double; a non-finite number has no JSON form.
func TestFloatNumber(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		want string
	}{
		{"whole", 50, "50.0"},
		{"article value", 3345563.94, "3345563.94"},
		{"concentration", 0.4, "0.4"},
		{"small exponent", 0.00001, "1e-05"},
		{"large exponent", 1e16, "1e+16"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, json.Number(tc.want), floatNumber(tc.x))
			var back float64
			require.NoError(t, json.Unmarshal([]byte(tc.want), &back), "valid JSON number")
			assert.Equal(t, tc.x, back)
		})
	}
	for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		assert.Panics(t, func() { floatNumber(x) }, "%v", x)
	}
}
