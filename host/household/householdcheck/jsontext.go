package householdcheck

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The runtime hands its records out as JSON text, and the engine compares
// plain values (float64 numbers, []any, map[string]any): every text is
// decoded once per run here, without encoding/json's reflection, which
// cost more than running the runtime itself. The reader is strict and
// partial: it accepts only well-formed JSON and answers ok=false for
// anything else (invalid text, a number that does not fit a float64,
// nesting deeper than maxFastDepth); plainOf then decodes with
// encoding/json as before, so a value is always the one it gives.

// maxFastDepth bounds the nesting the reader follows.
const maxFastDepth = jsontext.MaxDepth

// plainJSON decodes raw as json.Unmarshal into an any does; ok is false
// where it cannot (see above). It decodes from one string copy of raw, so
// the strings it returns are substrings of it: one allocation per text
// instead of one per string.
func plainJSON(raw []byte) (any, bool) {
	s := string(raw)
	v, end := plainValue(s, skipSpaceString(s, 0), 0)
	return v, end >= 0 && skipSpaceString(s, end) == len(s)
}

func skipSpaceString(s string, i int) int {
	for i < len(s) && jsontext.IsSpace(s[i]) {
		i++
	}
	return i
}

// stringToken reads the string token at s[i] == '"' and returns its value
// and the index after it, or -1. A token without escapes, in valid UTF-8,
// is its own value (a substring); any other is decoded by encoding/json.
func stringToken(s string, i int) (string, int) {
	j := i + 1
	plain := true
	for {
		q := strings.IndexByte(s[j:], '"')
		if q < 0 {
			return "", -1
		}
		q += j
		esc := strings.IndexByte(s[j:q], '\\')
		if esc < 0 {
			ascii := true
			for k := j; k < q; k++ {
				if s[k] < 0x20 {
					return "", -1
				}
				ascii = ascii && s[k] < utf8.RuneSelf
			}
			// Without an escape so far, s[j:q] is the whole content.
			if plain && (ascii || utf8.ValidString(s[i+1:q])) {
				return s[i+1 : q], q + 1
			}
			if v, ok := unescape(s[i+1:q], true); ok {
				return v, q + 1
			}
			var v string
			if json.Unmarshal([]byte(s[i:q+1]), &v) != nil {
				return "", -1
			}
			return v, q + 1
		}
		esc += j
		for k := j; k < esc; k++ {
			if s[k] < 0x20 {
				return "", -1
			}
		}
		plain = false
		if esc+1 >= len(s) {
			return "", -1
		}
		switch s[esc+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j = esc + 2
		case 'u':
			if esc+5 >= len(s) || !jsontext.IsHex(s[esc+2]) || !jsontext.IsHex(s[esc+3]) || !jsontext.IsHex(s[esc+4]) || !jsontext.IsHex(s[esc+5]) {
				return "", -1
			}
			j = esc + 6
		default:
			return "", -1
		}
	}
}

func plainValue(s string, i, depth int) (any, int) {
	if i >= len(s) {
		return nil, -1
	}
	switch c := s[i]; {
	case c == '"':
		return stringToken(s, i)
	case c == '{':
		if depth >= maxFastDepth {
			return nil, -1
		}
		obj := map[string]any{}
		i = skipSpaceString(s, i+1)
		if i < len(s) && s[i] == '}' {
			return obj, i + 1
		}
		for {
			if i >= len(s) || s[i] != '"' {
				return nil, -1
			}
			key, kEnd := stringToken(s, i)
			if kEnd < 0 {
				return nil, -1
			}
			if i = skipSpaceString(s, kEnd); i >= len(s) || s[i] != ':' {
				return nil, -1
			}
			var v any
			if v, i = plainValue(s, skipSpaceString(s, i+1), depth+1); i < 0 {
				return nil, -1
			}
			obj[key] = v
			if i = skipSpaceString(s, i); i >= len(s) {
				return nil, -1
			}
			if s[i] == '}' {
				return obj, i + 1
			}
			if s[i] != ',' {
				return nil, -1
			}
			i = skipSpaceString(s, i+1)
		}
	case c == '[':
		if depth >= maxFastDepth {
			return nil, -1
		}
		list := []any{}
		i = skipSpaceString(s, i+1)
		if i < len(s) && s[i] == ']' {
			return list, i + 1
		}
		for {
			var v any
			if v, i = plainValue(s, i, depth+1); i < 0 {
				return nil, -1
			}
			list = append(list, v)
			if i = skipSpaceString(s, i); i >= len(s) {
				return nil, -1
			}
			if s[i] == ']' {
				return list, i + 1
			}
			if s[i] != ',' {
				return nil, -1
			}
			i = skipSpaceString(s, i+1)
		}
	case c == '-' || jsontext.IsDigit(c):
		end := scanNumberString(s, i)
		if end < 0 {
			return nil, -1
		}
		f, err := strconv.ParseFloat(s[i:end], 64)
		if err != nil {
			return nil, -1
		}
		return f, end
	case c == 't' && strings.HasPrefix(s[i:], "true"):
		return true, i + 4
	case c == 'f' && strings.HasPrefix(s[i:], "false"):
		return false, i + 5
	case c == 'n' && strings.HasPrefix(s[i:], "null"):
		return nil, i + 4
	}
	return nil, -1
}

