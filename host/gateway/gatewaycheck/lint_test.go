package gatewaycheck

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

func TestLint(t *testing.T) {
	ok := `{"principal":"synthetic-operator","approvals":[` + q2Approval + `],"steps":[{"request":` + q2Publish + `,"approvalId":"ap-q2"}]}`
	withApproval := func(a string) string {
		return `{"principal":"synthetic-operator","approvals":[` + a + `],"steps":[{"request":1}]}`
	}
	tests := []struct {
		reason   string
		given    string
		expected []scenario.Field
		want     []scenario.Problem
	}{
		{"a valid case has no problem", ok,
			[]scenario.Field{field("decisions", `["allow"]`), field("reasons", `["allowed"]`), field("audit", `[{"reason":"allowed","effectCount":1}]`)}, nil},
		{"an approval id the registry lacks is not invalid: it is denied at run time",
			`{"principal":"synthetic-operator","steps":[{"request":` + q2Publish + `,"approvalId":"ap-unknown"}]}`, nil, nil},
		{"an unknown principal is not invalid: it has no role",
			`{"principal":"nobody","steps":[{"request":1}]}`, nil, nil},
		{"now without a zone",
			`{"principal":"p","now":"2026-06-01T12:00:00","steps":[{"request":1}]}`, nil,
			[]scenario.Problem{{Pointer: "/given/now", Message: `now: timestamp "2026-06-01T12:00:00": want YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`}}},
		{"now with ten fraction digits",
			`{"principal":"p","now":"2026-06-01T12:00:00.0000000001Z","steps":[{"request":1}]}`, nil,
			[]scenario.Problem{{Pointer: "/given/now", Message: `now: timestamp "2026-06-01T12:00:00.0000000001Z": want YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`}}},
		{"an expiry on a day that does not exist",
			withApproval(strings.Replace(q2Approval, "2026-06-01T13:00:00Z", "2026-02-30T13:00:00Z", 1)), nil,
			[]scenario.Problem{{Pointer: "/given/approvals/0/expiresAt", Message: `expiresAt: timestamp "2026-02-30T13:00:00Z": parsing time "2026-02-30T13:00:00Z": day out of range`}}},
		{"an expiry with an offset out of range",
			withApproval(strings.Replace(q2Approval, "2026-06-01T13:00:00Z", "2026-06-01T13:00:00+24:00", 1)), nil,
			[]scenario.Problem{{Pointer: "/given/approvals/0/expiresAt", Message: `expiresAt: timestamp "2026-06-01T13:00:00+24:00": offset out of range`}}},
		{"an approval with both arguments and argumentsDigest",
			withApproval(strings.Replace(q2Approval, `"state"`, `"argumentsDigest":"`+q2Digest+`","state"`, 1)), nil,
			[]scenario.Problem{{Pointer: "/given/approvals/0/argumentsDigest", Key: true, Message: `approval "ap-q2" has both arguments and argumentsDigest; give exactly one`}}},
		{"an approval with neither",
			withApproval(`{"id":"ap-x","principal":"p","action":"publish_summary","resource":"mock/review-board","state":"approved","expiresAt":"2026-06-01T13:00:00Z"}`), nil,
			[]scenario.Problem{{Pointer: "/given/approvals/0", Message: `approval "ap-x" has neither arguments nor argumentsDigest; give exactly one`}}},
		{"a duplicate approval id names the first",
			`{"principal":"p","approvals":[` + q2Approval + `,` + q2Approval + `],"steps":[{"request":1}]}`, nil,
			[]scenario.Problem{{Pointer: "/given/approvals/1/id", Message: `duplicate approval id "ap-q2" (first at /given/approvals/0)`}}},
		{"no step",
			`{"principal":"p","steps":[]}`, nil,
			[]scenario.Problem{{Pointer: "/given/steps", Message: "steps is empty: a gateway case plays at least one step"}}},
		{"a misspelt reason gets a suggestion",
			ok, []scenario.Field{field("reasons", `["alowed"]`)},
			[]scenario.Problem{{Pointer: "/expected/reasons/0", Message: `reason "alowed" is not one of the gateway's 18 reasons; did you mean "allowed"?`}}},
		{"a reason far from any lists the vocabulary",
			ok, []scenario.Field{field("reasons", `["nope"]`)},
			[]scenario.Problem{{Pointer: "/expected/reasons/0", Message: `reason "nope" is not one of the gateway's 18 reasons (known: allowed, policy_unavailable, envelope_not_object, envelope_extra_key, envelope_missing_key, envelope_type, unknown_action, resource_not_allowed, role_not_permitted, arguments_not_empty, arguments_shape, text_empty, text_too_long, approval_missing, approval_consumed, approval_not_approved, approval_expired, approval_binding_mismatch)`}}},
		{"a reason in an audit event is held to the vocabulary too",
			ok, []scenario.Field{field("audit", `[{"reason":"approval_expird"}]`)},
			[]scenario.Problem{{Pointer: "/expected/audit/0/reason", Message: `reason "approval_expird" is not one of the gateway's 18 reasons; did you mean "approval_expired"?`}}},
		{"an unknown audit key gets a suggestion, at the key",
			ok, []scenario.Field{field("audit", `[{"effectCount":1,"efectCount":1,"digest/x":null}]`)},
			[]scenario.Problem{
				{Pointer: "/expected/audit/0/digest~1x", Key: true, Message: `audit key "digest/x" is not recorded by the gateway (known: sequence, principal, action, resource, approvalId, approvalStateBefore, approvalStateAfter, decision, reason, argumentDigest, effectCount)`},
				{Pointer: "/expected/audit/0/efectCount", Key: true, Message: `audit key "efectCount" is not recorded by the gateway; did you mean "effectCount"?`},
			}},
		{"audit counts are whole numbers as every count is: 1.0 and 1e0 are not",
			ok, []scenario.Field{field("audit", `[{"sequence":1.0,"effectCount":1e0},{"sequence":2,"effectCount":0}]`)},
			[]scenario.Problem{
				{Pointer: "/expected/audit/0/sequence", Message: "a whole number is expected (digits only, at most 15), found 1.0"},
				{Pointer: "/expected/audit/0/effectCount", Message: "a whole number is expected (digits only, at most 15), found 1e0"},
			}},
		{"decisions and reasons of another length than the steps are warned about",
			ok, []scenario.Field{field("decisions", `["allow","deny"]`), field("reasons", `[]`)},
			[]scenario.Problem{
				{Pointer: "/expected/decisions", Warning: true, Name: "list-vs-steps", Message: "2 decisions expected for 1 steps"},
				{Pointer: "/expected/reasons", Warning: true, Name: "list-vs-steps", Message: "0 reasons expected for 1 steps"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			assert.Equal(t, tt.want, compile(t, tt.given, tt.expected...).Problems())
		})
	}
}

func TestBundledDeskLintsClean(t *testing.T) {
	for _, c := range checktest.Desk(t, "../../../cases/gateway-desk.json") {
		assert.Empty(t, compile(t, string(c.Given), c.Expected...).Problems(), c.ID)
	}
}

// TestInvalidCasesStopBeforeAnyRun loads small desks through the verifier:
// lint errors and schema errors come with file:line:col and a pointer, and
// an error leaves nothing to run.
func TestInvalidCasesStopBeforeAnyRun(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	desk := func(given, expected string) []byte {
		return []byte(fmt.Sprintf(`{
  "schemaVersion": 1, "id": "d", "title": "t", "label": "DO NOT EXECUTE",
  "cases": [
    {
      "id": "c", "title": "t", "scenario": "gateway",
      "given": %s,
      "expected": %s
    }
  ]
}`, given, expected))
	}
	const required = `{"decisions":["deny"],"reasons":["envelope_not_object"],"draftEffects":0,"publicationEffects":0`
	tests := []struct {
		reason   string
		given    string
		expected string
		severity verifier.Severity
		pointer  string
		summary  string
	}{
		{"a bad now is an error at its value",
			`{"principal":"p","now":"tomorrow","steps":[{"request":1}]}`, required + `}`,
			verifier.Error, "/cases/0/given/now", `now: timestamp "tomorrow"`},
		{"an unknown audit key is an error at the key, with a suggestion",
			`{"principal":"p","steps":[{"request":1}]}`, required + `,"audit":[{"sequense":1}]}`,
			verifier.Error, "/cases/0/expected/audit/0/sequense", `did you mean "sequence"?`},
		{"a bad digest is a schema error",
			`{"principal":"p","approvals":[{"id":"a","principal":"p","action":"x","resource":"y","argumentsDigest":"sha256:ABC","state":"approved","expiresAt":"2026-06-01T13:00:00Z"}],"steps":[{"request":1}]}`, required + `}`,
			verifier.Error, "/cases/0/given/approvals/0/argumentsDigest", "pattern"},
		{"an unknown step key is a schema error",
			`{"principal":"p","steps":[{"request":1,"approvalID":"a"}]}`, required + `}`,
			verifier.Error, "/cases/0/given/steps/0/approvalID", `unknown key "approvalID"`},
		{"an unknown given key is a schema error with a suggestion",
			`{"principal":"p","step":[{"request":1}]}`, required + `}`,
			verifier.Error, "/cases/0/given/step", `did you mean "steps"?`},
		{"a reason the vocabulary lacks",
			`{"principal":"p","steps":[{"request":1}]}`, `{"decisions":["deny"],"reasons":["envelope_not_an_object"],"draftEffects":0,"publicationEffects":0}`,
			verifier.Error, "/cases/0/expected/reasons/0", `did you mean "envelope_not_object"?`},
		{"steps over the limit are refused when the case is loaded",
			`{"principal":"p","steps":[` + strings.Repeat(`{"request":1},`, 1000) + `{"request":1}]}`, required + `}`,
			verifier.Error, "/cases/0/given/steps", "over the limit of 1000"},
		{"approvals over the limit are refused when the case is loaded",
			`{"principal":"p","approvals":[` + strings.Repeat(q2Approval+`,`, 1000) + q2Approval + `],"steps":[{"request":1}]}`, required + `}`,
			verifier.Error, "/cases/0/given/approvals", "over the limit of 1000"},
		{"a length slip is only a warning",
			`{"principal":"p","steps":[{"request":1},{"request":2}]}`, required + `}`,
			verifier.Warning, "/cases/0/expected/decisions", "1 decisions expected for 2 steps"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			d, ds := verifier.Load(reg, "d.json", desk(tt.given, tt.expected), verifier.Limits{})
			if d != nil {
				ds = append(ds, verifier.Lint([]*verifier.Desk{d}, verifier.Limits{})...)
			}
			var hit *verifier.Diagnostic
			for i := range ds {
				if ds[i].Pointer == tt.pointer {
					hit = &ds[i]
				}
			}
			require.NotNil(t, hit, "a diagnostic at %s in %v", tt.pointer, ds)
			assert.Equal(t, tt.severity, hit.Severity)
			assert.Contains(t, hit.Summary, tt.summary)
			assert.Greater(t, hit.Line, 0, "located in the file")
			assert.Equal(t, tt.severity == verifier.Error, ds.HasErrors(), "only an error stops the run")
		})
	}
}

