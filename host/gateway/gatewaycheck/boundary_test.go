package gatewaycheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
)

func TestBoundary(t *testing.T) {
	draft := `{"action":"create_draft","resource":"ops/weekly-report","arguments":{"text":"a"}}`
	emptyDraft := `{"action":"create_draft","resource":"ops/weekly-report","arguments":{"text":""}}`
	effects := func(drafts, pubs string) []scenario.Field {
		return []scenario.Field{field("draftEffects", drafts), field("publicationEffects", pubs)}
	}
	tests := []struct {
		reason   string
		given    string
		expected []scenario.Field
		faults   gateway.Fault
		want     scenario.Boundary
	}{
		{"an allowed read is work: its result came back, and it reached the service",
			`{"principal":"synthetic-analyst","steps":[{"request":` + readOrders + `}]}`,
			append(effects("0", "0"), field("decisions", `["allow"]`)), 0,
			scenario.Boundary{Actions: 1, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 1, ServiceExpected: 1, Complete: true}},
		{"an allowed draft is work: one draft from its step",
			`{"principal":"synthetic-analyst","steps":[{"request":` + draft + `}]}`,
			append(effects("1", "0"), field("decisions", `["allow"]`)), 0,
			scenario.Boundary{Actions: 1, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 1, ServiceExpected: 1, Complete: true}},
		{"a denied step propagates its reason and never reaches the service",
			`{"principal":"synthetic-analyst","steps":[{"request":` + emptyDraft + `}]}`,
			append(effects("0", "0"), field("decisions", `["deny"]`)), 0,
			scenario.Boundary{Actions: 1, Denied: 1, DeniedVisible: 1, FailClosed: true, Complete: true}},
		{"a permitted step the host denies does no work (blanket refusal)",
			`{"principal":"synthetic-analyst","steps":[{"request":` + readOrders + `},{"request":` + emptyDraft + `}]}`,
			append(effects("0", "0"), field("decisions", `["allow","deny"]`)), gateway.FaultDenyAll,
			scenario.Boundary{Actions: 2, Permitted: 1, Denied: 1, DeniedVisible: 1, FailClosed: true, ServiceExpected: 1, Complete: true}},
		{"a denied step the host allows is not a visible denial, and its effect is not fail-closed",
			`{"principal":"synthetic-analyst","steps":[{"request":` + draft + `}]}`,
			append(effects("0", "0"), field("decisions", `["deny"]`)), 0,
			scenario.Boundary{Actions: 1, Denied: 1, FailClosed: false, ServiceRequests: 1, Complete: true, ExtraEffects: 1}},
		{"an effect appended on deny breaks fail-closed and is extra, though the denial still reached the caller",
			`{"principal":"synthetic-analyst","steps":[{"request":` + emptyDraft + `}]}`,
			append(effects("0", "0"), field("decisions", `["deny"]`)), gateway.FaultEffectOnDeny,
			scenario.Boundary{Actions: 1, Denied: 1, DeniedVisible: 1, FailClosed: false, ServiceRequests: 1, Complete: true, ExtraEffects: 1}},
		{"an audit written before dispatch misses the effect: the trace does not reconcile",
			`{"principal":"synthetic-analyst","steps":[{"request":` + draft + `}]}`,
			append(effects("1", "0"), field("decisions", `["allow"]`)), gateway.FaultAuditBeforeDispatch,
			scenario.Boundary{Actions: 1, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 1, ServiceExpected: 1, Complete: false}},
		{"a replayed approval publishes twice: the second effect is extra and not fail-closed",
			`{"principal":"synthetic-operator","approvals":[` + q2Approval + `],"steps":[{"request":` + q2Publish + `,"approvalId":"ap-q2"},{"request":` + q2Publish + `,"approvalId":"ap-q2"}]}`,
			append(effects("0", "1"), field("decisions", `["allow","deny"]`)), gateway.FaultApprovalNotConsumed,
			scenario.Boundary{Actions: 2, Permitted: 1, Denied: 1, Worked: 1, FailClosed: false, ServiceRequests: 2, ServiceExpected: 1, Complete: true, ExtraEffects: 1}},
		{"a step beyond the scripted decisions is an action, but neither permitted nor denied",
			`{"principal":"synthetic-analyst","steps":[{"request":` + readOrders + `},{"request":1}]}`,
			append(effects("0", "0"), field("decisions", `["allow"]`)), 0,
			scenario.Boundary{Actions: 2, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 1, ServiceExpected: 1, Complete: true}},
		{"without a script every step is unscripted, and observations still count",
			`{"principal":"synthetic-analyst","steps":[{"request":` + draft + `}]}`,
			nil, 0,
			scenario.Boundary{Actions: 1, FailClosed: false, ServiceRequests: 1, Complete: true, ExtraEffects: 1}},
		{"a permitted read of an empty record list still returned its result",
			`{"principal":"synthetic-analyst","records":{"ops/orders":[]},"steps":[{"request":` + readOrders + `}]}`,
			append(effects("0", "0"), field("decisions", `["allow"]`)), 0,
			scenario.Boundary{Actions: 1, Permitted: 1, Worked: 1, FailClosed: true, ServiceRequests: 1, ServiceExpected: 1, Complete: true}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			obs, _ := run(t, tt.given, uint64(tt.faults), tt.expected...)
			require.NotNil(t, obs.Boundary)
			assert.Equal(t, tt.want, *obs.Boundary)
			p, d := compile(t, tt.given, tt.expected...).Script()
			assert.Equal(t, [2]int{tt.want.Permitted, tt.want.Denied}, [2]int{p, d}, "Script agrees with the boundary")
		})
	}
}

