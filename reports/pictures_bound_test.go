package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

// TestNoPictureOfLongValues: a case whose observed values (as deskcheck
// writes them) or expected block are longer than pictureBytes is not
// drawn, whether its values are decoded (a run) or kept as text (a report
// read back); its card says why. A case just within is drawn.
func TestNoPictureOfLongValues(t *testing.T) {
	r := Build(suiteOf(t, bundledDesks...), fixedOrigin)
	var passed *Case
	for i := range r.Cases {
		if c := &r.Cases[i]; c.Status == verifier.Pass && len(casePictures(c, testReg)) == 1 {
			passed = c
			break
		}
	}
	require.NotNil(t, passed)
	long := make([]any, pictureBytes/2+1) // "0," apiece: one byte past
	for i := range long {
		long[i] = 0.0
	}
	within := long[:pictureBytes/4]
	withObserved := func(c *Case, v any) *Case {
		x := *c
		x.Observed = map[string]any{}
		for k, y := range c.Observed {
			x.Observed[k] = y
		}
		x.Observed["zz"] = v
		return &x
	}
	text := func(v any) *rawValue {
		var b bytes.Buffer
		b.WriteString("[")
		for i := range v.([]any) {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("0")
		}
		b.WriteString("]")
		return &rawValue{text: b.Bytes()}
	}
	longExpected := *passed
	longExpected.Status = verifier.Fail
	longExpected.Expected = []byte(`{"zz":"` + strings.Repeat("x", pictureBytes) + `"}`)

	for _, tc := range []struct {
		name string
		c    *Case
		why  string // "" when drawn
	}{
		{"decoded, within", withObserved(passed, within), ""},
		{"decoded, past", withObserved(passed, long), "observed values are"},
		{"kept as text, past", withObserved(passed, text(long)), "observed values are"},
		{"failed, long expected block", &longExpected, "expected block is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pics := casePictures(tc.c, testReg)
			require.NotEmpty(t, pics)
			if tc.why == "" {
				assert.NotEqual(t, "No picture", pics[0].Title)
				assert.NotEmpty(t, pics[0].SVG)
				return
			}
			require.Len(t, pics, 1)
			assert.Equal(t, "No picture", pics[0].Title)
			assert.Empty(t, pics[0].SVG)
			assert.Equal(t, "This case's "+tc.why+" longer than 64 KiB of JSON, the most a picture is drawn from; the card's table shows them.", pics[0].Text)
		})
	}
}

// TestHTMLCellCut: a card's table shows a value's JSON text whole up to
// htmlCell bytes, and a longer one cut there (back to a character's
// start, decoded or kept as text alike) with how much more there is.
func TestHTMLCellCut(t *testing.T) {
	note := func(n string) string { return " … and " + n + " more bytes (report.json holds the whole value)" }
	wide := strings.Repeat("é", htmlCell) // two bytes apiece
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"short", []any{1.0, "a"}, `[1,"a"]`},
		{"at the cell", strings.Repeat("x", htmlCell-2), `"` + strings.Repeat("x", htmlCell-2) + `"`},
		{"one past", strings.Repeat("x", htmlCell-1), `"` + strings.Repeat("x", htmlCell-1) + note("1")},
		// "[" and 32,767 of "0," and "0" shown: 65,536 bytes of 131,075.
		{"kept as text", &rawValue{text: []byte(`[` + strings.Repeat("0,", htmlCell) + `0]`)}, `[` + strings.Repeat("0,", htmlCell/2-1) + `0` + note("65,539")},
		// The cut falls inside the 32,768th é: back to its start.
		{"a character not split", wide, `"` + strings.Repeat("é", htmlCell/2-1) + note("65,539")},
		// An acting character is shown as its JSON escape.
		{"acting characters escaped", "\x1b" + strings.Repeat("x", htmlCell), `"\u001b` + strings.Repeat("x", htmlCell-7) + note("8")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, renderCut(tc.v, htmlCell))
			assert.Equal(t, render(tc.v), renderCut(tc.v, 0), "0 shows it whole")
		})
	}
}
