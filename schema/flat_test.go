package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// manyKeys is an object of n members k0…k(n-1), and k(dup) once more
// when dup >= 0.
func manyKeys(n, dup int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `"k%d": %d,`, i, i)
	}
	if dup >= 0 {
		fmt.Fprintf(&b, `"k%d": true,`, dup)
	}
	b.WriteString(`"end": null}`)
	return b.String()
}

// TestFlatten: a flat holds the value decode gives, and refuses what
// DecodeUseNumberLibrary refuses, an object with a key twice and one of
// more keys than a flat holds.
func TestFlatten(t *testing.T) {
	deep := strings.Repeat("[", jsontext.MaxDepth) + strings.Repeat("]", jsontext.MaxDepth)
	tests := []struct {
		name, doc string
		ok        bool
	}{
		{"scalars", `[null, true, false, "x", -1.50e+3, 0]`, true},
		{"numbers as written", `{"a": 1.0, "b": 1e400, "c": -0}`, true},
		{"escapes", `{"a\"b": "\n\u00e9\t/\\"}`, true},
		{"invalid UTF-8 replaced", "[\"a\xffb\"]", true},
		{"empty containers", `{"a": {}, "b": [], "c": [{}]}`, true},
		{"white space around", " \n{\"a\": [1 , 2]}\t ", true},
		{"nested objects", `{"a": {"b": {"c": [1, {"d": 2}]}, "e": 3}, "f": 4}`, true},
		{"as deep as the reader goes", deep, true},
		{"one deeper", "[" + deep + "]", false},
		{"a key twice", `{"a": 1, "b": 2, "a": 3}`, false},
		{"a key twice, nested", `{"x": {"a": 1, "a": 1}}`, false},
		{"the same key in two objects", `[{"a": 1}, {"a": 2}]`, true},
		{"a key twice among many", manyKeys(40, 30), false},
		{"a key twice at the first one held in the set", manyKeys(16, 0), false},
		{"a key twice before the set", manyKeys(10, 3), false},
		{"many keys once", manyKeys(100, -1), true},
		{"as many keys as a flat holds", manyKeys(mostKeys-1, -1), true},
		{"more", manyKeys(mostKeys, -1), false},
		{"a surrogate escape", `["\ud83d\ude00"]`, false},
		{"a surrogate escape in a key", `{"\uDC00": 1}`, false},
		{"trailing data", `{} {}`, false},
		{"unterminated", `{"a": [1, 2}`, false},
		{"bad literal", `[tru]`, false},
		{"empty", ``, false},
		{"bad number", `[01]`, false},
		{"control character", "[\"a\x01\"]", false},
		{"brackets only", "[[[], [[]], {}], [{}]]", true},
		{"one scalar", "7", true},
		{"keys and values, no commas", `{"a": {"b": {"c": ["d"]}}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := flatten([]byte(tt.doc))
			require.Equal(t, tt.ok, ok)
			if !ok {
				return
			}
			assert.LessOrEqual(t, len(f.nodes), nodesAtMost([]byte(tt.doc)), "the list made at once holds every node")
			want, libOK := jsontext.DecodeUseNumberLibrary([]byte(tt.doc))
			require.True(t, libOK)
			assert.Equal(t, want, f.decode(0))
			g, ok := flatOf(want)
			require.True(t, ok)
			assert.Equal(t, want, g.decode(0), "a flat of the decoded value holds it too")
		})
	}
}

// TestFlatMember: member finds a key's value, in objects only.
func TestFlatMember(t *testing.T) {
	f, ok := flatten([]byte(`{"a": [1, {"b": 2}], "c": {"a": 3}, "d": "e"}`))
	require.True(t, ok)
	a := f.member(0, "a")
	require.Positive(t, a)
	assert.Equal(t, []any{json.Number("1"), map[string]any{"b": json.Number("2")}}, f.decode(a))
	c := f.member(0, "c")
	assert.Equal(t, json.Number("3"), f.decode(f.member(c, "a")))
	assert.Equal(t, int32(-1), f.member(0, "b"), "only the object's own members")
	assert.Equal(t, int32(-1), f.member(a, "b"), "an array has none")
	assert.Equal(t, "e", f.decode(f.member(0, "d")))
}

// TestFlatOfRefuses: flatOf takes only what decode gives.
func TestFlatOfRefuses(t *testing.T) {
	for _, v := range []any{1.5, []any{int64(1)}, map[string]any{"a": struct{}{}}} {
		_, ok := flatOf(v)
		assert.False(t, ok, "%#v", v)
	}
	var deep any = []any{}
	for i := 0; i < jsontext.MaxDepth; i++ {
		deep = []any{deep}
	}
	_, ok := flatOf(deep)
	assert.False(t, ok, "deeper than the reader goes")
	var many any
	require.NoError(t, json.Unmarshal([]byte(manyKeys(mostKeys, -1)), &many))
	_, ok = flatOf(many)
	assert.False(t, ok, "more keys than a flat holds")
}

// objectKeys reports whether some object of doc, valid JSON, holds a key
// twice, and the most keys one holds.
func objectKeys(t testing.TB, doc []byte) (repeated bool, most int) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	type level struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token is a key
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return repeated, most
		}
		require.NoError(t, err)
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, isDelim := tok.(json.Delim); isDelim {
			switch d {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &level{object: d == '{', keys: map[string]bool{}, key: true})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if top == nil || !top.object {
			continue
		}
		if top.key {
			k := tok.(string)
			repeated = repeated || top.keys[k]
			top.keys[k] = true
			most = max(most, len(top.keys))
		}
		top.key = !top.key
	}
}
