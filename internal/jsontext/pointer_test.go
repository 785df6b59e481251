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
	}
}
