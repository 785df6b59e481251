package ompcheck

import "github.com/tidwall/gjson"

// limitArgBytes names the measured limit on what a wrapper case's calls
// copy: every call records its arguments (and the revised input) in the
// trace and the observation, which the reports hold.
const limitArgBytes = "argBytes"

// maxCopies caps a measured count, so that sums of many stay far inside an
// int; any count this large is over every limit.
const maxCopies = 1 << 40

// argBytes counts, from the given block alone, the bytes of args and
// revise as written, times the calls the case makes (repeat, default 1).
func argBytes(givenJSON []byte) int {
	given := gjson.ParseBytes(givenJSON)
	per := len(given.Get("args").Raw) + len(given.Get("revise").Raw)
	calls := int64(1)
	if r := given.Get("repeat"); r.Type == gjson.Number && r.Num > 1 {
		calls = int64(min(r.Num, maxCopies))
	}
	if per == 0 {
		return 0
	}
	if calls > maxCopies/int64(per) {
		return maxCopies
	}
	return per * int(calls)
}
