package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/verifier"
)

// Case changes between two reports, by what happened to the case.
const (
	CaseNew                = "new"
	CaseRemoved            = "removed"
	CasePassToFail         = "pass→fail"
	CaseFailToPass         = "fail→pass"
	CaseStimulusChanged    = "stimulus changed"
	CaseExpectationChanged = "expectation changed"
	CaseUnchanged          = "unchanged"
)

// caseKinds are the kinds of change in the order they are listed.
var caseKinds = []string{CasePassToFail, CaseFailToPass, CaseStimulusChanged, CaseExpectationChanged, CaseNew, CaseRemoved}

// Diff is what changed from one report (the base, say of a pull
// request's merge base) to another (the head). Cases are matched by
// <desk>/<case>, faults by name.
type Diff struct {
	Base DiffSide `json:"base"`
	Head DiffSide `json:"head"`
	// Cases lists every case that changed, pass→fail first, each kind in
	// the head's order (removed cases in the base's).
	Cases []CaseChange `json:"cases"`
	// Counts has the number of cases of each kind, unchanged included.
	Counts map[string]int `json:"counts"`
	// Faults lists the faults caught in one report and missed in the
	// other, when both measured the suite's strength.
	Faults []FaultChange `json:"faults"`
	// Dimensions are the suite's boundary-response figures before and
	// after.
	Dimensions []DimensionChange `json:"dimensions"`
	// RealCode lists the verdicts on real hosts that changed, when a
	// report holds a real-code section (realcode_diff.go).
	RealCode []RealCodeChange `json:"realCode,omitempty"`
	// NewFailing counts the new cases that fail or could not run.
	NewFailing int `json:"newFailing"`
	// Regressed is set when a case went from pass to fail, a new case
	// fails or could not run, or a fault became missed.
	Regressed bool `json:"regressed"`
}

// DiffSide says which report a side is.
type DiffSide struct {
	File        string           `json:"file"`
	GeneratedAt string           `json:"generatedAt"`
	Verdict     string           `json:"verdict"`
	Summary     verifier.Summary `json:"summary"`
}

// CaseChange is one case that changed.
type CaseChange struct {
	ID     string          `json:"id"`
	Change string          `json:"change"`
	Before verifier.Status `json:"before,omitempty"`
	After  verifier.Status `json:"after,omitempty"`
	// Stimulus lists what changed of the case's stimulus, when it is in
	// both reports: each given key added, removed or changed (named
	// given.KEY) and its release range (named hosts).
	Stimulus []KeyChange `json:"stimulus,omitempty"`
	// Expected lists the expected keys added, removed or changed, when
	// the case is in both reports.
	Expected []KeyChange `json:"expected,omitempty"`
	// File, Line and Column locate the case in the report it is in (the
	// head's, or the base's for a removed case).
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Title  string `json:"title"`
}

// KeyChange is one expected key whose authored value changed.
type KeyChange struct {
	Key    string          `json:"key"`
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
}

// FaultChange is one fault caught in one report and missed in the other.
type FaultChange struct {
	Fault  string `json:"fault"`
	Change string `json:"change"` // newly caught or newly missed
	Bug    string `json:"bug"`
	Hint   string `json:"hint,omitempty"`
}

// Fault changes.
const (
	FaultNewlyCaught = "newly caught"
	FaultNewlyMissed = "newly missed"
)

// DimensionChange is one suite dimension's k/n before and after.
type DimensionChange struct {
	Dimension string `json:"dimension"`
	Before    string `json:"before"`
	After     string `json:"after"`
}

// Incomparable says why two reports should not be compared.
type Incomparable struct{ Reasons []string }

func (e *Incomparable) Error() string {
	return "the reports are not comparable: " + strings.Join(e.Reasons, "; ") + " (-force compares them anyway)"
}

// Comparable refuses two reports made from different case schemas or
// against different host releases: a case's verdict then says as much
// about deskcheck as about the desk.
func Comparable(base, head *Report) error {
	var why []string
	if a, b := base.Provenance.CaseSchemaSHA256, head.Provenance.CaseSchemaSHA256; a != b {
		why = append(why, fmt.Sprintf("their case schemas differ (sha256 %s… and %s…)", clipUTF8(a, 12), clipUTF8(b, 12)))
	}
	ref := map[string]Host{}
	for _, h := range base.Provenance.Hosts {
		ref[h.Name] = h
	}
	for _, h := range head.Provenance.Hosts {
		if b, ok := ref[h.Name]; ok && b.Reference != h.Reference {
			why = append(why, fmt.Sprintf("host %s models %s in the base and %s in the head", h.Name, b.Reference, h.Reference))
		}
	}
	if len(why) > 0 {
		return &Incomparable{Reasons: why}
	}
	return nil
}

