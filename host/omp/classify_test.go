package omp

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsPermissionDenied(t *testing.T) {
	tests := []struct {
		reason string
		value  any
		want   bool
	}{
		{"a structured EACCES code", &Error{Code: "EACCES", Message: "x"}, true},
		{"a structured EPERM code", &Error{Code: "EPERM"}, true},
		{"a structured EROFS code", &Error{Code: "EROFS"}, true},
		{"the code is authoritative over the message", &Error{Code: "ENOENT", Message: "ENOENT opening fictional/EACCES/card"}, false},
		{"codes are case-sensitive", &Error{Code: "eacces"}, false},
		{"an empty string code is still authoritative", &Error{Code: "", Message: "EACCES"}, false},
		{"without a code the message decides", &Error{Message: "EACCES: synthetic transport refusal"}, true},
		{"a numeric code falls to the message", &Error{Code: 13.0, Message: "EPERM here"}, true},
		{"a numeric code and a plain message", &Error{Code: 13.0, Message: "nope"}, false},
		{"the word must be bounded on the left", &Error{Message: "xEACCES"}, false},
		{"the word must be bounded on the right", &Error{Message: "EACCES_X"}, false},
		{"the message match is case-sensitive", &Error{Message: "eacces"}, false},
		{"EROFS in a path", &Error{Message: "write /mnt/EROFS failed"}, true},
		{"a plain Go error is an error object", errors.New("EPERM: operation not permitted"), true},
		{"a string is not an error object", "EACCES", false},
		{"a map with a code is not an error object", map[string]any{"code": "EACCES"}, false},
		{"nil", nil, false},
		{"a wrapped error is not unwrapped", wrapped{&Error{Code: "EACCES"}}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsPermissionDenied(tt.value), tt.reason)
	}
}

type wrapped struct{ err error }

func (w wrapped) Error() string { return "wrapped" }
func (w wrapped) Unwrap() error { return w.err }

func TestIsENOENT(t *testing.T) {
	assert.True(t, IsENOENT(&Error{Code: "ENOENT"}))
	assert.False(t, IsENOENT(&Error{Message: "ENOENT"}))
	assert.False(t, IsENOENT("ENOENT"))
}

func TestErrorUnwrap(t *testing.T) {
	cause := &Error{Code: "EACCES"}
	e := &Error{Message: "outer", Cause: cause}
	assert.ErrorIs(t, e, cause)
	assert.Equal(t, "outer", e.Error())
}
