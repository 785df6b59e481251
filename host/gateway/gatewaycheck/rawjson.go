package gatewaycheck

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The plan and the lint read a few members of requests and of expected
// values that the given block keeps as raw JSON. Each reader here gives
// exactly what json.Unmarshal gives into the Go type it names, the
// reference kept beside it (…JSON), and takes that path itself for
// anything it does not read plainly: a key or a string with an escape or
// with bytes that are not UTF-8, or nesting jsontext does not follow.

// stringOf reads raw as json.Unmarshal reads it into a string: ok is false
// when Unmarshal would fail; null reads as "".
func stringOf(raw []byte) (s string, ok bool) {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		if end, plain := jsontext.ScanString(raw, 0); plain && end == len(raw) {
			return string(raw[1 : end-1]), true
		}
	case isNull(raw):
		return "", true
	case len(raw) > 0 && !jsontext.IsSpace(raw[0]):
		// A number, a literal, an object or an array: no string.
		if jsontext.WholeValue(raw) {
			return "", false
		}
	}
	return stringOfJSON(raw)
}

func stringOfJSON(raw []byte) (string, bool) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err == nil
}

// isNull reports whether raw is the literal null, white space after it
// allowed (before it, the encoding/json path takes it).
func isNull(raw []byte) bool { return string(bytes.TrimRight(raw, " \t\r\n")) == "null" }

// listOf reads raw as json.Unmarshal reads it into a []json.RawMessage:
// the elements' texts; ok is false when Unmarshal would fail; null reads
// as no element.
func listOf(raw []byte) (list [][]byte, ok bool) {
	switch {
	case isNull(raw):
		return nil, true
	case len(raw) > 0 && raw[0] == '[':
		list = [][]byte{}
		if jsontext.WholeArray(raw, func(start int) int {
			end := jsontext.ScanValue(raw, start, 1)
			if end >= 0 {
				list = append(list, raw[start:end])
			}
			return end
		}) {
			return list, true
		}
	case len(raw) > 0 && !jsontext.IsSpace(raw[0]) && jsontext.WholeValue(raw):
		return nil, false
	}
	return listOfJSON(raw)
}

func listOfJSON(raw []byte) ([][]byte, bool) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, false
	}
	if list == nil {
		return nil, true
	}
	out := make([][]byte, len(list))
	for i, x := range list {
		out[i] = x
	}
	return out, true
}

// membersOf reads raw as json.Unmarshal reads it into a
// map[string]json.RawMessage, in the order of first appearance (a repeated
// key keeps its last value); ok is false when Unmarshal would fail; null
// reads as no member. jsontext.ReadMembers reads the object; a key with an
// unpaired surrogate escape, which it keeps and Unmarshal replaces, and
// anything it does not read go to the reference.
func membersOf(raw []byte) (jsontext.Members, bool) {
	if isNull(raw) {
		return nil, true
	}
	if ms, ok := jsontext.ReadMembers(raw, nil); ok && !slices.ContainsFunc(ms, surrogateKey) {
		return ms, true
	}
	if len(raw) > 0 && raw[0] != '{' && !jsontext.IsSpace(raw[0]) && jsontext.WholeValue(raw) {
		return nil, false
	}
	return membersOfJSON(raw)
}

// surrogateKey reports a key that held an unpaired surrogate escape.
func surrogateKey(m jsontext.Member) bool { return jsontext.HasSurrogate(m.Key) }

func membersOfJSON(raw []byte) (jsontext.Members, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	if m == nil {
		return nil, true
	}
	// A map has no order: callers must not rely on the members' order.
	ms := make(jsontext.Members, 0, len(m))
	for k, v := range m {
		ms = append(ms, jsontext.Member{Key: []byte(k), Raw: v})
	}
	return ms, true
}

// requestAction returns the action a step's request names, as the
// gateway's envelope reads it with encoding/json (a key matching "action"
// in any letter case, the last such member winning): "" when the request
// is no object or its action no string.
func requestAction(raw []byte) string {
	if len(raw) > 0 && raw[0] == '{' {
		var action []byte
		plainKeys := jsontext.WholeObject(raw, func(keyTok []byte, plain bool, start int) int {
			if !plain {
				return -1
			}
			end := jsontext.ScanValue(raw, start, 1)
			// The keys are valid UTF-8 here, where EqualFold's Unicode
			// folding is Unmarshal's matching of a field name.
			if end >= 0 && bytes.EqualFold(keyTok[1:len(keyTok)-1], []byte("action")) {
				action = raw[start:end]
			}
			return end
		})
		if plainKeys {
			if action == nil {
				return ""
			}
			s, _ := stringOf(action)
			return s
		}
	}
	return requestActionJSON(raw)
}

func requestActionJSON(raw []byte) string {
	var env struct {
		Action json.RawMessage `json:"action"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return ""
	}
	var action string
	if json.Unmarshal(env.Action, &action) != nil {
		return ""
	}
	return action
}
