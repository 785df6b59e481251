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

// wholeObject walks raw as one object with optional surrounding whitespace.
func wholeObject(raw []byte, f func(keyTok []byte, plain bool, start int) int) bool {
	end := jsontext.EachMember(raw, jsontext.SkipSpace(raw, 0), f)
	return end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
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
		end := jsontext.EachMember(b, i, func(keyTok []byte, plain bool, start int) int {
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
		end := jsontext.EachElement(b, i, func(start int) int {
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
