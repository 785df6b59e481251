package agentloopcheck

import (
	"github.com/deskcheck/deskcheck/scenario"
)

// picture draws the runner's two cumulative series by decision step, as
// the published showcase draws them: validated executions attempted
// (circles) and blocked or failed requests (squares); when the case
// failed, the expected series beside them, hollow.
func picture(run scenario.Seen) *scenario.Drawing {
	val, ok1 := scenario.IntsOf(run.Observed["validatedSeries"])
	blk, ok2 := scenario.IntsOf(run.Observed["blockedSeries"])
	if !ok1 || !ok2 {
		return nil
	}
	lines := []scenario.Line{
		{Name: "validated", Tone: scenario.Measured, Mark: scenario.Circle, Values: val},
		{Name: "blocked", Tone: scenario.Bad, Mark: scenario.Square, Values: blk},
	}
	text := "Validated executions attempted, cumulative by step: " + orNone(val) + ". Blocked or failed requests: " + orNone(blk) + "."
	if ev, ok := scenario.IntsOf(run.Expected["validatedSeries"]); ok {
		lines = append(lines, scenario.Line{Name: "expected validated", Tone: scenario.Expected, Mark: scenario.Ring, Values: ev})
		text += " Expected validated: " + orNone(ev) + "."
	}
	if eb, ok := scenario.IntsOf(run.Expected["blockedSeries"]); ok {
		lines = append(lines, scenario.Line{Name: "expected blocked", Tone: scenario.Expected, Mark: scenario.Ring, Dashed: true, Values: eb})
		text += " Expected blocked: " + orNone(eb) + "."
	}
	steps := 0
	for _, l := range lines {
		steps = max(steps, len(l.Values))
	}
	if steps == 0 {
		return &scenario.Drawing{Title: "Trace by step", Text: text + " The run took no step."}
	}
	return &scenario.Drawing{Title: "Trace by step", Text: text + scenario.PictureCut(steps, "steps"),
		Series: &scenario.Series{XLabel: "decision step", Lines: lines}}
}

func orNone(xs []int) string {
	if len(xs) == 0 {
		return "none"
	}
	return scenario.PictureInts(xs)
}
