package agentloopcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func TestPictureSeries(t *testing.T) {
	d := picture(scenario.Seen{
		Observed: map[string]any{"validatedSeries": []any{1.0, 2.0}, "blockedSeries": []any{0.0, 1.0}},
		Expected: map[string]any{"validatedSeries": []any{1.0, 1.0}, "blockedSeries": "not a series"},
	})
	require.NotNil(t, d)
	assert.Equal(t, "Trace by step", d.Title)
	assert.Equal(t, "Validated executions attempted, cumulative by step: 1, 2. Blocked or failed requests: 0, 1. Expected validated: 1, 1.", d.Text)
	assert.Equal(t, scenario.Series{XLabel: "decision step", Lines: []scenario.Line{
		{Name: "validated", Tone: scenario.Measured, Mark: scenario.Circle, Values: []int{1, 2}},
		{Name: "blocked", Tone: scenario.Bad, Mark: scenario.Square, Values: []int{0, 1}},
		{Name: "expected validated", Tone: scenario.Expected, Mark: scenario.Ring, Values: []int{1, 1}},
	}}, *d.Series)

	long := make([]any, 30)
	for i := range long {
		long[i] = float64(i)
	}
	d = picture(scenario.Seen{Observed: map[string]any{"validatedSeries": long, "blockedSeries": []any{}}})
	assert.Contains(t, d.Text, "Blocked or failed requests: none. The first 24 of 30 steps are drawn.")

	d = picture(scenario.Seen{Observed: map[string]any{"validatedSeries": []any{}, "blockedSeries": []any{}}})
	assert.Equal(t, "Validated executions attempted, cumulative by step: none. Blocked or failed requests: none. The run took no step.", d.Text)
	assert.Nil(t, d.Series, "a run of no step is its text alone")
	assert.Nil(t, picture(scenario.Seen{Observed: map[string]any{"validatedSeries": []any{1.5}, "blockedSeries": []any{}}}), "a series of fractions draws nothing")
}
