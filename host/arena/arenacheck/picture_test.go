package arenacheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func TestPictureLanes(t *testing.T) {
	run := scenario.Seen{
		Unit:     "call",
		Observed: map[string]any{"decisions": []any{"allow", "deny", nil}, "reasons": []any{"allowed", "protected_path", nil}},
		Trace: []scenario.Event{
			{Kind: "model", Text: "model request 1"},
			{Seq: 1, Kind: "emitted"}, {Seq: 1, Kind: "check"}, {Seq: 1, Kind: "effect"},
			{Seq: 2, Kind: "emitted"}, {Seq: 2, Kind: "check"},
			{Seq: 3, Kind: "emitted"},
			{Kind: "model", Text: "model request 2"},
			{Seq: 2, Kind: "visible"}, {Seq: 3, Kind: "gap"},
			{Kind: "boundary"},
		},
	}
	d := picture(run)
	require.NotNil(t, d)
	assert.Equal(t, "Calls", d.Title)
	assert.Equal(t, "call 1: emitted → check → effect → allow (allowed); call 2: emitted → check → visible → deny (protected_path); call 3: emitted → gap.", d.Text)
	require.NotNil(t, d.Lanes)
	assert.Equal(t, scenario.Lanes{
		{Label: "call 1", Steps: []scenario.Step{{Letter: "M"}, {Letter: "P"}, {Letter: "L", Acted: true}}, End: scenario.EndsWell},
		{Label: "call 2", Steps: []scenario.Step{{Letter: "M"}, {Letter: "P"}, {Letter: "V"}}, End: scenario.EndsBad},
		{Label: "call 3", Steps: []scenario.Step{{Letter: "M"}, {Letter: "G"}}},
	}, *d.Lanes, "a call's later events join its lane; an undecided call has no end")

	assert.Nil(t, picture(scenario.Seen{Trace: []scenario.Event{{Kind: "model"}}}), "a run with no call draws nothing")
	odd := picture(scenario.Seen{Unit: "call", Observed: map[string]any{"decisions": "allow"}, Trace: []scenario.Event{{Seq: 1, Kind: "emitted"}}})
	require.NotNil(t, odd)
	assert.Equal(t, "call 1: emitted.", odd.Text, "decisions that are not a list end no lane")
}
