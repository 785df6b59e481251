package checktest

import (
	"context"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// A host reads a string's characters, not the way they are written: "a"
// and "\u0061" are one key and one value to json.loads and to JSON.parse.
// Respell writes every string of a text with escapes only, and
// SameUnderSpelling holds a case and its respelled copy to the same
// verdict and the same observation.

// Respell returns the JSON text data with every key and string written
// with \u escapes only: each character as its escape (a character above
// U+FFFF as the escapes of its pair, a lone surrogate as its own). Numbers,
// literals and white space stay as written. ok is false when data is not
// valid JSON text.
func Respell(data []byte) ([]byte, bool) {
	if !jsontext.WholeValue(data) {
		if _, ok := jsontext.DecodePy(data); !ok {
			return nil, false
		}
	}
	out := make([]byte, 0, len(data)*4)
	for i := 0; i < len(data); {
		if data[i] != '"' {
			out = append(out, data[i])
			i++
			continue
		}
		end, plain := jsontext.ScanString(data, i)
		if end < 0 {
			return nil, false
		}
		out = appendEscaped(out, jsontext.StringValue(data[i:end], plain))
		i = end
	}
	return out, true
}

// appendEscaped appends s, a host's string (a lone surrogate in WTF-8
// form), as a string token of escapes.
func appendEscaped(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u4 := func(u uint16) {
		dst = append(dst, '\\', 'u', hex[u>>12], hex[u>>8&0xF], hex[u>>4&0xF], hex[u&0xF])
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		if u, ok := jsontext.SurrogateAt(s, i); ok {
			u4(uint16(u))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			u4(uint16(hi))
			u4(uint16(lo))
		} else {
			u4(uint16(r))
		}
		i += size
	}
	return append(dst, '"')
}

// Verdict is what SameUnderSpelling compares of a case's result: its
// verdict, what it observed, its mismatches and its boundary counts.
type Verdict struct {
	Status     verifier.Status
	Err        string
	Observed   map[string]any
	Mismatches []verifier.Mismatch
	Boundary   *scenario.Boundary
	Points     []string
}

// Judge loads desk (one desk file's text) with reg and runs its cases,
// returning each case's verdict by id.
func Judge(t testing.TB, reg *scenario.Registry, name string, desk []byte) map[string]Verdict {
	t.Helper()
	d, ds := verifier.Load(reg, name, desk, verifier.DefaultLimits)
	require.False(t, ds.HasErrors(), "%s: %v", name, ds)
	require.NotNil(t, d, name)
	out := make(map[string]Verdict, len(d.Cases))
	results, err := verifier.Run(context.Background(), d.Cases, verifier.RunOptions{})
	require.NoError(t, err, name)
	for _, r := range results {
		out[r.Case.ID] = Verdict{Status: r.Status, Err: r.Err, Observed: r.Observed, Mismatches: r.Mismatches, Boundary: r.Boundary, Points: r.Points}
	}
	return out
}

// SameUnderSpelling judges desk and its respelled copy and requires every
// case of the two to get the same verdict, observation, mismatches and
// boundary counts. It returns how many cases it compared.
func SameUnderSpelling(t testing.TB, reg *scenario.Registry, name string, desk []byte) int {
	t.Helper()
	respelled, ok := Respell(desk)
	require.True(t, ok, "%s is not valid JSON", name)
	want := Judge(t, reg, name, desk)
	got := Judge(t, reg, name+" (respelled)", respelled)
	require.Len(t, got, len(want), name)
	for id, w := range want {
		g, found := got[id]
		if !assert.True(t, found, "%s: case %s is missing from the respelled desk", name, id) {
			continue
		}
		assert.Equal(t, w, g, "%s: case %s differs once respelled", name, id)
	}
	return len(want)
}
