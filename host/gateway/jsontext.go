package gateway

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The readers and writers in this file do, without reflection, what the
// model used encoding/json for: reading a request's members, decoding
// records with number literals kept, snapshotting results and narrating
// audit events. They are on the path of every step, where encoding/json's
// reflection and its copies of every raw value cost more than the model
// itself.
//
// Each reader is strict and partial: it accepts only well-formed JSON it
// fully understands and answers ok=false for anything else (invalid text,
// a string with escapes where it does not decode them, nesting deeper than
// maxFastDepth). Callers then take encoding/json's own path, so a value or
// an error message is always the one encoding/json gives.

// maxFastDepth bounds the nesting the fast readers follow. Deeper values
// go to encoding/json, whose limit and messages are the reference.
const maxFastDepth = 100

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// scanString reads the string token at b[i] == '"' and returns the index
// after it, or -1 when it is not a valid token. plain reports that the
// token's bytes are its value: no escape, and valid UTF-8 (encoding/json
// replaces invalid bytes). It jumps from quote to quote with
// bytes.IndexByte, which scans long texts many bytes at a time.
func scanString(b []byte, i int) (end int, plain bool) {
	start := i + 1
	j := start
	plain = true
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1, false
		}
		q += j
		esc := bytes.IndexByte(b[j:q], '\\')
		if esc < 0 {
			noControl, ascii := textRun(b[j:q])
			if !noControl {
				return -1, false
			}
			// Without an escape, b[j:q] is the whole content.
			return q + 1, plain && (ascii || utf8.Valid(b[start:q]))
		}
		esc += j
		if !noControl(b[j:esc]) {
			return -1, false
		}
		plain = false
		if esc+1 >= len(b) {
			return -1, false
		}
		switch b[esc+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j = esc + 2
		case 'u':
			if esc+5 >= len(b) || !isHex(b[esc+2]) || !isHex(b[esc+3]) || !isHex(b[esc+4]) || !isHex(b[esc+5]) {
				return -1, false
			}
			j = esc + 6
		default:
			return -1, false
		}
	}
}

// skipString is scanString without the plain flag: it only checks the
// token, sparing the UTF-8 check of long texts that are only skipped.
func skipString(b []byte, i int) int {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1
		}
		q += j
		esc := bytes.IndexByte(b[j:q], '\\')
		if esc < 0 {
			if !noControl(b[j:q]) {
				return -1
			}
			return q + 1
		}
		esc += j
		if !noControl(b[j:esc]) || esc+1 >= len(b) {
			return -1
		}
		switch b[esc+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j = esc + 2
		case 'u':
			if esc+5 >= len(b) || !isHex(b[esc+2]) || !isHex(b[esc+3]) || !isHex(b[esc+4]) || !isHex(b[esc+5]) {
				return -1
			}
			j = esc + 6
		default:
			return -1
		}
	}
}

// textRun reports whether b holds no control byte, and whether it is all
// ASCII (which is then valid UTF-8, with no need to check). It reads eight
// bytes at a time: x-0x20…20 borrows into the high bit of a lane exactly
// when that byte is below 0x20 (the "has a byte less than n" test, n ≤
// 0x80), and a high bit set in any lane is a byte beyond ASCII.
func textRun(b []byte) (noControl, ascii bool) {
	var high uint64
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if (x-0x2020202020202020)&^x&0x8080808080808080 != 0 {
			return false, false
		}
		high |= x
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return false, false
		}
		high |= uint64(c)
	}
	return true, high&0x8080808080808080 == 0
}

// noControl reports whether b holds no control byte, which a JSON string
// may not hold unescaped. It tests eight bytes at a time: x-0x20…20 borrows
// into the high bit of a lane exactly when that byte is below 0x20 (the
// "has a byte less than n" test, n ≤ 0x80), which long texts make worth it.
func noControl(b []byte) bool {
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if (x-0x2020202020202020)&^x&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanNumber reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? from
// b[i] and returns the index after it, or -1.
func scanNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return -1
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i
}

