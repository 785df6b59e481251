package agentloopcheck

import (
	"bytes"
	"encoding/json"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The readers here decode given blocks and arguments, and write the
// narration's JSON, without encoding/json's reflection, which cost more
// than running the runner itself. Each reader is strict and partial: it
// accepts only well-formed JSON in the shapes it knows and answers
// ok=false for anything else (invalid text, a key spelled differently, a
// repeated key, a string with escapes where it wants the bytes, nesting
// deeper than maxFastDepth). Its callers then run the encoding/json code
// they used before, so odd input gets the same value or error as ever.

// maxFastDepth bounds the nesting the readers follow.
const maxFastDepth = jsontext.MaxDepth

// stringToken returns the value of a valid string token, as json.Unmarshal
// into a string gives it; ok is false for any other text.
func stringToken(tok []byte) (string, bool) {
	if len(tok) == 0 || tok[0] != '"' {
		return "", false
	}
	if end, plain := jsontext.ScanString(tok, 0); end == len(tok) && plain {
		return string(tok[1 : len(tok)-1]), true
	}
	var s string
	return s, json.Unmarshal(tok, &s) == nil
}

// objectKeys reads a JSON object as json.Unmarshal into a
// map[string]json.RawMessage does: the number of distinct keys and the
// value of key (the last one written). ok is false when it cannot tell so:
// raw is not one valid object within maxFastDepth.
func objectKeys(raw []byte, key string) (distinct int, value []byte, has, ok bool) {
	var buf [8][]byte
	keys := buf[:0]
	end := jsontext.EachMember(raw, jsontext.SkipSpace(raw, 0), func(keyTok []byte, plain bool, start int) int {
		end := jsontext.ScanValue(raw, start, 1)
		if end < 0 {
			return -1
		}
		k := keyTok[1 : len(keyTok)-1]
		if !plain {
			s, ok := stringToken(keyTok)
			if !ok {
				return -1
			}
			k = []byte(s)
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
	return len(keys), value, has, end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
}
