package reports

import (
	"sort"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// row is one line of a case's expected-versus-observed table.
type row struct {
	Key        string
	Comparison string
	Expected   string // "" when not asserted
	Observed   string
	Asserted   bool
	Mismatch   bool
}

// rows lists the asserted keys in authored order, then the observed keys
// the case does not assert.
func rows(c Case) []row {
	mismatch := map[string]verifier.Mismatch{}
	for _, m := range c.Mismatches {
		mismatch[m.Field] = m
	}
	var out []row
	asserted := map[string]bool{}
	gjson.ParseBytes(c.Expected).ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		asserted[key] = true
		r := row{Key: key, Comparison: c.Comparisons[key], Expected: string(compact(v.Raw)), Observed: render(c.Observed[key]), Asserted: true}
		if m, bad := mismatch[key]; bad {
			r.Mismatch, r.Comparison = true, string(m.Comparison)
		}
		out = append(out, r)
		return true
	})
	var rest []string
	for k := range c.Observed {
		if !asserted[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, row{Key: k, Comparison: "not asserted", Observed: render(c.Observed[k])})
	}
	return out
}

// render shows a value as compact JSON, with <, > and & as they are (the
// HTML template escapes what HTML needs).
func render(v any) string { return scenario.JSONText(v) }

// failuresFirst returns the cases with failed and errored ones first, each
// group in report order.
func failuresFirst(cases []Case) []*Case {
	out := make([]*Case, 0, len(cases))
	for i := range cases {
		if cases[i].Status != verifier.Pass {
			out = append(out, &cases[i])
		}
	}
	for i := range cases {
		if cases[i].Status == verifier.Pass {
			out = append(out, &cases[i])
		}
	}
	return out
}
