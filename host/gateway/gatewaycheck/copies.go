package gatewaycheck

import (
	"github.com/deskcheck/deskcheck/host/gateway"
)

// LimitCopyBytes names the measured limit on what a gateway case's steps
// copy into the observation, the trace and the reports beyond the steps
// themselves: every allowed read returns a copy of its resource's records,
// every step's audit event and narration name its principal, and a step
// that names an approval may quote that approval's fields.
const LimitCopyBytes = "copyBytes"

// maxCopies caps a measured count, so that sums of many stay far inside an
// int; any count this large is over every limit.
const maxCopies = 1 << 40

// copyBytes counts, from the given block alone, an upper bound of those
// copies: for each step, the records a read of a resource with records
// returns (as written in the case, or the default ones), the principal
// that decides it (the step's own or the case's) and the approval its
// approvalId names (as written). A step the gateway will deny is counted
// too: nothing runs to find out.
func copyBytes(g givenBlock) int {
	records := map[string]int{}
	for res, raw := range gateway.DefaultRecords() {
		records[res] = len(raw)
	}
	for res, raw := range g.Records {
		if _, known := records[res]; known {
			records[res] = len(raw)
		}
	}
	approvals := make(map[string]int, len(g.Approvals))
	for _, a := range g.Approvals {
		approvals[a.ID] = max(approvals[a.ID], a.size)
	}
	total := 0
	for _, st := range g.Steps {
		n := g.principalSize
		if st.principalSize > 0 {
			n = st.principalSize
		}
		if st.ApprovalID != nil {
			n += approvals[*st.ApprovalID]
		}
		if action, resource, ok := readTarget(st.Request); ok && action == gateway.ActionRead {
			n += records[resource]
		}
		total = min(total+n, maxCopies)
	}
	return total
}

// readTarget returns the action and resource of a request that is an
// object naming both as strings, as the gateway reads them; ok is false
// otherwise.
func readTarget(raw []byte) (action, resource string, ok bool) {
	ms, isObject := membersOf(raw)
	if !isObject || ms == nil {
		return "", "", false
	}
	a, okA := ms.Get("action")
	r, okR := ms.Get("resource")
	if !okA || !okR || a[0] != '"' || r[0] != '"' {
		return "", "", false
	}
	action, okA = stringOf(a)
	resource, okR = stringOf(r)
	return action, resource, okA && okR
}
