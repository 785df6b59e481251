package ompcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCopyBytes(t *testing.T) {
	for _, tt := range []struct {
		reason, given string
		want          int
	}{
		{"the empty block, one call", `{}`, 2},
		{"white space outside strings is not copied", "{ \"args\" : { \"a\" : \"x y\" } }", len(`{"args":{"a":"x y"}}`)},
		{"every value, times repeat", `{"tool":"t","args":{"a":1},"repeat":10}`, 10 * len(`{"tool":"t","args":{"a":1},"repeat":10}`)},
		{"choices once", `{"repeat":3,"choices":["Approve"]}`, 3*len(`{"repeat":3,"choices":}`) + len(`["Approve"]`)},
		{"an escaped quote stays in its string", `{"tool":"a\" b"}`, len(`{"tool":"a\" b"}`)},
		{"a huge repeat saturates", `{"args":{"a":1},"repeat":999999999999999}`, maxCopies},
	} {
		assert.Equal(t, tt.want, Wrapper.Compile([]byte(tt.given), nil).Measure(limitCopyBytes), tt.reason)
	}
}
