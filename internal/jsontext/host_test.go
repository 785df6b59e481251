package jsontext

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asLibrary is v as encoding/json decodes the same text: each unpaired
// surrogate, which the host decoders keep in WTF-8 form, replaced by
// U+FFFD. Where the host reading and the library's differ, it is only
// there, which lets the library stay the reference of everything else.
func asLibrary(v any) any {
	switch x := v.(type) {
	case string:
		return fffd(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = asLibrary(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if _, dup := out[fffd(k)]; dup {
				// Two keys the library reads as one: which value it
				// keeps depends on the text's order; say so.
				return collision{}
			}
			out[fffd(k)] = asLibrary(e)
		}
		return out
	}
	return v
}

// collision stands for an object whose keys differ only in their
// surrogates: no decoded value equals it.
type collision struct{}

func fffd(s string) string {
	if !HasSurrogate(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if _, ok := SurrogateAt(s, i); ok {
			b = utf8.AppendRune(b, utf8.RuneError)
			i += 3
			continue
		}
		b = append(b, s[i])
		i++
	}
	return string(b)
}

func TestHostStrings(t *testing.T) {
	tests := []struct {
		name, tok, want string
	}{
		{"a lone surrogate then an escape keeps both", `"\udc42\u0041BC"`, "\xed\xb1\x82ABC"},
		{"a lone high surrogate", `"a\ud800b"`, "a\xed\xa0\x80b"},
		{"a high then a high", `"\ud800\ud800"`, "\xed\xa0\x80\xed\xa0\x80"},
		{"a low then a high is no pair", `"\udc00\ud800"`, "\xed\xb0\x80\xed\xa0\x80"},
		{"a pair is one code point", `"\ud83d\ude00"`, "😀"},
		{"a high surrogate before a short escape", `"\ud800\n"`, "\xed\xa0\x80\n"},
		{"invalid UTF-8 becomes U+FFFD", "\"\xff\\ud800\"", "\ufffd\xed\xa0\x80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := HostString([]byte(tt.tok))
			require.True(t, ok)
			assert.Equal(t, tt.want, got)
			js, ok := DecodeJS([]byte(tt.tok))
			require.True(t, ok)
			assert.Equal(t, tt.want, js)
			py, ok := DecodePy([]byte(tt.tok))
			require.True(t, ok)
			assert.Equal(t, tt.want, py)
			var lib string
			require.NoError(t, json.Unmarshal([]byte(tt.tok), &lib))
			assert.Equal(t, lib, fffd(got), "the same as encoding/json but for the surrogates")
		})
	}
}

func TestHostNumbers(t *testing.T) {
	tests := []struct {
		raw    string
		js, py any
	}{
		{`9007199254740993`, 9007199254740992.0, json.Number("9007199254740993")},
		{`-3`, -3.0, json.Number("-3")},
		{`-0`, 0.0, json.Number("0")},
		// 0 to 255 come from a table made once: the same values.
		{`0`, 0.0, json.Number("0")},
		{`7`, 7.0, json.Number("7")},
		{`42`, 42.0, json.Number("42")},
		{`99`, 99.0, json.Number("99")},
		{`100`, 100.0, json.Number("100")},
		{`255`, 255.0, json.Number("255")},
		{`256`, 256.0, json.Number("256")},
		{`-7`, -7.0, json.Number("-7")},
		{`7.5`, 7.5, 7.5},
		{`1e20`, 1e20, 1e20},
		{`1.0`, 1.0, 1.0},
		{`123456789012345678901234567890`, 1.2345678901234568e29, json.Number("123456789012345678901234567890")},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			js, ok := DecodeJS([]byte(tt.raw))
			require.True(t, ok)
			assert.Equal(t, tt.js, js)
			py, ok := DecodePy([]byte(`{"n":[` + tt.raw + `]}`))
			require.True(t, ok)
			assert.Equal(t, map[string]any{"n": []any{tt.py}}, py)
			lit, ok := DecodeHostLiterals([]byte(tt.raw))
			require.True(t, ok)
			assert.Equal(t, json.Number(tt.raw), lit, "a literal as written")
		})
	}
	_, ok := DecodeJS([]byte(`1e400`))
	assert.False(t, ok, "beyond a double")
}

func TestSurrogateForms(t *testing.T) {
	for r := rune(0xD800); r < 0xE000; r++ {
		b := AppendSurrogate(nil, r)
		require.False(t, utf8.Valid(b), "%U is not UTF-8", r)
		got, ok := SurrogateAt(b, 0)
		require.True(t, ok)
		require.Equal(t, r, got)
		require.True(t, HasSurrogate(string(b)))
	}
	assert.False(t, HasSurrogate("\xed\x9f\xbf"), "U+D7FF is no surrogate")
	assert.False(t, HasSurrogate("plain é 😀"))
}

// hasCollision reports whether asLibrary met keys it reads as one.
func hasCollision(v any) bool {
	switch x := v.(type) {
	case collision:
		return true
	case []any:
		for _, e := range x {
			if hasCollision(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if hasCollision(e) {
				return true
			}
		}
	}
	return false
}

func TestQuoteAndCodePoints(t *testing.T) {
	assert.Equal(t, `"plain \"é\"\n"`, Quote("plain \"é\"\n"))
	assert.Equal(t, `"n\ud800Ame \udfff\xff"`, Quote("n\xed\xa0\x80Ame \xed\xbf\xbf\xff"))
	assert.Equal(t, 5, CodePoints("a\xed\xa0\x80é😀\xff"))
	assert.Equal(t, []uint16{'a', 0xD800, 0xD83D, 0xDE00}, UTF16("a\xed\xa0\x80😀"))
	assert.Equal(t, "😀\xed\xa0\x80", FromUTF16([]uint16{0xD83D, 0xDE00, 0xD800}))
	assert.Equal(t, "😀", FromUTF16(UTF16("\xed\xa0\xbd\xed\xb8\x80")), "two halves written apart are the pair")
	assert.Equal(t, 3, NextChar("\xed\xa0\x80", 0))
}
