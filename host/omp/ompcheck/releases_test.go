package ompcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
)

// TestChangesSayWhatExercisesThem: every change point of the model says
// what a case must do to exercise it, and the releases carry their groups.
func TestChangesSayWhatExercisesThem(t *testing.T) {
	require.Len(t, Changes, len(omp.Changes()))
	for _, c := range Changes {
		assert.NotEmpty(t, c.Unexercised, c.ID)
		_, _, err := omp.Lookup(c.Since)
		assert.NoError(t, err, c.ID)
	}
	tests := []struct {
		id, scenario, given string
		want                bool
	}{
		{"unknown-mode", "wrapper", `{"mode": "YOLO"}`, true},
		{"unknown-mode", "wrapper", `{"mode": "yolo"}`, false},
		{"unknown-mode", "wrapper", `{}`, false},
		{"non-object-policies", "wrapper", `{"userPolicies": []}`, true},
		{"non-object-policies", "wrapper", `{"userPolicies": {}}`, false},
		{"tool-deny-text", "wrapper", `{"approval": {"policy": " Deny "}}`, true},
		{"tool-deny-text", "wrapper", `{"approval": "exec", "userPolicies": {"seed_note": "deny"}}`, false},
		{"revision-runs", "wrapper", `{"revise": {}}`, true},
		{"fallback", "fallback", `{}`, true},
		{"classifier", "fallback", `{}`, false},
	}
	byID := map[string]func(*scenario.Compiled) bool{}
	for _, c := range Changes {
		byID[c.ID] = c.Exercised
	}
	for _, tt := range tests {
		f := byID[tt.id]
		require.NotNil(t, f, tt.id)
		var sc *scenario.Scenario
		for _, s := range Family.Scenarios {
			if s.Name == tt.scenario {
				sc = s
			}
		}
		require.NotNil(t, sc, tt.scenario)
		assert.Equal(t, tt.want, f(sc.Compile([]byte(tt.given), nil)), "%s %s", tt.id, tt.given)
	}
	assert.Nil(t, byID["missing-context"], "no desk key reaches it")
	assert.Len(t, Releases, 12)
	assert.Equal(t, "has no file-write fallback", Releases[3].Lacks["fallback"])
	assert.Nil(t, Releases[4].Lacks, "18.1.16 has every scenario")
}

// TestModeDescriptionSaysEveryRelease: the schema's description of mode
// (what help wrapper prints and an editor shows) says what an unknown mode
// does on each run of releases, as the model does it, and what it does on
// the release a case runs on when it names none; the model agrees.
func TestModeDescriptionSaysEveryRelease(t *testing.T) {
	desc := gjson.GetBytes(wrapperSchema, "given.properties.mode.description").String()
	assert.Contains(t, desc, unknownModeMeanings)
	newest := omp.Newest()
	g, _ := omp.GroupOf(newest)
	effect := "approves no tier"
	if g.UnknownModeIsYolo() {
		effect = "approves every tier"
	}
	assert.Contains(t, desc, "A case that names no release runs on "+newest.String()+", where an unknown mode "+effect+".")

	unknown := `{"approval":"exec","mode":"Always-Ask","ui":false}`
	for _, g := range omp.Groups() {
		for _, v := range g.Releases() {
			obs := runGiven(t, unknown, v.String())
			want := "throw"
			if !g.HasApprovalGate() || g.UnknownModeIsYolo() {
				want = "return"
			}
			assert.Equal(t, want, obs["outcome"], "omp %s", v)
		}
	}
	assert.Equal(t, "return", runGiven(t, unknown, "")["outcome"], "the default release")
}
