package gateway

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
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
		return jsontext.StringValue(b[i:end], plain), end
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
			key := jsontext.StringValue(b[i:kEnd], plain)
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
		return jsonx.AppendString(dst, x), true
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
			dst = jsonx.AppendString(dst, k)
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

// member and members are the shared object reader's.
type (
	member  = jsontext.Member
	members = jsontext.Members
)
