package verifier

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
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
func verifyOne(t *testing.T, data []byte) Result {
	t.Helper()
	suite, ds, err := Verify(context.Background(), []Input{{Path: "values.json", Data: data}}, Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), diagStrings(ds))
	require.Len(t, suite.Results, 1)
	return suite.Results[0]
}

// refused loads and lints a one-case desk and returns its errors.
func refused(t *testing.T, data []byte) Diagnostics {
	t.Helper()
	desks, ds := LoadAll(testReg, []Input{{Path: "values.json", Data: data}}, Limits{})
	if !ds.HasErrors() {
		ds = append(ds, Lint(desks, Limits{})...)
	}
	var errs Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
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
	assert.Equal(t, Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	msg, _ := r.Observed["errorIncludes"].(string)
	assert.True(t, strings.HasSuffix(msg, "\xed\xb1\x82ABC"), "%q", msg)

	// The lone surrogate itself is asserted as written.
	r = verifyOne(t, oneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "Reason: \udc42ABC"}`))
	assert.Equal(t, Pass, r.Status, "%v", r.Mismatches)
	r = verifyOne(t, oneCase("wrapper", given, `{"outcome": "throw", "effects": 0, "errorIncludes": "Reason: \ufffdBC"}`))
	assert.Equal(t, Fail, r.Status, "U+FFFD is not the host's text")
}

// TestGatewayKeepsIntegersExact: a record 9007199254740993 is observed as
// written, and an expectation of 9007199254740992 fails.
func TestGatewayKeepsIntegersExact(t *testing.T) {
	given := `{"principal": "synthetic-analyst", "records": {"ops/orders": [{"id": "order-1", "n": 9007199254740993}]},
	  "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`
	exp := func(n string) string {
		return `{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0,
		  "results": [[{"id": "order-1", "n": ` + n + `}]]}`
	}
	r := verifyOne(t, oneCase("gateway", given, exp("9007199254740993")))
	assert.Equal(t, Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	assert.Contains(t, jsonValue(r.Observed["results"]), `"n":9007199254740993`, "the record as written")
	r = verifyOne(t, oneCase("gateway", given, exp("9007199254740992")))
	assert.Equal(t, Fail, r.Status, "an integer one off is another integer")
	r = verifyOne(t, oneCase("gateway", given, exp("9007199254740993.0")))
	assert.Equal(t, Fail, r.Status, "the double 9007199254740992.0 is not the integer 9007199254740993")
}

// TestPolicyCodeTakesAnyNumber: policyCode is copied as the model wrote it
// and compared exactly; -3, 7.5 and 1e20 are no counts, so they load, and
// they verify.
func TestPolicyCodeTakesAnyNumber(t *testing.T) {
	for _, code := range []string{"-3", "7.5", "1e20", "100000000000000000000", `{"k": [1, "x"]}`} {
		t.Run(code, func(t *testing.T) {
			given := `{"decisions": [{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": ` + code + `}}]}`
			r := verifyOne(t, oneCase("household", given, `{"outcome": "escalated", "effects": 0, "policyCode": `+code+`}`))
			assert.Equal(t, Pass, r.Status, "%v %s", r.Mismatches, r.Err)
		})
	}
	// A count still takes only whole numbers.
	ds := refused(t, oneCase("household", `{"decisions": []}`, `{"outcome": "parser_failure", "effects": 1e0}`))
	assert.Contains(t, strings.Join(diagStrings(ds), "\n"), "a whole number is expected (digits only, at most 15), found 1e0 (/cases/0/expected/effects)")
}

// TestHouseholdRawSurrogateIsAParserFailure: a raw response whose text
// holds an unpaired surrogate (from the escape of the given string) fails
// the strict parser; read as U+FFFD it parsed and the run answered.
func TestHouseholdRawSurrogateIsAParserFailure(t *testing.T) {
	raw := `"{\"final\": {\"outcome\": \"escalated\", \"claims\": [], \"evidence_ids\": [], \"policy_code\": \"X\ud800\u0041\"}}"`
	r := verifyOne(t, oneCase("household", `{"decisions": [`+raw+`]}`, `{"outcome": "parser_failure", "effects": 0, "policyCode": "PARSER_FAILURE"}`))
	assert.Equal(t, Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	// The same text with the surrogate escaped inside the response fails
	// as well, and a decision object keeps it.
	obj := `{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": "X\ud800\u0041"}}`
	r = verifyOne(t, oneCase("household", `{"decisions": [`+obj+`]}`, `{"outcome": "escalated", "effects": 0, "policyCode": "X\ud800A"}`))
	assert.Equal(t, Pass, r.Status, "%v %s", r.Mismatches, r.Err)
}

// TestGatewayArgumentsWithASurrogateAreRefused: such arguments have no
// canonical JSON, so the desk is invalid input, located at the string.
func TestGatewayArgumentsWithASurrogateAreRefused(t *testing.T) {
	for _, tt := range []struct{ name, given, ptr string }{
		{"request", `{"principal": "synthetic-analyst", "steps": [{"request": {"action": "create_draft", "resource": "ops/weekly-report",
  "arguments": {"text": "a\ud800\u00e9"}}}]}`, "/cases/0/given/steps/0/request/arguments/text"},
		{"approval", `{"principal": "synthetic-operator", "now": "2026-06-01T12:00:00Z", "approvals": [{"id": "ap", "principal": "synthetic-operator",
  "action": "publish_summary", "resource": "mock/review-board", "arguments": {"t\udc00": "x"}, "state": "approved", "expiresAt": "2026-06-01T13:00:00Z"}],
  "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`, "/cases/0/given/approvals/0/arguments/t\xed\xb0\x80"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := oneCase("gateway", tt.given, `{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0}`)
			ds := refused(t, data)
			require.Len(t, ds, 1, diagStrings(ds))
			assert.Equal(t, tt.ptr, ds[0].Pointer)
			assert.Contains(t, ds[0].Summary, "unpaired surrogate")
			// Located at the string (or key) itself.
			at := strings.Index(string(data), `\ud800`)
			if at < 0 {
				at = strings.Index(string(data), `"t\udc00"`)
			}
			line, col := positionOf(data, at)
			assert.Equal(t, line, ds[0].Line)
			assert.LessOrEqual(t, ds[0].Col, col)
			assert.Greater(t, ds[0].Col, col-8)
		})
	}
}

// positionOf is the line and column of byte off (columns in characters).
func positionOf(data []byte, off int) (line, col int) {
	line = 1 + strings.Count(string(data[:off]), "\n")
	start := strings.LastIndex(string(data[:off]), "\n") + 1
	return line, 1 + len([]rune(string(data[start:off])))
}

// TestStepPrincipalMustBeNonempty: like given.principal.
func TestStepPrincipalMustBeNonempty(t *testing.T) {
	data := oneCase("gateway", `{"principal": "synthetic-analyst", "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}, "principal": ""}]}`,
		`{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0}`)
	ds := refused(t, data)
	require.Len(t, ds, 1, diagStrings(ds))
	assert.Equal(t, "/cases/0/given/steps/0/principal", ds[0].Pointer)
	line, col := positionOf(data, strings.Index(string(data), `"principal": ""`)+len(`"principal": `))
	assert.Equal(t, [2]int{line, col}, [2]int{ds[0].Line, ds[0].Col})
}

// TestObservePasteValidateVerify: for every scenario, the expected block
// observe proposes, pasted into the case, validates and verifies; also on
// the values this issue is about (a negative, fractional and huge policy
// code, an exact integer, lone surrogates).
func TestObservePasteValidateVerify(t *testing.T) {
	givens := map[string][]string{
		"household": {
			`{"decisions": [{"final": {"outcome": "clarify", "claims": [], "evidence_ids": [], "policy_code": -3}}]}`,
			`{"decisions": [{"final": {"outcome": "clarify", "claims": [], "evidence_ids": [], "policy_code": 7.5}}]}`,
			`{"decisions": [{"final": {"outcome": "clarify", "claims": [], "evidence_ids": [], "policy_code": 1e20}}]}`,
			`{"decisions": [{"tool": "portfolio.read", "arguments": {"household": "hh-\ud800\u0041"}}, "{\"final\": 1\ud800}"]}`,
		},
		"gateway": {
			`{"principal": "synthetic-analyst", "records": {"ops/orders": [{"id": "o-\udc42\u0041", "n": 123456789012345678901234567890}]},
			  "steps": [{"request": {"action": "read", "resource": "ops/\ud800\u0041", "arguments": {}}}, {"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`,
		},
		"wrapper": {
			`{"tool": "n\ud800\u0041me", "approval": {"policy": "deny", "reason": "\udc42\u0041BC"}, "ui": false}`,
			`{"approval": {"tier": "exec", "reason": "r\udc42\u00e9"}, "ui": "rpc", "choices": ["\ud800\u0041pprove", "Approve"], "repeat": 2}`,
		},
		"runner": {
			`{"script": [{"tool": "lookup_user", "args": {"user_id": "u\ud800\u0041"}}, {"final": "done \udc00\u00e9"}]}`,
		},
	}
	for _, name := range testReg.Names() {
		sc, _, _ := testReg.Lookup(name)
		for i, given := range append([]string{sc.Template}, givens[name]...) {
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				ctx := context.Background()
				compiled := sc.Compile([]byte(given), nil)
				obs, err := compiled.Run(ctx, scenario.Env{Trace: &scenario.Trace{}})
				require.NoError(t, err)
				for k, v := range obs.Values {
					obs.Values[k] = scenario.Normalize(v)
				}
				block := FormatExpected(suggestions(sc, compiled, obs.Values), "      ")
				r := verifyOne(t, oneCase(name, given, block))
				assert.Equal(t, Pass, r.Status, "%s\n%v %s", block, r.Mismatches, r.Err)
			})
		}
	}
}

// TestKeysDifferingInASurrogateAreTwoKeys: to JSON.parse and json.loads
// "a\ud800" and "a\udc00" are two keys (a reader that makes both U+FFFD
// saw a duplicate); the same key twice is still one, and the diagnostic
// shows the surrogate as its escape.
func TestKeysDifferingInASurrogateAreTwoKeys(t *testing.T) {
	r := verifyOne(t, oneCase("wrapper", `{"userPolicies": {"seed_note\ud800": "deny", "seed_note\udc00": "deny"}, "ui": false, "choices": []}`,
		`{"outcome": "return", "effects": 1}`))
	assert.Equal(t, Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	ds := refused(t, oneCase("wrapper", `{"userPolicies": {"a\ud800": "deny", "a\ud800": "allow"}}`, `{"outcome": "return", "effects": 1}`))
	require.Len(t, ds, 1)
	assert.Contains(t, ds[0].String(), `values.json:11:53: error: duplicate key "a\ud800" (first at 11:34)`)
	assert.True(t, strings.HasSuffix(ds[0].String(), `(/cases/0/given/userPolicies/a\ud800)`), ds[0].String())
}

// TestObserveOnEveryBundledCase: the block observe proposes for each case
// of the bundled and family desks, pasted in place of its expected block,
// validates and verifies.
func TestObserveOnEveryBundledCase(t *testing.T) {
	var inputs []Input
	for _, f := range all.Desks() {
		inputs = append(inputs, Input{Path: f.Path, Data: f.Data})
	}
	// A family's own desks beside its adapter count too.
	own, err := filepath.Glob("../host/*/*check/testdata/*.json")
	require.NoError(t, err)
	for _, p := range own {
		if !strings.Contains(p, "releases-desk") {
			inputs = append(inputs, readInput(t, p))
		}
	}
	scenarios := map[string]bool{}
	for _, in := range inputs {
		desks, ds := LoadAll(testReg, []Input{in}, Limits{})
		require.False(t, ds.HasErrors(), diagStrings(ds))
		for _, res := range runAll(context.Background(), desks[0].Cases, nil, nil) {
			c := res.Case
			require.NotEqual(t, Errored, res.Status, "%s: %s", c.FullID(), res.Err)
			scenarios[c.Scenario] = true
			block := FormatExpected(res.Suggestions(), "      ")
			// The block was observed on one release: judge it there.
			var pin Hosts
			if res.Release != "" {
				pin = Hosts{res.Releases[0].Host: res.Release}
			}
			suite, ds, err := Verify(context.Background(), []Input{{Path: "values.json", Data: oneCase(c.Scenario, c.Given.Raw, block)}}, Options{Registry: testReg, Hosts: pin})
			require.NoError(t, err)
			require.False(t, ds.HasErrors(), diagStrings(ds))
			r := suite.Results[0]
			assert.Equal(t, Pass, r.Status, "%s\n%s\n%v", c.FullID(), block, r.Mismatches)
		}
	}
	assert.Len(t, scenarios, len(testReg.Names()), "every scenario")
}

// TestExactIntegersUpTo308Digits: the README's bound. A Python host's
// integer of 308 digits is exact; one of 309 is beyond a double, which
// the desk reader refuses for every host.
func TestExactIntegersUpTo308Digits(t *testing.T) {
	desk := func(n string) []byte {
		return oneCase("gateway", `{"principal": "synthetic-analyst", "records": {"ops/orders": [{"id": "o", "n": `+n+`}]},
		  "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`,
			`{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0, "results": [[{"id": "o", "n": `+n+`}]]}`)
	}
	n := strings.Repeat("9", 308)
	r := verifyOne(t, desk(n))
	assert.Equal(t, Pass, r.Status, "%v", r.Mismatches)
	assert.Contains(t, jsonValue(r.Observed["results"]), n)
	r = verifyOne(t, oneCase("gateway", `{"principal": "synthetic-analyst", "records": {"ops/orders": [{"id": "o", "n": `+n+`}]},
		  "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`,
		`{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0, "results": [[{"id": "o", "n": `+strings.Repeat("9", 307)+`8}]]}`))
	assert.Equal(t, Fail, r.Status, "one off in the last of 308 digits")
	ds := refused(t, desk(strings.Repeat("9", 309)))
	assert.Contains(t, ds[0].Summary, "out of range")
}

// TestDeskStringsKeepLoneSurrogates: the desk's own strings (sources and
// their keys, ids, claims) are read as the hosts read strings, so two keys
// that differ in a lone surrogate stay two keys and a ref to a third names
// neither.
func TestDeskStringsKeepLoneSurrogates(t *testing.T) {
	seed, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	desk := bytes.Replace(seed, []byte(`"sources": {`), []byte(`"sources": {"a\ud800": "first", "a\ud801": "second", `), 1)
	desk = bytes.Replace(desk, []byte(`"sourceRefs": [`), []byte(`"sourceRefs": ["a\udbff", `), 1)
	_, ds := LoadAll(testReg, []Input{{Path: "d.json", Data: desk}}, Limits{})
	var msgs []string
	for _, d := range ds {
		msgs = append(msgs, d.Summary)
	}
	// The known keys are held in WTF-8, which every output shows as \ud800.
	assert.Contains(t, strings.Join(msgs, "\n"), `sourceRef "a\udbff" names no key of sources (known: approval, a`+"\xed\xa0\x80, a\xed\xa0\x81,")
	assert.Len(t, ds, 1, "the two keys load as two, and nothing else is wrong")
}
