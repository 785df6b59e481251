package reports

import (
	"sort"
	"unicode/utf8"

	"github.com/tidwall/gjson"

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
// the case does not assert. A value whose JSON text is longer than cell
// bytes is shown cut (cutText); 0 shows every value whole.
func rows(c Case, cell int) []row {
	mismatch := map[string]verifier.Mismatch{}
	for _, m := range c.Mismatches {
		// A mismatch inside a value (reasons[1], declared.tier) marks the
		// row of its key; the first one names the comparison.
		if k := mismatchKey(&c, m.Field); mismatch[k].Field == "" {
			mismatch[k] = m
		}
	}
	var out []row
	asserted := map[string]bool{}
	gjson.ParseBytes(c.Expected).ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		asserted[key] = true
		r := row{Key: key, Comparison: c.Comparisons[key], Expected: cutText(string(compact(v.Raw)), cell), Observed: renderCut(c.Observed[key], cell), Asserted: true}
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
		out = append(out, row{Key: k, Comparison: "not asserted", Observed: renderCut(c.Observed[k], cell)})
	}
	return out
}

// mismatchKey is the expected key a mismatch is about: the field itself,
// or the asserted key it lies inside (reasons for reasons[1], declared for
// declared.tier).
func mismatchKey(c *Case, field string) string {
	if _, ok := c.Comparisons[field]; ok {
		return field
	}
	for i := 0; i < len(field); i++ {
		if field[i] == '[' || field[i] == '.' {
			if _, ok := c.Comparisons[field[:i]]; ok {
				return field[:i]
			}
		}
	}
	return field
}

// render shows a value as compact JSON, with <, > and & as they are (the
// HTML template escapes what HTML needs) and every acting character
// escaped.
func render(v any) string { return oneLine(jsonText(v)) }

// htmlCell is the most of a value's JSON text a card of the HTML page
// shows: a longer value is shown up to it, then how much more there is.
// A card is read, not searched; report.json holds every value whole.
const htmlCell = rawValueBytes

// renderCut is render of v, its JSON text cut after cell bytes (0: never
// cut). A value kept as text is cut before it is copied.
func renderCut(v any, cell int) string {
	if r, ok := v.(*rawValue); ok && cell > 0 && len(r.text) > cell {
		n := cutAt(r.text, cell)
		return oneLine(string(r.text[:n])) + cutNote(len(r.text)-n)
	}
	return cutText(jsonText(v), cell)
}

// cutText shows text, JSON, on one line: whole when it is at most cell
// bytes long (or cell is 0), else its first cell bytes (back to the start
// of a character) and how many more bytes there are.
func cutText(text string, cell int) string {
	if cell <= 0 || len(text) <= cell {
		return oneLine(text)
	}
	n := cutAt([]byte(text[:cell+1]), cell)
	return oneLine(text[:n]) + cutNote(len(text)-n)
}

// cutAt is where text (longer than cell) is cut: after cell bytes, back
// to the start of a character.
func cutAt(text []byte, cell int) int {
	n := cell
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return n
}

// cutNote says how much of a value a cut left out.
func cutNote(n int) string {
	return " … and " + verifier.Thousands(n) + " more bytes (report.json holds the whole value)"
}

// failed reports whether a case failed or could not run: neither a pass
// nor not applicable.
func failed(c *Case) bool { return c.Status != verifier.Pass && c.Status != verifier.NotApplicable }

// deskTally counts the cases of one desk by status.
type deskTally struct {
	Desk    string
	File    string
	Cases   int
	Passed  int
	Failed  int
	Errored int
	// NotApplicable counts the cases not judged on the release asked for.
	NotApplicable int
	// Failures are the desk's failed and errored cases, in report order.
	Failures []*Case
}

// tallies counts the cases of each desk, in the order of the files read;
// a desk with cases but no file entry comes after them.
func tallies(r *Report) []*deskTally {
	var out []*deskTally
	byDesk := map[string]*deskTally{}
	for _, f := range r.Provenance.Files {
		if byDesk[f.Desk] == nil {
			t := &deskTally{Desk: f.Desk, File: f.Path}
			byDesk[f.Desk] = t
			out = append(out, t)
		}
	}
	for i := range r.Cases {
		c := &r.Cases[i]
		t := byDesk[c.Desk]
		if t == nil {
			t = &deskTally{Desk: c.Desk}
			byDesk[c.Desk] = t
			out = append(out, t)
		}
		t.Cases++
		switch c.Status {
		case verifier.Pass:
			t.Passed++
		case verifier.Fail:
			t.Failed++
			t.Failures = append(t.Failures, c)
		case verifier.NotApplicable:
			t.NotApplicable++
		default:
			t.Errored++
			t.Failures = append(t.Failures, c)
		}
	}
	return out
}

// deskFiles maps each desk id to the path of its file.
func deskFiles(r *Report) map[string]string {
	files := make(map[string]string, len(r.Provenance.Files))
	for _, f := range r.Provenance.Files {
		if _, ok := files[f.Desk]; !ok {
			files[f.Desk] = f.Path
		}
	}
	return files
}

// failureGroup is what many failures have in common: the same expected
// key mismatched, or the same reason a case could not run.
type failureGroup struct {
	// Field is the mismatched key; empty for cases that could not run.
	Field string
	// Error is the first line of the error, for cases that could not run.
	Error string
	Cases []*Case
}

// maxGroups bounds the groups a report lists.
const maxGroups = 20

// groupFailures groups the failed cases by mismatched key (a case with two
// mismatched keys is in two groups) and the errored ones by the first line
// of their error; largest group first, ties in order of first appearance.
// At most maxGroups groups are returned, and how many were left out.
func groupFailures(cases []Case) ([]*failureGroup, int) {
	var groups []*failureGroup
	index := map[string]*failureGroup{}
	add := func(key string, g failureGroup, c *Case) {
		x := index[key]
		if x == nil {
			x = &g
			index[key] = x
			groups = append(groups, x)
		}
		x.Cases = append(x.Cases, c)
	}
	for i := range cases {
		c := &cases[i]
		switch c.Status {
		case verifier.Pass, verifier.NotApplicable:
		case verifier.Fail:
			seen := map[string]bool{}
			w := c.whole()
			for _, m := range w.Mismatches {
				// reasons[0] … reasons[6] are one group: reasons.
				if k := mismatchKey(w, m.Field); !seen[k] {
					seen[k] = true
					add("field\x00"+k, failureGroup{Field: k}, c)
				}
			}
		default:
			e := firstLine(c.Error)
			add("error\x00"+e, failureGroup{Error: e}, c)
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].Cases) > len(groups[j].Cases) })
	if len(groups) > maxGroups {
		return groups[:maxGroups], len(groups) - maxGroups
	}
	return groups, 0
}

// failures returns the failed and errored cases in report order.
func failures(cases []Case) []*Case {
	var out []*Case
	for i := range cases {
		if failed(&cases[i]) {
			out = append(out, &cases[i])
		}
	}
	return out
}

// missedFirst orders fault results with the missed ones first, each group
// in run order: what a reader of a strength run needs first.
func missedFirst(results []FaultResult) []FaultResult {
	out := make([]FaultResult, 0, len(results))
	for _, f := range results {
		if !f.Caught && f.NotAddressed == "" {
			out = append(out, f)
		}
	}
	for _, f := range results {
		if f.NotAddressed != "" {
			out = append(out, f)
		}
	}
	for _, f := range results {
		if f.Caught {
			out = append(out, f)
		}
	}
	return out
}
