package reports

import (
	"strings"
	"unicode/utf8"
)

// DefaultWidth is the longest line explain and observe write when the
// output is not a terminal (or its width is unknown).
const DefaultWidth = 160

// minWidth is the narrowest width lines are fitted to.
const minWidth = 40

// widthOr is width, or DefaultWidth when it is not set, and never less
// than minWidth.
func widthOr(width int) int {
	if width <= 0 {
		width = DefaultWidth
	}
	return max(width, minWidth)
}

// shorten cuts s to at most n characters, ending it with "…" when cut.
func shorten(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	n = max(n, 2)
	i, count := 0, 0
	for j := range s {
		if count == n-1 {
			i = j
			break
		}
		count++
	}
	return s[:i] + "…", true
}

// wrap breaks each line of text longer than width characters into lines
// of at most width, at a space when there is one in the last third of the
// line, each continuation indented four more than the line's own
// indentation.
func wrap(text string, width int) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		if utf8.RuneCountInString(body) <= width {
			b.WriteString(l)
			continue
		}
		indent := body[:len(body)-len(strings.TrimLeft(body, " "))] + "    "
		if len(indent) > width/2 {
			indent = "    "
		}
		// n counts what is left of the line, so that a long line is
		// counted once, not once per piece.
		first, limit, n := true, width, utf8.RuneCountInString(body)
		for n > limit {
			cut := byteAt(body, limit)
			if sp := strings.LastIndexByte(body[:cut], ' '); sp > cut*2/3 {
				cut = sp + 1
			}
			if !first {
				b.WriteString(indent)
			}
			b.WriteString(strings.TrimRight(body[:cut], " ") + "\n")
			rest := strings.TrimLeft(body[cut:], " ")
			n -= utf8.RuneCountInString(body[:len(body)-len(rest)])
			body = rest
			first, limit = false, width-len(indent)
		}
		if body != "" {
			if !first {
				b.WriteString(indent)
			}
			b.WriteString(body)
		}
		if strings.HasSuffix(l, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// byteAt is the byte offset of the n-th character of s.
func byteAt(s string, n int) int {
	count := 0
	for i := range s {
		if count == n {
			return i
		}
		count++
	}
	return len(s)
}