// dimensions sums the boundary counts of a desk's cases.
type dimensions struct {
	denied, deniedVisible, permitted, worked int
	controls, failClosed, complete           int
	service, serviceExpected, extra          int
}

func sumDesk(t *testing.T, cases []checktest.Case, faults gateway.Fault) dimensions {
	var d dimensions
	for _, c := range cases {
		obs, _ := run(t, string(c.Given), uint64(faults), c.Expected...)
		b := obs.Boundary
		require.NotNil(t, b, c.ID)
		if b.Actions == 0 {
			continue
		}
		d.controls++
		d.denied += b.Denied
		d.deniedVisible += b.DeniedVisible
		d.permitted += b.Permitted
		d.worked += b.Worked
		d.service += b.ServiceRequests
		d.serviceExpected += b.ServiceExpected
		d.extra += b.ExtraEffects
		if b.FailClosed {
			d.failClosed++
		}
		if b.Complete {
			d.complete++
		}
	}
	return d
}

// TestBundledDeskDimensions holds the bundled desk to the figures of the
// specification, computed from its text independently of this code.
func TestBundledDeskDimensions(t *testing.T) {
	cases := checktest.Desk(t, "../../../cases/gateway-desk.json")
	require.Len(t, cases, 23)
	tests := []struct {
		reason string
		faults gateway.Fault
		want   dimensions
	}{
		{"the reference model: every dimension full, nothing extra", 0,
			dimensions{denied: 41, deniedVisible: 41, permitted: 17, worked: 17, controls: 23, failClosed: 23, complete: 23, service: 17, serviceExpected: 17}},
		{"blanket refusal: no allowed work and no service request, while every denial still propagates", gateway.FaultDenyAll,
			dimensions{denied: 41, deniedVisible: 41, permitted: 17, worked: 0, controls: 23, failClosed: 23, complete: 23, service: 0, serviceExpected: 17}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			assert.Equal(t, tt.want, sumDesk(t, cases, tt.faults))
		})
	}
}

// TestBundledDeskControls: the control kinds derived from the script.
func TestBundledDeskControls(t *testing.T) {
	kinds := map[string]int{}
	for _, c := range checktest.Desk(t, "../../../cases/gateway-desk.json") {
		p, d := compile(t, string(c.Given), c.Expected...).Script()
		switch {
		case p > 0 && d > 0:
			kinds["mixed"]++
		case p > 0:
			kinds["allowed"]++
		case d > 0:
			kinds["denied"]++
		default:
			kinds["none"]++
		}
	}
	assert.Equal(t, map[string]int{"allowed": 7, "denied": 11, "mixed": 5}, kinds)
}
