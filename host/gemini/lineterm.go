package gemini

import "strings"

// lineTerms are ECMAScript's LineTerminator code points: LF, CR,
// LINE SEPARATOR and PARAGRAPH SEPARATOR. A JavaScript RegExp without the
// s flag has `.` match any code unit but these, where Go's `.` leaves out
// LF only.
const lineTerms = "\n\r\u2028\u2029"

// lineTermDot is JavaScript's `.` (no s flag) as a Go class.
var lineTermDot = "[^" + jsClassItems(jsLineTerminators) + "]"

// containsLineTerm reports whether s holds a code point that
// JavaScript's `.` does not match. A byte that is not UTF-8 (a lone
// surrogate kept as WTF-8, say) is no line terminator.
func containsLineTerm(s string) bool {
	return strings.ContainsAny(s, lineTerms)
}
