package ompcheck

import (
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// laneSteps are the trace's kinds drawn in a call's lane, with the letter
// each is marked with; other kinds are left out of the drawing (the
// report's timeline lists every event).
var laneSteps = map[string]string{
	"resolve": "R", "tool_call": "T", "approval": "A", "select": "S", "execute": "E",
	"fallback": "F", "write": "W", "classify": "C",
}

// picture draws a case of any OMP scenario as one lane per call: resolve
// → tool_call → approval → select → execute, each a lettered box (execute
// and write filled: they acted), ending in a return (✓) or a throw (✕).
func picture(run scenario.Seen) *scenario.Drawing {
	type lane struct {
		seq   int
		steps []string
		end   string
	}
	var lanes []lane
	for _, e := range run.Trace {
		// A scenario of one call numbers nothing: its events are call 1.
		seq := max(e.Seq, 1)
		if len(lanes) == 0 || lanes[len(lanes)-1].seq != seq {
			lanes = append(lanes, lane{seq: seq})
		}
		l := &lanes[len(lanes)-1]
		if e.Kind == "outcome" {
			l.end = e.Text
			continue
		}
		if _, ok := laneSteps[e.Kind]; ok {
			l.steps = append(l.steps, e.Kind)
		}
	}
	if len(lanes) == 0 {
		return nil
	}
	cut := scenario.PictureCut(len(lanes), "")
	lanes = lanes[:min(len(lanes), scenario.PictureUnits)]
	var words []string
	drawn := make(scenario.Lanes, 0, len(lanes))
	for _, l := range lanes {
		label := run.Unit + " " + strconv.Itoa(l.seq)
		w := label + ": " + strings.Join(l.steps, " → ")
		d := scenario.Lane{Label: label}
		for _, st := range l.steps {
			d.Steps = append(d.Steps, scenario.Step{Letter: laneSteps[st], Acted: st == "execute" || st == "write"})
		}
		if l.end != "" {
			w += " → " + endWord(l.end)
			d.End = scenario.EndsWell
			if strings.HasPrefix(l.end, "throw") {
				d.End = scenario.EndsBad
			}
		}
		words = append(words, w)
		drawn = append(drawn, d)
	}
	return &scenario.Drawing{Title: "Calls", Text: strings.Join(words, "; ") + "." + cut, Lanes: &drawn}
}

// endWord is a lane's last step in a word: return or throw.
func endWord(outcome string) string {
	if strings.HasPrefix(outcome, "throw") {
		return "throw"
	}
	if i := strings.IndexAny(outcome, ": "); i > 0 {
		return outcome[:i]
	}
	return outcome
}
