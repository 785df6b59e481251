package gatewaycheck

import (
	"encoding/json"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
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
const maxFastDepth = jsontext.MaxDepth

// eachMember walks the object at b[i] == '{'. For each member it calls f
// with the key's token (quotes included, and whether its bytes between the
// quotes are its value) and where the value starts; f reads the value and
// returns where it ends, or -1 to stop. eachMember returns the index after
// the object, or -1 when the object is not valid or f stopped.
func eachMember(b []byte, i int, f func(keyTok []byte, plain bool, start int) int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = jsontext.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kEnd, plain := jsontext.ScanString(b, i)
		if kEnd < 0 {
			return -1
		}
		key := b[i:kEnd]
		i = jsontext.SkipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		if i = f(key, plain, jsontext.SkipSpace(b, i+1)); i < 0 {
			return -1
		}
		if i = jsontext.SkipSpace(b, i); i >= len(b) {
			return -1
		}
		if b[i] == '}' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = jsontext.SkipSpace(b, i+1)
	}
}

// eachElement walks the array at b[i] == '[' as eachMember walks an object.
func eachElement(b []byte, i int, f func(start int) int) int {
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	i = jsontext.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i = f(i); i < 0 {
			return -1
		}
		if i = jsontext.SkipSpace(b, i); i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = jsontext.SkipSpace(b, i+1)
	}
}

// wholeObject walks raw as one object with optional surrounding whitespace.
func wholeObject(raw []byte, f func(keyTok []byte, plain bool, start int) int) bool {
	end := eachMember(raw, jsontext.SkipSpace(raw, 0), f)
	return end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
}

// plainString returns the value of a string token whose bytes are its
// value; ok is false for any other token.
func plainString(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '"' {
		return "", false
	}
	end, plain := jsontext.ScanString(tok, 0)
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
	v, end := plainValue(raw, jsontext.SkipSpace(raw, 0), 0)
	return v, end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
}

func plainValue(b []byte, i, depth int) (any, int) {
	if i >= len(b) {
		return nil, -1
	}
	switch c := b[i]; {
	case c == '"':
		end, plain := jsontext.ScanString(b, i)
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
	case c == '-' || jsontext.IsDigit(c):
		end := jsontext.ScanNumber(b, i)
		if end < 0 {
			return nil, -1
		}
		f, err := strconv.ParseFloat(string(b[i:end]), 64)
		if err != nil {
			return nil, -1
		}
		return f, end
	case c == 't':
		return true, jsontext.ScanLiteral(b, i, "true")
	case c == 'f':
		return false, jsontext.ScanLiteral(b, i, "false")
	case c == 'n':
		return nil, jsontext.ScanLiteral(b, i, "null")
	}
	return nil, -1
}
