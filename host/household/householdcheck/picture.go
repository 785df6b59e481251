package householdcheck

import (
	"regexp"
	"strconv"

	"github.com/deskcheck/deskcheck/scenario"
)

var (
	budgetRE   = regexp.MustCompile(`budget (\d+)`)
	deadlineRE = regexp.MustCompile(`≥ deadline (\S+ s)`)
)

// statusMarks draws each attempt's status as a shape, a tone and a letter
// (ok a circle O, denied a cross D, invalid a triangle I, timeout a
// diamond T); any other status is a square marked ?.
var statusMarks = map[string]scenario.Placed{
	"ok":      {Mark: scenario.Circle, Tone: scenario.Good, Letter: "O"},
	"denied":  {Mark: scenario.Cross, Tone: scenario.Bad, Letter: "D"},
	"invalid": {Mark: scenario.Triangle, Tone: scenario.Invalid, Letter: "I"},
	"timeout": {Mark: scenario.Diamond, Tone: scenario.Late, Letter: "T"},
}

func statusMark(st string, at int) scenario.Placed {
	m, ok := statusMarks[st]
	if !ok {
		m = scenario.Placed{Mark: scenario.Square, Tone: scenario.Other, Letter: "?"}
	}
	m.At = at
	return m
}

// picture draws the runtime's attempts by status at the decision that
// made each, with the decision budget and the decision at which the
// deadline had passed marked; when the case failed and expected the
// statuses, they are a second row.
func picture(run scenario.Seen) *scenario.Drawing {
	statuses, ok := scenario.StringsOf(run.Observed["statuses"])
	if !ok {
		return nil
	}
	var at []int
	budget, lateAt, late := 0, 0, ""
	for _, e := range run.Trace {
		switch e.Kind {
		case "attempt":
			at = append(at, e.Seq)
		case "budget":
			if m := budgetRE.FindStringSubmatch(e.Text); m != nil {
				budget, _ = strconv.Atoi(m[1])
			}
		case "clock":
			if m := deadlineRE.FindStringSubmatch(e.Text); m != nil && lateAt == 0 {
				lateAt, late = max(e.Seq, 1), m[1]
			}
		}
	}
	decisions := 0
	if f, ok := run.Observed["decisions"].(float64); ok && f >= 0 && f < 1e9 {
		decisions = int(f)
	}
	text := "Attempts by status: " + scenario.PictureList(statuses) + "."
	if len(statuses) == 0 {
		text = "No attempt was made."
	}
	text += " Decisions taken: " + strconv.Itoa(decisions)
	if budget > 0 {
		text += " of a budget of " + strconv.Itoa(budget)
	}
	text += "."
	if lateAt > 0 {
		text += " The deadline (" + late + ") had passed at decision " + strconv.Itoa(lateAt) + "."
	}
	if o, ok := run.Observed["outcome"].(string); ok {
		text += " Outcome: " + o + "."
	}
	strip := &scenario.Strip{Cells: max(decisions, budget, lateAt, len(at), 1)}
	observed := scenario.Row{Label: "observed"}
	for i, st := range statuses {
		d := 0 // an attempt the trace does not place is not drawn
		if i < len(at) {
			d = at[i]
		}
		observed.Marks = append(observed.Marks, statusMark(st, d))
	}
	strip.Rows = append(strip.Rows, observed)
	if es, ok := scenario.StringsOf(run.Expected["statuses"]); ok {
		text += " Expected statuses: " + scenario.PictureList(es) + "."
		expected := scenario.Row{Label: "expected"}
		for i, st := range es {
			d := i + 1
			if i < len(at) {
				d = at[i]
			}
			m := statusMark(st, d)
			m.Tone = scenario.Expected
			expected.Marks = append(expected.Marks, m)
		}
		strip.Rows = append(strip.Rows, expected)
	}
	if budget > 0 {
		strip.Rules = append(strip.Rules, scenario.Rule{At: budget, AtEnd: true, Label: "budget", Tone: scenario.Neutral})
	}
	if lateAt > 0 {
		strip.Rules = append(strip.Rules, scenario.Rule{At: lateAt, Label: "deadline", Tone: scenario.Bad})
	}
	return &scenario.Drawing{Title: "Attempts by decision", Text: text, Strip: strip}
}