// TestEachGivenDecodedOnce: loading the bundled desk decodes each case's
// given block once, and linting it and running it under the correct model
// and under every fault decode nothing more.
func TestEachGivenDecodedOnce(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	data, err := os.ReadFile("../../../cases/gateway-desk.json")
	require.NoError(t, err)
	before := scenario.Calls.Decodes.Load()
	d, ds := verifier.Load(reg, "gateway-desk.json", data, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	require.False(t, verifier.Lint([]*verifier.Desk{d}, verifier.Limits{}).HasErrors())
	cases, _ := verifier.Select([]*verifier.Desk{d}, nil)
	require.Len(t, cases, 23)
	for _, c := range cases {
		rs, err := verifier.Run(context.Background(), []*verifier.Case{c}, verifier.RunOptions{})
		require.NoError(t, err)
		assert.Equal(t, verifier.Pass, rs[0].Status, c.FullID())
		for _, f := range Family.Faults {
			_, err := verifier.Run(context.Background(), []*verifier.Case{c}, verifier.RunOptions{Fault: &scenario.QualifiedFault{Host: Family.Host.Name, Fault: f}})
			require.NoError(t, err)
		}
	}
	assert.Equal(t, int64(len(cases)), scenario.Calls.Decodes.Load()-before, "one decode per case")
}
