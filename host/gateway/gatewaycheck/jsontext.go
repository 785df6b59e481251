package gatewaycheck

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The readers here decode given blocks, expected keys and the results the
// model snapshots without encoding/json's reflection, which cost more than
// running the gateway itself. Each is strict and partial: it accepts only
// well-formed JSON in the shapes it knows and answers ok=false for
// anything else (invalid text, a key spelled differently, a repeated key,
// a string with escapes where it wants the bytes, nesting deeper than
// maxFastDepth). Its callers then run the encoding/json code they used
// before, so odd input gets the same value or error as ever.

// maxFastDepth bounds the nesting the readers follow.
const maxFastDepth = 100

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

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

// scanNumber reads a JSON number at b[i] and returns the index after it,
// or -1.
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

func scanLiteral(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// scanValue checks the value at b[i] and returns the index after it, or -1.
// It loops over containers itself, without the walkers' callbacks: it is
// what skips every value the readers do not keep.
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
				if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
					return -1
				}
				i = skipSpace(b, i+1)
			}
			if i = scanValue(b, i, depth+1); i < 0 {
				return -1
			}
			if i = skipSpace(b, i); i >= len(b) {
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

// eachMember walks the object at b[i] == '{'. For each member it calls f
// with the key's token (quotes included, and whether its bytes between the
// quotes are its value) and where the value starts; f reads the value and
// returns where it ends, or -1 to stop. eachMember returns the index after
// the object, or -1 when the object is not valid or f stopped.
func eachMember(b []byte, i int, f func(keyTok []byte, plain bool, start int) int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kEnd, plain := scanString(b, i)
		if kEnd < 0 {
			return -1
		}
		key := b[i:kEnd]
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		if i = f(key, plain, skipSpace(b, i+1)); i < 0 {
			return -1
		}
		if i = skipSpace(b, i); i >= len(b) {
			return -1
		}
		if b[i] == '}' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = skipSpace(b, i+1)
	}
}

// eachElement walks the array at b[i] == '[' as eachMember walks an object.
func eachElement(b []byte, i int, f func(start int) int) int {
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i = f(i); i < 0 {
			return -1
		}
		if i = skipSpace(b, i); i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = skipSpace(b, i+1)
	}
}

// wholeObject walks raw as one object with optional surrounding whitespace.
func wholeObject(raw []byte, f func(keyTok []byte, plain bool, start int) int) bool {
	end := eachMember(raw, skipSpace(raw, 0), f)
	return end >= 0 && skipSpace(raw, end) == len(raw)
}

// plainString returns the value of a string token whose bytes are its
// value; ok is false for any other token.
func plainString(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '"' {
		return "", false
	}
	end, plain := scanString(tok, 0)
	if end != len(tok) || !plain {
		return "", false
	}
	return string(tok[1 : len(tok)-1]), true
}

// plainJSON decodes raw as json.Unmarshal into an any does (float64
// numbers, []any, map[string]any). ok is false when it cannot: raw is not
// one valid value, or a number does not fit a float64 (Unmarshal fails
// there, and the caller keeps the text for the engine to handle as ever).
func plainJSON(raw []byte) (any, bool) {
	v, end := plainValue(raw, skipSpace(raw, 0), 0)
	return v, end >= 0 && skipSpace(raw, end) == len(raw)
}

func plainValue(b []byte, i, depth int) (any, int) {
	if i >= len(b) {
		return nil, -1
	}
	switch c := b[i]; {
	case c == '"':
		end, plain := scanString(b, i)
		if end < 0 {
			return nil, -1
		}
		if plain {
			return string(b[i+1 : end-1]), end
		}
		var s string
		_ = json.Unmarshal(b[i:end], &s) // a valid token always decodes
		return s, end
	case c == '{':
		if depth >= maxFastDepth {
			return nil, -1
		}
		obj := map[string]any{}
		end := eachMember(b, i, func(keyTok []byte, plain bool, start int) int {
			var k string
			if plain {
				k = string(keyTok[1 : len(keyTok)-1])
			} else if json.Unmarshal(keyTok, &k) != nil {
				return -1
			}
			v, vEnd := plainValue(b, start, depth+1)
			obj[k] = v
			return vEnd
		})
		if end < 0 {
			return nil, -1
		}
		return obj, end
	case c == '[':
		if depth >= maxFastDepth {
			return nil, -1
		}
		list := []any{}
		end := eachElement(b, i, func(start int) int {
			v, vEnd := plainValue(b, start, depth+1)
			list = append(list, v)
			return vEnd
		})
		if end < 0 {
			return nil, -1
		}
		return list, end
	case c == '-' || isDigit(c):
		end := scanNumber(b, i)
		if end < 0 {
			return nil, -1
		}
		f, err := strconv.ParseFloat(string(b[i:end]), 64)
		if err != nil {
			return nil, -1
		}
		return f, end
	case c == 't':
		return true, scanLiteral(b, i, "true")
	case c == 'f':
		return false, scanLiteral(b, i, "false")
	case c == 'n':
		return nil, scanLiteral(b, i, "null")
	}
	return nil, -1
}
