package gatewaycheck

import (
	"github.com/tidwall/gjson"

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
func copyBytes(givenJSON []byte) int {
	given := gjson.ParseBytes(givenJSON)
	records := map[string]int{}
	for res, raw := range gateway.DefaultRecords() {
		records[res] = len(raw)
	}
	given.Get("records").ForEach(func(k, v gjson.Result) bool {
		if _, known := records[k.Str]; known {
			records[k.Str] = len(v.Raw)
		}
		return true
	})
	approvals := map[string]int{}
	given.Get("approvals").ForEach(func(_, a gjson.Result) bool {
		if id := a.Get("id"); id.Type == gjson.String {
			approvals[id.Str] = max(approvals[id.Str], len(a.Raw))
		}
		return true
	})
	principal := len(given.Get("principal").Raw)
	total := 0
	given.Get("steps").ForEach(func(_, st gjson.Result) bool {
		n := principal
		if p := st.Get("principal"); p.Exists() {
			n = len(p.Raw)
		}
		if id := st.Get("approvalId"); id.Type == gjson.String {
			n += approvals[id.Str]
		}
		if req := st.Get("request"); req.IsObject() {
			a, r := req.Get("action"), req.Get("resource")
			if a.Type == gjson.String && a.Str == gateway.ActionRead && r.Type == gjson.String {
				n += records[r.Str]
			}
		}
		total = min(total+n, maxCopies)
		return true
	})
	return total
}
