package ompcheck

import (
	"context"
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

// TestFallbackWithoutHandlersSaysItDoesNothing: the schema (help fallback)
// says that without a handler the fallback does nothing, and on every
// release that has the fallback a missing parent is then neither created
// nor retried: one attempt, the same error.
func TestFallbackWithoutHandlersSaysItDoesNothing(t *testing.T) {
	desc := gjson.GetBytes(fallbackSchema, "given.properties.handlers.description").String()
	assert.Contains(t, desc, "With no handler registered the fallback does nothing, on every release that has it")
	assert.Contains(t, gjson.GetBytes(fallbackSchema, "given.description").String(), "without one it does nothing")
	for _, g := range omp.Groups() {
		if !g.HasFallback() {
			continue
		}
		for _, v := range g.Releases() {
			for _, given := range []string{`{"code":"ENOENT","message":"ENOENT: no such file or directory"}`, `{"code":"EACCES","message":"EACCES: permission denied"}`, `{"code":"ENOENT","message":"ENOENT","handlers":[]}`} {
				obs, err := Fallback.Compile([]byte(given), nil).Run(context.Background(), scenario.Env{Trace: &scenario.Trace{}, Release: v.String()})
				require.NoError(t, err)
				assert.Equal(t, "throw-same-error", obs.Values["outcome"], "omp %s %s", v, given)
				assert.Equal(t, 1, obs.Values["primitiveAttempts"], "omp %s %s", v, given)
				assert.Equal(t, 0, obs.Values["effects"], "omp %s %s", v, given)
			}
		}
	}
}
