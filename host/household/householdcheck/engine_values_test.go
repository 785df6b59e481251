package householdcheck_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
	"github.com/deskcheck/deskcheck/verifier/verifiertest"
)

// TestPolicyCodeTakesAnyNumber: policyCode is copied as the model wrote it
// and compared exactly; -3, 7.5 and 1e20 are no counts, so they load, and
// they verify.
func TestPolicyCodeTakesAnyNumber(t *testing.T) {
	for _, code := range []string{"-3", "7.5", "1e20", "100000000000000000000", `{"k": [1, "x"]}`} {
		t.Run(code, func(t *testing.T) {
			given := `{"decisions": [{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": ` + code + `}}]}`
			r := verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("household", given, `{"outcome": "escalated", "effects": 0, "policyCode": `+code+`}`))
			assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
		})
	}
	// A count still takes only whole numbers.
	ds := verifiertest.Refused(t, all.Registry(), verifiertest.OneCase("household", `{"decisions": []}`, `{"outcome": "parser_failure", "effects": 1e0}`))
	assert.Contains(t, verifiertest.DiagText(ds), "a whole number is expected (digits only, at most 15), found 1e0 (/cases/0/expected/effects)")
}

// TestHouseholdRawSurrogateIsAParserFailure: a raw response whose text
// holds an unpaired surrogate (from the escape of the given string) fails
// the strict parser; read as U+FFFD it parsed and the run answered.
func TestHouseholdRawSurrogateIsAParserFailure(t *testing.T) {
	raw := `"{\"final\": {\"outcome\": \"escalated\", \"claims\": [], \"evidence_ids\": [], \"policy_code\": \"X\ud800\u0041\"}}"`
	r := verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("household", `{"decisions": [`+raw+`]}`, `{"outcome": "parser_failure", "effects": 0, "policyCode": "PARSER_FAILURE"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	// The same text with the surrogate escaped inside the response fails
	// as well, and a decision object keeps it.
	obj := `{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": "X\ud800\u0041"}}`
	r = verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("household", `{"decisions": [`+obj+`]}`, `{"outcome": "escalated", "effects": 0, "policyCode": "X\ud800A"}`))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
}
