package omp

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The host is TypeScript run by bun, and its strings are UTF-16. This file
// holds the string operations whose JavaScript results differ from Go's
// obvious counterparts: ECMAScript trimming, and the sanitising of
// provider safety-check text, which works on UTF-16 code units.
//
// A Go string stands for a JavaScript string. A Go string that is not valid
// UTF-8 stands for a JavaScript string that is not well-formed UTF-16 (a
// lone surrogate, written in Go as its WTF-8 bytes, e.g. "\xed\xa0\x80" for
// U+D800). Strings the host produces with a lone surrogate in them come out
// of the model with it, in the same form.

// isJSSpace reports whether r is removed by ECMAScript
// String.prototype.trim: WhiteSpace (TAB, VT, FF, U+FEFF and every space
// separator) and LineTerminator (LF, CR, U+2028, U+2029). Unlike Go's
// unicode.IsSpace it includes U+FEFF and excludes U+0085.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00a0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// JSTrim trims s as ECMAScript String.prototype.trim does (see isJSSpace).
func JSTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// ErrSafetyCheckWithoutText is what the host throws when a pending safety
// check has no message, no code and no id: the text of the check is then
// undefined, and sanitising undefined raises this TypeError in bun while
// the dialog title is built, before any dialog is shown.
var ErrSafetyCheckWithoutText = errors.New("undefined is not an object (evaluating 'text.toWellFormed')")

// Text returns the text the approval dialog shows for c: the first of
// message, code and id that is a non-empty string, by JavaScript
// truthiness. When message and code are empty the id is returned even if it
// is empty, provided the check carries one (ID non-empty or HasID); ok is
// false when the check carries none, for then the host's value is
// undefined.
func (c SafetyCheck) Text() (text string, ok bool) {
	switch {
	case c.Message != "":
		return c.Message, true
	case c.Code != "":
		return c.Code, true
	case c.ID != "" || c.HasID:
		return c.ID, true
	}
	return "", false
}

// units converts s to UTF-16 code units. A string that is not well-formed
// (not valid UTF-8 in Go) first loses every replacement character, genuine
// ones included, and every byte that does not decode: the host makes the
// string well-formed, which turns each lone surrogate into U+FFFD, and then
// removes every U+FFFD.
func units(s string) []uint16 {
	if utf8.ValidString(s) {
		return utf16.Encode([]rune(s))
	}
	out := make([]uint16, 0, len(s))
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		if r == utf8.RuneError {
			continue
		}
		out = utf16.AppendRune(out, r)
	}
	return out
}

// isControlUnit reports whether the host's sanitiser removes u: C0 controls
// except TAB and LF, DEL and the C1 controls.
func isControlUnit(u uint16) bool {
	return u <= 0x08 || (u >= 0x0b && u <= 0x1f) || (u >= 0x7f && u <= 0x9f)
}

// sanitizeUnits removes ANSI escape sequences (only when the text holds an
// ESC, as the host checks) and then every control unit.
func sanitizeUnits(u []uint16) []uint16 {
	hasControl, hasEsc := false, false
	for _, c := range u {
		if isControlUnit(c) {
			hasControl = true
			hasEsc = hasEsc || c == 0x1b
		}
	}
	if !hasControl {
		return u
	}
	if hasEsc {
		u = stripANSI(u)
	}
	out := u[:0:0]
	for _, c := range u {
		if !isControlUnit(c) {
			out = append(out, c)
		}
	}
	return out
}

// introducesEscape reports whether the ANSI stripper starts looking for a
// sequence at u (ST, 0x9C, is looked at and then kept).
func introducesEscape(u uint16) bool {
	switch u {
	case 0x1b, 0x90, 0x98, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f:
		return true
	}
	return false
}

// stripANSI removes ANSI escape sequences as bun 1.4's Bun.stripANSI does,
// code unit by code unit.
func stripANSI(u []uint16) []uint16 {
	out := make([]uint16, 0, len(u))
	for i := 0; i < len(u); {
		if !introducesEscape(u[i]) {
			out = append(out, u[i])
			i++
			continue
		}
		end := consumeANSI(u, i)
		if end == i {
			out = append(out, u[i])
			end++
		}
		i = end
	}
	return out
}

