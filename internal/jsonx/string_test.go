package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendStringMatchesEncodingJSON: both writers give what
// encoding/json gives, with and without HTML escaping, on random mixes of
// the characters each treats specially.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	pieces := []string{"a", "Z", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&",
		"é", "😀", "\u2028", "\u2029", "\ufffd", "\xff", "\xc3", "\xed\xa0\x80", "abcdefgh", "<script>", "long plain ascii text"}
	for range 20000 {
		var b strings.Builder
		for range rng.Intn(12) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		require.Equal(t, libraryString(t, s, true), string(AppendStringHTML(nil, s)), "%q", s)
		require.Equal(t, libraryString(t, s, false), string(AppendString(nil, s)), "%q", s)
	}
}

// libraryString is s as encoding/json quotes it, but for each unpaired
// surrogate in WTF-8 form, which is written as its escape (the library
// writes three U+FFFD).
func libraryString(t *testing.T, s string, html bool) string {
	quote := func(s string) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(html)
		require.NoError(t, enc.Encode(s))
		q := strings.TrimSuffix(buf.String(), "\n")
		return q[1 : len(q)-1]
	}
	out, start := `"`, 0
	for i := 0; i+2 < len(s); i++ {
		if r, ok := surrogateAt(s, i); ok {
			out += quote(s[start:i]) + fmt.Sprintf(`\u%04x`, r)
			i += 2
			start = i + 1
		}
	}
	return out + quote(s[start:]) + `"`
}

func TestAppendStringKeepsSurrogates(t *testing.T) {
	assert.Equal(t, `"\udc42ABC"`, string(AppendString(nil, "\xed\xb1\x82ABC")))
	assert.Equal(t, `"a\ud800\udfff\ufffd"`, string(AppendString(nil, "a\xed\xa0\x80\xed\xbf\xbf\xed")))
	assert.Equal(t, `["\ud800"]`, string(Append(nil, []any{"\xed\xa0\x80"})))
}

// TestSafe8: the eight-byte lane test agrees with a byte-by-byte test for
// every byte value in every lane.
func TestSafe8(t *testing.T) {
	naive := func(b []byte, html bool) bool {
		for _, c := range b {
			if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || html && (c == '<' || c == '>' || c == '&') {
				return false
			}
		}
		return true
	}
	for _, fill := range []byte{'a', 0x20, 0x7f, 0x80, 0xff, 0x00, '"'} {
		for lane := range 8 {
			for v := range 256 {
				b := bytes.Repeat([]byte{fill}, 8)
				b[lane] = byte(v)
				for _, html := range []bool{false, true} {
					require.Equal(t, naive(b, html), safe8(string(b), 0, html), "%x html=%v", b, html)
				}
			}
		}
	}
}
