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
	ownLoaded.Lock()
	clear(ownLoaded.m)
	ownLoaded.Unlock()
}

// TestOwnFilesLoadedOnce: an engine given admin and user files already
// loaded (by an engine of another setting, or of the same) has the rules,
// problems and asked faults of one that loads them itself, for files with
// and without a prefix, with an unsafe or invalid pattern, that do not
// parse or break the schema, and for the settings that change how they
// load.
func TestOwnFilesLoadedOnce(t *testing.T) {
	prefix := "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = 100\n"
	plain := "[[rule]]\ntoolName = \"read_file\"\ndecision = \"deny\"\npriority = 7\n\n" +
		"[[rule]]\ntoolName = \"write_file\"\nargsPattern = \"(a+)+\"\ndecision = \"deny\"\npriority = 8\n\n" +
		"[[rule]]\ntoolName = \"write_file\"\nargsPattern = \"[\"\ndecision = \"deny\"\npriority = 9\n"
	files := [][]PolicyInput{
		{{Tier: TierUser, Name: "user.toml", Text: prefix}},
		{{Tier: TierAdmin, Name: "admin.toml", Text: plain}, {Tier: TierUser, Name: "user.toml", Text: prefix + "\n" + plain}},
		{{Tier: TierUser, Name: "user.toml", Text: "[[rule]\n"}},
		{{Tier: TierUser, Name: "user.toml", Text: "[[rule]]\ntoolName = 3\n"}},
		{{Tier: TierAdmin, Name: "other.toml", Text: prefix}},
	}
	var configs []Config
	for _, rel := range Releases()[:2] {
		for _, ps := range files {
			for _, cfg := range []Config{
				{},
				{Faults: fault.Of[Fault](uint64(FaultAdminTier4))},
				{Faults: fault.Of[Fault](uint64(FaultPrefixNoWordBoundary))},
				{Mutation: Mutation{Kind: MutPrefixBoundary}},
				{Mutation: Mutation{Kind: MutTierAdmin, Delta: 1}},
				{Mutation: Mutation{Kind: MutTierUser, Delta: -1}},
				{},
			} {
				cfg.Release, cfg.Policies, cfg.Mode = rel, ps, ModeDefault
				configs = append(configs, cfg)
			}
		}
	}
	fresh := make([][]string, len(configs))
	for i, cfg := range configs {
		forgetDefaults()
		fresh[i] = ruleLines(t, cfg)
	}
	for _, order := range []int{1, -1} {
		for k := range configs {
			i := k
			if order < 0 {
				i = len(configs) - 1 - k
			}
			assert.Equal(t, fresh[i], ruleLines(t, configs[i]), "config %d", i)
		}
	}
	assert.NotEqual(t, fresh[0], fresh[2], "the fault changes the prefix's pattern")
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