// scanNumberString is scanNumber over a string.
func scanNumberString(s string, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && jsontext.IsDigit(s[i]) {
			i++
		}
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !jsontext.IsDigit(s[i]) {
			return -1
		}
		for i < len(s) && jsontext.IsDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !jsontext.IsDigit(s[i]) {
			return -1
		}
		for i < len(s) && jsontext.IsDigit(s[i]) {
			i++
		}
	}
	return i
}

// plainEqual is reflect.DeepEqual for the values plainJSON returns (it
// walks maps without the allocations reflection makes there; decoded JSON
// holds no NaN, the one value DeepEqual treats apart). Any other value is
// left to reflect.DeepEqual.
func plainEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !plainEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, has := y[k]
			if !has || !plainEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// plainOf is plain through plainJSON where it can decode raw.
func plainOf(raw json.RawMessage) any {
	if v, ok := plainJSON(raw); ok {
		return v
	}
	return plain(raw)
}

// wholeInt reads a JSON integer literal (no fraction, no exponent) that
// fits an int; ok is false for anything else.
func wholeInt(raw []byte) (int, bool) {
	i := jsontext.SkipSpace(raw, 0)
	end := jsontext.ScanNumber(raw, i)
	if end < 0 || jsontext.SkipSpace(raw, end) != len(raw) {
		return 0, false
	}
	for _, c := range raw[i:end] {
		if c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(string(raw[i:end]))
	return n, err == nil
}

// elements walks raw as one array (surrounding whitespace allowed),
// calling f with the span of each element; ok is false when raw is not a
// valid array or f returns false.
func elements(raw []byte, f func(start, end int) bool) bool {
	i := jsontext.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return false
	}
	i = jsontext.SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return jsontext.SkipSpace(raw, i+1) == len(raw)
	}
	for {
		end := jsontext.ScanValue(raw, i, 1)
		if end < 0 || !f(i, end) {
			return false
		}
		if i = jsontext.SkipSpace(raw, end); i >= len(raw) {
			return false
		}
		if raw[i] == ']' {
			return jsontext.SkipSpace(raw, i+1) == len(raw)
		}
		if raw[i] != ',' {
			return false
		}
		i = jsontext.SkipSpace(raw, i+1)
	}
}

// eachTopMember walks raw as one object (surrounding whitespace allowed)
// whose keys need no unescaping, calling f with each key's bytes and its
// value; ok is false when raw is not such an object or f returns false.
func eachTopMember(raw []byte, f func(key, value []byte) bool) bool {
	i := jsontext.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i = jsontext.SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return jsontext.SkipSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return false
		}
		kEnd, plain := jsontext.ScanString(raw, i)
		if kEnd < 0 || !plain {
			return false
		}
		key := raw[i+1 : kEnd-1]
		if i = jsontext.SkipSpace(raw, kEnd); i >= len(raw) || raw[i] != ':' {
			return false
		}
		i = jsontext.SkipSpace(raw, i+1)
		end := jsontext.ScanValue(raw, i, 1)
		if end < 0 || !f(key, raw[i:end:end]) {
			return false
		}
		if i = jsontext.SkipSpace(raw, end); i >= len(raw) {
			return false
		}
		if raw[i] == '}' {
			return jsontext.SkipSpace(raw, i+1) == len(raw)
		}
		if raw[i] != ',' {
			return false
		}
		i = jsontext.SkipSpace(raw, i+1)
	}
}

// unescape decodes the content of a valid JSON string token that has
// escapes, as encoding/json does (utf8Checked) or as gjson does, where the
// two agree: the content must be valid UTF-8 when utf8Checked (encoding/json
// replaces invalid bytes, gjson keeps them), and no escape may be a
// surrogate (the two decode unpaired ones differently). ok is false
// otherwise, for the library to decode.
func unescape[T string | []byte](content T, utf8Checked bool) (string, bool) {
	if utf8Checked && !utf8.ValidString(string(content)) {
		return "", false
	}
	out := make([]byte, 0, len(content))
	for i := 0; i < len(content); i++ {
		c := content[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch e := content[i]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			var r rune
			for _, h := range []byte(content[i+1 : i+5]) {
				switch {
				case '0' <= h && h <= '9':
					r = r<<4 | rune(h-'0')
				case 'a' <= h && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				default:
					r = r<<4 | rune(h-'A'+10)
				}
			}
			if 0xD800 <= r && r <= 0xDFFF {
				return "", false
			}
			out = utf8.AppendRune(out, r)
			i += 4
		}
	}
	return string(out), true
}