func failing(s verifier.Status) bool { return s != verifier.Pass && s != verifier.NotApplicable }

// Compare says what changed from base to head.
func Compare(base, head *Report, baseFile, headFile string) *Diff {
	d := &Diff{
		Base:   DiffSide{File: baseFile, GeneratedAt: base.GeneratedAt, Verdict: base.Verdict, Summary: base.Summary},
		Head:   DiffSide{File: headFile, GeneratedAt: head.GeneratedAt, Verdict: head.Verdict, Summary: head.Summary},
		Counts: map[string]int{},
		Cases:  []CaseChange{},
		Faults: []FaultChange{},
	}
	for _, k := range append(caseKinds, CaseUnchanged) {
		d.Counts[k] = 0
	}
	before := make(map[string]*Case, len(base.Cases))
	for i := range base.Cases {
		c := &base.Cases[i]
		before[c.Desk+"/"+c.ID] = c
	}
	seen := make(map[string]bool, len(head.Cases))
	headFiles, baseFiles := deskFiles(head), deskFiles(base)
	byKind := map[string][]CaseChange{}
	for i := range head.Cases {
		c := &head.Cases[i]
		id := c.Desk + "/" + c.ID
		seen[id] = true
		ch := CaseChange{ID: id, After: c.Status, File: headFiles[c.Desk], Line: c.Line, Column: c.Column, Title: c.Title}
		b, ok := before[id]
		switch {
		case !ok:
			ch.Change = CaseNew
			if failing(c.Status) {
				d.NewFailing++
			}
		default:
			ch.Before = b.Status
			ch.Stimulus = stimulusChanges(b, c)
			ch.Expected = expectedChanges(b.Expected, c.Expected)
			switch {
			case !failing(b.Status) && failing(c.Status):
				ch.Change = CasePassToFail
			case failing(b.Status) && !failing(c.Status):
				ch.Change = CaseFailToPass
			case len(ch.Stimulus) > 0:
				ch.Change = CaseStimulusChanged
			case len(ch.Expected) > 0:
				ch.Change = CaseExpectationChanged
			default:
				ch.Change = CaseUnchanged
			}
		}
		d.Counts[ch.Change]++
		if ch.Change != CaseUnchanged {
			byKind[ch.Change] = append(byKind[ch.Change], ch)
		}
	}
	for i := range base.Cases {
		c := &base.Cases[i]
		id := c.Desk + "/" + c.ID
		if !seen[id] {
			d.Counts[CaseRemoved]++
			byKind[CaseRemoved] = append(byKind[CaseRemoved], CaseChange{ID: id, Change: CaseRemoved, Before: c.Status, File: baseFiles[c.Desk], Line: c.Line, Column: c.Column, Title: c.Title})
		}
	}
	for _, k := range caseKinds {
		d.Cases = append(d.Cases, byKind[k]...)
	}
	d.Regressed = d.Counts[CasePassToFail] > 0 || d.NewFailing > 0
	if base.Strength != nil && head.Strength != nil {
		caught := map[string]bool{}
		for _, f := range base.Strength.Results {
			caught[f.Fault] = f.Caught
		}
		var newlyMissed, newlyCaught []FaultChange
		for _, f := range head.Strength.Results {
			was, ok := caught[f.Fault]
			switch {
			case ok && was && !f.Caught:
				newlyMissed = append(newlyMissed, FaultChange{Fault: f.Fault, Change: FaultNewlyMissed, Bug: f.Bug, Hint: f.Hint})
			case ok && !was && f.Caught:
				newlyCaught = append(newlyCaught, FaultChange{Fault: f.Fault, Change: FaultNewlyCaught, Bug: f.Bug})
			}
		}
		d.Faults = append(newlyMissed, newlyCaught...)
		if len(newlyMissed) > 0 {
			d.Regressed = true
		}
	}
	if base.Dimensions != nil && head.Dimensions != nil {
		_, b := dimensionTable(&Boundary{Suite: base.Dimensions.Suite})
		_, h := dimensionTable(&Boundary{Suite: head.Dimensions.Suite})
		for i := range b {
			d.Dimensions = append(d.Dimensions, DimensionChange{Dimension: b[i].Name, Before: b[i].Cells[0].Text, After: h[i].Cells[0].Text})
		}
	}
	d.RealCode = compareRealCode(base.RealCode, head.RealCode)
	d.Regressed = d.Regressed || d.realRegressions() > 0
	return d
}

