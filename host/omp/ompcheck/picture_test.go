package ompcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func TestPictureLanes(t *testing.T) {
	trace := []scenario.Event{
		{Seq: 1, Kind: "resolve"}, {Seq: 1, Kind: "tool_call"}, {Seq: 1, Kind: "approval"}, {Seq: 1, Kind: "select"},
		{Seq: 1, Kind: "rpc-out"}, {Seq: 1, Kind: "execute"}, {Seq: 1, Kind: "outcome", Text: "return"},
		{Seq: 2, Kind: "resolve"}, {Seq: 2, Kind: "outcome", Text: "throw: Tool call denied by user: t"},
	}
	d := picture(scenario.Seen{Trace: trace, Unit: "call"})
	require.NotNil(t, d)
	assert.Equal(t, "Calls", d.Title)
	assert.Equal(t, "call 1: resolve → tool_call → approval → select → execute → return; call 2: resolve → throw.", d.Text)
	require.NotNil(t, d.Lanes)
	assert.Equal(t, scenario.Lanes{
		{Label: "call 1", End: scenario.EndsWell, Steps: []scenario.Step{{Letter: "R"}, {Letter: "T"}, {Letter: "A"}, {Letter: "S"}, {Letter: "E", Acted: true}}},
		{Label: "call 2", End: scenario.EndsBad, Steps: []scenario.Step{{Letter: "R"}}},
	}, *d.Lanes, "kinds without a letter are left out; execute acted")

	// One call that numbers nothing is call 1; a write acted; no outcome
	// ends nothing.
	d = picture(scenario.Seen{Trace: []scenario.Event{{Kind: "fallback"}, {Kind: "write"}}, Unit: "call"})
	assert.Equal(t, scenario.Lanes{{Label: "call 1", Steps: []scenario.Step{{Letter: "F"}, {Letter: "W", Acted: true}}}}, *d.Lanes)

	var many []scenario.Event
	for i := 1; i <= 30; i++ {
		many = append(many, scenario.Event{Seq: i, Kind: "classify"})
	}
	d = picture(scenario.Seen{Trace: many, Unit: "call"})
	assert.Len(t, *d.Lanes, scenario.PictureUnits)
	assert.Contains(t, d.Text, "call 24: classify. The first 24 of 30 are drawn.")
	assert.NotContains(t, d.Text, "call 25", "the text lists the lanes drawn")

	assert.Nil(t, picture(scenario.Seen{Unit: "call"}), "a run with no event draws nothing")
}
