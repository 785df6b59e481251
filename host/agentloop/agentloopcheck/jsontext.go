package agentloopcheck

import (
	"bytes"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The readers here decode given blocks and arguments, and write the
// narration's JSON, without encoding/json's reflection, which cost more
// than running the runner itself. Each reader is strict and partial: it
// accepts only well-formed JSON in the shapes it knows and answers
// ok=false for anything else (invalid text, a key spelled differently, a
// repeated key, a string with escapes where it wants the bytes, nesting
// deeper than jsontext.MaxDepth). Its callers then run the encoding/json code
// they used before, so odd input gets the same value or error as ever.

// objectKeys reads a JSON object as json.Unmarshal into a
// map[string]json.RawMessage does: the number of distinct keys and the
// value of key (the last one written). ok is false when it cannot tell so:
// raw is not one valid object within jsontext.MaxDepth.
func objectKeys(raw []byte, key string) (distinct int, value []byte, has, ok bool) {
	var buf [8][]byte
	keys := buf[:0]
	ok = jsontext.WholeObject(raw, func(keyTok []byte, plain bool, start int) int {
		end := jsontext.ScanValue(raw, start, 1)
		if end < 0 {
			return -1
		}
		k := keyTok[1 : len(keyTok)-1]
		if !plain {
			k = []byte(jsontext.StringValue(keyTok, false))
		}
		if string(k) == key {
			value, has = raw[start:end], true
		}
		for _, seen := range keys {
			if bytes.Equal(seen, k) {
				return end
			}
		}
		keys = append(keys, k)
		return end
	})
	return len(keys), value, has, ok
}