// stimulusChanges lists what changed of a case's stimulus from b to c:
// its given keys (as given.KEY) and its release range (as hosts).
func stimulusChanges(b, c *Case) []KeyChange {
	out := objectChanges(b.Given, c.Given)
	for i := range out {
		out[i].Key = "given." + out[i].Key
	}
	if b.Range != c.Range {
		k := KeyChange{Key: "hosts"}
		if b.Range != "" {
			k.Before = jsonx.Append(nil, b.Range)
		}
		if c.Range != "" {
			k.After = jsonx.Append(nil, c.Range)
		}
		out = append(out, k)
	}
	return out
}

// expectedChanges lists the expected keys added, removed or changed, in
// the head's order, then the removed ones in the base's.
func expectedChanges(before, after json.RawMessage) []KeyChange {
	return objectChanges(before, after)
}

// objectChanges lists the keys of a JSON object added, removed or
// changed, in the head's order, then the removed ones in the base's.
// A value that is not an object is one key, named "".
func objectChanges(before, after json.RawMessage) []KeyChange {
	if bytes.Equal(before, after) {
		return nil
	}
	if b, a := gjson.ParseBytes(before), gjson.ParseBytes(after); !b.IsObject() || !a.IsObject() {
		if sameJSON(string(before), string(after)) {
			return nil
		}
		return []KeyChange{{Before: compact(string(before)), After: compact(string(after))}}
	}
	old := map[string]string{}
	var order []string
	gjson.ParseBytes(before).ForEach(func(k, v gjson.Result) bool {
		old[k.String()] = v.Raw
		order = append(order, k.String())
		return true
	})
	var out []KeyChange
	now := map[string]bool{}
	gjson.ParseBytes(after).ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		now[key] = true
		was, ok := old[key]
		if !ok {
			out = append(out, KeyChange{Key: key, After: compact(v.Raw)})
		} else if !sameJSON(was, v.Raw) {
			out = append(out, KeyChange{Key: key, Before: compact(was), After: compact(v.Raw)})
		}
		return true
	})
	for _, k := range order {
		if !now[k] {
			out = append(out, KeyChange{Key: k, Before: compact(old[k])})
		}
	}
	return out
}

// sameJSON reports whether two JSON texts hold the same value: objects
// are the same whatever the order of their keys, numbers are compared as
// written.
func sameJSON(a, b string) bool {
	if a == b {
		return true
	}
	decode := func(s string) (any, bool) {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		return v, dec.Decode(&v) == nil
	}
	x, okA := decode(a)
	y, okB := decode(b)
	return okA && okB && reflect.DeepEqual(x, y)
}

// diffKeys bounds the expected keys named for one case; the JSON format
// names them all.
const diffKeys = 10

// keyTexts says what happened to each of the first diffKeys keys, each
// text passed through clip, and how many more there are.
func keyTexts(changes []KeyChange, clip func(string) string) []string {
	var out []string
	for i, k := range changes {
		if i == diffKeys {
			out = append(out, verifier.Thousands(len(changes)-i)+" more keys (the JSON format names them)")
			break
		}
		out = append(out, clip(keyChangeText(k)))
	}
	return out
}

// keyChangeText says what happened to one expected key.
func keyChangeText(k KeyChange) string {
	switch {
	case k.Before == nil:
		return k.Key + ": added " + string(k.After)
	case k.After == nil:
		return k.Key + ": removed (was " + string(k.Before) + ")"
	}
	return k.Key + ": " + string(k.Before) + " → " + string(k.After)
}

