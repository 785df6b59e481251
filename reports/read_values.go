package reports

import (
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// A report holds the hosts' values as they were: an unpaired surrogate as
// its \uXXXX escape, an integer of a Python host with all its digits.
// encoding/json would read the first as U+FFFD and the second as the
// nearest double, so a report read back (report render) would not say what
// the run saw. A case that holds either is read again with the host
// decoders, which keep both; any other case is read as it always was.

// hostText matches what only the host decoders read faithfully: a \u
// escape of a surrogate, or an integer literal of more than 15 digits.
var hostText = regexp.MustCompile(`\\u[dD][89a-fA-F][0-9a-fA-F]{2}|[-:,\[]\s*-?[1-9][0-9]{15,}\s*[,\]}]`)

// UnmarshalJSON reads a case of a report (see hostText).
func (c *Case) UnmarshalJSON(data []byte) error {
	type plain Case
	if err := json.Unmarshal(data, (*plain)(c)); err != nil {
		return err
	}
	if hostText.Match(data) {
		c.readHostValues(data, true)
	}
	return nil
}

// reportValue decodes a value of a report: strings as the hosts hold
// them, a number as the double it was written from when it reads back
// the same, else as its literal.
func reportValue(raw []byte) (any, bool) {
	v, err := jsontext.DecodeUseNumber(raw)
	if err != nil {
		return nil, false
	}
	var conv func(v any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			if f, err := strconv.ParseFloat(string(x), 64); err == nil && string(jsonx.AppendFloat(nil, f)) == string(x) {
				return f
			}
			return x
		case []any:
			for i, e := range x {
				x[i] = conv(e)
			}
		case map[string]any:
			for k, e := range x {
				x[k] = conv(e)
			}
		}
		return v
	}
	return conv(v), true
}

// readHostValues reads the case's strings and values again from data,
// its observed object too unless it was read so already.
func (c *Case) readHostValues(data []byte, observed bool) {
	m, ok := jsontext.ReadMembers(data, nil)
	if !ok {
		return
	}
	str := func(raw []byte, dst *string) {
		if s, ok := jsontext.HostString(raw); ok {
			*dst = s
		}
	}
	// Read back for a lean report (observed false), a long list or object
	// is kept as its text (rawValue); ReadJSON's cases decode all.
	rawDepth := 0
	if observed {
		rawDepth = -1
	}
	val := func(raw []byte, dst *any) {
		if v, ok := hostValue(raw, rawDepth); ok {
			*dst = v
		}
	}
	each := func(raw []byte, f func(i int, m jsontext.Members)) {
		i := 0
		jsontext.WholeArray(raw, func(start int) int {
			end := jsontext.ScanValue(raw, start, 1)
			if end < 0 {
				return -1
			}
			if m, ok := jsontext.ReadMembers(raw[start:end], nil); ok {
				f(i, m)
			}
			i++
			return end
		})
	}
	for _, x := range m {
		switch string(x.Key) {
		case "title":
			str(x.Raw, &c.Title)
		case "why":
			str(x.Raw, &c.Why)
		case "error":
			str(x.Raw, &c.Error)
		case "observed":
			if !observed {
				continue
			}
			if v, ok := hostValue(x.Raw, -1); ok {
				if obs, isMap := v.(map[string]any); isMap {
					c.Observed = obs
				}
			}
		case "mismatches":
			each(x.Raw, func(i int, f jsontext.Members) {
				if i >= len(c.Mismatches) {
					return
				}
				mm := &c.Mismatches[i]
				for _, y := range f {
					switch string(y.Key) {
					case "field":
						str(y.Raw, &mm.Field)
					case "expected":
						val(y.Raw, &mm.Expected)
					case "observed":
						val(y.Raw, &mm.Observed)
					case "changes":
						each(y.Raw, func(j int, ch jsontext.Members) {
							if j >= len(mm.Changes) {
								return
							}
							c := &mm.Changes[j]
							for _, z := range ch {
								switch string(z.Key) {
								case "path":
									str(z.Raw, &c.Path)
								case "expected":
									val(z.Raw, &c.Expected)
								case "observed":
									val(z.Raw, &c.Observed)
								}
							}
						})
					}
				}
			})
		case "suggested":
			each(x.Raw, func(i int, f jsontext.Members) {
				if i >= len(c.Suggested) {
					return
				}
				if raw, ok := f.Get("value"); ok {
					val(raw, &c.Suggested[i].Value)
				}
			})
		case "trace":
			each(x.Raw, func(i int, f jsontext.Members) {
				if i >= len(c.Trace) {
					return
				}
				e := &c.Trace[i]
				if raw, ok := f.Get("kind"); ok {
					str(raw, &e.Kind)
				}
				if raw, ok := f.Get("text"); ok {
					str(raw, &e.Text)
				}
			})
		}
	}
}
