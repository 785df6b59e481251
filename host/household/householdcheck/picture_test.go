package householdcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func TestPictureStrip(t *testing.T) {
	run := scenario.Seen{
		Observed: map[string]any{"statuses": []any{"ok", "timeout", "weird"}, "decisions": 3.0, "outcome": "deadline_exceeded"},
		Expected: map[string]any{"statuses": []any{"ok", "ok", "ok", "denied"}},
		Trace: []scenario.Event{
			{Kind: "budget", Text: "decision budget 5"},
			{Seq: 1, Kind: "attempt"}, {Seq: 3, Kind: "attempt"}, {Seq: 3, Kind: "attempt"},
			{Seq: 3, Kind: "clock", Text: "clock 31 s ≥ deadline 30 s: late"},
			{Seq: 4, Kind: "clock", Text: "clock 40 s ≥ deadline 30 s: late"},
		},
	}
	d := picture(run)
	require.NotNil(t, d)
	assert.Equal(t, "Attempts by decision", d.Title)
	assert.Equal(t, "Attempts by status: ok, timeout, weird. Decisions taken: 3 of a budget of 5. The deadline (30 s) had passed at decision 3. Outcome: deadline_exceeded. Expected statuses: ok, ok, ok, denied.", d.Text)
	require.NotNil(t, d.Strip)
	assert.Equal(t, scenario.Strip{
		Cells: 5,
		Rows: []scenario.Row{
			{Label: "observed", Marks: []scenario.Placed{
				{At: 1, Mark: scenario.Circle, Tone: scenario.Good, Letter: "O"},
				{At: 3, Mark: scenario.Diamond, Tone: scenario.Late, Letter: "T"},
				{At: 3, Mark: scenario.Square, Tone: scenario.Other, Letter: "?"},
			}},
			{Label: "expected", Marks: []scenario.Placed{
				{At: 1, Mark: scenario.Circle, Tone: scenario.Expected, Letter: "O"},
				{At: 3, Mark: scenario.Circle, Tone: scenario.Expected, Letter: "O"},
				{At: 3, Mark: scenario.Circle, Tone: scenario.Expected, Letter: "O"},
				{At: 4, Mark: scenario.Cross, Tone: scenario.Expected, Letter: "D"},
			}},
		},
		Rules: []scenario.Rule{
			{At: 5, AtEnd: true, Label: "budget", Tone: scenario.Neutral},
			{At: 3, Label: "deadline", Tone: scenario.Bad},
		},
	}, *d.Strip, "an expected status past the attempts sits at its own number; the first deadline passed is marked")

	none := picture(scenario.Seen{Observed: map[string]any{"statuses": []any{}}})
	assert.Equal(t, "No attempt was made. Decisions taken: 0.", none.Text)
	assert.Equal(t, 1, none.Strip.Cells)
	assert.Nil(t, picture(scenario.Seen{Observed: map[string]any{"statuses": "ok"}}), "statuses that are not a list draw nothing")
}
