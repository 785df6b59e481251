package reports

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/verifier"
)

// Case files come from other people, so every string in a report is
// hostile: a title may hold a terminal escape that erases its own FAIL
// line, a byte XML forbids, or a blank line that ends a Markdown block.
// Each format escapes case data for itself, and all of them start from
// visible, which writes every character that acts instead of showing as a
// visible escape:
//
//   - C0 controls (tab and line feed too, unless the context keeps lines),
//     DEL and the C1 controls, written \u001b, \r, \n, \t;
//   - the bidirectional formatting characters (U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069), which reorder what a reader sees,
//     and the line and paragraph separators U+2028 and U+2029;
//   - the noncharacters U+FFFE and U+FFFF, which XML forbids;
//   - an unpaired surrogate of a host's string (held in WTF-8 form),
//     written \ud800, never U+FFFD;
//   - each other byte that is not UTF-8, written \xff.
//
// The escapes are JSON's, so JSON text stays valid JSON with the same
// value after visible.

// visible returns s with every acting character escaped; keepLines keeps
// line feeds and tabs, for text that is shown on several lines.
func visible(s string, keepLines bool) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || acts(r, keepLines) {
			return escapeFrom(s, i, keepLines)
		}
		i += size
	}
	return s
}

// oneLine is visible for a field shown on one line: titles, ids, file
// names, pointers.
func oneLine(s string) string { return visible(s, false) }

// OneLine returns s fit for one line of a terminal or log: every control
// character, bidirectional override and byte that is not UTF-8 is written
// as a visible escape (\u001b, \n, \xff).
func OneLine(s string) string { return oneLine(s) }

// Visible is OneLine for text of several lines: line feeds and tabs stay.
func Visible(s string) string { return visible(s, true) }

// acts reports whether r does something other than show itself.
func acts(r rune, keepLines bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !keepLines
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
		return true
	case r == 0x2028 || r == 0x2029 || r == 0xfffe || r == 0xffff:
		return true
	}
	return false
}

func escapeFrom(s string, start int, keepLines bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:start])
	for i := start; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if u, ok := jsontext.SurrogateAt(s, i); ok {
				// A host's unpaired surrogate shows as its escape.
				fmt.Fprintf(&b, `\u%04x`, u)
				size = 3
				break
			}
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !acts(r, keepLines):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// htmlLine escapes s for one line of HTML text or an attribute, after
// oneLine.
func htmlLine(s string) string { return html.EscapeString(oneLine(s)) }

// clipped marks text cut short by escapeClip.
const clipped = " … (clipped; report.json holds the whole text)"

// escapeClip escapes s for HTML after visible, writing each line feed as
// newline (when keepLines; "<br>" or "&#10;"), and keeps at most max
// bytes of the result, cut between characters and marked, so that a
// bounded page stays bounded whatever the escapes expand to.
func escapeClip(s string, max int, keepLines bool, newline string) string {
	v := visible(s, keepLines)
	var b strings.Builder
	for i, r := range v {
		piece := ""
		switch r {
		case '&':
			piece = "&amp;"
		case '<':
			piece = "&lt;"
		case '>':
			piece = "&gt;"
		case '"':
			piece = "&#34;"
		case '\'':
			piece = "&#39;"
		case '\n':
			piece = newline
		default:
			piece = v[i : i+utf8.RuneLen(r)]
		}
		if b.Len()+len(piece) > max {
			b.WriteString(clipped)
			break
		}
		b.WriteString(piece)
	}
	return b.String()
}

// plural is "1 case" or "5,000 cases".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return verifier.Thousands(n) + " " + many
}