// The states of the ANSI stripper.
const (
	ansiGround    = iota // between sequences
	ansiEsc              // after ESC
	ansiSkipOne          // the next unit ends a two-unit designation
	ansiCSI              // in a control sequence, until its final byte
	ansiOSC              // in an operating system command, until BEL or ST
	ansiOSCEsc           // ESC inside an OSC: a backslash ends it
	ansiString           // in a DCS, SOS, PM or APC string, until ST
	ansiStringEsc        // ESC inside such a string: a backslash ends it
)

// consumeANSI returns the index just past the run of escape sequences that
// starts at u[i], or i when u[i] starts none. A sequence that is still open
// at the end of the text runs to the end.
func consumeANSI(u []uint16, i int) int {
	state := ansiGround
	for j := i; j < len(u); j++ {
		c := u[j]
		for again := true; again; {
			again = false
			switch state {
			case ansiGround:
				switch c {
				case 0x1b:
					state = ansiEsc
				case 0x9b:
					state = ansiCSI
				case 0x9d:
					state = ansiOSC
				case 0x90, 0x98, 0x9e, 0x9f:
					state = ansiString
				default:
					return j
				}
			case ansiEsc:
				switch {
				case c == '[':
					state = ansiCSI
				case c == ']':
					state = ansiOSC
				case c == 'P' || c == 'X' || c == '^' || c == '_':
					state = ansiString
				case c < 0x80 && strings.IndexByte(" #%()*+./", byte(c)) >= 0:
					state = ansiSkipOne
				case (c >= 0x20 && c <= 0x7e) || c == 0x9c:
					state = ansiGround // a two-unit sequence
				default:
					// ESC stands alone; look at c afresh.
					state, again = ansiGround, true
				}
			case ansiSkipOne:
				if c == 0x1b {
					state = ansiEsc
				} else {
					state = ansiGround
				}
			case ansiCSI:
				switch {
				case c == 0x1b:
					state = ansiEsc
				case c == 0x9c || (c >= 0x40 && c <= 0x7e):
					state = ansiGround
				}
			case ansiOSC:
				switch c {
				case 0x07, 0x9c:
					state = ansiGround
				case 0x1b:
					state = ansiOSCEsc
				}
			case ansiString:
				switch c {
				case 0x9c:
					state = ansiGround
				case 0x1b:
					state = ansiStringEsc
				}
			case ansiOSCEsc, ansiStringEsc:
				if c == '\\' {
					state = ansiGround
				} else {
					state, again = ansiEsc, true
				}
			}
		}
	}
	return len(u)
}

// safetyTextLimit is the number of code units of safety-check text the
// dialog keeps.
const safetyTextLimit = 500

// markdownEscaped reports whether the dialog escapes u with a backslash.
func markdownEscaped(u uint16) bool {
	return u < 0x80 && strings.IndexByte("\\`*_{}[]()<>#+-.!|", byte(u)) >= 0
}

// approvalData renders safety-check text for the dialog: sanitised, runs
// of CR, LF and TAB folded to one space, trimmed, truncated to 500 code
// units and escaped.
func approvalData(s string) string {
	u := sanitizeUnits(units(s))
	folded := make([]uint16, 0, len(u))
	for i := 0; i < len(u); i++ {
		if c := u[i]; c != '\r' && c != '\n' && c != '\t' {
			folded = append(folded, c)
			continue
		}
		for i+1 < len(u) && (u[i+1] == '\r' || u[i+1] == '\n' || u[i+1] == '\t') {
			i++
		}
		folded = append(folded, ' ')
	}
	folded = trimUnits(folded)
	if n := len(folded); n > safetyTextLimit {
		folded = append(folded[:safetyTextLimit:safetyTextLimit], utf16.Encode([]rune("[…"+strconv.Itoa(n-safetyTextLimit)+"ch elided…]"))...)
	}
	out := make([]uint16, 0, len(folded)+8)
	for _, c := range folded {
		if markdownEscaped(c) {
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	// A surrogate the stripping left alone stays one, as in the host.
	return jsontext.FromUTF16(out)
}

// trimUnits trims code units as ECMAScript trim does; every character it
// removes is a single code unit.
func trimUnits(u []uint16) []uint16 {
	for len(u) > 0 && isJSSpace(rune(u[0])) {
		u = u[1:]
	}
	for len(u) > 0 && isJSSpace(rune(u[len(u)-1])) {
		u = u[:len(u)-1]
	}
	return u
}
