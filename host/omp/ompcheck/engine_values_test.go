package ompcheck_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
	"github.com/deskcheck/deskcheck/verifier/verifiertest"
)

// TestOMPReadsStringsAsJavaScript: a deny reason "\udc42\u0041BC" ends the
// error with the lone surrogate and then "ABC", as on the release; gjson
// read it as "\ufffdBC", so errorIncludes "ABC" failed.
func TestOMPReadsStringsAsJavaScript(t *testing.T) {
	given := `{"approval": {"policy": "deny", "reason": "\udc42\u0041BC"}, "ui": false}`
	r := verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "ABC"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	msg, _ := r.Observed["errorIncludes"].(string)
	assert.True(t, strings.HasSuffix(msg, "\xed\xb1\x82ABC"), "%q", msg)

	// The lone surrogate itself is asserted as written.
	r = verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "Reason: \udc42ABC"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v", r.Mismatches)
	r = verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "Reason: \ufffdBC"}`))
	assert.Equal(t, verifier.Fail, r.Status, "U+FFFD is not the host's text")
}

// TestKeysDifferingInASurrogateAreTwoKeys: to JSON.parse and json.loads
// "a\ud800" and "a\udc00" are two keys (a reader that makes both U+FFFD
// saw a duplicate); the same key twice is still one, and the diagnostic
// shows the surrogate as its escape.
func TestKeysDifferingInASurrogateAreTwoKeys(t *testing.T) {
	r := verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("wrapper", `{"userPolicies": {"seed_note\ud800": "deny", "seed_note\udc00": "deny"}, "ui": false, "choices": []}`,
		`{"outcome": "return", "effects": 1}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	ds := verifiertest.Refused(t, all.Registry(), verifiertest.OneCase("wrapper", `{"userPolicies": {"a\ud800": "deny", "a\ud800": "allow"}}`, `{"outcome": "return", "effects": 1}`))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].String(), `values.json:11:53: error: duplicate key "a\ud800" (first at 11:34)`)
	assert.True(t, strings.HasSuffix(ds[0].String(), `(/cases/0/given/userPolicies/a\ud800)`), ds[0].String())
}
