package geminicheck

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/scenario"
)

// runOnce decodes and lints a case, drops lint's engine when fresh, and
// runs it once under env's faults and release.
func runOnce(t *testing.T, c deskCase, env scenario.Env, fresh bool) (scenario.Observation, []scenario.Event, uint64, error) {
	t.Helper()
	g, err := decodeGiven(c.Given)
	require.NoError(t, err, c.ID)
	lint(g, nil)
	if fresh {
		g.built.Store(nil)
	}
	var asked uint64
	env.Asked, env.Trace = &asked, &scenario.Trace{}
	obs, _, err := run(context.Background(), g, env)
	return obs, env.Trace.Events(), asked, err
}

// TestLintEngineServesTheFirstRun: a run that takes the engine lint built
// observes, narrates and asks about faults exactly as one that builds its
// own, on every Gemini case of the repository; a run lint's engine does
// not fit (another release, a fault, a mutant) builds its own.
func TestLintEngineServesTheFirstRun(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	paths = append(paths, "../../../cases/gemini-desk.json")
	envs := map[string]scenario.Env{
		"newest":       {},
		"newest named": {Release: gemini.Newest().Version},
		"oldest":       {Release: gemini.Releases()[0].Version},
		"a fault":      {Faults: uint64(gemini.FaultDenyBeatsAllow)},
		"a mutant":     {Mutant: 1},
	}
	ran := 0
	for _, path := range paths {
		for _, c := range readDesk(t, path) {
			g, err := decodeGiven(c.Given)
			if err != nil {
				continue
			}
			lint(g, nil)
			if g.built.Load() == nil {
				continue // the engine refuses it: no engine to share
			}
			for name, env := range envs {
				kept, keptEvents, keptAsked, keptErr := runOnce(t, c, env, false)
				own, ownEvents, ownAsked, ownErr := runOnce(t, c, env, true)
				assert.Equal(t, ownErr, keptErr, "%s %s", c.ID, name)
				assert.Equal(t, own, kept, "%s %s", c.ID, name)
				assert.Equal(t, ownEvents, keptEvents, "%s %s", c.ID, name)
				assert.Equal(t, ownAsked, keptAsked, "%s %s: faults asked", c.ID, name)
				ran++
			}
			var asked uint64
			_, _, err = run(context.Background(), g, scenario.Env{Asked: &asked, Trace: &scenario.Trace{}})
			require.NoError(t, err, c.ID)
			assert.Nil(t, g.built.Load(), "%s: the first run takes lint's engine", c.ID)
			assert.NotZero(t, asked, "%s: the faults building asked about are noted", c.ID)
		}
	}
	assert.Greater(t, ran, 500)
}
