package gateway

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
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
const maxFastDepth = jsontext.MaxDepth

// wholeValue reports whether raw is exactly one valid JSON value within
// maxFastDepth, with optional surrounding whitespace.
func wholeValue(raw []byte) bool {
	end := jsontext.ScanValue(raw, jsontext.SkipSpace(raw, 0), 0)
	return end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
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
	i := jsontext.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	m = buf[:0]
	if m == nil {
		m = make(members, 0, 4)
	}
	i = jsontext.SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return m, jsontext.SkipSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		kEnd, plain := jsontext.ScanString(raw, i)
		if kEnd < 0 {
			return nil, false
		}
		key := raw[i+1 : kEnd-1]
		if !plain {
			key = []byte(stringValue(raw[i:kEnd], false))
		}
		i = jsontext.SkipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = jsontext.SkipSpace(raw, i+1)
		vEnd := jsontext.ScanValue(raw, i, 1)
		if vEnd < 0 {
			return nil, false
		}
		value := raw[i:vEnd:vEnd]
		if at := slices.IndexFunc(m, func(x member) bool { return bytes.Equal(x.key, key) }); at >= 0 {
			m[at].raw = value
		} else {
			m = append(m, member{key, value})
		}
		i = jsontext.SkipSpace(raw, vEnd)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			return m, jsontext.SkipSpace(raw, i+1) == len(raw)
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = jsontext.SkipSpace(raw, i+1)
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
		end, plain := jsontext.ScanString(b, i)
		if end < 0 {
			return nil, -1
		}
		return stringValue(b[i:end], plain), end
	case c == '{':
		if depth >= maxFastDepth {
			return nil, -1
		}
		obj := map[string]any{}
		i = jsontext.SkipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return obj, i + 1
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return nil, -1
			}
			kEnd, plain := jsontext.ScanString(b, i)
			if kEnd < 0 {
				return nil, -1
			}
			key := stringValue(b[i:kEnd], plain)
			i = jsontext.SkipSpace(b, kEnd)
			if i >= len(b) || b[i] != ':' {
				return nil, -1
			}
			var v any
			if v, i = parseValue(b, jsontext.SkipSpace(b, i+1), depth+1); i < 0 {
				return nil, -1
			}
			obj[key] = v
			if i = jsontext.SkipSpace(b, i); i >= len(b) {
				return nil, -1
			}
			if b[i] == '}' {
				return obj, i + 1
			}
			if b[i] != ',' {
				return nil, -1
			}
			i = jsontext.SkipSpace(b, i+1)
		}
	case c == '[':
		if depth >= maxFastDepth {
			return nil, -1
		}
		list := []any{}
		i = jsontext.SkipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return list, i + 1
		}
		for {
			var v any
			if v, i = parseValue(b, i, depth+1); i < 0 {
				return nil, -1
			}
			list = append(list, v)
			if i = jsontext.SkipSpace(b, i); i >= len(b) {
				return nil, -1
			}
			if b[i] == ']' {
				return list, i + 1
			}
			if b[i] != ',' {
				return nil, -1
			}
			i = jsontext.SkipSpace(b, i+1)
		}
	case c == '-' || jsontext.IsDigit(c):
		end := jsontext.ScanNumber(b, i)
		if end < 0 {
			return nil, -1
		}
		return json.Number(b[i:end]), end
	case c == 't':
		return true, jsontext.ScanLiteral(b, i, "true")
	case c == 'f':
		return false, jsontext.ScanLiteral(b, i, "false")
	case c == 'n':
		return nil, jsontext.ScanLiteral(b, i, "null")
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
		if x == "" || jsontext.ScanNumber([]byte(x), 0) != len(x) {
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
		case jsontext.IsSpace(c):
			i++
		default:
			j := i + 1
			for j < len(src) && src[j] != '"' && !jsontext.IsSpace(src[j]) {
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
