package householdcheck

import (
	"encoding/json"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The runtime hands its records out as JSON text, and the engine compares
// plain values of a Python host (an integer exact as a json.Number, other
// numbers float64, []any, map[string]any, strings with an unpaired
// surrogate kept): every text is decoded once per run with
// jsontext.DecodePy, as the runtime's json.loads reads it.

// plainOf is raw as json.loads reads it, or its text when it holds no
// value the readers take (a number beyond a double, text that is not
// JSON).
func plainOf(raw json.RawMessage) any {
	if v, ok := jsontext.DecodePy(raw); ok {
		return v
	}
	return string(raw)
}

// elements walks raw as one array (surrounding whitespace allowed),
// calling f with the span of each element; ok is false when raw is not a
// valid array or f returns false.
func elements(raw []byte, f func(start, end int) bool) bool {
	return jsontext.WholeArray(raw, func(start int) int {
		end := jsontext.ScanValue(raw, start, 1)
		if end < 0 || !f(start, end) {
			return -1
		}
		return end
	})
}

// eachTopMember walks raw as one object (surrounding whitespace allowed)
// whose keys need no unescaping, calling f with each key's bytes and its
// value; ok is false when raw is not such an object or f returns false.
func eachTopMember(raw []byte, f func(key, value []byte) bool) bool {
	return jsontext.WholeObject(raw, func(keyTok []byte, plain bool, start int) int {
		end := jsontext.ScanValue(raw, start, 1)
		if end < 0 || !plain || !f(keyTok[1:len(keyTok)-1], raw[start:end:end]) {
			return -1
		}
		return end
	})
}
