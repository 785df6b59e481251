package agentloop

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The runner reads a request's arguments here without encoding/json's
// reflection, which cost more than the rest of a step: the members of the
// arguments object and its string value. The readers are strict and
// partial: they accept only well-formed JSON and answer ok=false for
// anything else (invalid text, nesting deeper than maxFastDepth). Callers
// then take encoding/json's own path, so a value or a refusal is always
// the one encoding/json gives.

// maxFastDepth bounds the nesting the fast readers follow. Deeper values
// go to encoding/json, whose limit and messages are the reference.
const maxFastDepth = jsontext.MaxDepth

// stringValue returns the value of a valid string token: its bytes when
// plain, else what encoding/json decodes (escapes, invalid UTF-8).
func stringValue(tok []byte, plain bool) string {
	if plain {
		return string(tok[1 : len(tok)-1])
	}
	var s string
	_ = json.Unmarshal(tok, &s) // a valid token always decodes
	return s
}

// member is one member of an arguments object: its key (decoded) and its
// value as written, without surrounding whitespace. The key stays bytes:
// comparing string(key) with a string allocates nothing.
type member struct {
	key []byte
	raw []byte
}

// members is an object's members in first-seen order. A repeated key keeps
// its first position and its last value, as decoding into a map does.
type members []member

func (m members) get(key string) ([]byte, bool) {
	for _, x := range m {
		if string(x.key) == key {
			return x.raw, true
		}
	}
	return nil, false
}

// sortedKeys returns the keys in sorted order.
func (m members) sortedKeys() []string {
	keys := make([]string, len(m))
	for i, x := range m {
		keys[i] = string(x.key)
	}
	slices.Sort(keys)
	return keys
}

// readMembers reads a JSON object (surrounding whitespace allowed) into its
// members, as json.Unmarshal into a map[string]json.RawMessage reads it,
// appending them to buf[:0]. ok is false when raw is not one valid object
// within maxFastDepth.
func readMembers(raw []byte, buf members) (m members, ok bool) {
	i := jsontext.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	m = buf[:0]
	if m == nil {
		m = make(members, 0, 4)
	}
	i = jsontext.SkipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return m, jsontext.SkipSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		kEnd, plain := jsontext.ScanString(raw, i)
		if kEnd < 0 {
			return nil, false
		}
		key := raw[i+1 : kEnd-1]
		if !plain {
			key = []byte(stringValue(raw[i:kEnd], false))
		}
		i = jsontext.SkipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = jsontext.SkipSpace(raw, i+1)
		vEnd := jsontext.ScanValue(raw, i, 1)
		if vEnd < 0 {
			return nil, false
		}
		value := raw[i:vEnd:vEnd]
		if at := slices.IndexFunc(m, func(x member) bool { return bytes.Equal(x.key, key) }); at >= 0 {
			m[at].raw = value
		} else {
			m = append(m, member{key, value})
		}
		i = jsontext.SkipSpace(raw, vEnd)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			return m, jsontext.SkipSpace(raw, i+1) == len(raw)
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = jsontext.SkipSpace(raw, i+1)
	}
}
