package reports

import (
	"sort"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// traceSplit is the size from which a member of a case is checked on its
// own rather than by the schema validator, which decodes what it
// validates into Go values many times the size of its text: a case of
// 500,000 events took half a gigabyte to validate, a gateway case
// observing a million empty objects more.
const traceSplit = 64 << 10

// leanCase returns the case at data with its large members that the
// schema need not see replaced by empty ones of the same type: a trace
// plainTrace holds valid by [], a given, expected or observed object
// (the schema asks only that each be an object) by {}, and a value the
// schema takes whatever it is (anyValueSpans) by null. Each is replaced
// only from traceSplit bytes on; a case with none is data itself, for the
// schema to validate whole.
func leanCase(data []byte) []byte {
	type cut struct {
		start, end int
		empty      string
	}
	var cuts []cut
	for _, key := range []string{"given", "expected", "observed", "trace"} {
		start, end, ok := memberSpan(data, key)
		if !ok || end-start < traceSplit {
			continue
		}
		if key == "trace" && !plainTrace(data[start:end]) || key != "trace" && data[start] != '{' {
			continue
		}
		empty := "{}"
		if data[start] == '[' {
			empty = "[]"
		}
		cuts = append(cuts, cut{start, end, empty})
	}
	for _, s := range anyValueSpans(data) {
		cuts = append(cuts, cut{s[0], s[1], "null"})
	}
	if len(cuts) == 0 {
		return data
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].start < cuts[j].start })
	lean := make([]byte, 0, 1024)
	at := 0
	for _, c := range cuts {
		lean = append(append(lean, data[at:c.start]...), c.empty...)
		at = c.end
	}
	return append(lean, data[at:]...)
}

// plainTrace tells whether the well-formed JSON array b certainly matches
// the schema of a case's trace: objects of exactly the members "seq" (a
// whole number, written in digits only), "kind" and "text" (strings),
// each key written without escapes. Anything else — a valid trace
// written otherwise included — is false, and the schema decides.
func plainTrace(b []byte) bool {
	i := jsontext.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = jsontext.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return jsontext.SkipSpace(b, i+1) == len(b)
	}
	for {
		var ok bool
		if i, ok = plainEvent(b, i); !ok {
			return false
		}
		i = jsontext.SkipSpace(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = jsontext.SkipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return jsontext.SkipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// plainEvent reads one event object of a plain trace at b[i:] and returns
// where it ends.
func plainEvent(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '{' {
		return i, false
	}
	var seen [3]bool
	i = jsontext.SkipSpace(b, i+1)
	for n := 0; n < 3; n++ {
		if n > 0 {
			if i >= len(b) || b[i] != ',' {
				return i, false
			}
			i = jsontext.SkipSpace(b, i+1)
		}
		k := -1
		for j, key := range []string{`"seq"`, `"kind"`, `"text"`} {
			if len(b)-i >= len(key) && string(b[i:i+len(key)]) == key {
				k, i = j, i+len(key)
				break
			}
		}
		if k < 0 || seen[k] {
			return i, false
		}
		seen[k] = true
		i = jsontext.SkipSpace(b, i)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i = jsontext.SkipSpace(b, i+1)
		if k == 0 {
			start := i
			for i < len(b) && jsontext.IsDigit(b[i]) {
				i++
			}
			if i == start || i-start > 1 && b[start] == '0' {
				return i, false
			}
		} else {
			if i >= len(b) || b[i] != '"' {
				return i, false
			}
			if i = jsontext.SkipString(b, i); i < 0 {
				return 0, false
			}
		}
		i = jsontext.SkipSpace(b, i)
	}
	if i >= len(b) || b[i] != '}' {
		return i, false
	}
	return i + 1, true
}
