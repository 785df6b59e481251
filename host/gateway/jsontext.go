package gateway

import (
	"encoding/json"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// The readers and writers in this file do, without reflection, what the
// model would use encoding/json for: reading a request's members, decoding
// records with number literals kept, snapshotting results and narrating
// audit events. They are on the path of every step, where reflection and
// copies of every raw value cost more than the model itself. Every string
// is read as the host's json.loads reads it: an unpaired surrogate is kept
// (see internal/jsontext), and no reader falls back to encoding/json,
// which would replace it.

// maxFastDepth bounds the nesting the canonical writer follows itself.
// Deeper values go to the canonicalization library.
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

// members is the shared object reader's.
type members = jsontext.Members
