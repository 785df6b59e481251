package ompcheck

import (
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

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
	raw := v.Raw
	if len(raw) < 2 {
		return v.Str
	}
	raw = raw[1 : len(raw)-1]
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		if raw[i] != '\\' {
			out = append(out, raw[i])
			i++
			continue
		}
		r, end := jsontext.ReadEscape(raw, i)
		if end < 0 {
			return v.Str
		}
		if jsontext.IsSurrogate(r) {
			out = append(out, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
		} else {
			out = utf8.AppendRune(out, r)
		}
		i = end
	}
	return string(out)
}
