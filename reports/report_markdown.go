package reports

import (
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// Markdown renders a summary fit for a CI step summary: the verdicts, the
// counts, a table per desk, the boundary-response dimensions, the suite
// strength when measured, what the failures have in common, and a
// <details> block for each of the first failures.
//
// GitHub refuses a step summary over 1 MiB, so the page is bounded
// whatever the suite: at most MarkdownFailures failure blocks (fewer once
// MarkdownBudget bytes are written), each with a bounded trace and
// clipped values, then a count of the rest and where it is (report.json);
// the desk, family, fault and claim tables are capped too.
//
// Case data (titles, ids, file names, values, traces) is written only
// inside HTML blocks — a line that starts with <table> or <details> and
// no blank line before the block ends — HTML-escaped, with line breaks
// written as <br> or &#10;. Markdown does not read inside an HTML block,
// so no case text can end a block, start a heading or make a link.
type Markdown struct{}

// MarkdownFailures is the most failed or errored cases shown in full.
const MarkdownFailures = 50

// MarkdownBudget is the size after which no further failure block starts.
// A block holds at most about 100 KB and the parts after the blocks about
// 80 KB, so the page stays under GitHub's 1 MiB whatever the suite.
const MarkdownBudget = 512 << 10

// Bounds of one Markdown page. Each is applied after escaping, so that
// no text expands past it.
const (
	mdTraceEvents = 40   // events of a failure's trace
	mdMismatches  = 20   // mismatched fields of a failure
	mdChanges     = 5    // structural changes of a mismatch
	mdValueBytes  = 1000 // a title, why, error, value or claim
	mdCellBytes   = 300  // an id, file name, field, trace event or change
	mdDeskRows    = 100  // rows of the desk and family tables
	mdFaults      = 100  // rows of the fault table
	mdCaughtBy    = 5    // cases named per caught fault
	mdClaims      = 50   // source-only claims listed
)

// mdCell is case text for one table cell or line.
func mdCell(s string) string { return escapeClip(s, mdCellBytes, false, "") }

// mdValue is case text that may span lines, written with <br>.
func mdValue(s string) string { return escapeClip(s, mdValueBytes, true, "<br>") }

// mdPre is one trace event inside <pre>, its line breaks written &#10;
// so that it takes one line of the file.
func mdPre(s string) string { return escapeClip(s, mdCellBytes, true, "&#10;") }

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += n
	return n, err
}

// Write renders r as Markdown.
func (Markdown) Write(w io.Writer, r *Report) error {
	cw := &countWriter{w: w}
	p := &printer{w: cw}
	p.printf("## deskcheck: %s\n\n", Headline(r))
	p.printf("| cases | passed | failed | errored | not applicable | source-only (not executed) |\n|---:|---:|---:|---:|---:|---:|\n")
	s := r.Summary
	p.printf("| %d | %d | %d | %d | %d | %d |\n\n", s.Cases, s.Passed, s.Failed, s.Errored, s.NotApplicable, s.SourceOnly)
	writeDesksMarkdown(p, r)
	writeReleasesMarkdown(p, r)
	writeLessonsMarkdown(p, r.Lessons)
	if r.Dimensions != nil {
		writeDimensionsMarkdown(p, r.Dimensions)
	}
	if r.Coverage != nil {
		writeCoverageMarkdown(p, r.Coverage)
	}
	if r.Strength != nil {
		writeStrengthMarkdown(p, r.Strength)
	}
	fails := failures(r.Cases)
	if len(fails) > 0 {
		writeGroupsMarkdown(p, r.Cases)
		files := deskFiles(r)
		shown := 0
		shownDesk := map[string]bool{}
		for _, c := range spreadFailures(r) {
			if shown == MarkdownFailures || cw.n > MarkdownBudget {
				break
			}
			if shown == 0 {
				p.printf("### Failures\n\n")
			}
			writeFailureMarkdown(p, c, files[c.Desk])
			shownDesk[c.Desk] = true
			shown++
		}
		if rest := len(fails) - shown; rest > 0 {
			p.printf("%s of %s are shown, the first failure of each file before the second of any; %s more %s not shown here. `report.json` in the report folder holds the evidence of every case.\n\n",
				verifier.Thousands(shown), plural(len(fails), "failed or errored case", "failed or errored cases"), verifier.Thousands(rest), map[bool]string{true: "is", false: "are"}[rest == 1])
			writeUnshownMarkdown(p, cw, r, shownDesk)
		}
	}
	if len(r.SourceOnly) > 0 {
		p.printf("### Source-only claims (not executed)\n\n<table>\n<tr><th>claim</th><th>not executed</th></tr>\n")
		for i, cl := range r.SourceOnly {
			if i == mdClaims {
				break
			}
			p.printf("<tr><td>%s/%s</td><td>%s</td></tr>\n", mdCell(cl.Desk), mdCell(cl.ID), mdValue(cl.NotExecuted))
		}
		p.printf("</table>\n\n")
		if n := len(r.SourceOnly) - mdClaims; n > 0 {
			p.printf("%s more source-only %s in `report.json`.\n\n", verifier.Thousands(n), map[bool]string{true: "claim is", false: "claims are"}[n == 1])
		}
	}
	writeRealCodeMarkdownSection(p, r.RealCode)
	return p.err
}

