package reports

import "github.com/deskcheck/deskcheck/internal/jsontext"

// traceSplit is the size from which a case's trace is checked on its own
// (plainTrace) rather than by the schema validator, which decodes every
// event into Go values many times the size of its text: a case of
// 500,000 events took half a gigabyte to validate.
const traceSplit = 64 << 10

// leanCase returns the case at data with its trace array replaced by [],
// when the trace is at least traceSplit bytes and plainTrace holds it
// valid; otherwise data itself, for the schema to validate whole.
func leanCase(data []byte) []byte {
	start, end, ok := memberSpan(data, "trace")
	if !ok || end-start < traceSplit || !plainTrace(data[start:end]) {
		return data
	}
	lean := make([]byte, 0, len(data)-(end-start)+2)
	return append(append(append(lean, data[:start]...), "[]"...), data[end:]...)
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
