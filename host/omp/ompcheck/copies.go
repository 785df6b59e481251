package ompcheck

import "github.com/tidwall/gjson"

// limitCopyBytes names the measured limit on what a wrapper case's calls
// copy: every call may echo any value of the given block into the trace,
// the observation and the reports (its arguments and revised input, the
// tool's name, an approval's reason, a safety check's message, the user
// policies), so each call counts the whole block once; a scripted choice
// is taken by one dialog only, so the choices count once in all.
const limitCopyBytes = "copyBytes"

// maxCopies caps a measured count, so that sums of many stay far inside an
// int; any count this large is over every limit.
const maxCopies = 1 << 40

// copyBytes counts, from the given block alone, the bytes of the given
// block but its choices, without white space outside strings, times the
// calls the case makes (repeat, default 1), plus the choices once.
func copyBytes(given gjson.Result) int {
	choices := compactLen(given.Get("choices").Raw)
	per := compactLen(given.Raw) - choices
	calls := int64(1)
	if r := given.Get("repeat"); r.Type == gjson.Number && r.Num > 1 {
		calls = int64(min(r.Num, maxCopies))
	}
	if per <= 0 {
		return choices
	}
	if calls > maxCopies/int64(per) {
		return maxCopies
	}
	return per*int(calls) + choices
}

// compactLen is the length of JSON text without the white space outside
// its strings.
func compactLen(raw string) int {
	n, inString := 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString && c == '\\':
			n += 2
			i++
			continue
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			continue
		}
		n++
	}
	return n
}
