package geminicheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

func TestPictureStrip(t *testing.T) {
	tiers := []scenario.Rule{
		{At: 1, Label: "default"}, {At: 2, Label: "extension"}, {At: 3, Label: "session"},
		{At: 4, Label: "user"}, {At: 5, Label: "admin"},
	}
	d := picture(scenario.Seen{
		Observed: map[string]any{
			"decision": "allow", "outcome": "allowed",
			"rule":       map[string]any{"source": "Default: write.toml", "priority": 1.01, "decision": "ask_user"},
			"heuristics": []any{"known-safe"}, "subcommands": 2.0,
		},
		Expected: map[string]any{"rule": map[string]any{"source": "User: user.toml", "priority": 4.2, "decision": "deny"}},
	})
	require.NotNil(t, d)
	assert.Equal(t, "Rule by tier", d.Title)
	assert.Equal(t, "Decision: allow; outcome: allowed. Rule held responsible: Default: write.toml, ask_user, priority 1.01, default tier. Heuristics that fired: known-safe. Parts of the command: 2. Expected rule: User: user.toml, deny, priority 4.2, user tier.", d.Text)
	require.NotNil(t, d.Strip)
	assert.Equal(t, scenario.Strip{
		Cells: 5,
		Rules: tiers,
		Rows: []scenario.Row{
			{Label: "observed", Marks: []scenario.Placed{{At: 1, Mark: scenario.Diamond, Tone: scenario.Other, Letter: "Q"}}},
			{Label: "expected", Marks: []scenario.Placed{{At: 4, Mark: scenario.Cross, Tone: scenario.Expected, Letter: "D"}}},
		},
	}, *d.Strip, "the rule is drawn at its tier by its own decision, the heuristics' answer in the text")

	tests := []struct {
		name     string
		observed map[string]any
		expected map[string]any
		text     string
		marks    []scenario.Placed
	}{
		{
			name:     "no rule",
			observed: map[string]any{"decision": "ask_user", "outcome": "asks", "rule": nil},
			text:     "Decision: ask_user; outcome: asks. No rule was held responsible.",
		},
		{
			name:     "above every tier",
			observed: map[string]any{"decision": "deny", "rule": map[string]any{"source": "Settings", "priority": 1000.5, "decision": "deny"}},
			text:     "Decision: deny. Rule held responsible: Settings, deny, priority 1000.5, outside the tiers drawn.",
		},
		{
			name:     "a rule with nothing known",
			observed: map[string]any{"decision": "allow", "rule": map[string]any{}},
			text:     "Decision: allow. Rule held responsible: a rule.",
		},
		{
			name:     "allow at the admin tier, expected none",
			observed: map[string]any{"decision": "allow", "rule": map[string]any{"priority": 5.0, "decision": "allow"}},
			expected: map[string]any{"rule": nil},
			text:     "Decision: allow. Rule held responsible: allow, priority 5, admin tier. Expected rule: none.",
			marks:    []scenario.Placed{{At: 5, Mark: scenario.Circle, Tone: scenario.Good, Letter: "A"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := picture(scenario.Seen{Observed: tc.observed, Expected: tc.expected})
			require.NotNil(t, d)
			assert.Equal(t, tc.text, d.Text)
			assert.Equal(t, tc.marks, d.Strip.Rows[0].Marks)
		})
	}
	assert.Nil(t, picture(scenario.Seen{Observed: map[string]any{}}), "no decision, nothing to draw")
}
