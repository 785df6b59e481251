package reports

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestWrapAndShorten(t *testing.T) {
	long := "  [step 1] " + strings.Repeat("word ", 60) + strings.Repeat("x", 300)
	tests := []struct {
		name  string
		text  string
		width int
	}{
		{"a short line stays", "short\n", 40},
		{"a long line with spaces", long + "\n", 60},
		{"no space at all", strings.Repeat("é", 500), 50},
		{"several lines", "a\n" + long + "\n" + long, 80},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrap(tt.text, tt.width)
			for _, l := range strings.Split(got, "\n") {
				assert.LessOrEqual(t, utf8.RuneCountInString(l), tt.width, "%q", l)
			}
			assert.Equal(t, strings.Join(strings.Fields(tt.text), ""), strings.Join(strings.Fields(got), ""), "nothing is lost but spaces")
		})
	}
	s, cut := shorten("abcdef", 4)
	assert.Equal(t, "abc…", s)
	assert.True(t, cut)
	s, cut = shorten("abc", 4)
	assert.Equal(t, "abc", s)
	assert.False(t, cut)
}