// scanLiteral reads word (true, false or null) at b[i].
func scanLiteral(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// scanValue checks the value that starts at b[i] (no leading space) and
// returns the index after it, or -1 when it is not valid JSON or nests
// deeper than maxFastDepth.
func scanValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		if depth >= maxFastDepth {
			return -1
		}
		closing := byte(']')
		if c == '{' {
			closing = '}'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closing {
			return i + 1
		}
		for {
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return -1
				}
				if i = skipString(b, i); i < 0 {
					return -1
				}
				i = skipSpace(b, i)
				if i >= len(b) || b[i] != ':' {
					return -1
				}
				i = skipSpace(b, i+1)
			}
			if i = scanValue(b, i, depth+1); i < 0 {
				return -1
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return -1
			}
			if b[i] == closing {
				return i + 1
			}
			if b[i] != ',' {
				return -1
			}
			i = skipSpace(b, i+1)
		}
	case c == '-' || isDigit(c):
		return scanNumber(b, i)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	}
	return -1
}

// wholeValue reports whether raw is exactly one valid JSON value within
// maxFastDepth, with optional surrounding whitespace.
func wholeValue(raw []byte) bool {
	end := scanValue(raw, skipSpace(raw, 0), 0)
	return end >= 0 && skipSpace(raw, end) == len(raw)
}

// stringValue returns the value of a valid string token: its bytes when
// plain, else what encoding/json decodes (escapes, invalid UTF-8).
func stringValue(tok []byte, plain bool) string {
	if plain {
		return string(tok[1 : len(tok)-1])
	}
	var s string
	_ = json.Unmarshal(tok, &s) // a valid token always decodes
	return s
}

// member is one member of a request object: its key (decoded) and its
// value as written, without surrounding whitespace. The key stays bytes:
// comparing string(key) with a string allocates nothing.
type member struct {
	key []byte
	raw []byte
}

// members is an object's members in first-seen order. A repeated key keeps
// its first position and its last value, as decoding into a map does.
type members []member

func (m members) get(key string) ([]byte, bool) {
	for _, x := range m {
		if string(x.key) == key {
			return x.raw, true
		}
	}
	return nil, false
}

func (m members) has(key string) bool {
	_, ok := m.get(key)
	return ok
}

// without returns the members with key removed.
func (m members) without(key string) members {
	return slices.DeleteFunc(m, func(x member) bool { return string(x.key) == key })
}

// sortedKeys returns the keys in sorted order.
func (m members) sortedKeys() []string {
	keys := make([]string, len(m))
	for i, x := range m {
		keys[i] = string(x.key)
	}
	slices.Sort(keys)
	return keys
}

// readMembers reads a JSON object (surrounding whitespace allowed) into its
// members, as json.Unmarshal into a map[string]json.RawMessage reads it,
// appending them to buf[:0]. ok is false when raw is not one valid object
// within maxFastDepth.
func readMembers(raw []byte, buf members) (m members, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	m = buf[:0]
	if m == nil {
		m = make(members, 0, 4)
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return m, skipSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		kEnd, plain := scanString(raw, i)
		if kEnd < 0 {
			return nil, false
		}
		key := raw[i+1 : kEnd-1]
		if !plain {
			key = []byte(stringValue(raw[i:kEnd], false))
		}
		i = skipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		vEnd := scanValue(raw, i, 1)
		if vEnd < 0 {
			return nil, false
		}
		value := raw[i:vEnd:vEnd]
		if at := slices.IndexFunc(m, func(x member) bool { return bytes.Equal(x.key, key) }); at >= 0 {
			m[at].raw = value
		} else {
			m = append(m, member{key, value})
		}
		i = skipSpace(raw, vEnd)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			return m, skipSpace(raw, i+1) == len(raw)
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
	}
}

