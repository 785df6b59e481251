package ompcheck

import (
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The host is a JavaScript program: every value of a case reaches the
// model as JSON.parse makes it, read by internal/jsontext's JavaScript
// decoder. gjson only finds where a value is; its own decoding of strings
// would turn a lone surrogate escape into U+FFFD and drop the escape that
// follows it ("\udc42\u0041BC" would read as "\ufffdBC").

// jsString decodes a JSON string as the host's JavaScript runtime holds
// it: a lone surrogate escape (\ud800) stays a lone surrogate, written in
// the WTF-8 form (its three-byte encoding), instead of becoming U+FFFD as
// in a Go string. The host model tells such text apart, because the host
// removes every U+FFFD from text that is not well formed. Any other value
// reads as "".
func jsString(v gjson.Result) string {
	if v.Type != gjson.String {
		return ""
	}
	if s, ok := jsontext.HostString([]byte(v.Raw)); ok {
		return s
	}
	return v.Str
}

// jsValue decodes any JSON value as JSON.parse does (strings as jsString,
// numbers as doubles); a fresh value each time. An absent value is nil.
func jsValue(v gjson.Result) any {
	if !v.Exists() {
		return nil
	}
	if x, ok := jsontext.DecodeJS([]byte(v.Raw)); ok {
		return x
	}
	return v.Value()
}