// MarkdownFilesBudget is the size after which no further row of the
// files whose failures have no block starts; what follows the rows stays
// well under GitHub's 1 MiB.
const MarkdownFilesBudget = 768 << 10

// writeUnshownMarkdown names the first failure of every desk that has
// failures but no block above, a row each while the page has room, then
// says how many desks did not fit.
func writeUnshownMarkdown(p *printer, cw *countWriter, r *Report, shown map[string]bool) {
	var rows []*deskTally
	for _, t := range tallies(r) {
		if len(t.Failures) > 0 && !shown[t.Desk] {
			rows = append(rows, t)
		}
	}
	if len(rows) == 0 {
		return
	}
	p.printf("<table>\n<tr><th>file with failures not shown above</th><th>failed or errored</th><th>first of them</th></tr>\n")
	listed := 0
	for _, t := range rows {
		if cw.n > MarkdownFilesBudget {
			break
		}
		c := t.Failures[0]
		p.printf("<tr><td><code>%s</code></td><td align=\"right\">%s</td><td>%s/%s</td></tr>\n", mdCell(location(t.File, c.Line)), verifier.Thousands(len(t.Failures)), mdCell(c.Desk), mdCell(c.ID))
		listed++
	}
	p.printf("</table>\n\n")
	if n := len(rows) - listed; n > 0 {
		p.printf("%s more %s with failures could not fit here; `report.json` names them.\n\n", verifier.Thousands(n), map[bool]string{true: "file", false: "files"}[n == 1])
	}
}

// writeDesksMarkdown lists the desks with their counts; over mdDeskRows
// desks, those with failures come first.
func writeDesksMarkdown(p *printer, r *Report) {
	ts := tallies(r)
	if len(ts) > mdDeskRows {
		var bad, good []*deskTally
		for _, t := range ts {
			if len(t.Failures) > 0 {
				bad = append(bad, t)
			} else {
				good = append(good, t)
			}
		}
		ts = append(bad, good...)
	}
	p.printf("<table>\n<tr><th>desk</th><th>file</th><th>cases</th><th>passed</th><th>failed</th><th>errored</th></tr>\n")
	for i, t := range ts {
		if i == mdDeskRows {
			break
		}
		p.printf("<tr><td>%s</td><td>%s</td><td align=\"right\">%d</td><td align=\"right\">%d</td><td align=\"right\">%d</td><td align=\"right\">%d</td></tr>\n",
			mdCell(t.Desk), mdCell(t.File), t.Cases, t.Passed, t.Failed, t.Errored)
	}
	p.printf("</table>\n\n")
	if n := len(ts) - mdDeskRows; n > 0 {
		p.printf("%s more %s not listed; `report.json` has them all.\n\n", verifier.Thousands(n), map[bool]string{true: "desk is", false: "desks are"}[n == 1])
	}
}

// writeStrengthMarkdown prints the fault table, missed faults first.
func writeStrengthMarkdown(p *printer, s *Strength) {
	p.printf("### Suite strength: %s\n\n", s.Tally())
	p.printf("<table>\n<tr><th>fault</th><th>result</th><th>caught by, or what a case needs to catch it</th></tr>\n")
	for i, f := range missedFirst(s.Results) {
		if i == mdFaults {
			p.printf("<tr><td colspan=\"3\">%s more faults in report.json</td></tr>\n", verifier.Thousands(len(s.Results)-i))
			break
		}
		if f.Caught {
			by := f.CaughtBy
			more := ""
			if len(by) > mdCaughtBy {
				more = " and " + verifier.Thousands(len(by)-mdCaughtBy) + " more"
				by = by[:mdCaughtBy]
			}
			names := make([]string, len(by))
			for j, id := range by {
				names[j] = mdCell(id)
			}
			p.printf("<tr><td>%s</td><td>caught</td><td>%s%s%s</td></tr>\n", mdCell(f.Fault), strings.Join(names, ", "), more, mdExposed(f))
		} else if f.NotAddressed != "" {
			p.printf("<tr><td>%s</td><td>not addressed</td><td>%s</td></tr>\n", mdCell(f.Fault), mdValue(f.NotAddressed))
		} else {
			p.printf("<tr><td>%s</td><td><b>missed</b></td><td>%s. To catch it: %s</td></tr>\n", mdCell(f.Fault), mdValue(f.Bug), mdValue(f.Hint))
		}
	}
	p.printf("</table>\n\n")
	for i, id := range s.Excluded {
		if i == mdCaughtBy {
			p.printf("<p>And %s more cases left out; report.json lists them.</p>\n\n", verifier.Thousands(len(s.Excluded)-i))
			break
		}
		p.printf("<p>Left out: <code>%s</code> fails on the correct model.</p>\n\n", mdCell(id))
	}
}

