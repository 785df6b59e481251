package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	known := []string{"prompts", "toolCalls", "effects", "envelope_not_object", "approval_missing"}
	for _, tt := range []struct{ reason, word, want string }{
		{"one letter missing", "promts", "prompts"},
		{"case is ignored", "toolcalls", "toolCalls"},
		{"nothing close", "somethingElse", ""},
		{"a long word may be three edits off", "envelope_not_an_object", "envelope_not_object"},
		{"a short word may not", "efx", ""},
		{"the exact word", "effects", "effects"},
	} {
		assert.Equal(t, tt.want, Closest(tt.word, known), tt.reason)
	}
	assert.Equal(t, 3, EditDistance("kitten", "sitting"))
}