// Headline states the verdict of the diff in one line.
func (d *Diff) Headline() string {
	verdict := "no regression"
	if d.Regressed {
		var parts []string
		if n := d.Counts[CasePassToFail]; n > 0 {
			parts = append(parts, plural(n, "case went from pass to fail", "cases went from pass to fail"))
		}
		if n := d.NewFailing; n > 0 {
			parts = append(parts, plural(n, "new case fails", "new cases fail"))
		}
		if n := d.countFaults(FaultNewlyMissed); n > 0 {
			parts = append(parts, plural(n, "fault newly missed", "faults newly missed"))
		}
		if n := d.realRegressions(); n > 0 {
			parts = append(parts, plural(n, "case regressed on the real code", "cases regressed on the real code"))
		}
		verdict = "REGRESSION — " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("diff %s · %s", verdict, d.countsLine())
}

func (d *Diff) countFaults(change string) int {
	n := 0
	for _, f := range d.Faults {
		if f.Change == change {
			n++
		}
	}
	return n
}

// countsLine says how many cases of each kind there are.
func (d *Diff) countsLine() string {
	var parts []string
	for _, k := range caseKinds {
		parts = append(parts, fmt.Sprintf("%s %s", verifier.Thousands(d.Counts[k]), k))
	}
	parts = append(parts, verifier.Thousands(d.Counts[CaseUnchanged])+" unchanged")
	return strings.Join(parts, ", ")
}

// diffListed bounds the cases of each kind listed by the Markdown and text
// renderings; the rest are counted (JSON lists them all).
const diffListed = 200

// plainClip is case text for one line of plain text: oneLine, at most
// max bytes, cut between characters and marked.
func plainClip(s string, max int) string {
	v := oneLine(s)
	if len(v) <= max {
		return v
	}
	return clipUTF8(v, max) + clipped
}

// caseChangeText says what changed of a case in one line: its stimulus, then
// its expectation, each list bounded, each text passed through clip.
func caseChangeText(c CaseChange, clip func(string) string, sep string) []string {
	var out []string
	if len(c.Stimulus) > 0 {
		out = append(out, "stimulus "+strings.Join(keyTexts(c.Stimulus, clip), sep))
	}
	if len(c.Expected) > 0 {
		out = append(out, "expected "+strings.Join(keyTexts(c.Expected, clip), sep))
	}
	return out
}

// DiffText renders d as plain text: case text as written (made visible),
// never HTML-escaped.
func DiffText(w io.Writer, d *Diff) error {
	p := &printer{w: w}
	p.printf("deskcheck diff: %s → %s\n", oneLine(d.Base.File), oneLine(d.Head.File))
	p.printf("cases: %s\n", d.countsLine())
	listed := map[string]int{}
	for _, c := range d.Cases {
		if listed[c.Change] == diffListed {
			continue
		}
		listed[c.Change]++
		line := fmt.Sprintf("  %-20s %s", c.Change, oneLine(c.ID))
		if parts := caseChangeText(c, func(s string) string { return plainClip(s, mdCellBytes) }, "; "); len(parts) > 0 {
			line += "  (" + strings.Join(parts, "; ") + ")"
		}
		p.printf("%s\n", line)
	}
	for _, k := range caseKinds {
		if n := d.Counts[k] - listed[k]; n > 0 {
			p.printf("  … and %s more %s (the JSON format lists them all)\n", verifier.Thousands(n), k)
		}
	}
	if len(d.Faults) > 0 {
		p.printf("faults: %d newly missed, %d newly caught\n", d.countFaults(FaultNewlyMissed), d.countFaults(FaultNewlyCaught))
		for _, f := range d.Faults {
			p.printf("  %-13s %s\n", f.Change, oneLine(f.Fault))
		}
	}
	if len(d.Dimensions) > 0 {
		p.printf("dimensions of the suite (before → after):\n")
		width := 0
		for _, x := range d.Dimensions {
			width = max(width, len(x.Dimension))
		}
		for _, x := range d.Dimensions {
			mark := ""
			if x.Before != x.After {
				mark = "  (changed)"
			}
			p.printf("  %-*s  %s → %s%s\n", width, x.Dimension, x.Before, x.After, mark)
		}
	}
	writeRealCodeDiffText(p, d)
	p.printf("%s\n", d.Headline())
	return p.err
}

// DiffMarkdownBudget bounds the Markdown diff: GitHub refuses a step
// summary over 1 MiB, and the diff may share it with other steps' text.
// No row starts past it; the rows left out are counted.
const DiffMarkdownBudget = 768 << 10

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int
}

func (c *counter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += n
	return n, err
}

