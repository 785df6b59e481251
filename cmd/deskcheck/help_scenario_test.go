package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

// TestHelpScenarioGolden: the reference of every scenario, as printed.
// Rewrite with go test ./cmd/deskcheck -run HelpScenario -update.
func TestHelpScenarioGolden(t *testing.T) {
	names := all.Registry().Names()
	goldens, err := filepath.Glob(filepath.Join("testdata", "help", "*.txt"))
	require.NoError(t, err)
	for _, g := range goldens {
		assert.Contains(t, names, strings.TrimSuffix(filepath.Base(g), ".txt"), "%s is the reference of no scenario; delete it", g)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "help", name)
			require.Equal(t, 0, code, errOut)
			assert.Empty(t, errOut)
			path := filepath.Join("testdata", "help", name+".txt")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), out)
		})
	}
}

// TestHelpScenarioNamesEveryKey: for every registered scenario, help
// names every given and expected key of its fragment, each with a
// description of its own, every limit, every warning and every fault of
// its host that names it.
func TestHelpScenarioNamesEveryKey(t *testing.T) {
	reg := all.Registry()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "help", name)
			require.Equal(t, 0, code, errOut)
			lines := strings.Split(out, "\n")
			// The output is paragraphs: the heading, then one per
			// list (given, expected, limits, warnings, faults).
			parts := map[string][]string{}
			for _, p := range strings.Split(out, "\n\n") {
				for _, head := range []string{"Given keys", "Expected keys", "Limits", "Warnings", "Faults"} {
					if strings.HasPrefix(p, head) {
						parts[head] = strings.Split(p, "\n")
					}
				}
			}
			// entry returns, in the list under head, the line that opens
			// a key's entry and its description's first line.
			entry := func(head, key string) (string, string, bool) {
				ls := parts[head]
				for i, l := range ls {
					if (l == "  "+key || strings.HasPrefix(l, "  "+key+"  (")) && i+1 < len(ls) {
						return l, ls[i+1], true
					}
				}
				return "", "", false
			}
			sc, fam, _ := reg.Lookup(name)
			for _, k := range reg.GivenKeys(name) {
				_, desc, ok := entry("Given keys", k)
				if assert.True(t, ok, "help %s names given key %s:\n%s", name, k, out) {
					assert.NotContains(t, desc, "(no description)", "given.%s of %s has a description in its fragment", k, name)
				}
			}
			for _, o := range sc.Expected {
				head, desc, ok := entry("Expected keys", o.Key)
				if assert.True(t, ok, "help %s names expected key %s:\n%s", name, o.Key, out) {
					assert.Contains(t, head, "("+o.Comparer.Name(), "expected.%s of %s says how it is compared", o.Key, name)
					assert.NotContains(t, desc, "(no description)", "expected.%s of %s has a description in its fragment", o.Key, name)
				}
			}
			for _, l := range sc.Limits {
				_, _, ok := entry("Limits", name+"."+l.Name)
				assert.True(t, ok, "help %s names limit %s", name, l.Name)
			}
			for _, w := range sc.Warnings {
				_, _, ok := entry("Warnings", w.Name)
				assert.True(t, ok, "help %s names warning %s", name, w.Name)
			}
			for _, f := range reg.Faults() {
				if f.Host == fam.Host.Name && (len(f.Scenarios) == 0 || slices.Contains(f.Scenarios, name)) {
					_, _, ok := entry("Faults", f.FullName())
					assert.True(t, ok, "help %s names fault %s", name, f.FullName())
				}
			}
			assert.NotContains(t, out, "(no description)", "every key of the fragment of %s, nested ones included, has a description", name)
			assert.Contains(t, out, "Manual: "+all.Manual(*fam)+"\n")
			_, err := os.Stat(filepath.Join("../..", all.Manual(*fam)))
			assert.NoError(t, err, "the manual help names exists")
			for _, l := range lines {
				assert.LessOrEqual(t, len([]rune(l)), helpWidth, "help %s keeps to %d columns: %q", name, helpWidth, l)
			}
		})
	}
}

// TestHelpScenarioBadInput: a name that is neither a command nor a
// scenario is exit 2 with a suggestion and the names help takes.
func TestHelpScenarioBadInput(t *testing.T) {
	names := all.Registry().Names()
	require.GreaterOrEqual(t, len(names), 2)
	type badInput struct {
		name   string
		args   []string
		stderr []string
	}
	tests := []badInput{
		{"nothing like any name", []string{"help", "zzzzzzzzzz"}, []string{`unknown command or scenario "zzzzzzzzzz"` + "\n", "usage: deskcheck help COMMAND | SCENARIO"}},
		{"two topics", []string{"help", names[0], names[1]}, []string{"usage: deskcheck help COMMAND"}},
	}
	for _, name := range names {
		// One letter dropped from the middle of the name.
		typo := name[:len(name)/2] + name[len(name)/2+1:]
		tests = append(tests,
			badInput{"a misspelt " + name, []string{"help", typo}, []string{`unknown command or scenario "` + typo + `"; did you mean "` + name + `"?`, "scenarios: " + strings.Join(names, ", ")}},
			badInput{"a control character in " + name, []string{"help", name[:2] + "\x1b" + name[2:]}, []string{strconv.Quote(name[:2] + "\x1b" + name[2:])}},
		)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			for _, s := range tt.stderr {
				assert.Contains(t, errOut, s)
			}
			assert.NotContains(t, errOut, "\x1b", "the name is printed escaped")
		})
	}
}

// TestNoScenarioIsNamedLikeACommand: help COMMAND and help SCENARIO share
// one space of names.
func TestNoScenarioIsNamedLikeACommand(t *testing.T) {
	for _, name := range all.Registry().Names() {
		_, isCommand := commands[name]
		assert.False(t, isCommand, "scenario %s is named like a command", name)
		assert.NotEqual(t, "help", name)
	}
}
