package gemini

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/fault"
)

// TestMergeByPriorityIsTheSort: lists each sorted by byPriority and merged
// give byPriority's order of their concatenation, ties and all, when no
// priority is NaN.
func TestMergeByPriorityIsTheSort(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	values := []float64{1, 1.5, 2, 2.95, 3, 9, -1, 0, math.Copysign(0, -1), math.Inf(1)}
	for round := 0; round < 300; round++ {
		var all []*Rule
		lists := make([][]*Rule, 1+round%4)
		for k := range lists {
			for range rng.Intn(30) {
				r := &Rule{Priority: values[rng.Intn(len(values)-round%5)], Index: len(all)}
				lists[k] = append(lists[k], r)
				all = append(all, r)
			}
			byPriority(lists[k], true)
		}
		byPriority(all, true)
		if len(all) == 0 {
			require.Empty(t, mergeByPriority(lists...))
			continue
		}
		require.Equal(t, all, mergeByPriority(lists...), "round %d", round)
	}
}

// TestEngineMergesAsItSorts: an engine that merges its own rules into its
// release's default rules sorted once has the rules, problems, and asked
// faults of one that sorts them all, for each release and every fault
// and mutant that moves a rule or changes the order, with rules of every
// tier tying the defaults' priorities.
func TestEngineMergesAsItSorts(t *testing.T) {
	defer func() { fastSort = true }()
	user := "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = 100\n\n" +
		"[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 0\n\n" +
		"[[rule]]\ntoolName = \"read_file\"\ndecision = \"ask_user\"\npriority = 999\n"
	policies := [][]PolicyInput{
		nil,
		{{Tier: TierUser, Name: "user.toml", Text: user}},
		{{Tier: TierAdmin, Name: "admin.toml", Text: user}, {Tier: TierUser, Name: "user.toml", Text: user},
			{Tier: TierExtension, Name: "ext.toml", Extension: "x", Text: user}},
	}
	settings := []Settings{{}, {ToolsExclude: []string{"write_file"}, ToolsAllowed: []string{"read_file"}, ToolsCore: []string{"ls"},
		McpExcluded: []string{"s"}, McpServers: []McpServer{{Name: "t", Trust: true}}}}
	var faults []Faults
	faults = append(faults, Faults{})
	for _, f := range FaultList {
		faults = append(faults, fault.Of[Fault](uint64(f.Fault)))
	}
	var mutations []Mutation
	for k := MutNone; k <= MutNoFraming; k++ {
		mutations = append(mutations, Mutation{Kind: k, Delta: 1}, Mutation{Kind: k, Delta: -3})
	}
	n := 0
	for _, rel := range Releases() {
		for _, ps := range policies {
			for _, s := range settings {
				for _, mode := range []string{ModeDefault, ModePlan, ModeYolo} {
					configs := []Config{}
					for _, f := range faults {
						configs = append(configs, Config{Faults: f})
					}
					for _, m := range mutations {
						configs = append(configs, Config{Mutation: m})
					}
					for _, cfg := range configs {
						cfg.Release, cfg.Policies, cfg.Settings, cfg.Mode = rel, ps, s, mode
						cfg.Remembered = []Remembered{{Tool: "read_file"}, {Tool: "write_file", Saved: true}}
						fastSort = false
						want := ruleLines(t, cfg)
						fastSort = true
						assert.Equal(t, want, ruleLines(t, cfg), "%s %d %v %v %s", rel.Version, len(ps), cfg.Faults, cfg.Mutation, mode)
						n++
					}
				}
			}
		}
	}
	t.Logf("%d engines", n)
}

// TestNaNPriorityIsSorted: a NaN priority (which the loader refuses) among
// an engine's own rules or the defaults leaves the order to the sort.
func TestNaNPriorityIsSorted(t *testing.T) {
	nan := math.NaN()
	for i, parts := range [][3][]float64{
		{{2, nan, 5}, {1, 3, 2, 1}, {4}},
		{{2, 5}, {1, 3, 2, 1}, {nan, 4, 1}},
		{{2, 5}, {1, nan, 2, 1, 7, 0}, {4, 1}},
	} {
		var rules []*Rule
		for _, p := range parts {
			for _, x := range p {
				rules = append(rules, &Rule{Priority: x, Index: len(rules)})
			}
		}
		want := append([]*Rule(nil), rules...)
		byPriority(want, true)
		e := &Engine{rules: append([]*Rule(nil), rules...)}
		userEnd := len(parts[0])
		e.sortRulesSorted(userEnd, userEnd+len(parts[1]), defaultsKey{files: &policyFile{}})
		assert.Equal(t, want, e.rules, "case %d", i)
	}
}
