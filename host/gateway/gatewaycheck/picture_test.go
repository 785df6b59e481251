package gatewaycheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func TestPictureSequence(t *testing.T) {
	allow := scenario.Placed{Mark: scenario.Circle, Tone: scenario.Good, Letter: "A"}
	deny := scenario.Placed{Mark: scenario.Cross, Tone: scenario.Bad, Letter: "D"}
	expAllow := scenario.Placed{Mark: scenario.Circle, Tone: scenario.Expected, Letter: "A"}
	d := picture(scenario.Seen{
		Observed: map[string]any{"decisions": []any{"allow", "deny", "error"}, "audit": []any{map[string]any{"effectCount": 2.0}, map[string]any{}, "odd"}},
		Expected: map[string]any{"decisions": []any{"allow", "allow"}},
	})
	require.NotNil(t, d)
	assert.Equal(t, "Requests", d.Title)
	assert.Equal(t, "Decisions by request: allow, deny, error. Audit effect counts: 2, 0, 0. Expected decisions: allow, allow.", d.Text)
	assert.Equal(t, scenario.Sequence{
		Bars: []int{2, 0, 0}, BarLabel: "effects",
		Rows: []scenario.Row{
			{Label: "observed", Marks: []scenario.Placed{allow, deny, deny}},
			{Label: "expected", Marks: []scenario.Placed{expAllow, expAllow}},
		},
	}, *d.Sequence, "anything but allow is drawn as a denial; an audit entry without a count has none")

	many := make([]any, 30)
	for i := range many {
		many[i] = "allow"
	}
	d = picture(scenario.Seen{Observed: map[string]any{"decisions": many}})
	assert.Contains(t, d.Text, "… (30 in all). The first 24 of 30 are drawn.")
	assert.Equal(t, "No request was decided.", picture(scenario.Seen{Observed: map[string]any{"decisions": []any{}}}).Text)
	assert.Nil(t, picture(scenario.Seen{Observed: map[string]any{}}), "no decisions, nothing to draw")
}
