package jsontext

import "strings"

// PointerToken escapes a key as one reference token of a JSON pointer
// (RFC 6901): ~ as ~0, / as ~1.
func PointerToken(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return pointerEscaper.Replace(key)
}

// pointerEscaper is built once: a replacer builds its tables on first use.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// UnescapePointerToken undoes PointerToken: ~1 as /, ~0 as ~.
func UnescapePointerToken(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return pointerUnescaper.Replace(token)
}

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