// mdExposed is the dimensions a fault changes, as a line of its cell.
func mdExposed(f FaultResult) string {
	if len(f.Exposed) == 0 {
		return ""
	}
	return "<br>dimensions: " + mdValue(strings.Join(f.Exposed, "; "))
}

// writeGroupsMarkdown says what the failures have in common.
func writeGroupsMarkdown(p *printer, cases []Case) {
	groups, more := groupFailures(cases)
	p.printf("### What failed\n\n<table>\n<tr><th>what</th><th>cases</th><th>first of them</th></tr>\n")
	for _, g := range groups {
		var ids []string
		for i, c := range g.Cases {
			if i == 3 {
				break
			}
			ids = append(ids, mdCell(c.Desk+"/"+c.ID))
		}
		what := "<code>" + mdCell(g.Field) + "</code> mismatched"
		if g.Field == "" {
			what = "could not run: " + mdCell(g.Error)
		}
		p.printf("<tr><td>%s</td><td align=\"right\">%s</td><td>%s</td></tr>\n", what, verifier.Thousands(len(g.Cases)), strings.Join(ids, ", "))
	}
	p.printf("</table>\n\n")
	if more > 0 {
		p.printf("%s smaller %s not listed.\n\n", verifier.Thousands(more), map[bool]string{true: "group is", false: "groups are"}[more == 1])
	}
}

// writeFailureMarkdown prints one failed or errored case as a single HTML
// block: no line of it is blank.
func writeFailureMarkdown(p *printer, c *Case, file string) {
	c = c.whole()
	p.printf("<details>\n<summary><b>%s</b> %s/%s — %s</summary>\n", mdCell(strings.ToUpper(string(c.Status))), mdCell(c.Desk), mdCell(c.ID), escapeClip(c.Title, mdValueBytes, false, ""))
	if file != "" {
		p.printf("<p><code>%s</code> · scenario %s</p>\n", mdCell(location(file, c.Line)), mdCell(c.Scenario))
	}
	if c.Why != "" {
		p.printf("<p>%s</p>\n", mdValue(c.Why))
	}
	if f := FailedOn(c); f != "" {
		p.printf("<p>%s</p>\n", mdValue(f))
	} else if j := JudgedOn(c); j != "" {
		p.printf("<p>judged on %s</p>\n", mdValue(j))
	}
	if c.Status == verifier.Errored || (c.Error != "" && len(c.Mismatches) == 0) {
		p.printf("<p>Could not run: %s</p>\n", mdValue(c.Error))
	}
	if len(c.Mismatches) > 0 {
		p.printf("<table>\n<tr><th>field</th><th>comparison</th><th>expected</th><th>observed</th></tr>\n")
		for i, m := range c.Mismatches {
			if i == mdMismatches {
				p.printf("<tr><td colspan=\"4\">%s more mismatched fields in report.json</td></tr>\n", verifier.Thousands(len(c.Mismatches)-i))
				break
			}
			observed := escapeClip(show(m.Observed), mdValueBytes, false, "")
			for j, ch := range m.Changes {
				if j == mdChanges {
					observed += "<br>" + verifier.Thousands(len(m.Changes)-j) + " more differences in report.json"
					break
				}
				observed += "<br>" + mdCell(changeText(ch))
			}
			p.printf("<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td><code>%s</code></td></tr>\n",
				mdCell(m.Field), mdCell(string(m.Comparison)), escapeClip(show(m.Expected), mdValueBytes, false, ""), observed)
		}
		p.printf("</table>\n")
	}
	if len(c.Trace) > 0 {
		p.printf("<pre>\n")
		for i, e := range c.Trace {
			if i == mdTraceEvents {
				n := len(c.Trace) - i
				p.printf("… %s more %s in report.json\n", verifier.Thousands(n), map[bool]string{true: "event", false: "events"}[n == 1])
				break
			}
			line := mdPre(seqLabel(c.Unit, e) + e.Text)
			if strings.TrimSpace(line) == "" {
				line = "&#160;"
			}
			p.printf("%s\n", line)
		}
		p.printf("</pre>\n")
	}
	p.printf("</details>\n\n")
}
