package gemini

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigPolicy is a policy file of about size bytes whose rules each hold an
// argsPattern of their own (seed keeps texts of different calls apart).
func bigPolicy(seed, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "[[rule]]\ntoolName = \"t%d\"\nargsPattern = \"a%db%dc\"\ndecision = \"deny\"\npriority = %d\n", i, seed, i, i%900+1)
	}
	return b.String()
}

// TestPolicyCachesAreBoundedInBytes: the caches of policy files and of
// compiled patterns stop taking entries at their byte budgets, whatever
// the count allows, and an engine still reads every file past them.
// (A desk of 58 cases of four 60 KB files of distinct patterns kept 600
// MB live through them before the budgets.)
func TestPolicyCachesAreBoundedInBytes(t *testing.T) {
	emptyPolicyCaches()
	defer emptyPolicyCaches()
	var want []int
	for seed := range 40 {
		text := bigPolicy(1_000_000+seed, 60_000)
		cfg := Config{Release: Newest(), Mode: ModeDefault, Interactive: true, Trusted: true,
			Policies: []PolicyInput{{Tier: TierUser, Name: "user.toml", Text: text}}}
		eng, err := NewEngine(cfg)
		require.NoError(t, err)
		rules := 0
		for _, r := range eng.Rules() {
			if r.File == "user.toml" {
				rules++
			}
		}
		want = append(want, rules)
		res, err := eng.Check(Call{Name: "t3", Args: map[string]any{"x": "a" + fmt.Sprint(1_000_000+seed) + "b3c"}, HasArgs: true})
		require.NoError(t, err)
		assert.Equal(t, Deny, res.Decision, "seed %d: the file's rule decides, cached or not", seed)
	}
	for _, n := range want {
		assert.Equal(t, want[0], n, "every file loads all its rules")
	}
	filesRead.Lock()
	assert.LessOrEqual(t, filesRead.bytes, cachedTextBytes)
	filesRead.Unlock()
	ownLoaded.Lock()
	assert.LessOrEqual(t, ownLoaded.bytes, cachedTextBytes)
	ownLoaded.Unlock()
	compiled.Lock()
	assert.LessOrEqual(t, compiled.bytes, compiledBytes)
	compiled.Unlock()
}

// emptyPolicyCaches empties the caches of policy files and compiled
// patterns, so that a test sees them with room.
func emptyPolicyCaches() {
	filesRead.Lock()
	filesRead.m, filesRead.bytes = map[string]readFileResult{}, 0
	filesRead.Unlock()
	ownLoaded.Lock()
	ownLoaded.m, ownLoaded.bytes = map[ownKey]loadedFile{}, 0
	ownLoaded.Unlock()
	compiled.Lock()
	compiled.m, compiled.bytes = map[string]compiledPattern{}, 0
	compiled.Unlock()
}
