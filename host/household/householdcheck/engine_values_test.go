package householdcheck_test

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

// TestPolicyCodeTakesAnyNumber: policyCode is copied as the model wrote it
// and compared exactly; -3, 7.5 and 1e20 are no counts, so they load, and
// they verify.
func TestPolicyCodeTakesAnyNumber(t *testing.T) {
	for _, code := range []string{"-3", "7.5", "1e20", "100000000000000000000", `{"k": [1, "x"]}`} {
		t.Run(code, func(t *testing.T) {
			given := `{"decisions": [{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": ` + code + `}}]}`
			r := verifyOne(t, oneCase("household", given, `{"outcome": "escalated", "effects": 0, "policyCode": `+code+`}`))
			assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
		})
	}
	// A count still takes only whole numbers.
	ds := refused(t, oneCase("household", `{"decisions": []}`, `{"outcome": "parser_failure", "effects": 1e0}`))
	assert.Contains(t, diagText(ds), "a whole number is expected (digits only, at most 15), found 1e0 (/cases/0/expected/effects)")
}

// TestHouseholdRawSurrogateIsAParserFailure: a raw response whose text
// holds an unpaired surrogate (from the escape of the given string) fails
// the strict parser; read as U+FFFD it parsed and the run answered.
func TestHouseholdRawSurrogateIsAParserFailure(t *testing.T) {
	raw := `"{\"final\": {\"outcome\": \"escalated\", \"claims\": [], \"evidence_ids\": [], \"policy_code\": \"X\ud800\u0041\"}}"`
	r := verifyOne(t, oneCase("household", `{"decisions": [`+raw+`]}`, `{"outcome": "parser_failure", "effects": 0, "policyCode": "PARSER_FAILURE"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	// The same text with the surrogate escaped inside the response fails
	// as well, and a decision object keeps it.
	obj := `{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": "X\ud800\u0041"}}`
	r = verifyOne(t, oneCase("household", `{"decisions": [`+obj+`]}`, `{"outcome": "escalated", "effects": 0, "policyCode": "X\ud800A"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
}

// diagText is the diagnostics as printed, a line each.
func diagText(ds verifier.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}