// parseValue decodes the valid value at b[i] as a json.Decoder with
// UseNumber does: objects as map[string]any, arrays as []any (never nil),
// numbers as json.Number literals. It returns the index after the value,
// or -1 for anything scanValue refuses.
func parseValue(b []byte, i, depth int) (any, int) {
	if i >= len(b) {
		return nil, -1
	}
	switch c := b[i]; {
	case c == '"':
		end, plain := scanString(b, i)
		if end < 0 {
			return nil, -1
		}
		return stringValue(b[i:end], plain), end
	case c == '{':
		if depth >= maxFastDepth {
			return nil, -1
		}
		obj := map[string]any{}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return obj, i + 1
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return nil, -1
			}
			kEnd, plain := scanString(b, i)
			if kEnd < 0 {
				return nil, -1
			}
			key := stringValue(b[i:kEnd], plain)
			i = skipSpace(b, kEnd)
			if i >= len(b) || b[i] != ':' {
				return nil, -1
			}
			var v any
			if v, i = parseValue(b, skipSpace(b, i+1), depth+1); i < 0 {
				return nil, -1
			}
			obj[key] = v
			if i = skipSpace(b, i); i >= len(b) {
				return nil, -1
			}
			if b[i] == '}' {
				return obj, i + 1
			}
			if b[i] != ',' {
				return nil, -1
			}
			i = skipSpace(b, i+1)
		}
	case c == '[':
		if depth >= maxFastDepth {
			return nil, -1
		}
		list := []any{}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return list, i + 1
		}
		for {
			var v any
			if v, i = parseValue(b, i, depth+1); i < 0 {
				return nil, -1
			}
			list = append(list, v)
			if i = skipSpace(b, i); i >= len(b) {
				return nil, -1
			}
			if b[i] == ']' {
				return list, i + 1
			}
			if b[i] != ',' {
				return nil, -1
			}
			i = skipSpace(b, i+1)
		}
	case c == '-' || isDigit(c):
		end := scanNumber(b, i)
		if end < 0 {
			return nil, -1
		}
		return json.Number(b[i:end]), end
	case c == 't':
		return true, scanLiteral(b, i, "true")
	case c == 'f':
		return false, scanLiteral(b, i, "false")
	case c == 'n':
		return nil, scanLiteral(b, i, "null")
	}
	return nil, -1
}

// appendValue appends v as json.Encoder with SetEscapeHTML(false) writes
// it, without the trailing newline: map keys sorted, json.Number as its
// literal. It covers the values the model builds (decoded records and the
// dispatch results); ok is false for any other value.
func appendValue(dst []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case string:
		return appendString(dst, x, false), true
	case json.Number:
		// encoding/json checks the literal; the model's come from the
		// reader, which accepted them as numbers.
		if x == "" || scanNumber([]byte(x), 0) != len(x) {
			return dst, false
		}
		return append(dst, x...), true
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendValue(dst, e); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k, false)
			dst = append(dst, ':')
			var ok bool
			if dst, ok = appendValue(dst, x[k]); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	}
	return dst, false
}

// appendString appends s as encoding/json quotes a string: \" \\ \b \f \n
// \r \t, \u00XX for other control bytes, \ufffd for invalid UTF-8, \u2028
// and \u2029 always, and <, >, & as \u003c, \u003e, \u0026 when html is
// set (json.Marshal) but not otherwise (an Encoder with SetEscapeHTML
// false).
func appendString(dst []byte, s string, html bool) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && safe8(s, i, html) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
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

// appendCompact appends a valid JSON text without the whitespace outside
// its strings, which is all json.Compact changes in valid JSON. Strings
// and runs of other bytes are copied whole.
func appendCompact(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end
		case isSpace(c):
			i++
		default:
			j := i + 1
			for j < len(src) && src[j] != '"' && !isSpace(src[j]) {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
		}
	}
	return dst
}

// stringEnd returns the index after the string that starts at b[i] in valid
// JSON: after the first quote not escaped by an odd run of backslashes.
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return len(b)
		}
		q += j
		k := q
		for k > i+1 && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}
