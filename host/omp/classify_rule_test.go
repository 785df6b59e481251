package omp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassifyRule(t *testing.T) {
	tests := []struct {
		name   string
		v      any
		denied bool
		rule   int
	}{
		{"a string", "EACCES", false, 1},
		{"a map", map[string]any{"code": "EACCES"}, false, 1},
		{"nil", nil, false, 1},
		{"a permission code", &Error{Message: "x", Code: "EPERM"}, true, 2},
		{"another code, the word in the message", &Error{Message: "EACCES here", Code: "ENOENT"}, false, 2},
		{"no code, the word", &Error{Message: "EROFS: read-only"}, true, 3},
		{"no code, no word", &Error{Message: "eacces"}, false, 3},
		{"a code that is not a string", &Error{Message: "EACCES", Code: 13}, true, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			denied, rule, why := ClassifyRule(Faults{}, tt.v)
			assert.Equal(t, tt.denied, denied)
			assert.Equal(t, tt.rule, rule)
			assert.NotEmpty(t, why)
			assert.Equal(t, IsPermissionDeniedWith(Faults{}, tt.v), denied, "the rule agrees with the classifier")
			for _, f := range []Faults{Faults{}.With(FaultClassifierMessageFirst), Faults{}.With(FaultClassifierIgnoresMessage)} {
				d, _, _ := ClassifyRule(f, tt.v)
				assert.Equal(t, IsPermissionDeniedWith(f, tt.v), d, "under a fault too")
			}
		})
	}
}
