package gatewaycheck

import (
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/gateway"
)

// LimitReadBytes names the measured limit on the records a case's reads
// copy: every allowed read returns a copy of its resource's records, which
// the observation, the trace and the reports hold once per read.
const LimitReadBytes = "readBytes"

// readBytes counts, from the given block alone, the bytes of records the
// case's reads would return: for each step whose request is an object with
// action "read" and a resource that has records, the length of those
// records as written in the case (or of the default ones). A read that the
// gateway will deny is counted too: this is an upper bound, read before
// anything runs.
func readBytes(givenJSON []byte) int {
	given := gjson.ParseBytes(givenJSON)
	size := map[string]int{}
	for res, raw := range gateway.DefaultRecords() {
		size[res] = len(raw)
	}
	given.Get("records").ForEach(func(k, v gjson.Result) bool {
		if _, known := size[k.Str]; known {
			size[k.Str] = len(v.Raw)
		}
		return true
	})
	total := 0
	given.Get("steps").ForEach(func(_, st gjson.Result) bool {
		req := st.Get("request")
		if !req.IsObject() {
			return true
		}
		if a := req.Get("action"); a.Type != gjson.String || a.Str != gateway.ActionRead {
			return true
		}
		if r := req.Get("resource"); r.Type == gjson.String {
			total = min(total+size[r.Str], maxCopies)
		}
		return true
	})
	return total
}

// maxCopies caps a measured count, so that sums of many stay far inside an
// int; any count this large is over every limit.
const maxCopies = 1 << 40
