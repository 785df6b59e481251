package gemini

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/fault"
)

// ruleLines describes an engine's rules and problems, in order, and the
// faults building it asked about.
func ruleLines(t *testing.T, cfg Config) []string {
	t.Helper()
	var asked uint64
	cfg.Faults = cfg.Faults.Asking(&asked)
	e, err := NewEngine(cfg)
	require.NoError(t, err)
	var out []string
	for _, r := range e.Rules() {
		out = append(out, fmt.Sprintf("%s %s %v %s %q %q %v %d", r.Source, r.ToolName, r.Priority, r.Decision, r.PatternSource, r.Prefix, r.Modes, r.Index))
	}
	for _, p := range e.Problems {
		out = append(out, p.Text)
	}
	return append(out, fmt.Sprint(e.Checkers), fmt.Sprintf("asked %x", asked))
}

// forgetDefaults empties the default files already loaded, and their
// rules sorted.
func forgetDefaults() {
	for _, m := range []*sync.Map{&defaultsLoaded, &sortedDefaults} {
		m.Range(func(k, _ any) bool {
			m.Delete(k)
			return true
		})
	}
}

// TestDefaultFilesLoadedOnce: an engine built from default files already
// loaded has the rules of one that loads them itself, for the settings
// that change how they load (a fault, mutants of the default tier and of
// prefixes) and for each release; and what one engine adjusts in its
// copies (plan mode's deny raised by a fault) leaves the next engine's
// alone.
func TestDefaultFilesLoadedOnce(t *testing.T) {
	var configs []Config
	for _, rel := range Releases() {
		for _, cfg := range []Config{
			{Mode: ModePlan},
			{Mode: ModePlan, Faults: fault.Of[Fault](uint64(FaultPlanOverridesUser))},
			{Mode: ModeYolo, Mutation: Mutation{Kind: MutYoloAllowAll}},
			{Mode: ModeDefault, Mutation: Mutation{Kind: MutTierDefault, Delta: 1}},
			{Mode: ModeDefault, Mutation: Mutation{Kind: MutPrefixBoundary}},
			{Mode: ModeDefault, Faults: fault.Of[Fault](uint64(FaultPrefixNoWordBoundary))},
			{Mode: ModePlan},
		} {
			cfg.Release = rel
			configs = append(configs, cfg)
		}
	}
	fresh := make([][]string, len(configs))
	for i, cfg := range configs {
		forgetDefaults()
		fresh[i] = ruleLines(t, cfg)
	}
	forgetDefaults()
	for i, cfg := range configs {
		assert.Equal(t, fresh[i], ruleLines(t, cfg), "config %d", i)
	}
	assert.NotEqual(t, fresh[0], fresh[1], "the fault moves plan mode's deny")
}
