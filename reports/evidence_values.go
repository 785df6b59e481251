package reports

import "github.com/deskcheck/deskcheck/internal/jsontext"

// anyValueSpans are the spans, in data (one case), of the values the
// report's schema takes whatever they are — a mismatch's and a change's
// expected and observed values, a suggestion's value — that are
// traceSplit bytes or more: leanCase hands the schema null in their
// place, which it takes as it would take them, rather than a list of a
// million elements that the validator would decode.
func anyValueSpans(data []byte) [][2]int {
	var spans [][2]int
	// values walks a list of objects (mismatches, changes, suggestions)
	// and keeps the spans of the members named in keys, and walks the
	// lists of objects named in lists in turn.
	var values func(i int, keys []string, lists map[string][]string) int
	values = func(i int, keys []string, lists map[string][]string) int {
		return jsontext.EachElement(data, i, func(start int) int {
			if data[start] != '{' {
				return valueEnd(data, start)
			}
			return jsontext.EachMember(data, start, func(keyTok []byte, plain bool, at int) int {
				end := valueEnd(data, at)
				if !plain || len(keyTok) < 2 {
					return end
				}
				key := string(keyTok[1 : len(keyTok)-1])
				for _, k := range keys {
					if k == key && end-at >= traceSplit {
						spans = append(spans, [2]int{at, end})
					}
				}
				if inner, ok := lists[key]; ok && at < len(data) && data[at] == '[' {
					return values(at, inner, nil)
				}
				return end
			})
		})
	}
	if start, _, ok := memberSpan(data, "mismatches"); ok && data[start] == '[' {
		values(start, []string{"expected", "observed"}, map[string][]string{"changes": {"expected", "observed"}})
	}
	if start, _, ok := memberSpan(data, "suggested"); ok && data[start] == '[' {
		values(start, []string{"value"}, nil)
	}
	return spans
}
