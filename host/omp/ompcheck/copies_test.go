package ompcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestArgBytes(t *testing.T) {
	for _, tt := range []struct {
		reason, given string
		want          int
	}{
		{"no args", `{"approval":"exec"}`, 0},
		{"one call", `{"args":{"a":1}}`, 7},
		{"args and revise, times repeat", `{"args":{"a":1},"revise":{},"repeat":10}`, 90},
		{"a huge repeat saturates", `{"args":{"a":1},"repeat":999999999999999}`, maxCopies},
	} {
		assert.Equal(t, tt.want, argBytes([]byte(tt.given)), tt.reason)
	}
}
