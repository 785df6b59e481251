package geminicheck

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/scenario"
)

type deskCase struct {
	ID       string                     `json:"id"`
	Hosts    map[string]string          `json:"hosts"`
	Given    json.RawMessage            `json:"given"`
	Expected map[string]json.RawMessage `json:"expected"`
}

func readDesk(t *testing.T, path string) []deskCase {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var d struct {
		Cases []deskCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &d))
	return d.Cases
}

// passes reports whether the model of release r observes what c expects.
func passes(t *testing.T, c deskCase, r gemini.Release) bool {
	t.Helper()
	g, err := decodeGiven(c.Given)
	require.NoError(t, err, c.ID)
	res, eng, err := Judge(g.config(r), g.call)
	require.NoError(t, err, c.ID)
	obs := Observed(res, eng, g.interactive, gemini.Faults{})
	for key, raw := range c.Expected {
		var want any
		require.NoError(t, json.Unmarshal(raw, &want))
		cmp, ok := PolicyCheck.Expected.Comparer(key)
		require.True(t, ok, key)
		if !cmp.Match(want, obs[key]) {
			return false
		}
	}
	return true
}

// The releases desk pins one lesson to each group boundary: with every
// case's range widened to every release, each case fails on exactly the
// releases its own range leaves out.
func TestReleasesDeskFailsOutsideItsRange(t *testing.T) {
	for _, c := range readDesk(t, "testdata/releases-desk.json") {
		selected, err := Family.Host.SelectReleases(c.Hosts["gemini"])
		require.NoError(t, err)
		in := map[string]bool{}
		for _, r := range selected {
			in[r.Version] = true
		}
		for _, r := range gemini.Releases() {
			assert.Equal(t, in[r.Version], passes(t, c, r), "%s on %s", c.ID, r.Version)
		}
	}
}

// The bundled desk holds on every modelled release.
func TestBundledDeskOnEveryRelease(t *testing.T) {
	for _, c := range readDesk(t, "../../../cases/gemini-desk.json") {
		for _, r := range gemini.Releases() {
			assert.True(t, passes(t, c, r), "%s on %s", c.ID, r.Version)
		}
	}
}

func TestDecodeRefusesBadInput(t *testing.T) {
	for _, tt := range []struct{ given, err string }{
		{`{"tool":"x","policies":[{"tier":"workspace","toml":""}]}`, "never loads workspace policies"},
		{`{"tool":"x","policies":[{"tier":"default","toml":""}]}`, "the release's own policy files"},
		{`{"tool":"x","policies":[{"tier":"user"}]}`, "exactly one of toml and rules"},
		{`{"tool":"x","policies":[{"tier":"user","toml":"","rules":[]}]}`, "exactly one of toml and rules"},
		{`{"tool":"x","policies":[{"tier":"user","toml":"","rules":null}]}`, "exactly one of toml and rules"},
		{`{"tool":"x","policies":[{"tier":"user","file":"a/b.toml","toml":""}]}`, "ending in .toml"},
		{`{"tool":"x","policies":[{"tier":"user","extension":"e","toml":""}]}`, "only an extension-tier file"},
		{`{"tool":"x","policies":[{"tier":"user","toml":""},{"tier":"user","file":"user.toml","toml":""}]}`, "already holds"},
		{`{"tool":"run_shell_command","args":{"command":5}}`, "a number"},
		{`{"tool":"x","remembered":[{"tool":"x","allTools":true}]}`, "allTools needs mcpServer"},
	} {
		_, err := decodeGiven([]byte(tt.given))
		assert.ErrorContains(t, err, tt.err, tt.given)
	}
}

// TestRulesKeyPresentEvenNull: "rules": null is a rules key (no rules),
// so the file is written from rule objects, none of them.
func TestRulesKeyPresentEvenNull(t *testing.T) {
	g, err := decodeGiven([]byte(`{"tool":"x","policies":[{"tier":"user","rules":null}]}`))
	require.NoError(t, err)
	require.Len(t, g.policies, 1)
	assert.True(t, g.policies[0].fromRules)
	assert.Empty(t, g.policies[0].text)
}

func TestRulesAreWrittenAsTOML(t *testing.T) {
	g, err := decodeGiven([]byte(`{"tool":"x","policies":[{"tier":"user","rules":[{"priority":100,"decision":"allow","toolName":"x","toolAnnotations":{"read only":true},"commandPrefix":["a\"b","c"]}]}]}`))
	require.NoError(t, err)
	assert.Equal(t, "[[rule]]\ntoolName = \"x\"\ncommandPrefix = [\"a\\\"b\", \"c\"]\ndecision = \"allow\"\npriority = 100\ntoolAnnotations = { \"read only\" = true }\n", g.policies[0].text)
}

