package gateway

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/fault"
)

func TestFaultList(t *testing.T) {
	want := []string{
		"expiry-exclusive", "binding-ignores-arguments", "approval-not-consumed", "consume-on-deny",
		"approval-state-unchecked", "principal-from-request", "approval-id-from-request", "effect-on-deny",
		"audit-before-dispatch", "read-by-reference", "text-length-bytes", "deny-all",
		"digest-not-canonical", "resource-prefix-match",
	}
	require.NoError(t, fault.Check(FaultList, "scenario gateway: "))
	require.Len(t, FaultList, len(want))
	for i, f := range FaultList {
		assert.Equal(t, want[i], f.Name, "declaration order")
	}
}

// TestFaultsAreLive runs a fixture with and without each fault: every fault
// must change what can be observed, in the way its row says.
func TestFaultsAreLive(t *testing.T) {
	type fixture struct {
		cfg   Config
		steps []Step
	}
	approvalWith := func(t *testing.T, mod func(*Approval)) Config {
		a := q2(t)
		mod(&a)
		return operator(a)
	}
	tamperThenRead := func() []Step {
		s := readStep(ResourceOrders)
		s.Tamper = true
		return []Step{s, readStep(ResourceOrders)}
	}
	tests := []struct {
		fault   Fault
		why     string
		fixture func(*testing.T) fixture
		// check asserts the difference between the reference and the
		// faulty run.
		check func(t *testing.T, ref, bad *Result)
	}{
		{FaultExpiryExclusive, "an approval expiring exactly at now authorizes",
			func(t *testing.T) fixture {
				return fixture{approvalWith(t, func(a *Approval) { a.ExpiresAt = DefaultNow() }), []Step{publishStep(q2Text, ptr("ap-q2"))}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonApprovalExpired}, ref.Reasons())
				assert.Equal(t, []string{ReasonAllowed}, bad.Reasons())
			}},
		{FaultBindingIgnoresArguments, "a text one character off publishes",
			func(t *testing.T) fixture {
				return fixture{operator(q2(t)), []Step{publishStep(strings.TrimSuffix(q2Text, ".")+"!", ptr("ap-q2"))}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonApprovalBindingMismatch}, ref.Reasons())
				assert.Equal(t, []string{ReasonAllowed}, bad.Reasons())
			}},
		{FaultApprovalNotConsumed, "the approval can be replayed",
			func(t *testing.T) fixture {
				return fixture{operator(q2(t)), []Step{publishStep(q2Text, ptr("ap-q2")), publishStep(q2Text, ptr("ap-q2"))}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonAllowed, ReasonApprovalConsumed}, ref.Reasons())
				assert.Equal(t, []string{ReasonAllowed, ReasonAllowed}, bad.Reasons())
				assert.Equal(t, map[string]string{"ap-q2": StateApproved}, bad.Approvals)
				assert.Len(t, bad.Publications, 2)
			}},
		{FaultConsumeOnDeny, "a binding mismatch burns the approval",
			func(t *testing.T) fixture {
				return fixture{operator(q2(t)), []Step{publishStep("other text", ptr("ap-q2")), publishStep(q2Text, ptr("ap-q2"))}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonApprovalBindingMismatch, ReasonAllowed}, ref.Reasons())
				assert.Equal(t, []string{ReasonApprovalBindingMismatch, ReasonApprovalConsumed}, bad.Reasons())
				assert.Equal(t, LabelConsumed, *bad.Audit[0].ApprovalStateAfter)
			}},
		{FaultApprovalStateUnchecked, "a pending approval authorizes",
			func(t *testing.T) fixture {
				return fixture{approvalWith(t, func(a *Approval) { a.State = StatePending }), []Step{publishStep(q2Text, ptr("ap-q2"))}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonApprovalNotApproved}, ref.Reasons())
				assert.Equal(t, []string{ReasonAllowed}, bad.Reasons())
			}},
		{FaultPrincipalFromRequest, "a principal in the request is used",
			func(t *testing.T) fixture {
				req := json.RawMessage(`{"action":"publish_summary","resource":"mock/review-board","arguments":{"text":"` + q2Text + `"},"principal":"synthetic-operator"}`)
				return fixture{Config{Principal: PrincipalAnalyst, Approvals: []Approval{q2(t)}}, []Step{{Request: req, ApprovalID: ptr("ap-q2")}}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonEnvelopeExtraKey}, ref.Reasons())
				assert.Equal(t, []string{ReasonAllowed}, bad.Reasons())
				assert.Equal(t, PrincipalAnalyst, ref.Audit[0].Principal)
				assert.Equal(t, PrincipalOperator, bad.Audit[0].Principal)
			}},
		{FaultApprovalIDFromRequest, "an approvalId in the request is used",
			func(t *testing.T) fixture {
				req := json.RawMessage(`{"action":"publish_summary","resource":"mock/review-board","arguments":{"text":"` + q2Text + `"},"approvalId":"ap-q2"}`)
				return fixture{operator(q2(t)), []Step{{Request: req}}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonEnvelopeExtraKey}, ref.Reasons())
				assert.Equal(t, []string{ReasonAllowed}, bad.Reasons())
				assert.Nil(t, ref.Audit[0].ApprovalID)
				assert.Equal(t, "ap-q2", *bad.Audit[0].ApprovalID)
			}},
		{FaultEffectOnDeny, "a denied draft and publication still land",
			func(t *testing.T) fixture {
				return fixture{operator(q2(t)), []Step{draftStep(""), publishStep(q2Text, nil)}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, ref.Reasons(), bad.Reasons(), "decision and reason stay deny")
				assert.Empty(t, ref.Effects)
				assert.Equal(t, []Effect{{Step: 1, Kind: EffectDraft, ID: "draft-1"}, {Step: 2, Kind: EffectPublication, ID: "publication-1"}}, bad.Effects)
				assert.Equal(t, map[string]string{"ap-q2": StateApproved}, bad.Approvals, "the approval is not touched")
				assert.Equal(t, 2, bad.Audit[1].EffectCount)
			}},
		{FaultAuditBeforeDispatch, "the audit misses this step's effect and consumption",
			func(t *testing.T) fixture {
				return fixture{operator(q2(t)), []Step{publishStep(q2Text, ptr("ap-q2"))}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, ref.Reasons(), bad.Reasons())
				assert.Equal(t, 1, ref.Audit[0].EffectCount)
				assert.Equal(t, 0, bad.Audit[0].EffectCount)
				assert.Equal(t, LabelConsumed, *ref.Audit[0].ApprovalStateAfter)
				assert.Equal(t, StateApproved, *bad.Audit[0].ApprovalStateAfter)
			}},
		{FaultReadByReference, "the caller's tampering reaches the store",
			func(t *testing.T) fixture { return fixture{Config{Principal: PrincipalOperator}, tamperThenRead()} },
			func(t *testing.T, ref, bad *Result) {
				assert.JSONEq(t, ordersJSON, string(bad.Responses[0].Result), "the snapshot still precedes the tampering")
				assert.JSONEq(t, ordersJSON, string(ref.Responses[1].Result))
				assert.JSONEq(t, `[{"id":"order-1001","status":"open","note":"tampered-by-caller"},{"id":"order-1002","status":"shipped","note":"tampered-by-caller"}]`, string(bad.Responses[1].Result))
			}},
		{FaultTextLengthBytes, "1001 × é counts as 2002",
			func(t *testing.T) fixture {
				return fixture{Config{Principal: PrincipalAnalyst}, []Step{draftStep(repeat("é", 1001))}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonAllowed}, ref.Reasons())
				assert.Equal(t, []string{ReasonTextTooLong}, bad.Reasons())
			}},
		{FaultDenyAll, "a permitted read is refused",
			func(t *testing.T) fixture {
				return fixture{Config{Principal: PrincipalAnalyst}, []Step{readStep(ResourceOrders), {Request: json.RawMessage(`7`)}}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonAllowed, ReasonEnvelopeNotObject}, ref.Reasons())
				assert.Equal(t, []string{ReasonPolicyUnavailable, ReasonPolicyUnavailable}, bad.Reasons())
				assert.Zero(t, bad.ServiceRequests)
				assert.Len(t, bad.Audit, 2, "refused requests are still audited")
			}},
		{FaultDigestNotCanonical, "non-ASCII text digests differently",
			func(t *testing.T) fixture {
				return fixture{Config{Principal: PrincipalAnalyst}, []Step{draftStep("é")}}
			},
			func(t *testing.T, ref, bad *Result) {
				canonical, err := Digest([]byte(`{"text":"é"}`))
				require.NoError(t, err)
				assert.Equal(t, canonical, *ref.Audit[0].ArgumentDigest)
				assert.NotEqual(t, canonical, *bad.Audit[0].ArgumentDigest)
			}},
		{FaultResourcePrefixMatch, "a longer resource is served as its prefix",
			func(t *testing.T) fixture {
				return fixture{Config{Principal: PrincipalOperator}, []Step{readStep("ops/orders-archive")}}
			},
			func(t *testing.T, ref, bad *Result) {
				assert.Equal(t, []string{ReasonResourceNotAllowed}, ref.Reasons())
				assert.Equal(t, []string{ReasonAllowed}, bad.Reasons())
				assert.JSONEq(t, ordersJSON, string(bad.Responses[0].Result))
				assert.Equal(t, "ops/orders-archive", *bad.Audit[0].Resource)
			}},
	}
	covered := map[Fault]bool{}
	for _, tt := range tests {
		info, ok := fault.Find(FaultList, tt.fault)
		require.True(t, ok, "fault %d is in FaultList", tt.fault)
		t.Run(info.Name+": "+tt.why, func(t *testing.T) {
			fx := tt.fixture(t)
			ref := run(t, fx.cfg, fx.steps...)
			fx = tt.fixture(t)
			fx.cfg.Faults = Faults{}.With(tt.fault)
			bad := run(t, fx.cfg, fx.steps...)
			assert.NotEqual(t, observe(t, ref), observe(t, bad), "the fault is observable")
			tt.check(t, ref, bad)
		})
		covered[tt.fault] = true
	}
	for _, f := range FaultList {
		assert.True(t, covered[f.Fault], "fault %s has a live test", f.Name)
	}
}

func TestFaultNarration(t *testing.T) {
	req := json.RawMessage(`{"action":"read","resource":"ops/orders","arguments":{},"principal":"synthetic-operator"}`)
	r := run(t, Config{Principal: PrincipalAnalyst, Faults: Faults{}.With(FaultPrincipalFromRequest)}, Step{Request: req})
	var faults []string
	for _, e := range r.Events {
		if e.Kind == EventFault {
			faults = append(faults, e.String())
		}
	}
	assert.Equal(t, []string{`[step 1] fault principal-from-request: principal "synthetic-operator" taken from the request`}, faults)
}
