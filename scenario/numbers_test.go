package scenario

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNumberEqual: an exact integer equals another by value and a double
// exactly, on both sides of the int64 range and beyond it.
func TestNumberEqual(t *testing.T) {
	two63 := math.Ldexp(1, 63)
	tests := []struct {
		name  string
		a, b  any
		equal bool
	}{
		{"same digits", json.Number("7"), json.Number("7"), true},
		{"leading zero and sign", json.Number("007"), json.Number("+7"), true},
		{"minus zero", json.Number("-0"), json.Number("0"), true},
		{"different", json.Number("7"), json.Number("8"), false},
		{"beyond int64, equal", json.Number("123456789012345678901234567890"), json.Number("0123456789012345678901234567890"), true},
		{"beyond int64 against int64", json.Number("9223372036854775808"), json.Number("9223372036854775807"), false},
		{"a fraction is no integer", json.Number("1.0"), json.Number("1"), false},
		{"integer and double", json.Number("3"), 3.0, true},
		{"double and integer", 3.0, json.Number("3"), true},
		{"2^53+1 is not 2.0^53", json.Number("9007199254740993"), 9007199254740992.0, false},
		{"2^53 is 2.0^53", json.Number("9007199254740992"), 9007199254740992.0, true},
		{"negative", json.Number("-42"), -42.0, true},
		{"fractional double", json.Number("1"), 1.5, false},
		{"2^63 as a double", json.Number("9223372036854775808"), two63, true},
		{"2^63-1 is not 2.0^63", json.Number("9223372036854775807"), two63, false},
		{"-2^63", json.Number("-9223372036854775808"), -two63, true},
		{"2^64", json.Number("18446744073709551616"), math.Ldexp(1, 64), true},
		{"infinity", json.Number("1"), math.Inf(1), false},
		{"NaN", json.Number("1"), math.NaN(), false},
		{"not a number", json.Number("x"), 1.0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			equal, numbers := numberEqual(tt.a, tt.b)
			assert.True(t, numbers)
			assert.Equal(t, tt.equal, equal)
		})
	}
}

// TestCount: a count is the float64 a JSON number decodes to, those of 0
// to 255 made once.
func TestCount(t *testing.T) {
	for _, n := range []int{0, 1, 7, 255, 256, 1 << 40, -1} {
		assert.Equal(t, float64(n), Count(n), "%d", n)
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = Count(42) }))
	assert.Equal(t, 3.0, Normalize(3))
}
