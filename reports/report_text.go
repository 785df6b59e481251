package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
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
	labels := map[verifier.Status]string{verifier.Pass: paint("32", "PASS"), verifier.Fail: paint("31", "FAIL"), verifier.Errored: paint("33", "ERROR")}
	for _, c := range r.Cases {
		label := labels[c.Status]
		p.printf("%s %s/%s  %s\n", label, c.Desk, c.ID, c.Title)
		switch c.Status {
		case verifier.Fail:
			for _, m := range c.Mismatches {
				p.printf("    %s\n", mismatchText(m, "      "))
			}
		case verifier.Errored:
			p.printf("    could not run: %s\n", firstLine(c.Error))
		}
		if c.Status != verifier.Pass || t.Verbose {
			p.trace(c.Trace, c.Unit, "      ")
		}
	}
	for _, cl := range r.SourceOnly {
		p.printf("%s %s/%s  source-only claim; not executed: %s\n", paint("36", "NOT EXECUTED"), cl.Desk, cl.ID, cl.NotExecuted)
	}
	if r.Strength != nil {
		p.printf("\n")
		writeStrengthText(p, r.Strength)
	}
	if (t.Verbose || t.Dimensions) && r.Dimensions != nil {
		p.printf("\n")
		writeDimensionsText(p, r.Dimensions)
	}
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
// could not run.
func SummaryLine(s verifier.Summary) string {
	line := fmt.Sprintf("%d passed, %d failed", s.Passed, s.Failed)
	if s.Errored > 0 {
		line += fmt.Sprintf(", %d errored", s.Errored)
	}
	return line
}

// show renders a value for a mismatch: JSON, with a word for nothing.
func show(v any) string {
	if v == nil {
		return "nothing (null)"
	}
	return scenario.JSONText(v)
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
		width = max(width, len(f.Fault))
	}
	p.printf("Suite strength: deliberate host faults and the cases that catch them\n")
	p.printf("%-*s  %-6s  %s\n", width, "fault", "result", "caught by")
	for _, f := range s.Results {
		if f.Caught {
			p.printf("%-*s  %-6s  %s\n", width, f.Fault, "caught", strings.Join(f.CaughtBy, ", "))
		} else {
			p.printf("%-*s  %-6s  %s\n", width, f.Fault, "MISSED", "no case fails when "+f.Bug)
			p.printf("%-*s  %-6s  to catch it: %s\n", width, "", "", f.Hint)
		}
	}
	for _, id := range s.Excluded {
		p.printf("(left out: %s fails on the correct model)\n", id)
	}
	p.printf("%d of %d faults caught\n", s.Caught, s.Faults)
}
