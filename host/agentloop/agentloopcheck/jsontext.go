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

// wholeValue reports whether raw is exactly one valid JSON value within
// maxFastDepth, with optional surrounding whitespace.
func wholeValue(raw []byte) bool {
	end := jsontext.ScanValue(raw, jsontext.SkipSpace(raw, 0), 0)
	return end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
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

// appendCompact appends a valid JSON text without the whitespace outside
// its strings, which is all json.Compact changes in valid JSON. Strings
// and runs of other bytes are copied whole.
func appendCompact(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end
		case jsontext.IsSpace(c):
			i++
		default:
			j := i + 1
			for j < len(src) && src[j] != '"' && !jsontext.IsSpace(src[j]) {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
		}
	}
	return dst
}

// stringEnd returns the index after the string that starts at b[i] in valid
// JSON: after the first quote not escaped by an odd run of backslashes.
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return len(b)
		}
		q += j
		k := q
		for k > i+1 && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// objectKeys reads a JSON object as json.Unmarshal into a
// map[string]json.RawMessage does: the number of distinct keys and the
// value of key (the last one written). ok is false when it cannot tell so:
// raw is not one valid object within maxFastDepth.
func objectKeys(raw []byte, key string) (distinct int, value []byte, has, ok bool) {
	var buf [8][]byte
	keys := buf[:0]
	end := eachMember(raw, jsontext.SkipSpace(raw, 0), func(keyTok []byte, plain bool, start int) int {
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