// DiffMarkdown renders d for a pull request's step summary or comment,
// case text HTML-escaped inside HTML blocks as the report's Markdown is,
// within DiffMarkdownBudget bytes.
func DiffMarkdown(w io.Writer, d *Diff) error {
	cw := &counter{w: w}
	p := &printer{w: cw}
	p.printf("## deskcheck %s\n\n", d.Headline())
	p.printf("<table>\n<tr><th>change</th><th>cases</th></tr>\n")
	for _, k := range append(append([]string{}, caseKinds...), CaseUnchanged) {
		p.printf("<tr><td>%s</td><td align=\"right\">%s</td></tr>\n", k, verifier.Thousands(d.Counts[k]))
	}
	p.printf("</table>\n\n")
	// What follows the case rows takes at most this much.
	tail := 200 + len(d.Faults)*(2*mdCellBytes+mdValueBytes+64) + len(d.Dimensions)*(2*mdCellBytes+128)
	budget := DiffMarkdownBudget - tail
	if len(d.Cases) > 0 {
		p.printf("<table>\n<tr><th>change</th><th>case</th><th>before</th><th>after</th><th>what changed</th></tr>\n")
		listed := map[string]int{}
		cut := map[string]int{} // rows left out for the budget
		for _, c := range d.Cases {
			if listed[c.Change] == diffListed {
				continue
			}
			row := fmt.Sprintf("<tr><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
				c.Change, mdCell(c.ID), mdCell(string(c.Before)), mdCell(string(c.After)), strings.Join(caseChangeText(c, mdCell, "<br>"), "<br>"))
			if cw.n+len(row) > budget {
				cut[c.Change]++
				continue
			}
			listed[c.Change]++
			p.printf("%s", row)
		}
		p.printf("</table>\n\n")
		for _, k := range caseKinds {
			n := d.Counts[k] - listed[k]
			switch {
			case n > 0 && cut[k] > 0:
				p.printf("%s more %s cases are not listed, %s of them to keep this summary within GitHub's 1 MiB; `deskcheck diff -format json` lists them all.\n\n", verifier.Thousands(n), k, verifier.Thousands(cut[k]))
			case n > 0:
				p.printf("%s more %s cases are not listed; `deskcheck diff -format json` lists them all.\n\n", verifier.Thousands(n), k)
			}
		}
	}
	if len(d.Faults) > 0 {
		p.printf("<table>\n<tr><th>fault</th><th>change</th><th>bug</th></tr>\n")
		for _, f := range d.Faults {
			p.printf("<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", mdCell(f.Fault), f.Change, mdValue(f.Bug))
		}
		p.printf("</table>\n\n")
	}
	if len(d.Dimensions) > 0 {
		p.printf("<table>\n<tr><th>dimension</th><th>before</th><th>after</th></tr>\n")
		for _, x := range d.Dimensions {
			after := mdCell(x.After)
			if x.Before != x.After {
				after = "<b>" + after + "</b>"
			}
			p.printf("<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", x.Dimension, mdCell(x.Before), after)
		}
		p.printf("</table>\n\n")
	}
	writeRealCodeDiffMarkdown(p, d)
	return p.err
}

// DiffJSON renders d as indented JSON.
func DiffJSON(w io.Writer, d *Diff) error {
	b, err := marshal(d, "")
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// DiffGitHub renders d as workflow commands within GitHub's limits: an
// error per case gone from pass to fail and per fault newly missed, a
// warning per other change, then the headline.
func DiffGitHub(w io.Writer, d *Diff, g GitHub) error {
	var errs, warns []annotation
	for _, c := range d.Cases {
		title := c.Change + " " + c.ID + ": " + c.Title
		var msg []string
		clip := func(s string) string { return clipUTF8(s, mdCellBytes) }
		for _, k := range keyTexts(c.Stimulus, clip) {
			msg = append(msg, "stimulus "+k)
		}
		for _, k := range keyTexts(c.Expected, clip) {
			msg = append(msg, "expected "+k)
		}
		a := annotation{level: "warning", file: c.File, line: c.Line, col: c.Column, title: title, message: strings.Join(append([]string{fmt.Sprintf("%s: %s → %s", c.ID, orDash(string(c.Before)), orDash(string(c.After)))}, msg...), "\n")}
		if c.Change == CasePassToFail {
			a.level = "error"
			errs = append(errs, a)
		} else if c.Change != CaseFailToPass {
			warns = append(warns, a)
		}
	}
	for _, f := range d.Faults {
		if f.Change == FaultNewlyMissed {
			errs = append(errs, annotation{level: "error", title: "fault " + f.Fault + " newly missed", message: "no case fails any more when " + f.Bug + "\nto catch it: " + f.Hint})
		}
	}
	errs = append(errs, realCodeDiffAnnotations(d)...)
	byFile := func(a annotation) string { return a.file }
	p := &printer{w: w}
	if g.Where == "" {
		g.Where = "the output of deskcheck diff"
	}
	g.print(p, spread(errs, byFile), spread(warns, byFile))
	p.printf("%s\n", d.Headline())
	return p.err
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
