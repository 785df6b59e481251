package gateway

import (
	"encoding/json"
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
// an error message is always the one encoding/json gives, but for a
// string's unpaired surrogate, which the readers keep as the host's
// json.loads does (see internal/jsontext).

// maxFastDepth bounds the nesting the fast readers follow. Deeper values
// go to encoding/json, whose limit and messages are the reference.
const maxFastDepth = jsontext.MaxDepth

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
		ok := true
		dst = jsonx.AppendObject(dst, x, func(b []byte, v any) []byte {
			b, vok := appendValue(b, v)
			ok = ok && vok
			return b
		})
		return dst, ok
	}
	return dst, false
}

// member and members are the shared object reader's.
type (
	member  = jsontext.Member
	members = jsontext.Members
)
