package gatewaycheck

import (
	"github.com/deskcheck/deskcheck/scenario"
)

// picture draws each request's decision in order — allow a circle marked
// A, deny a cross marked D — with the audit's effect count as a bar above
// it; when the case failed and expected its decisions, they are a second
// row.
func picture(run scenario.Seen) *scenario.Drawing {
	dec, ok := scenario.StringsOf(run.Observed["decisions"])
	if !ok {
		return nil
	}
	var effects []int
	if audit, ok := run.Observed["audit"].([]any); ok {
		for _, a := range audit {
			n := 0
			if m, ok := a.(map[string]any); ok {
				if f, ok := m["effectCount"].(float64); ok && f > 0 && f < 1e9 {
					n = int(f)
				}
			}
			effects = append(effects, n)
		}
	}
	seq := &scenario.Sequence{Bars: effects, BarLabel: "effects", Rows: []scenario.Row{decisionRow("observed", dec, false)}}
	text := "Decisions by request: " + scenario.PictureList(dec) + "."
	if len(dec) == 0 {
		text = "No request was decided."
	}
	if len(effects) > 0 {
		text += " Audit effect counts: " + scenario.PictureInts(effects) + "."
	}
	if ed, ok := scenario.StringsOf(run.Expected["decisions"]); ok {
		seq.Rows = append(seq.Rows, decisionRow("expected", ed, true))
		text += " Expected decisions: " + scenario.PictureList(ed) + "."
	}
	return &scenario.Drawing{Title: "Requests", Text: text + scenario.PictureCut(len(dec), ""), Sequence: seq}
}

// decisionRow marks each decision: allow a circle marked A, anything else
// a cross marked D.
func decisionRow(label string, decisions []string, expected bool) scenario.Row {
	row := scenario.Row{Label: label}
	for _, d := range decisions {
		m := scenario.Placed{Mark: scenario.Cross, Tone: scenario.Bad, Letter: "D"}
		if d == "allow" {
			m = scenario.Placed{Mark: scenario.Circle, Tone: scenario.Good, Letter: "A"}
		}
		if expected {
			m.Tone = scenario.Expected
		}
		row.Marks = append(row.Marks, m)
	}
	return row
}
