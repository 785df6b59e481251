package gateway

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDecisionTable(t *testing.T) {
	raw := func(s string) Step { return Step{Request: json.RawMessage(s)} }
	withApproval := func(mod func(*Approval)) func(*testing.T) Config {
		return func(t *testing.T) Config {
			a := q2(t)
			if mod != nil {
				mod(&a)
			}
			return operator(a)
		}
	}
	as := func(principal string) func(*testing.T) Config {
		return func(t *testing.T) Config { return Config{Principal: principal, Approvals: []Approval{q2(t)}} }
	}
	expired := func(a *Approval) { a.ExpiresAt = DefaultNow() }
	tests := []struct {
		name   string
		config func(*testing.T) Config
		step   Step
		// check is the row that decides ("" for allow).
		check  string
		reason string
	}{
		// 0
		{"an unavailable policy denies a valid read", as(PrincipalAnalyst),
			Step{Request: request(ActionRead, ResourceOrders, `{}`), PolicyUnavailable: true}, "0", ReasonPolicyUnavailable},
		{"check 0 comes before the envelope checks", as(PrincipalAnalyst),
			Step{Request: json.RawMessage(`"not an envelope"`), PolicyUnavailable: true}, "0", ReasonPolicyUnavailable},
		// 1a
		{"a string request is not an object", as(PrincipalOperator), raw(`"publish_summary mock/review-board"`), "1a", ReasonEnvelopeNotObject},
		{"an array request is not an object", as(PrincipalOperator), raw(`[{"action":"read","resource":"ops/orders","arguments":{}}]`), "1a", ReasonEnvelopeNotObject},
		{"a number request is not an object", as(PrincipalOperator), raw(`7`), "1a", ReasonEnvelopeNotObject},
		{"a null request is not an object", as(PrincipalOperator), raw(`null`), "1a", ReasonEnvelopeNotObject},
		{"a boolean request is not an object", as(PrincipalOperator), raw(`true`), "1a", ReasonEnvelopeNotObject},
		// 1b
		{"an extra key is refused", as(PrincipalOperator),
			raw(`{"action":"read","resource":"ops/orders","arguments":{},"limit":1}`), "1b", ReasonEnvelopeExtraKey},
		{"extra is reported before missing", as(PrincipalOperator),
			raw(`{"action":"read","resource":"ops/orders","args":{}}`), "1b", ReasonEnvelopeExtraKey},
		{"extra is reported before a wrong type", as(PrincipalOperator),
			raw(`{"action":7,"resource":"ops/orders","arguments":{},"x":1}`), "1b", ReasonEnvelopeExtraKey},
		{"keys are case-sensitive", as(PrincipalOperator),
			raw(`{"Action":"read","resource":"ops/orders","arguments":{}}`), "1b", ReasonEnvelopeExtraKey},
		// 1c
		{"arguments missing", as(PrincipalOperator), raw(`{"action":"read","resource":"ops/orders"}`), "1c", ReasonEnvelopeMissingKey},
		{"the empty object misses every key", as(PrincipalOperator), raw(`{}`), "1c", ReasonEnvelopeMissingKey},
		{"missing is reported before a wrong type", as(PrincipalOperator), raw(`{"action":7,"resource":"ops/orders"}`), "1c", ReasonEnvelopeMissingKey},
		// 1d
		{"a number action", as(PrincipalOperator), raw(`{"action":7,"resource":"ops/orders","arguments":{}}`), "1d", ReasonEnvelopeType},
		{"a null resource", as(PrincipalOperator), raw(`{"action":"read","resource":null,"arguments":{}}`), "1d", ReasonEnvelopeType},
		{"array arguments", as(PrincipalOperator), raw(`{"action":"read","resource":"ops/orders","arguments":[]}`), "1d", ReasonEnvelopeType},
		{"null arguments", as(PrincipalOperator), raw(`{"action":"read","resource":"ops/orders","arguments":null}`), "1d", ReasonEnvelopeType},
		{"string arguments", as(PrincipalOperator), raw(`{"action":"read","resource":"ops/orders","arguments":"{}"}`), "1d", ReasonEnvelopeType},
		{"a wrong type is reported before an unknown action", as(PrincipalOperator),
			raw(`{"action":"fetch_url","resource":7,"arguments":{}}`), "1d", ReasonEnvelopeType},
		// 2
		{"a network-shaped action is unknown", as(PrincipalOperator),
			Step{Request: request("fetch_url", "https://example.invalid/upload", `{"body":"orders"}`)}, "2", ReasonUnknownAction},
		{"actions are case-sensitive", as(PrincipalOperator), Step{Request: request("Read", ResourceOrders, `{}`)}, "2", ReasonUnknownAction},
		{"actions are not trimmed", as(PrincipalOperator), Step{Request: request("read ", ResourceOrders, `{}`)}, "2", ReasonUnknownAction},
		{"an approve action does not exist", as(PrincipalOperator),
			Step{Request: request("approve", ResourceReviewBoard, `{"approvalId":"ap-q2","state":"approved"}`)}, "2", ReasonUnknownAction},
		{"an unknown action is reported before a bad resource", as(PrincipalOperator),
			Step{Request: request("delete", "ops/payroll", `{}`)}, "2", ReasonUnknownAction},
		// 3
		{"an unlisted resource", as(PrincipalOperator), readStep("ops/payroll"), "3", ReasonResourceNotAllowed},
		{"a trailing slash is another resource", as(PrincipalOperator), readStep("ops/orders/"), "3", ReasonResourceNotAllowed},
		{"resources are case-sensitive", as(PrincipalOperator), readStep("OPS/orders"), "3", ReasonResourceNotAllowed},
		{"a longer resource is not a prefix match", as(PrincipalOperator), readStep("ops/orders-archive"), "3", ReasonResourceNotAllowed},
		{"the allowlist is per action", as(PrincipalOperator), readStep(ResourceWeeklyReport), "3", ReasonResourceNotAllowed},
		{"a bad resource is reported before the role", as(PrincipalAnalyst),
			Step{Request: request(ActionPublishSummary, "ops/orders", textArgs(q2Text))}, "3", ReasonResourceNotAllowed},
		// 4
		{"the analyst may not publish", as(PrincipalAnalyst), publishStep(q2Text, ptr("ap-q2")), "4", ReasonRoleNotPermitted},
		{"an unknown principal has no role", as("synthetic-auditor"), readStep(ResourceOrders), "4", ReasonRoleNotPermitted},
		{"principals are case-sensitive", as("Synthetic-Operator"), readStep(ResourceOrders), "4", ReasonRoleNotPermitted},
		{"the role is checked before the arguments", as(PrincipalAnalyst),
			Step{Request: request(ActionPublishSummary, ResourceReviewBoard, `{"text":""}`)}, "4", ReasonRoleNotPermitted},
		// 5r
		{"read arguments must be empty", as(PrincipalOperator),
			Step{Request: request(ActionRead, ResourceOrders, `{"limit":10}`)}, "5r", ReasonArgumentsNotEmpty},
		// 5a
		{"draft arguments without text", as(PrincipalOperator),
			Step{Request: request(ActionCreateDraft, ResourceWeeklyReport, `{}`)}, "5a", ReasonArgumentsShape},
		{"an extra argument beside text", as(PrincipalOperator),
			Step{Request: request(ActionCreateDraft, ResourceWeeklyReport, `{"text":"x","role":"operator"}`)}, "5a", ReasonArgumentsShape},
		{"a number text", as(PrincipalOperator),
			Step{Request: request(ActionCreateDraft, ResourceWeeklyReport, `{"text":7}`)}, "5a", ReasonArgumentsShape},
		{"a null text", as(PrincipalOperator),
			Step{Request: request(ActionCreateDraft, ResourceWeeklyReport, `{"text":null}`)}, "5a", ReasonArgumentsShape},
		{"argument keys are case-sensitive", as(PrincipalOperator),
			Step{Request: request(ActionCreateDraft, ResourceWeeklyReport, `{"Text":"x"}`)}, "5a", ReasonArgumentsShape},
		{"shape is reported before an empty text", as(PrincipalOperator),
			Step{Request: request(ActionCreateDraft, ResourceWeeklyReport, `{"text":"","x":1}`)}, "5a", ReasonArgumentsShape},
		{"approval metadata in publication arguments", as(PrincipalOperator),
			Step{Request: request(ActionPublishSummary, ResourceReviewBoard, `{"text":"x","approval":{"id":"ap-q2","state":"approved"}}`), ApprovalID: ptr("ap-q2")}, "5a", ReasonArgumentsShape},
		// 5b
		{"an empty text", as(PrincipalOperator), draftStep(""), "5b", ReasonTextEmpty},
		{"an empty text is reported before the approval", as(PrincipalOperator), publishStep("", nil), "5b", ReasonTextEmpty},
		// 5c
		{"2001 code points", as(PrincipalOperator), draftStep(repeat("x", 2001)), "5c", ReasonTextTooLong},
		{"too long is reported before the approval", as(PrincipalOperator), publishStep(repeat("x", 2001), nil), "5c", ReasonTextTooLong},
		// 6a
		{"no approval id", as(PrincipalOperator), publishStep(q2Text, nil), "6a", ReasonApprovalMissing},
		{"an unknown approval id", as(PrincipalOperator), publishStep(q2Text, ptr("ap-unknown")), "6a", ReasonApprovalMissing},
		{"approval ids are case-sensitive", as(PrincipalOperator), publishStep(q2Text, ptr("AP-Q2")), "6a", ReasonApprovalMissing},
		{"lookup is by id, never by binding", as(PrincipalOperator), publishStep("another text", ptr("ap-other")), "6a", ReasonApprovalMissing},
		// 6b
		{"a consumed approval", withApproval(func(a *Approval) { a.Consumed = true }), publishStep(q2Text, ptr("ap-q2")), "6b", ReasonApprovalConsumed},
		{"consumed is reported before state and expiry", withApproval(func(a *Approval) { a.Consumed, a.State = true, StateRejected; expired(a) }),
			publishStep(q2Text, ptr("ap-q2")), "6b", ReasonApprovalConsumed},
		// 6c
		{"a pending approval", withApproval(func(a *Approval) { a.State = StatePending }), publishStep(q2Text, ptr("ap-q2")), "6c", ReasonApprovalNotApproved},
		{"a rejected approval", withApproval(func(a *Approval) { a.State = StateRejected }), publishStep(q2Text, ptr("ap-q2")), "6c", ReasonApprovalNotApproved},
		{"state is reported before expiry", withApproval(func(a *Approval) { a.State = StatePending; expired(a) }),
			publishStep(q2Text, ptr("ap-q2")), "6c", ReasonApprovalNotApproved},
		// 6d
		{"expiry at exactly now", withApproval(expired), publishStep(q2Text, ptr("ap-q2")), "6d", ReasonApprovalExpired},
		{"expiry is reported before the binding", withApproval(expired), publishStep(q2Text+"!", ptr("ap-q2")), "6d", ReasonApprovalExpired},
		// 6e
		{"the approval binds another principal", withApproval(func(a *Approval) { a.Principal = "synthetic-operator-2" }),
			publishStep(q2Text, ptr("ap-q2")), "6e", ReasonApprovalBindingMismatch},
		{"the approval binds another action", withApproval(func(a *Approval) { a.Action = ActionCreateDraft }),
			publishStep(q2Text, ptr("ap-q2")), "6e", ReasonApprovalBindingMismatch},
		{"the approval binds another resource", withApproval(func(a *Approval) { a.Resource = "mock/other-board" }),
			publishStep(q2Text, ptr("ap-q2")), "6e", ReasonApprovalBindingMismatch},
		{"the text is one character off", as(PrincipalOperator), publishStep(strings.TrimSuffix(q2Text, ".")+"!", ptr("ap-q2")), "6e", ReasonApprovalBindingMismatch},
		// allowed
		{"the analyst reads orders", as(PrincipalAnalyst), readStep(ResourceOrders), "", ReasonAllowed},
		{"the operator reads tickets", as(PrincipalOperator), readStep(ResourceTickets), "", ReasonAllowed},
		{"the analyst creates a draft", as(PrincipalAnalyst), draftStep("Weekly draft"), "", ReasonAllowed},
		{"a single space is a nonempty text", as(PrincipalAnalyst), draftStep(" "), "", ReasonAllowed},
		{"the operator publishes with a bound approval", as(PrincipalOperator), publishStep(q2Text, ptr("ap-q2")), "", ReasonAllowed},
		{"key order and whitespace in the envelope do not matter", as(PrincipalOperator),
			raw(` { "arguments" : { } , "resource" : "ops/orders" , "action" : "read" } `), "", ReasonAllowed},
		{"a trusted approval id on a read is ignored", as(PrincipalOperator),
			Step{Request: request(ActionRead, ResourceOrders, `{}`), ApprovalID: ptr("ap-unknown")}, "", ReasonAllowed},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.config(t), tt.step)
			want := DecisionDeny
			if tt.reason == ReasonAllowed {
				want = DecisionAllow
			}
			assert.Equal(t, []string{want}, r.Decisions())
			assert.Equal(t, []string{tt.reason}, r.Reasons())
			assert.Equal(t, tt.reason, r.Audit[0].Reason)
			line := checkLine(r, 1)
			if tt.check == "" {
				assert.True(t, strings.HasPrefix(line, "allow allowed — "), line)
			} else {
				assert.True(t, strings.HasPrefix(line, tt.check+" deny "+tt.reason+" — "), line)
			}
			if want == DecisionDeny {
				assert.JSONEq(t, `null`, string(r.Responses[0].Result))
				assert.Zero(t, r.ServiceRequests, "a denied request never reaches a tool")
				assert.Empty(t, r.Effects)
			}
		})
		seen[tt.reason] = true
	}
	for _, reason := range Reasons() {
		assert.True(t, seen[reason], "reason %s has a row", reason)
	}
}
