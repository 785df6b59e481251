package gatewaycheck_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/verifier"
	"github.com/deskcheck/deskcheck/verifier/verifiertest"
)

// TestGatewayKeepsIntegersExact: a record 9007199254740993 is observed as
// written, and an expectation of 9007199254740992 fails.
func TestGatewayKeepsIntegersExact(t *testing.T) {
	given := `{"principal": "synthetic-analyst", "records": {"ops/orders": [{"id": "order-1", "n": 9007199254740993}]},
	  "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`
	exp := func(n string) string {
		return `{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0,
		  "results": [[{"id": "order-1", "n": ` + n + `}]]}`
	}
	r := verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("gateway", given, exp("9007199254740993")))
	assert.Equal(t, verifier.Pass, r.Status, "%v %s", r.Mismatches, r.Err)
	assert.Contains(t, jsonValue(r.Observed["results"]), `"n":9007199254740993`, "the record as written")
	r = verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("gateway", given, exp("9007199254740992")))
	assert.Equal(t, verifier.Fail, r.Status, "an integer one off is another integer")
	r = verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("gateway", given, exp("9007199254740993.0")))
	assert.Equal(t, verifier.Fail, r.Status, "the double 9007199254740992.0 is not the integer 9007199254740993")
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
			data := verifiertest.OneCase("gateway", tt.given, `{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0}`)
			ds := verifiertest.Refused(t, all.Registry(), data)
			require.Len(t, ds, 1, verifiertest.DiagText(ds))
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
	data := verifiertest.OneCase("gateway", `{"principal": "synthetic-analyst", "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}, "principal": ""}]}`,
		`{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0}`)
	ds := verifiertest.Refused(t, all.Registry(), data)
	require.Len(t, ds, 1, verifiertest.DiagText(ds))
	assert.Equal(t, "/cases/0/given/steps/0/principal", ds[0].Pointer)
	line, col := positionOf(data, strings.Index(string(data), `"principal": ""`)+len(`"principal": `))
	assert.Equal(t, [2]int{line, col}, [2]int{ds[0].Line, ds[0].Col})
}

// TestExactIntegersUpTo308Digits: the README's bound. A Python host's
// integer of 308 digits is exact; one of 309 is beyond a double, which
// the desk reader refuses for every host.
func TestExactIntegersUpTo308Digits(t *testing.T) {
	desk := func(n string) []byte {
		return verifiertest.OneCase("gateway", `{"principal": "synthetic-analyst", "records": {"ops/orders": [{"id": "o", "n": `+n+`}]},
		  "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`,
			`{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0, "results": [[{"id": "o", "n": `+n+`}]]}`)
	}
	n := strings.Repeat("9", 308)
	r := verifiertest.VerifyOne(t, all.Registry(), desk(n))
	assert.Equal(t, verifier.Pass, r.Status, "%v", r.Mismatches)
	assert.Contains(t, jsonValue(r.Observed["results"]), n)
	r = verifiertest.VerifyOne(t, all.Registry(), verifiertest.OneCase("gateway", `{"principal": "synthetic-analyst", "records": {"ops/orders": [{"id": "o", "n": `+n+`}]},
		  "steps": [{"request": {"action": "read", "resource": "ops/orders", "arguments": {}}}]}`,
		`{"decisions": ["allow"], "reasons": ["allowed"], "draftEffects": 0, "publicationEffects": 0, "results": [[{"id": "o", "n": `+strings.Repeat("9", 307)+`8}]]}`))
	assert.Equal(t, verifier.Fail, r.Status, "one off in the last of 308 digits")
	ds := verifiertest.Refused(t, all.Registry(), desk(strings.Repeat("9", 309)))
	assert.Contains(t, ds[0].Summary, "out of range")
}

// jsonValue is v as JSON text.
func jsonValue(v any) string { return string(jsonx.Append(nil, v)) }
