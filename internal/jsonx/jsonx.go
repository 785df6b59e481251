// Package jsonx appends plain JSON values (nil, bool, numbers, strings,
// []any, map[string]any, map[string]string, []string and Appenders) to a
// byte slice without reflection.
// It is the hot path of trace and report writing; the output is compact,
// with map keys sorted and HTML characters left as they are, as
// encoding/json writes them with SetEscapeHTML(false).
package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Append appends v as JSON. Values of other types go through
// encoding/json.
func Append(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return AppendString(b, x)
	case float64:
		return AppendFloat(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, s)
		}
		return append(b, ']')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = Append(b, e)
		}
		return append(b, ']')
	case map[string]any:
		return AppendObject(b, x, Append)
	case map[string]string:
		if x == nil {
			return append(b, "null"...)
		}
		return AppendObject(b, x, AppendString)
	case json.RawMessage:
		return append(b, x...)
	case Appender:
		return x.AppendJSON(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, out...)
}

// Appender is a value that writes itself as json.Marshal would, without
// reflection.
type Appender interface {
	AppendJSON(b []byte) []byte
}

// AppendObject appends m as encoding/json writes a map, its keys sorted and
// each value written by value; a nil m is written {}.
func AppendObject[V any](b []byte, m map[string]V, value func([]byte, V) []byte) []byte {
	if len(m) <= smallObject {
		// A small object's members are gathered on the stack and sorted
		// there: no key looked up again.
		var at [smallObject]struct {
			k string
			v V
		}
		ms := at[:0]
		for k, v := range m {
			ms = append(ms, struct {
				k string
				v V
			}{k, v})
		}
		for i := 1; i < len(ms); i++ {
			for j := i; j > 0 && ms[j].k < ms[j-1].k; j-- {
				ms[j], ms[j-1] = ms[j-1], ms[j]
			}
		}
		b = append(b, '{')
		for i := range ms {
			b = AppendKey(b, i, ms[i].k)
			b = value(b, ms[i].v)
		}
		return append(b, '}')
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		b = AppendKey(b, i, k)
		b = value(b, m[k])
	}
	return append(b, '}')
}

// smallObject is the most members AppendObject sorts on the stack.
const smallObject = 12

// AppendKey appends what comes before the value of the i-th member of an
// object (from 0): a comma after the first, the key as a string and a
// colon.
func AppendKey(b []byte, i int, key string) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	b = AppendString(b, key)
	return append(b, ':')
}

// AppendFloat appends a number the way encoding/json writes a float64.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hex = "0123456789abcdef"

// AppendEscape appends the escape of the ASCII byte c in a JSON string, as
// encoding/json and RFC 8785 write it: \" \\ \b \f \n \r \t, and \u00xx
// for any other byte (the other control bytes, and <, > and & where HTML
// is escaped).
func AppendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}

// AppendString appends s as a JSON string, as encoding/json writes it with
// SetEscapeHTML(false): quotes, backslashes and control characters escaped,
// U+2028 and U+2029 escaped, invalid UTF-8 replaced by U+FFFD. One
// difference: an unpaired surrogate in its WTF-8 form (ED A0 80 for
// U+D800), which is how deskcheck holds a host's string that has one, is
// written as its escape (\ud800), so the text reads back as the host's
// value.
func AppendString(b []byte, s string) []byte { return appendString(b, s, false) }

// AppendStringHTML appends s as encoding/json writes it by default: as
// AppendString, and <, > and & escaped too.
func AppendStringHTML(b []byte, s string) []byte { return appendString(b, s, true) }

// appendString appends s as encoding/json quotes a string: \" \\ \b \f \n
// \r \t, \u00XX for other control bytes, \ufffd for invalid UTF-8, \u2028
// and \u2029 always, and <, >, & as \u003c, \u003e, \u0026 when html is
// set (json.Marshal) but not otherwise (an Encoder with SetEscapeHTML
// false).
func appendString(dst []byte, s string, html bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && safe8(s, i, html) {
			i += 8
			continue
		}
		// One of the next eight bytes is not written as it is: they are
		// read one at a time, rather than tried eight at a time again
		// from each.
		for lim := min(i+8, len(s)); i < lim; {
			c := s[i]
			if c < utf8.RuneSelf {
				if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
					i++
					continue
				}
				dst = append(dst, s[start:i]...)
				dst = AppendEscape(dst, c)
				i++
				start = i
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				if u, ok := surrogateAt(s, i); ok {
					// A host's unpaired surrogate: its escape again.
					dst = append(dst, '\\', 'u', hex[u>>12], hex[u>>8&0xF], hex[u>>4&0xF], hex[u&0xF])
					i += 3
				} else {
					dst = append(dst, `\ufffd`...)
					i++
				}
				start = i
				continue
			}
			if r == '\u2028' || r == '\u2029' {
				dst = append(dst, s[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
				i += size
				start = i
				continue
			}
			i += size
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// surrogateAt returns the surrogate whose WTF-8 form starts at s[i].
func surrogateAt(s string, i int) (rune, bool) {
	if i+2 >= len(s) || s[i] != 0xED || s[i+1] < 0xA0 || s[i+1] > 0xBF || s[i+2] < 0x80 || s[i+2] > 0xBF {
		return 0, false
	}
	return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), true
}

// safe8 reports whether the eight bytes at s[i:] are written as they are
// in a JSON string: printable ASCII other than " and \ (and <, > and &
// when html). It tests the eight at once, the lane tests of noControl:
// long texts are mostly such bytes.
func safe8(s string, i int, html bool) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
	// has reports a lane equal to c: a zero lane of x^c borrows.
	has := func(c uint64) uint64 {
		y := x ^ c*ones
		return (y - ones) & ^y & highs
	}
	bad := (x-0x20*ones)&^x&highs | x&highs | has('"') | has('\\')
	if html {
		bad |= has('<') | has('>') | has('&')
	}
	return bad == 0
}

// Compact appends src without the white space outside its strings, which
// is all json.Compact changes in valid JSON. src must be valid JSON: in
// other text a string runs to its first unescaped quote or to the end, and
// the rest is copied but for white space. A string is crossed from quote
// to quote with IndexByte, which reads long texts many bytes at a time,
// and the runs between white space are copied whole.
func Compact[S ~string | ~[]byte](dst []byte, src S) []byte {
	switch s := any(src).(type) {
	case string:
		return compact(dst, s, strings.IndexByte)
	case []byte:
		return compact(dst, s, bytes.IndexByte)
	case json.RawMessage:
		return compact(dst, []byte(s), bytes.IndexByte)
	}
	return compact(dst, string(src), strings.IndexByte)
}

// compact is Compact over a string or a byte slice, with that type's
// IndexByte.
func compact[T string | []byte](dst []byte, src T, indexByte func(T, byte) int) []byte {
	start := 0
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			i = stringEnd(src, i, indexByte)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			// An indented text's white space comes in runs: a line's end
			// and the next line's indent are skipped in one go.
			dst = append(dst, src[start:i]...)
			for i++; i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r'); i++ {
			}
			start = i
		default:
			i++
		}
	}
	return append(dst, src[start:]...)
}

// stringEnd returns the index after the string that starts at s[i] == '"':
// after the first quote that an odd run of backslashes does not escape, or
// len(s) when there is none.
func stringEnd[T string | []byte](s T, i int, indexByte func(T, byte) int) int {
	j := i + 1
	for {
		q := indexByte(s[j:], '"')
		if q < 0 {
			return len(s)
		}
		q += j
		k := q
		for k > i+1 && s[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}
