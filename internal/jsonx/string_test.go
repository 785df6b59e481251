package jsonx

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

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
		html, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(html), string(AppendStringHTML(nil, s)), "%q", s)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		require.Equal(t, strings.TrimSuffix(buf.String(), "\n"), string(AppendString(nil, s)), "%q", s)
	}
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
