// Package libref helps tests hold the host decoders of internal/jsontext
// to encoding/json, the reference of everything but what the hosts read
// differently: an unpaired surrogate, which the host decoders keep (in
// WTF-8 form) and the library replaces with U+FFFD. Only tests import it.
package libref

import (
	"regexp"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// String is s as encoding/json would have decoded it: each surrogate in
// WTF-8 form replaced by U+FFFD.
func String(s string) string {
	if !jsontext.HasSurrogate(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if _, ok := jsontext.SurrogateAt(s, i); ok {
			b = utf8.AppendRune(b, utf8.RuneError)
			i += 3
			continue
		}
		b = append(b, s[i])
		i++
	}
	return string(b)
}

var loneEscape = regexp.MustCompile(`\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}|\\ud[89a-f][0-9a-f]{2}`)

// Written is JSON text that deskcheck's writers made from host values as
// encoding/json writes the same values: each unpaired surrogate's escape
// (\ud800) as the three U+FFFD the library writes for its WTF-8 bytes.
func Written(text string) string {
	return loneEscape.ReplaceAllStringFunc(text, func(m string) string {
		if len(m) == 12 {
			return m // a pair, which the writers never escape
		}
		return `\ufffd\ufffd\ufffd`
	})
}
