package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// Text prints one line per case, a block per failure naming every
// mismatched field with its expected and observed value and the trace, the
// source-only claims as not executed, and a closing summary line.
type Text struct {
	// Verbose prints the event trace of passing cases too.
	Verbose bool
	// Color marks verdicts with ANSI colours.
	Color bool
	// Dimensions prints the boundary-response table (Verbose does too).
	Dimensions bool
}

// Write renders r as text.
func (t Text) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	paint := func(code, s string) string {
		if !t.Color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	labels := map[verifier.Status]string{verifier.Pass: paint("32", "PASS"), verifier.Fail: paint("31", "FAIL"), verifier.Errored: paint("33", "ERROR"), verifier.NotApplicable: paint("36", "N/A")}
	if r.Strength != nil {
		p.printf("deskcheck: %s\n\n", Headline(r))
	}
	for i := range r.Cases {
		c := &r.Cases[i]
		label, ok := labels[c.Status]
		if !ok {
			label = oneLine(strings.ToUpper(string(c.Status)))
		}
		on := ""
		if j := JudgedOn(c); j != "" {
			on = "  [" + oneLine(j) + "]"
		}
		p.print(label, " ", oneLine(c.Desk), "/", oneLine(c.ID), "  ", oneLine(c.Title), on, "\n")
		if f := FailedOn(c); f != "" && len(c.Releases) > 1 {
			p.printf("    %s\n", oneLine(f))
		}
		if na := NotApplicableOn(c); na != "" && (c.Status == verifier.NotApplicable || t.Verbose) {
			p.printf("    %s\n", oneLine(na))
		}
		shown := (c.Status != verifier.Pass && c.Status != verifier.NotApplicable) || t.Verbose
		if shown {
			c = c.whole()
		}
		switch c.Status {
		case verifier.Fail:
			for _, m := range c.Mismatches {
				p.print("    ", mismatchText(m, "      "), "\n")
			}
		case verifier.Errored:
			p.printf("    could not run: %s\n", oneLine(firstLine(c.Error)))
		}
		if shown {
			p.trace(c.Trace, c.Unit, "      ")
		}
	}
	for _, cl := range r.SourceOnly {
		p.printf("%s %s/%s  source-only claim; not executed: %s\n", paint("36", "NOT EXECUTED"), oneLine(cl.Desk), oneLine(cl.ID), oneLine(cl.NotExecuted))
	}
	writeLessonsText(p, r.Lessons)
	if r.Strength != nil {
		p.printf("\n")
		writeStrengthText(p, r.Strength)
	}
	if (t.Verbose || t.Dimensions) && r.Dimensions != nil {
		p.printf("\n")
		writeDimensionsText(p, r.Dimensions)
	}
	if t.Verbose && r.Coverage != nil {
		// The dimensions table, printed just before, ends with a blank
		// line of its own.
		if r.Dimensions == nil {
			p.printf("\n")
		}
		writeCoverageText(p, r.Coverage, false)
		p.printf("\n")
	}
	writeRealCodeSection(p, r.RealCode, t.Verbose)
	p.printf("%s\n", SummaryLine(r.Summary))
	switch {
	case r.Summary.SourceOnly == 1:
		p.printf("(1 source-only claim not executed)\n")
	case r.Summary.SourceOnly > 1:
		p.printf("(%d source-only claims not executed)\n", r.Summary.SourceOnly)
	}
	return p.err
}

// SummaryLine is "N passed, N failed", with ", N errored" when any case
// could not run and ", N not applicable" when any case was not judged on
// the release asked for.
func SummaryLine(s verifier.Summary) string {
	line := fmt.Sprintf("%d passed, %d failed", s.Passed, s.Failed)
	if s.Errored > 0 {
		line += fmt.Sprintf(", %d errored", s.Errored)
	}
	if s.NotApplicable > 0 {
		line += fmt.Sprintf(", %d not applicable", s.NotApplicable)
	}
	return line
}

// Headline states the verdicts of r on one line: "PASS — 15 passed, 0
// failed", or, when the suite's strength was measured, the strength
// verdict first: "strength FAIL — 18 of 21 faults caught · cases PASS —
// 15 passed, 0 failed".
func Headline(r *Report) string {
	var parts []string
	for _, v := range verdicts(r) {
		s := v.Verdict + " — " + v.What
		if v.Name != "" {
			s = v.Name + " " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// verdict is one verdict of a report: of the suite's strength or of its
// cases.
type verdict struct {
	Name    string // "strength" or "cases"; "" when the cases' is the only one
	Verdict string // PASS or FAIL
	Pass    bool
	What    string // the counts it rests on
	ID      string // the element id of its badge on the HTML page
}

// verdicts lists the verdicts of r, strength first when it was measured.
func verdicts(r *Report) []verdict {
	word := func(pass bool) string {
		if pass {
			return "PASS"
		}
		return "FAIL"
	}
	cases := verdict{Verdict: word(r.Verdict == "pass"), Pass: r.Verdict == "pass", What: SummaryLine(r.Summary), ID: "verdict"}
	s := r.Strength
	if s == nil {
		return []verdict{cases}
	}
	pass := s.Caught == s.Faults
	if r.StrengthVerdict != "" {
		pass = r.StrengthVerdict == "pass"
	}
	cases.Name = "cases"
	return []verdict{{Name: "strength", Verdict: word(pass), Pass: pass, What: s.Tally(), ID: "strength-verdict"}, cases}
}

// show renders a value for a mismatch: JSON, with a word for nothing, and
// every acting character escaped (still valid JSON).
func show(v any) string {
	if v == nil {
		return "nothing (null)"
	}
	return oneLine(jsonText(v))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// StrengthText prints only the suite-strength table of r.
type StrengthText struct{}

// Write renders the strength section of r (nothing when it has none).
func (StrengthText) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	if r.Strength != nil {
		writeStrengthText(p, r.Strength)
	}
	return p.err
}

// writeStrengthText prints the fault table: one line per fault, caught or
// missed, the cases that caught it or a hint, and the tally.
func writeStrengthText(p *printer, s *Strength) {
	width := len("fault")
	for _, f := range s.Results {
		width = max(width, len(oneLine(f.Fault)))
	}
	p.printf("Suite strength: deliberate host faults and the cases that catch them\n")
	p.printf("%-*s  %-6s  %s\n", width, "fault", "result", "caught by")
	for _, f := range s.Results {
		switch {
		case f.Caught:
			p.printf("%-*s  %-6s  %s\n", width, oneLine(f.Fault), "caught", oneLine(strings.Join(f.CaughtBy, ", ")))
		case f.NotAddressed != "":
			p.printf("%-*s  %-6s  not addressed (%s)\n", width, oneLine(f.Fault), "n/a", oneLine(f.NotAddressed))
		default:
			p.printf("%-*s  %-6s  %s\n", width, oneLine(f.Fault), "MISSED", "no case fails when "+oneLine(f.Bug))
			p.printf("%-*s  %-6s  to catch it: %s\n", width, "", "", oneLine(f.Hint))
		}
		if len(f.Exposed) > 0 {
			p.printf("%-*s  %-6s  dimensions: %s\n", width, "", "", oneLine(strings.Join(f.Exposed, "; ")))
		}
	}
	for _, id := range s.Excluded {
		p.printf("(left out: %s fails on the correct model)\n", oneLine(id))
	}
	p.printf("%s\n", s.Tally())
}
