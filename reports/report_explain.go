package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tidwall/gjson"

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
		p.printf("%s/%s — %s [%s]\n", oneLine(c.Desk), oneLine(c.ID), oneLine(c.Title), oneLine(strings.ToUpper(string(c.Status))))
		if c.Why != "" {
			p.printf("why:      %s\n", oneLine(c.Why))
		}
		p.printf("scenario: %s\n", oneLine(c.Scenario))
		if j := JudgedOn(&c); j != "" {
			p.printf("releases: %s\n", oneLine(j))
		}
		p.printf("given:    %s\n", oneLine(string(c.Given)))
		if c.Error != "" {
			p.printf("could not run: %s\n", oneLine(firstLine(c.Error)))
		}
		if f := FailedOn(&c); f != "" {
			p.printf("%s\n", oneLine(f))
		}
		if na := NotApplicableOn(&c); na != "" {
			p.printf("%s\n", oneLine(na))
		}
		if c.Status == verifier.NotApplicable {
			continue
		}
		if c.Release != "" {
			p.printf("what happened on %s:\n", oneLine(c.Release))
		} else {
			p.printf("what happened:\n")
		}
		p.trace(c.Trace, c.Unit, "  ")
		rs := rows(c)
		wk, wc, we := len("field"), len("comparison"), len("expected")
		for i := range rs {
			rs[i].Key, rs[i].Comparison = oneLine(rs[i].Key), oneLine(rs[i].Comparison)
			x := rs[i]
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

// Observe prints, for each case, an expected block ready to paste over
// the authored one, and how it differs from it. The block never drops an
// assertion that holds: it keeps every authored key that holds, with its
// authored value (a substring stays the substring the author chose), in
// authored order; a key that does not hold takes the value the model
// observes; and the keys worth asserting that the author did not are
// added after them. An authored key that does not hold and has no
// observed value to put in its place is listed as left out, so nothing
// disappears unsaid.
type Observe struct{}

// observedKey is one key of the block Observe prints.
type observedKey struct {
	key   string
	value json.RawMessage
}

// Write renders r as expected blocks to paste.
func (Observe) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	for i, c := range r.Cases {
		if i > 0 {
			p.printf("\n")
		}
		p.printf("%s/%s — %s\n", oneLine(c.Desk), oneLine(c.ID), oneLine(c.Title))
		if c.Status == verifier.Errored {
			p.printf("could not run: %s\n", oneLine(firstLine(c.Error)))
			continue
		}
		if c.Status == verifier.NotApplicable {
			p.printf("%s\n", oneLine(NotApplicableOn(&c)))
			continue
		}
		if c.Release != "" {
			p.printf("observed on %s %s\n", oneLine(releaseHost(&c)), oneLine(c.Release))
		}
		if f := FailedOn(&c); f != "" {
			p.printf("%s\n", oneLine(f))
		}
		block, diff := observeBlock(c)
		p.printf("\"expected\": %s\n", visible(formatBlock(block), true))
		if len(diff) == 0 {
			p.printf("the authored block holds, and asserts every key suggested\n")
			continue
		}
		p.printf("differences from the authored block:\n%s\n", strings.Join(diff, "\n"))
	}
	return p.err
}

// observeBlock merges the authored block with the suggested one and says
// what changed: "~" a key that does not hold (its observed value is in the
// block), "-" a key that does not hold and is left out, "+" a key added.
func observeBlock(c Case) ([]observedKey, []string) {
	mismatch := map[string]verifier.Mismatch{}
	for _, m := range c.Mismatches {
		mismatch[m.Field] = m
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
		if s, ok := suggested[key]; ok {
			block = append(block, observedKey{key, rawJSON(s)})
			diff = append(diff, fmt.Sprintf("  ~ %s: authored %s, observed %s (%s)", oneLine(key), show(m.Expected), show(m.Observed), oneLine(m.Comparison)))
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

// rawJSON encodes v as compact JSON, without HTML escaping.
func rawJSON(v any) json.RawMessage {
	b, err := marshal(v, "")
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

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