func TestLintNamesItsWarnings(t *testing.T) {
	declared := map[string]bool{}
	for _, w := range PolicyCheck.Warnings {
		declared[w.Name] = true
	}
	g, err := decodeGiven([]byte(`{"tool":"run_shell_command","args":{"command":"/usr/bin/rg x"},"mode":"fast",
		"policies":[{"tier":"user","rules":[{"toolName":"read_*","decision":"allow","priority":1000},{"toolName":"a__b","decision":"deny","priority":1},
		{"toolName":"write_file","commandPrefix":"x","decision":"deny","priority":2},{"toolName":"write_file","argsPattern":"^\\{\"a","decision":"deny","priority":3}]},
		{"tier":"extension","toml":"[[safety_checker]]\ntoolName = \"x\"\n[safety_checker.checker]\ntype = \"in-process\"\nname = \"conseca\"\n"}],
		"settings":{"security":{"disableAlwaysAllow":true}},
		"remembered":[{"tool":"write_file","filePath":"a"},{"tool":"read_file"}]}`))
	require.NoError(t, err)
	p := plan(g, []scenario.Field{{Key: "outcome", Raw: json.RawMessage(`"asks"`)}})
	names := map[string]bool{}
	for _, pr := range p.Problems {
		if pr.Warning {
			assert.True(t, declared[pr.Name], pr.Name)
			names[pr.Name] = true
		}
	}
	for _, want := range []string{"unknown-mode", "priority-out-of-range", "toolname-glob", "legacy-mcp-syntax", "prefix-on-other-tool",
		"args-pattern-framing", "checker-not-modelled", "remembered-file-path", "remembered-needs-narrowing", "remembered-disabled", "environment-dependent"} {
		assert.True(t, names[want], want)
	}
	g, err = decodeGiven([]byte(`{"tool":"x","interactive":false}`))
	require.NoError(t, err)
	p = plan(g, []scenario.Field{{Key: "outcome", Raw: json.RawMessage(`"asks"`)}})
	require.Len(t, p.Problems, 1)
	assert.False(t, p.Problems[0].Warning)
	assert.Contains(t, p.Problems[0].Message, "a headless run cannot ask")
}

// A user rule at 950 ties with a saved answer: the folder's listing order
// decides, which the host does not define.
func TestSavedAnswerTiesWithAUserRule(t *testing.T) {
	g, err := decodeGiven([]byte(`{"tool":"ask_user","policies":[{"tier":"user","rules":[{"toolName":"ask_user","decision":"ask_user","priority":950}]}],"remembered":[{"tool":"ask_user","scope":"saved"}]}`))
	require.NoError(t, err)
	var names []string
	for _, p := range plan(g, nil).Problems {
		names = append(names, p.Name)
	}
	assert.Contains(t, names, "tie-across-files")
}

// TestShadowChecksAreBounded: the pair-by-pair shadow and tie checks list
// at most shadowListed warnings and count the rest in one, and a case of
// more than shadowRules rules is not compared at all (a case of a hundred
// files of a thousand rules took minutes and gigabytes).
func TestShadowChecksAreBounded(t *testing.T) {
	named := func(ps []scenario.Problem, name string) []scenario.Problem {
		var out []scenario.Problem
		for _, p := range ps {
			if p.Name == name {
				out = append(out, p)
			}
		}
		return out
	}
	rules := strings.TrimSuffix(strings.Repeat(`{"toolName":"read_file","decision":"deny","priority":1},`, 11), ",")
	g, err := decodeGiven([]byte(`{"tool":"write_file","policies":[{"tier":"user","file":"a.toml","rules":[` + rules + `]},{"tier":"user","file":"b.toml","rules":[` + rules + `]}]}`))
	require.NoError(t, err)
	ps := lintShadows(g)
	assert.Len(t, named(ps, "tie-across-files"), shadowListed, "121 ties, 100 listed")
	rest := named(ps, "rules-not-compared")
	require.Len(t, rest, 1)
	assert.Equal(t, "and 21 more rules that never decide or tie across files, not listed (the checks list 100)", rest[0].Message)

	var text strings.Builder
	for i := 0; i <= shadowRules; i++ {
		fmt.Fprintf(&text, "[[rule]]\ntoolName = \"t%d\"\ndecision = \"deny\"\npriority = 1\n", i)
	}
	big, err := json.Marshal(text.String())
	require.NoError(t, err)
	g, err = decodeGiven([]byte(`{"tool":"x","policies":[{"tier":"user","toml":` + string(big) + `}]}`))
	require.NoError(t, err)
	ps = lintShadows(g)
	require.Len(t, ps, 1)
	assert.Equal(t, "rules-not-compared", ps[0].Name)
	assert.Contains(t, ps[0].Message, "more than the 4096 the checks")
}
