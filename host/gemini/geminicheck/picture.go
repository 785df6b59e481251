package geminicheck

import (
	"fmt"
	"math"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// tierNames are the tiers a rule's priority falls in, lowest first: the
// integer part of a priority is its tier, 1 to 5.
var tierNames = []string{"default", "extension", "session", "user", "admin"}

// picture draws where the rule held responsible sits among the five
// tiers — a strip of one position per tier, the rule marked at its tier
// by its decision: allow a circle marked A, deny a cross marked D,
// ask_user a diamond marked Q. When the case failed and expected a rule
// with a priority, that rule is a second row.
func picture(run scenario.Seen) *scenario.Drawing {
	decision, ok := run.Observed["decision"].(string)
	if !ok {
		return nil
	}
	strip := &scenario.Strip{Cells: len(tierNames)}
	for i, n := range tierNames {
		strip.Rules = append(strip.Rules, scenario.Rule{At: i + 1, Label: n})
	}
	text := "Decision: " + decision
	if o, ok := run.Observed["outcome"].(string); ok {
		text += "; outcome: " + o
	}
	text += "."
	row, words := ruleRow("observed", run.Observed["rule"], false)
	strip.Rows = append(strip.Rows, row)
	if words == "" {
		text += " No rule was held responsible."
	} else {
		text += " Rule held responsible: " + words + "."
	}
	if h, ok := scenario.StringsOf(run.Observed["heuristics"]); ok && len(h) > 0 {
		text += " Heuristics that fired: " + scenario.PictureList(h) + "."
	}
	if n, ok := run.Observed["subcommands"].(float64); ok {
		text += fmt.Sprintf(" Parts of the command: %g.", n)
	}
	if rule, ok := run.Expected["rule"]; ok {
		row, words := ruleRow("expected", rule, true)
		strip.Rows = append(strip.Rows, row)
		if words == "" {
			words = "none"
		}
		text += " Expected rule: " + words + "."
	}
	return &scenario.Drawing{Title: "Rule by tier", Text: text, Strip: strip}
}

// ruleRow marks a rule (an observed or expected rule object) at the tier
// of its priority, and says it in words; a rule that is not an object
// marks nothing and says "". A priority outside the five tiers is not
// drawn, and its words say so.
func ruleRow(label string, v any, expected bool) (scenario.Row, string) {
	row := scenario.Row{Label: label}
	r, ok := v.(map[string]any)
	if !ok {
		return row, ""
	}
	var parts []string
	if s, ok := r["source"].(string); ok {
		parts = append(parts, s)
	}
	d, _ := r["decision"].(string)
	if d != "" {
		parts = append(parts, d)
	}
	p, ok := r["priority"].(float64)
	if ok && !math.IsNaN(p) && !math.IsInf(p, 0) {
		at := int(math.Floor(p))
		where := fmt.Sprintf("priority %g", p)
		if at >= 1 && at <= len(tierNames) {
			where += ", " + tierNames[at-1] + " tier"
			m := decisionMark(d)
			m.At = at
			if expected {
				m.Tone = scenario.Expected
			}
			row.Marks = append(row.Marks, m)
		} else {
			where += ", outside the tiers drawn"
		}
		parts = append(parts, where)
	}
	if len(parts) == 0 {
		return row, "a rule"
	}
	return row, strings.Join(parts, ", ")
}

// decisionMark is the mark of a rule's decision: allow a circle marked A,
// deny a cross marked D, ask_user (or anything else) a diamond marked Q.
func decisionMark(d string) scenario.Placed {
	switch d {
	case "allow":
		return scenario.Placed{Mark: scenario.Circle, Tone: scenario.Good, Letter: "A"}
	case "deny":
		return scenario.Placed{Mark: scenario.Cross, Tone: scenario.Bad, Letter: "D"}
	}
	return scenario.Placed{Mark: scenario.Diamond, Tone: scenario.Other, Letter: "Q"}
}
