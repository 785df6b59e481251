package ompcheck

import (
	"strconv"
	"unicode/utf8"

	"github.com/tidwall/gjson"
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
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			out = append(out, c)
			i++
			continue
		}
		switch e := raw[i+1]; e {
		case 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return v.Str
			}
			i += 6
			if r >= 0xD800 && r < 0xDC00 {
				if lo, ok2 := hex4(raw, i+2); ok2 && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' && lo >= 0xDC00 && lo < 0xE000 {
					out = utf8.AppendRune(out, 0x10000+(r-0xD800)<<10+(lo-0xDC00))
					i += 6
					continue
				}
			}
			if r >= 0xD800 && r < 0xE000 {
				out = append(out, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
				continue
			}
			out = utf8.AppendRune(out, r)
		default:
			unq, err := strconv.Unquote(`"\` + string(e) + `"`)
			if err != nil {
				return v.Str
			}
			out = append(out, unq...)
			i += 2
		}
	}
	return string(out)
}

func hex4(s string, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s[at:at+4], 16, 32)
	return rune(n), err == nil
}
