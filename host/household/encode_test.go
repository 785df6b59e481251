package household

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// referenceStr is the parser's string reader as it was before its fast
// path: rune by rune into a builder.
func referenceStr(s string, strict bool) (string, int, bool) {
	p := &parser{s: s, i: 1, strict: strict}
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", 0, false
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			return b.String(), p.i + 1, true
		case c < 0x20:
			return "", 0, false
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", 0, false
			}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 && p.strict {
				return "", 0, false
			}
			b.WriteRune(r)
			p.i += size
		}
	}
}

func randomText(rng *rand.Rand) string {
	pieces := []string{"a", "Z", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&",
		"é", "😀", "\u2028", "\u2029", "\ufffd", "\xff", "\xc3", "\xed\xa0\x80", "abcdefgh", "portfolio.read"}
	var b strings.Builder
	for range rng.Intn(14) {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	return b.String()
}

func TestStringReaderMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	escapes := []string{`\"`, `\\`, `\/`, `\n`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00`, `\u12`, `\x`}
	for range 20000 {
		text := randomText(rng)
		if rng.Intn(2) == 0 {
			text += escapes[rng.Intn(len(escapes))]
		}
		tok := `"` + strings.ReplaceAll(text, `"`, `'`) + `"` + []string{"", ",1", "}"}[rng.Intn(3)]
		for _, strict := range []bool{false, true} {
			want, wantEnd, wantOK := referenceStr(tok, strict)
			p := &parser{s: tok, strict: strict}
			got, err := p.str()
			require.Equal(t, wantOK, err == nil, "%q strict=%v", tok, strict)
			if wantOK {
				require.Equal(t, want, got, "%q", tok)
				require.Equal(t, wantEnd, p.i, "%q", tok)
			}
		}
	}
}

func TestEncodeJSONKeepsShape(t *testing.T) {
	v, err := parseJSON(`{"b": [1, 2.50, -0, "<a&b>\u2028"], "a": {"x": null, "y": true, "z": "caf\u00e9 \"q\""}}`, true)
	require.NoError(t, err)
	require.Equal(t, `{"b":[1,2.50,-0,"<a&b>\u2028"],"a":{"x":null,"y":true,"z":"café \"q\""}}`, string(encodeJSON(v)))
}

// TestRepeatedKeysAcrossTheIndex: a repeated key keeps its first position
// and its last value (or is refused when strict) whether the object is
// searched (few members) or indexed (many).
func TestRepeatedKeysAcrossTheIndex(t *testing.T) {
	for _, n := range []int{3, 16, 17, 40} {
		var in, want strings.Builder
		in.WriteString("{")
		want.WriteString("{")
		for i := range n {
			if i > 0 {
				in.WriteString(",")
				want.WriteString(",")
			}
			k := string(rune('a'+i%26)) + strings.Repeat("k", i/26)
			in.WriteString(`"` + k + `":` + itoa(i))
			want.WriteString(`"` + k + `":` + itoa(i+1000))
		}
		for i := range n {
			k := string(rune('a'+i%26)) + strings.Repeat("k", i/26)
			in.WriteString(`,"` + k + `":` + itoa(i+1000))
		}
		in.WriteString("}")
		want.WriteString("}")
		v, err := parseJSON(in.String(), false)
		require.NoError(t, err)
		require.Equal(t, want.String(), string(encodeJSON(v)), "n=%d", n)
		_, err = parseJSON(in.String(), true)
		require.Error(t, err, "n=%d", n)
	}
}
