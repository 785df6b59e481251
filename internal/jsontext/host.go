package jsontext

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The hosts deskcheck models are JavaScript (OMP) and Python (the gateway,
// the runner and the household runtime) programs, and each reads JSON text
// its own way. Both keep a \u escape of a surrogate that is not half of a
// pair: JavaScript's JSON.parse as one UTF-16 code unit, Python's
// json.loads as one code point. A Go string cannot hold either as a rune,
// so the readers here write such a surrogate in its three-byte generalized
// UTF-8 form (WTF-8: ED A0 80 for U+D800), which no valid UTF-8 text holds
// and every writer of deskcheck turns back into its \uXXXX escape
// (jsonx.AppendString) or a visible escape (the reports). A pair is always
// one code point, and an escape is never lost: "\udc42\u0041BC" reads as
// U+DC42 then "ABC".
//
// Numbers differ: JSON.parse makes every number an IEEE double (DecodeJS:
// float64), json.loads keeps an integer literal exact at any size and
// makes other numbers doubles (DecodePy: an integer is a json.Number
// holding its decimal digits, anything else a float64).

// HostDepth is the deepest nesting the host decoders follow: beyond the
// largest depth limit a desk may be read with.
const HostDepth = 10_001

// AppendSurrogate appends the WTF-8 form of the surrogate r (0xD800 to
// 0xDFFF): the three bytes UTF-8 would give it if it allowed surrogates.
func AppendSurrogate(dst []byte, r rune) []byte {
	return append(dst, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
}

// SurrogateAt returns the surrogate written in WTF-8 form at s[i], or
// false when the three bytes there are not one.
func SurrogateAt[S ~string | ~[]byte](s S, i int) (rune, bool) {
	if i+2 >= len(s) || s[i] != 0xED || s[i+1] < 0xA0 || s[i+1] > 0xBF || s[i+2] < 0x80 || s[i+2] > 0xBF {
		return 0, false
	}
	return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), true
}

// HasSurrogate reports whether s holds a surrogate in WTF-8 form.
func HasSurrogate[S ~string | ~[]byte](s S) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xED {
			if _, ok := SurrogateAt(s, i); ok {
				return true
			}
		}
	}
	return false
}

// HostString decodes tok, one valid JSON string token, as both host
// languages read it: escapes decoded, an unpaired surrogate escape kept in
// WTF-8 form. Bytes of the token that are not UTF-8 become U+FFFD, as a
// decoder of UTF-8 text makes them. ok is false when tok is not a string
// token.
func HostString(tok []byte) (string, bool) {
	end, plain := ScanString(tok, 0)
	if end != len(tok) {
		return "", false
	}
	return StringValue(tok, plain), true
}

// DecodeJS decodes raw, one JSON value with optional surrounding
// whitespace, as JavaScript's JSON.parse reads it: objects as
// map[string]any (a repeated key keeps its last value), arrays as []any,
// numbers as float64, strings as HostString reads them. ok is false when
// raw is not one valid value within HostDepth, or holds a number beyond a
// double (which the desk reader refuses before).
func DecodeJS(raw []byte) (any, bool) {
	d := decoder{b: raw, maxDepth: HostDepth}
	return d.whole()
}

// DecodePy decodes raw as Python's json.loads reads it: as DecodeJS, but
// an integer literal is a json.Number of its exact value (its digits, "-0"
// read as "0"), and only other numbers are float64.
func DecodePy(raw []byte) (any, bool) {
	d := decoder{b: raw, maxDepth: HostDepth, python: true}
	return d.whole()
}

// DecodeHostLiterals decodes raw as DecodeJS does, but for numbers, each a
// json.Number of its literal as written: a value a model keeps to write
// back as it was given. ok is false as for DecodeJS.
func DecodeHostLiterals(raw []byte) (any, bool) {
	d := decoder{b: raw, maxDepth: HostDepth, literals: true}
	return d.whole()
}

// pyNumber is the value json.loads gives the number literal lit.
func pyNumber(lit string) (any, bool) {
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; c == '.' || c == 'e' || c == 'E' {
			f, err := strconv.ParseFloat(lit, 64)
			return f, err == nil
		}
	}
	if lit == "-0" {
		lit = "0"
	}
	return json.Number(lit), true
}

// unescapeHost decodes content, the text between the quotes of a string
// token that has escapes, as the hosts do (see HostString); ok is false
// for an escape that is not valid.
func unescapeHost[S ~string | ~[]byte](content S) (string, bool) {
	out := make([]byte, 0, len(content))
	for i := 0; i < len(content); {
		c := content[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		r, end := ReadEscape(content, i)
		if end < 0 {
			return "", false
		}
		if IsSurrogate(r) {
			out = AppendSurrogate(out, r)
		} else {
			out = utf8.AppendRune(out, r)
		}
		i = end
	}
	return string(out), true
}

// UTF16 returns s as the UTF-16 code units a JavaScript host holds: each
// surrogate in WTF-8 form is its own unit; any other byte that is not
// UTF-8 is U+FFFD.
func UTF16(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		if u, ok := SurrogateAt(s, i); ok {
			out = append(out, uint16(u))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		out = utf16.AppendRune(out, r)
		i += size
	}
	return out
}

// FromUTF16 returns the string of JavaScript code units u: a pair is its
// code point, an unpaired surrogate its WTF-8 form.
func FromUTF16(u []uint16) string {
	out := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		switch {
		case 0xD800 <= c && c < 0xDC00 && i+1 < len(u) && 0xDC00 <= u[i+1] && u[i+1] < 0xE000:
			out = utf8.AppendRune(out, utf16.DecodeRune(c, rune(u[i+1])))
			i++
		case IsSurrogate(c):
			out = AppendSurrogate(out, c)
		default:
			out = utf8.AppendRune(out, c)
		}
	}
	return string(out)
}

// CodePoints returns the length of s as Python's len counts it: code
// points, a surrogate in WTF-8 form one of them (and any other byte that is
// not UTF-8 one, as it decodes to U+FFFD).
func CodePoints(s string) int {
	n := utf8.RuneCountInString(s)
	if HasSurrogate(s) {
		for i := 0; i+2 < len(s); i++ {
			if _, ok := SurrogateAt(s, i); ok {
				n -= 2
				i += 2
			}
		}
	}
	return n
}

// Quote is strconv.Quote for a host's string: a surrogate in WTF-8 form is
// written as its \u escape (\ud800) rather than as three \x bytes.
func Quote(s string) string {
	if !HasSurrogate(s) {
		return strconv.Quote(s)
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, '"')
	inner := func(part string) {
		q := strconv.Quote(part)
		b = append(b, q[1:len(q)-1]...)
	}
	start := 0
	for i := 0; i+2 < len(s); i++ {
		if u, ok := SurrogateAt(s, i); ok {
			inner(s[start:i])
			b = append(b, '\\', 'u', hexDigit(u>>12), hexDigit(u>>8), hexDigit(u>>4), hexDigit(u))
			i += 2
			start = i + 1
		}
	}
	inner(s[start:])
	return string(append(b, '"'))
}

func hexDigit(r rune) byte { return "0123456789abcdef"[r&0xF] }

// NextChar returns the size of the character at s[i] as a host counts
// characters: a surrogate in WTF-8 form is one (three bytes), a byte that
// is not UTF-8 another.
func NextChar(s string, i int) int {
	if _, ok := SurrogateAt(s, i); ok {
		return 3
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return size
}
