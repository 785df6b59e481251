package omp

import (
	"regexp"
	"strings"
)

// Error is a host error object: a message with an optional structured code,
// like the errors the host's file system calls raise. Code holds whatever
// the error carries; only a string code is structured.
type Error struct {
	Message string
	Code    any
	Cause   error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause attached to the error, if any.
func (e *Error) Unwrap() error { return e.Cause }

// ErrorCode returns the structured code and whether there is one.
func (e *Error) ErrorCode() (string, bool) {
	s, ok := e.Code.(string)
	return s, ok
}

// Coded is implemented by errors that may carry a structured code.
type Coded interface {
	ErrorCode() (code string, ok bool)
}

var permissionWord = regexp.MustCompile(`\b(EPERM|EACCES|EROFS)\b`)

// IsPermissionDenied classifies a thrown value the way the host does.
//
// An error object is a Go error; anything else (a string, a map, nil) is a
// plain value and never permission-denied. An error object whose own
// ErrorCode reports a string code is decided by that code alone: EPERM,
// EACCES or EROFS, exactly. Any other error object is permission-denied when
// its message holds one of those words, case-sensitive and word-bounded.
// Wrapped errors are not unwrapped: the host looks at the thrown object only.
func IsPermissionDenied(v any) bool { return IsPermissionDeniedWith(Faults{}, v) }

// IsPermissionDeniedWith classifies v as the host would with the faults in
// s.
func IsPermissionDeniedWith(s Faults, v any) bool {
	err, ok := v.(error)
	if !ok || err == nil {
		return false
	}
	byMessage := permissionWord.MatchString(err.Error())
	if s.Has(FaultClassifierIgnoresMessage) {
		byMessage = false
	}
	if byMessage && s.Has(FaultClassifierMessageFirst) {
		return true
	}
	if c, ok := err.(Coded); ok {
		if code, ok := c.ErrorCode(); ok {
			return code == "EPERM" || code == "EACCES" || code == "EROFS"
		}
	}
	return byMessage
}

// IsPermissionDeniedMutated classifies v as the host would under the
// generated mutation m.
func IsPermissionDeniedMutated(m Mutation, v any) bool {
	err, ok := v.(error)
	if !ok || err == nil {
		return false
	}
	byMessage := permissionWord.MatchString(err.Error())
	if m.Has(MutClassifyDropCode) {
		byMessage = wordsBut(m.Code).MatchString(err.Error())
	}
	if m.Has(MutClassifyDropMessage) {
		byMessage = false
	}
	if c, ok := err.(Coded); ok {
		if code, ok := c.ErrorCode(); ok {
			denied := (code == "EPERM" || code == "EACCES" || code == "EROFS") && !(m.Has(MutClassifyDropCode) && code == m.Code)
			if m.Has(MutClassifyCodeInverted) {
				denied = !denied
			}
			return denied
		}
	}
	return byMessage
}

// wordsBut matches the permission words other than code.
func wordsBut(code string) *regexp.Regexp {
	var words []string
	for _, w := range []string{"EPERM", "EACCES", "EROFS"} {
		if w != code {
			words = append(words, w)
		}
	}
	return regexp.MustCompile(`\b(` + strings.Join(words, "|") + `)\b`)
}

// IsENOENT reports whether v is an error object with the structured code
// ENOENT.
func IsENOENT(v any) bool {
	c, ok := v.(Coded)
	if !ok {
		return false
	}
	code, ok := c.ErrorCode()
	return ok && code == "ENOENT"
}
