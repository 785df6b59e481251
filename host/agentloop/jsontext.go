package agentloop

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// The runner reads a request's arguments here without encoding/json's
// reflection, which cost more than the rest of a step: the members of the
// arguments object and its string value. The readers are strict and
// partial: they accept only well-formed JSON and answer ok=false for
// anything else (invalid text, nesting deeper than maxFastDepth). Callers
// then take encoding/json's own path, so a value or a refusal is always
// the one encoding/json gives.

// maxFastDepth bounds the nesting the fast readers follow. Deeper values
// go to encoding/json, whose limit and messages are the reference.
const maxFastDepth = 100

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

// member is one member of an arguments object: its key (decoded) and its
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
