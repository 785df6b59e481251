package ompcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tidwall/gjson"
)

func TestJSString(t *testing.T) {
	for _, tt := range []struct {
		reason, raw, want string
	}{
		{"plain text", `"Shelf check"`, "Shelf check"},
		{"escapes", `"a\"b\\c\n\t\/"`, "a\"b\\c\n\t/"},
		{"a surrogate pair is one rune", `"\ud83d\ude00"`, "😀"},
		{"a lone high surrogate stays, in WTF-8", `"x\ud800y"`, "x\xed\xa0\x80y"},
		{"a lone low surrogate stays", `"\udc00"`, "\xed\xb0\x80"},
		{"a genuine U+FFFD is kept as it is", `"\ufffd"`, "\ufffd"},
		{"not a string", `12`, ""},
		{"absent", ``, ""},
	} {
		assert.Equal(t, tt.want, jsString(gjson.Parse(tt.raw)), tt.reason)
	}
}
