package ompcheck_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
)

// oneCase is a desk of one case of scenario with the given and expected
// blocks as JSON text.
func oneCase(scenario, given, expected string) []byte {
	return []byte(fmt.Sprintf(`{
  "schemaVersion": 1,
  "id": "values",
  "title": "Values as the host reads them",
  "label": "TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "cases": [
    {
      "id": "case",
      "title": "one case",
      "scenario": %q,
      "given": %s,
      "expected": %s
    }
  ]
}
`, scenario, given, expected))
}

// verifyOne loads, lints and runs a one-case desk and returns its result,
// failing on any diagnostic error.
func verifyOne(t *testing.T, data []byte) verifier.Result {
	t.Helper()
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "values.json", Data: data}}, verifier.Options{Registry: all.Registry()})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	require.Len(t, suite.Results, 1)
	return suite.Results[0]
}

// refused loads and lints a one-case desk and returns its errors.
func refused(t *testing.T, data []byte) verifier.Diagnostics {
	t.Helper()
	desks, ds := verifier.LoadAll(all.Registry(), []verifier.Input{{Path: "values.json", Data: data}}, verifier.Limits{})
	if !ds.HasErrors() {
		ds = append(ds, verifier.Lint(desks, verifier.Limits{})...)
	}
	var errs verifier.Diagnostics
	for _, d := range ds {
		if d.Severity == verifier.Error {
			errs = append(errs, d)
		}
	}
	require.NotEmpty(t, errs, "the desk is refused")
	return errs
}

// TestOMPReadsStringsAsJavaScript: a deny reason "\udc42\u0041BC" ends the
// error with the lone surrogate and then "ABC", as on the release; gjson
// read it as "\ufffdBC", so errorIncludes "ABC" failed.
func TestOMPReadsStringsAsJavaScript(t *testing.T) {
	given := `{"approval": {"policy": "deny", "reason": "\udc42\u0041BC"}, "ui": false}`
	r := verifyOne(t, oneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "ABC"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	msg, _ := r.Observed["errorIncludes"].(string)
	assert.True(t, strings.HasSuffix(msg, "\xed\xb1\x82ABC"), "%q", msg)

	// The lone surrogate itself is asserted as written.
	r = verifyOne(t, oneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "Reason: \udc42ABC"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v", r.Mismatches)
	r = verifyOne(t, oneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "Reason: \ufffdBC"}`))
	assert.Equal(t, verifier.Fail, r.Status, "U+FFFD is not the host's text")
}

// TestKeysDifferingInASurrogateAreTwoKeys: to JSON.parse and json.loads
// "a\ud800" and "a\udc00" are two keys (a reader that makes both U+FFFD
// saw a duplicate); the same key twice is still one, and the diagnostic
// shows the surrogate as its escape.
func TestKeysDifferingInASurrogateAreTwoKeys(t *testing.T) {
	r := verifyOne(t, oneCase("wrapper", `{"userPolicies": {"seed_note\ud800": "deny", "seed_note\udc00": "deny"}, "ui": false, "choices": []}`,
		`{"outcome": "return", "effects": 1}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	ds := refused(t, oneCase("wrapper", `{"userPolicies": {"a\ud800": "deny", "a\ud800": "allow"}}`, `{"outcome": "return", "effects": 1}`))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].String(), `values.json:11:53: error: duplicate key "a\ud800" (first at 11:34)`)
	assert.True(t, strings.HasSuffix(ds[0].String(), `(/cases/0/given/userPolicies/a\ud800)`), ds[0].String())
}
