package gatewaycheck

import (
	"bytes"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The plan and the lint read a few members of requests and of expected
// values that the given block keeps as raw JSON. Each reader here reads a
// value as the gateway's json.loads reads it (keys compared exactly, a
// repeated key keeping its last value, strings with their escapes decoded
// and an unpaired surrogate kept, nesting to jsontext.HostDepth), into
// the Go type it names; a plain value is read without a copy.

// stringOf reads raw as a string: ok is false for any other value; null
// reads as "".
func stringOf(raw []byte) (s string, ok bool) {
	if len(raw) > 0 && raw[0] == '"' {
		if end, plain := jsontext.ScanString(raw, 0); plain && end == len(raw) {
			return string(raw[1 : end-1]), true
		}
	}
	if isNull(raw) {
		return "", true
	}
	return jsontext.StringToken(bytes.TrimLeft(raw, " \t\r\n"))
}

// isNull reports whether raw is the literal null, white space around it
// allowed.
func isNull(raw []byte) bool { return string(bytes.Trim(raw, " \t\r\n")) == "null" }

// listOf reads raw as an array: the elements' texts; ok is false for any
// other value; null reads as no element.
func listOf(raw []byte) (list [][]byte, ok bool) {
	if isNull(raw) {
		return nil, true
	}
	if list, ok := jsontext.HostElements(raw); ok {
		return list, true
	}
	return nil, false
}

// membersOf reads raw as an object's members, in the order of first
// appearance (a repeated key keeps its last value); ok is false for any
// other value; null reads as no member.
func membersOf(raw []byte) (jsontext.Members, bool) {
	if isNull(raw) {
		return nil, true
	}
	return jsontext.ReadHostMembers(raw, nil)
}

// requestAction returns the action a step's request names, as the
// gateway's envelope reads it: "" when the request is no object or its
// action no string.
func requestAction(raw []byte) string {
	ms, ok := membersOf(raw)
	if !ok {
		return ""
	}
	a, found := ms.Get("action")
	if !found || jsontext.SkipSpace(a, 0) >= len(a) || a[0] != '"' {
		return ""
	}
	s, _ := stringOf(a)
	return s
}
