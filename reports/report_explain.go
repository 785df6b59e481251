package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// Explain prints, for each case, its title, why, given, the narrated trace
// and expected beside observed.
type Explain struct{}

// Write renders r as explanations.
func (Explain) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	for i, c := range r.Cases {
		if i > 0 {
			p.printf("\n")
		}
		p.printf("%s/%s — %s [%s]\n", c.Desk, c.ID, c.Title, strings.ToUpper(string(c.Status)))
		if c.Why != "" {
			p.printf("why:      %s\n", c.Why)
		}
		p.printf("scenario: %s\n", c.Scenario)
		p.printf("given:    %s\n", c.Given)
		if c.Error != "" {
			p.printf("could not run: %s\n", firstLine(c.Error))
		}
		p.printf("what happened:\n")
		p.trace(c.Trace, c.Unit, "  ")
		rs := rows(c)
		wk, wc, we := len("field"), len("comparison"), len("expected")
		for _, x := range rs {
			wk, wc, we = max(wk, len(x.Key)), max(wc, len(x.Comparison)), max(we, len(x.Expected))
		}
		p.printf("expected beside observed:\n")
		p.printf("    %-*s  %-*s  %-*s  %s\n", wk, "field", wc, "comparison", we, "expected", "observed")
		for _, x := range rs {
			mark := "  "
			if x.Mismatch {
				mark = "✗ "
			}
			expected := x.Expected
			if !x.Asserted {
				expected = "—"
			}
			p.printf("  %s%-*s  %-*s  %-*s  %s\n", mark, wk, x.Key, wc, x.Comparison, we, expected, x.Observed)
		}
	}
	return p.err
}

// Observe prints, for each case, the expected block the host model
// observes, ready to paste, and how it differs from the authored block.
type Observe struct{}

// Write renders r as suggested expected blocks.
func (Observe) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	for i, c := range r.Cases {
		if i > 0 {
			p.printf("\n")
		}
		p.printf("%s/%s — %s\n", c.Desk, c.ID, c.Title)
		if c.Status == verifier.Errored {
			p.printf("could not run: %s\n", firstLine(c.Error))
			continue
		}
		s := c.Suggested
		p.printf("\"expected\": %s\n", verifier.FormatExpected(s, ""))
		authored := map[string]bool{}
		for _, x := range rows(c) {
			if x.Asserted {
				authored[x.Key] = true
			}
		}
		var diff []string
		for _, m := range c.Mismatches {
			diff = append(diff, fmt.Sprintf("  ~ %s: authored %s, observed %s (%s)", m.Field, show(m.Expected), show(m.Observed), m.Comparison))
		}
		for _, x := range s {
			if !authored[x.Key] {
				diff = append(diff, fmt.Sprintf("  + %s: %s (observed, not asserted)", x.Key, show(x.Value)))
			}
		}
		if len(diff) == 0 {
			p.printf("the authored block holds, and asserts every key suggested\n")
			continue
		}
		p.printf("differences from the authored block:\n%s\n", strings.Join(diff, "\n"))
	}
	return p.err
}
