package reports

import (
	"github.com/deskcheck/deskcheck/internal/jsonx"

	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/verifier"
)

// Explain prints, for each case, its title, why, given, the narrated trace
// and expected beside observed. No line is longer than Width (DefaultWidth
// when zero): long lines are wrapped, and values too long for the table
// are shortened (report.json holds them whole).
type Explain struct {
	Width int
}

// Write renders r as explanations.
func (e Explain) Write(w io.Writer, r *Report) error {
	for i := range r.Cases {
		if err := e.writeCase(w, i > 0, r.Lessons, &r.Cases[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeCase writes the explanation of one case, after a blank line when
// it is not the first; lessons are the report's, for its lesson line.
func (e Explain) writeCase(w io.Writer, after bool, lessons []Lesson, c *Case) error {
	width := widthOr(e.Width)
	var buf strings.Builder
	p := &printer{w: &buf}
	if after {
		p.printf("\n")
	}
	p.printf("%s/%s — %s [%s]\n", oneLine(c.Desk), oneLine(c.ID), oneLine(c.Title), oneLine(strings.ToUpper(string(c.Status))))
	if c.Why != "" {
		p.printf("why:      %s\n", oneLine(c.Why))
	}
	p.printf("scenario: %s\n", oneLine(c.Scenario))
	if c.Lesson != "" {
		p.printf("lesson:   %s\n", lessonLine(lessons, c))
	}
	if j := JudgedOn(c); j != "" {
		p.printf("releases: %s\n", oneLine(j))
	}
	p.printf("given:    %s\n", oneLine(string(c.Given)))
	if c.Error != "" {
		p.printf("could not run: %s\n", oneLine(firstLine(c.Error)))
	}
	if f := FailedOn(c); f != "" {
		p.printf("%s\n", oneLine(f))
	}
	if na := NotApplicableOn(c); na != "" {
		p.printf("%s\n", oneLine(na))
	}
	if c.Status != verifier.NotApplicable {
		explainRun(p, c, width)
	}
	if p.err != nil {
		return p.err
	}
	_, err := io.WriteString(w, wrap(buf.String(), width))
	return err
}

// explainRun prints what happened in c's run and its expected block
// beside what was observed.
func explainRun(p *printer, c *Case, width int) {
	if c.Release != "" {
		p.printf("what happened on %s:\n", oneLine(c.Release))
	} else {
		p.printf("what happened:\n")
	}
	p.trace(c.Trace, c.Unit, "  ")
	rs := rows(*c, 0)
	wk, wc, we := len("field"), len("comparison"), len("expected")
	for i := range rs {
		rs[i].Key, rs[i].Comparison = oneLine(rs[i].Key), oneLine(rs[i].Comparison)
		wk, wc = max(wk, utf8.RuneCountInString(rs[i].Key)), max(wc, utf8.RuneCountInString(rs[i].Comparison))
	}
	// Expected and observed share what the row has left.
	cell := max(12, (width-10-wk-wc)/2)
	cut := false
	for i := range rs {
		var a, b bool
		rs[i].Expected, a = shorten(rs[i].Expected, cell)
		rs[i].Observed, b = shorten(rs[i].Observed, cell)
		cut = cut || a || b
		if rs[i].Asserted {
			we = max(we, utf8.RuneCountInString(rs[i].Expected))
		}
	}
	p.printf("expected beside observed:\n")
	p.printf("    %s  %s  %s  %s\n", pad("field", wk), pad("comparison", wc), pad("expected", we), "observed")
	for _, x := range rs {
		mark := "  "
		if x.Mismatch {
			mark = "✗ "
		}
		expected := x.Expected
		if !x.Asserted {
			expected = "—"
		}
		p.printf("  %s%s  %s  %s  %s\n", mark, pad(x.Key, wk), pad(x.Comparison, wc), pad(expected, we), x.Observed)
	}
	if cut {
		p.printf("    (long values shortened; report.json holds them whole)\n")
	}
}

// pad writes s left-aligned in n characters.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

// Observe prints, for each case, an expected block ready to paste over
// the authored one, and how it differs from it. The block never drops an
// assertion that holds: it keeps every authored key that holds, with its
// authored value (a substring stays the substring the author chose), in
// authored order; a key that does not hold takes the value the model
// observes; and the keys worth asserting that the author did not are
// added after them. An authored key that does not hold and has no
// observed value to put in its place is listed as left out, so nothing
// disappears unsaid.
//
// No line is longer than Width (DefaultWidth when zero) but the block's
// own: its values are written whole, to be pasted.
type Observe struct {
	Width int
}

// observedKey is one key of the block Observe prints.
type observedKey struct {
	key   string
	value json.RawMessage
}

// Write renders r as expected blocks to paste.
func (o Observe) Write(w io.Writer, r *Report) error {
	for i := range r.Cases {
		if err := o.writeCase(w, i > 0, &r.Cases[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeCase writes the block of one case, after a blank line when it is
// not the first.
func (o Observe) writeCase(w io.Writer, after bool, c *Case) error {
	p := &printer{w: w}
	width := widthOr(o.Width)
	if after {
		p.printf("\n")
	}
	p.printf("%s", wrap(fmt.Sprintf("%s/%s — %s\n", oneLine(c.Desk), oneLine(c.ID), oneLine(c.Title)), width))
	if c.Status == verifier.Errored {
		p.printf("could not run: %s\n", oneLine(firstLine(c.Error)))
		return p.err
	}
	if c.Status == verifier.NotApplicable {
		p.printf("%s\n", oneLine(NotApplicableOn(c)))
		return p.err
	}
	if c.Release != "" {
		p.printf("observed on %s %s\n", oneLine(releaseHost(c)), oneLine(c.Release))
	}
	if f := FailedOn(c); f != "" {
		p.printf("%s\n", oneLine(f))
	}
	block, diff := observeBlock(*c)
	p.printf("\"expected\": %s\n", visible(formatBlock(block), true))
	if len(diff) == 0 {
		p.printf("the authored block holds, and asserts every key suggested\n")
		return p.err
	}
	for i, d := range diff {
		diff[i] = shortDiff(d, width)
	}
	p.printf("differences from the authored block:\n%s", wrap(strings.Join(diff, "\n")+"\n", width))
	return p.err
}

// shortDiff fits a ~ + - line to width: the values it quotes are
// shortened, the block above holds the value to keep whole.
func shortDiff(line string, width int) string {
	if utf8.RuneCountInString(line) <= width {
		return line
	}
	s, _ := shorten(line, width)
	return s
}

// observeBlock merges the authored block with the suggested one and says
// what changed: "~" a key that does not hold (its observed value is in the
// block), "-" a key that does not hold and is left out, "+" a key added.
func observeBlock(c Case) ([]observedKey, []string) {
	// A sequence's mismatch names its element (decisions[2]); the key
	// does not hold whichever element differs.
	mismatch := map[string]verifier.Mismatch{}
	for _, m := range c.Mismatches {
		key := m.Field
		if i := strings.IndexAny(key, "[."); i > 0 && c.Comparisons[key[:i]] != "" {
			key = key[:i]
		}
		if _, seen := mismatch[key]; !seen {
			mismatch[key] = m
		}
	}
	suggested := map[string]any{}
	for _, s := range c.Suggested {
		suggested[s.Key] = s.Value
	}
	var block []observedKey
	var diff []string
	authored := map[string]bool{}
	gjson.ParseBytes(c.Expected).ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		authored[key] = true
		m, bad := mismatch[key]
		if !bad {
			block = append(block, observedKey{key, compact(v.Raw)})
			return true
		}
		s, ok := suggested[key]
		if !ok {
			// Not worth suggesting on its own, but asserted and wrong: the
			// observed value replaces it when it is what an author writes
			// for the key (not for a substring or an absence).
			s, ok = c.Observed[key]
			ok = ok && s != nil && takesObserved(c.Comparisons[key])
		}
		if ok {
			block = append(block, observedKey{key, rawJSON(s)})
			diff = append(diff, fmt.Sprintf("  ~ %s: authored %s, observed %s (%s)", oneLine(m.Field), show(m.Expected), show(m.Observed), oneLine(m.Comparison)))
		} else {
			diff = append(diff, fmt.Sprintf("  - %s: authored %s does not hold (observed %s, %s); left out of the block above, decide what it should say", oneLine(key), show(m.Expected), show(m.Observed), oneLine(m.Comparison)))
		}
		return true
	})
	for _, s := range c.Suggested {
		if !authored[s.Key] {
			block = append(block, observedKey{s.Key, rawJSON(s.Value)})
			diff = append(diff, fmt.Sprintf("  + %s: %s (observed, not asserted)", oneLine(s.Key), show(s.Value)))
		}
	}
	return block, diff
}

// takesObserved tells whether a key compared this way is written as the
// value observed: every comparison but a substring and an absence.
func takesObserved(comparison string) bool {
	return comparison != "" && !strings.Contains(comparison, "substring") && comparison != "absent"
}

// rawJSON encodes v as compact JSON, without HTML escaping, as
// report.json holds it: a host's unpaired surrogate as its escape, an
// exact integer with all its digits.
func rawJSON(v any) json.RawMessage { return jsonx.Append(nil, v) }

// formatBlock renders keys as a JSON object, one key per line.
func formatBlock(keys []observedKey) string {
	var b strings.Builder
	b.WriteString("{")
	for i, x := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  ")
		b.Write(rawJSON(x.key))
		b.WriteString(": ")
		b.Write(x.value)
	}
	b.WriteString("\n}")
	return b.String()
}
