package jsontext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeUseNumberLibraryIsTheDecoder: where it answers, the value is
// exactly a json.Decoder's with UseNumber, strings included; it answers
// for every valid text without a \ud escape nested within MaxDepth.
func TestDecodeUseNumberLibraryIsTheDecoder(t *testing.T) {
	texts := append(decodeTextsAndRandom(),
		`{"a": "\ud800"}`, `["\uD83D\uDE00"]`, `"\udc00"`, `{"\ud800": 1, "\ufffd": 2}`,
		`"x\\ud800"`, `"\u00e9\u0041"`, "\"\xff\"", "\"\xed\xa0\x80\"", `{"a": 1} x`, `{"a": 1}  `)
	answered := 0
	for _, s := range texts {
		want, err := decodeUseNumberJSON([]byte(s))
		got, ok := DecodeUseNumberLibrary([]byte(s))
		if ok {
			answered++
			require.NoError(t, err, "%q", s)
			require.Equal(t, want, got, "%q", s)
			continue
		}
		if err == nil {
			require.True(t, strings.Contains(s, `\ud`) || strings.Contains(s, `\uD`) || strings.Contains(s, strings.Repeat("[", MaxDepth+1)),
				"refuses %q", s)
		}
	}
	assert.Greater(t, answered, 2000)
}
