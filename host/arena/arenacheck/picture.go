package arenacheck

import (
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// laneSteps are the trace's kinds drawn in a call's lane, with the letter
// each is marked with: the model emitted the call (M), the policy fixture
// decided it (P), the ledger recorded an effect (L, filled: it acted), the
// denial reached the next model request (V), the records left a gap (G).
// Other kinds are left out (the report's timeline lists every event).
var laneSteps = map[string]string{
	"emitted": "M", "check": "P", "effect": "L", "visible": "V", "gap": "G",
}

// picture draws an arena item as one lane per scripted call, in the order
// its events were recorded, ending in the fixture's decision: allow (✓)
// or deny (✕); a call the fixture never decided has no end.
func picture(run scenario.Seen) *scenario.Drawing {
	type lane struct {
		seq   int
		steps []string
	}
	var lanes []lane
	for _, e := range run.Trace {
		if e.Seq < 1 {
			continue
		}
		if _, ok := laneSteps[e.Kind]; !ok {
			continue
		}
		i := 0
		for i < len(lanes) && lanes[i].seq != e.Seq {
			i++
		}
		if i == len(lanes) {
			lanes = append(lanes, lane{seq: e.Seq})
		}
		lanes[i].steps = append(lanes[i].steps, e.Kind)
	}
	if len(lanes) == 0 {
		return nil
	}
	decisions, reasons := run.Observed["decisions"], run.Observed["reasons"]
	cut := scenario.PictureCut(len(lanes), "")
	lanes = lanes[:min(len(lanes), scenario.PictureUnits)]
	var words []string
	drawn := make(scenario.Lanes, 0, len(lanes))
	for _, l := range lanes {
		label := run.Unit + " " + strconv.Itoa(l.seq)
		w := label + ": " + strings.Join(l.steps, " → ")
		d := scenario.Lane{Label: label}
		for _, st := range l.steps {
			d.Steps = append(d.Steps, scenario.Step{Letter: laneSteps[st], Acted: st == "effect"})
		}
		switch decision := stringAt(decisions, l.seq-1); decision {
		case "allow", "deny":
			d.End = scenario.EndsWell
			if decision == "deny" {
				d.End = scenario.EndsBad
			}
			w += " → " + decision
			if r := stringAt(reasons, l.seq-1); r != "" {
				w += " (" + r + ")"
			}
		}
		words = append(words, w)
		drawn = append(drawn, d)
	}
	return &scenario.Drawing{Title: "Calls", Text: strings.Join(words, "; ") + "." + cut, Lanes: &drawn}
}

// stringAt is the k-th element of an observed list when it is a string;
// "" for null, another type, or a k past the end.
func stringAt(v any, k int) string {
	arr, ok := v.([]any)
	if !ok || k < 0 || k >= len(arr) {
		return ""
	}
	s, _ := arr[k].(string)
	return s
}
