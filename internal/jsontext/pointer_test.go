package jsontext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPointerToken(t *testing.T) {
	for key, want := range map[string]string{
		"":       "",
		"cases":  "cases",
		"a/b":    "a~1b",
		"~":      "~0",
		"~1":     "~01",
		"/~/":    "~1~0~1",
		"a/b~c":  "a~1b~0c",
		"é/\x00": "é~1\x00",
	} {
		assert.Equal(t, want, PointerToken(key), "%q", key)
		assert.Equal(t, key, UnescapePointerToken(want), "%q", want)
	}
	// ~01 is ~1 escaped, not /.
	assert.Equal(t, "~1", UnescapePointerToken("~01"))
	assert.Equal(t, "a~", UnescapePointerToken("a~"), "a ~ of no escape stays")
}
