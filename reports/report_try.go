package reports

import (
	"io"
	"slices"
	"strings"
)

// Try prints what `deskcheck try` shows of its one case: the scenario and
// given block, the narrated trace, the events that decided it (those of
// the kinds its scenario declares Deciding, from the registry of the run
// the report was built from), and the expected block the model observes.
type Try struct{}

// Write renders the first case of r.
func (Try) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	if len(r.Cases) == 0 {
		return nil
	}
	c := r.Cases[0]
	p.printf("scenario: %s\n", oneLine(c.Scenario))
	p.printf("given:    %s\n", oneLine(string(c.Given)))
	if c.Error != "" {
		p.printf("could not run: %s\n", oneLine(firstLine(c.Error)))
		return p.err
	}
	p.printf("what happened:\n")
	p.trace(c.Trace, c.Unit, "  ")
	var kinds []string
	if r.registry != nil {
		if sc, _, ok := r.registry.Lookup(c.Scenario); ok {
			kinds = sc.Deciding
		}
	}
	var deciding = c.Trace[:0:0]
	for _, e := range c.Trace {
		if slices.Contains(kinds, e.Kind) {
			e.Text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(e.Text), "why:"))
			deciding = append(deciding, e)
		}
	}
	if len(deciding) > 0 {
		p.printf("decided by:\n")
		p.trace(deciding, c.Unit, "  ")
	}
	block, _ := observeBlock(c)
	p.printf("observed:\n\"expected\": %s\n", visible(formatBlock(block), true))
	return p.err
}
