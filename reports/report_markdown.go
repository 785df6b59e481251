package reports

import (
	"html"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// Markdown renders a summary table and a <details> block per failed or
// errored case, fit for a CI step summary.
type Markdown struct{}

// Write renders r as Markdown.
func (Markdown) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	verdict := "PASS"
	if r.Verdict != "pass" {
		verdict = "FAIL"
	}
	p.printf("## deskcheck: %s — %s\n\n", verdict, SummaryLine(r.Summary))
	p.printf("| cases | passed | failed | errored | source-only (not executed) |\n|---:|---:|---:|---:|---:|\n")
	s := r.Summary
	p.printf("| %d | %d | %d | %d | %d |\n\n", s.Cases, s.Passed, s.Failed, s.Errored, s.SourceOnly)

	p.printf("| desk | file | cases | passed | failed | errored |\n|---|---|---:|---:|---:|---:|\n")
	type tally struct{ n, pass, fail, errd int }
	perDesk := map[string]*tally{}
	for _, c := range r.Cases {
		t := perDesk[c.Desk]
		if t == nil {
			t = &tally{}
			perDesk[c.Desk] = t
		}
		t.n++
		switch c.Status {
		case verifier.Pass:
			t.pass++
		case verifier.Fail:
			t.fail++
		default:
			t.errd++
		}
	}
	for _, f := range r.Provenance.Files {
		t := perDesk[f.Desk]
		if t == nil {
			t = &tally{}
		}
		p.printf("| %s | %s | %d | %d | %d | %d |\n", cell(f.Desk), cell(f.Path), t.n, t.pass, t.fail, t.errd)
	}
	p.printf("\n")
	if r.Dimensions != nil {
		writeDimensionsMarkdown(p, r.Dimensions)
	}

	for _, c := range r.Cases {
		if c.Status == verifier.Pass {
			continue
		}
		p.printf("<details>\n<summary><b>%s</b> %s/%s — %s</summary>\n\n", strings.ToUpper(string(c.Status)), html.EscapeString(c.Desk), html.EscapeString(c.ID), html.EscapeString(c.Title))
		if c.Why != "" {
			p.printf("%s\n\n", html.EscapeString(c.Why))
		}
		if c.Status == verifier.Errored {
			p.printf("Could not run: %s\n\n", cell(c.Error))
		} else {
			p.printf("| field | comparison | expected | observed |\n|---|---|---|---|\n")
			for _, m := range c.Mismatches {
				p.printf("| %s | %s | %s | %s |\n", cell(m.Field), cell(string(m.Comparison)), cell(show(m.Expected)), cell(show(m.Observed)))
			}
			p.printf("\n")
		}
		if len(c.Trace) > 0 {
			p.printf("<pre>\n")
			for _, e := range c.Trace {
				p.printf("%s%s\n", seqLabel(c.Unit, e), preText.Replace(e.Text))
			}
			p.printf("</pre>\n\n")
		}
		p.printf("</details>\n\n")
	}
	if s := r.Strength; s != nil {
		p.printf("### Suite strength: %d of %d faults caught\n\n| fault | result | caught by / hint |\n|---|---|---|\n", s.Caught, s.Faults)
		for _, f := range s.Results {
			if f.Caught {
				p.printf("| %s | caught | %s |\n", cell(f.Fault), cell(strings.Join(f.CaughtBy, ", ")))
			} else {
				p.printf("| %s | **missed** | %s |\n", cell(f.Fault), cell(f.Bug+". To catch it: "+f.Hint))
			}
		}
		p.printf("\n")
	}
	if len(r.SourceOnly) > 0 {
		p.printf("### Source-only claims (not executed)\n\n| claim | not executed |\n|---|---|\n")
		for _, cl := range r.SourceOnly {
			p.printf("| %s/%s | %s |\n", cell(cl.Desk), cell(cl.ID), cell(cl.NotExecuted))
		}
	}
	return p.err
}

// preText escapes what HTML would read as markup inside <pre>.
var preText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	s = html.EscapeString(s)
	s = strings.ReplaceAll(s, "|", "&#124;")
	s = strings.ReplaceAll(s, "\r", "")
	return strings.ReplaceAll(s, "\n", "<br>")
}
