package scenario

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPictureWords(t *testing.T) {
	many := make([]int, PictureUnits+3)
	words := make([]string, PictureUnits+1)
	for i := range many {
		many[i] = i
	}
	for i := range words {
		words[i] = "w"
	}
	tests := []struct {
		name, got, want string
	}{
		{"a short list in full", PictureInts([]int{1, 2, 3}), "1, 2, 3"},
		{"an empty list", PictureInts(nil), ""},
		{"a long list cut, with its length", PictureInts(many), "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23 … (27 in all)"},
		{"words the same way", PictureList(words), strings.Repeat("w, ", PictureUnits-1) + "w … (25 in all)"},
		{"nothing cut", PictureCut(PictureUnits, "steps"), ""},
		{"a cut named", PictureCut(30, "steps"), " The first 24 of 30 steps are drawn."},
		{"a cut unnamed", PictureCut(30, ""), " The first 24 of 30 are drawn."},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got, tt.name)
	}
}

func TestPictureValues(t *testing.T) {
	tests := []struct {
		name  string
		value any
		ints  []int
		ok    bool
	}{
		{"whole numbers", []any{1.0, 0.0, 7.0}, []int{1, 0, 7}, true},
		{"a fraction", []any{1.5}, nil, false},
		{"a number out of range", []any{1e12}, nil, false},
		{"a string among them", []any{1.0, "2"}, nil, false},
		{"not an array", 3.0, nil, false},
		{"absent", nil, nil, false},
	}
	for _, tt := range tests {
		got, ok := IntsOf(tt.value)
		assert.Equal(t, tt.ok, ok, tt.name)
		if tt.ok {
			assert.Equal(t, tt.ints, got, tt.name)
		}
	}
	words, ok := StringsOf([]any{"allow", "deny"})
	assert.True(t, ok)
	assert.Equal(t, []string{"allow", "deny"}, words)
	_, ok = StringsOf([]any{"allow", 1.0})
	assert.False(t, ok, "a number among the words")
	_, ok = StringsOf(map[string]any{})
	assert.False(t, ok, "an object")
}
