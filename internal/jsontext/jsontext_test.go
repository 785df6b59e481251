package jsontext

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLaneTests(t *testing.T) {
	// noControl and textRun test eight bytes at once; every byte value in
	// every lane, next to safe and unsafe neighbours, must give what a
	// byte-by-byte test gives.
	naiveNoControl := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 {
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
				require.Equal(t, naiveNoControl(b), NoControl(b), "%x", b)
				for _, n := range []int{8, 5} {
					noCtl, ascii := TextRun(b[:n])
					naiveASCII := true
					for _, c := range b[:n] {
						naiveASCII = naiveASCII && c < 0x80
					}
					require.Equal(t, naiveNoControl(b[:n]), noCtl, "%x", b[:n])
					if noCtl {
						require.Equal(t, naiveASCII, ascii, "%x", b[:n])
					}
				}
			}
		}
	}
}

// TestHasSurrogateEscape: \ud and \uD escapes anywhere, and nothing else.
func TestHasSurrogateEscape(t *testing.T) {
	for raw, want := range map[string]bool{
		`"\ud83d\ude00"`: true, `{"\uDC00": 1}`: true, `"a\\ud"`: true, // the scan is textual: a refused text goes to encoding/json, which decides
		`"\u00e9"`: false, `"\u"`: false, `"ud"`: false, ``: false, `"\u0044"`: false,
	} {
		require.Equal(t, want, HasSurrogateEscape([]byte(raw)), raw)
	}
}
