package ompcheck

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/scenario"
)

func runGiven(t *testing.T, given, release string) map[string]any {
	t.Helper()
	obs, err := Wrapper.Compile([]byte(given), nil).Run(context.Background(), scenario.Env{Trace: &scenario.Trace{}, Release: release})
	require.NoError(t, err)
	return obs.Values
}

// TestRealToolsInTheWrapper: bash and write without approval get their own
// declaration, by the case's release; with approval the fake tool declares
// it; declared is the first evaluation, on the original input.
func TestRealToolsInTheWrapper(t *testing.T) {
	crit := `{"tool":"bash","args":{"command":"rm -rf -- /srv/x"},"mode":"write","ui":false}`
	assert.Equal(t, map[string]any{"tier": "exec", "override": true, "reason": "Critical pattern detected"}, runGiven(t, crit, "18.1.16")["declared"])
	assert.Equal(t, map[string]any{"tier": "exec"}, runGiven(t, crit, "17.3.5")["declared"], "17.x's rm pattern is narrower")
	assert.Nil(t, runGiven(t, crit, "13.19.0")["declared"], "13.x tools declare nothing")

	fake := `{"tool":"bash","approval":"read","args":{"command":"rm -rf /"},"mode":"always-ask","ui":false}`
	obs := runGiven(t, fake, "")
	assert.Equal(t, map[string]any{"tier": "read"}, obs["declared"])
	assert.Equal(t, 1, obs["effects"], "the fake tool's read tier runs in always-ask")

	revised := `{"tool":"bash","args":{"command":"ls"},"settings":{"bash.patterns":[{"match":"ls","approval":"allow"}]},"revise":{"command":"rm -rf /srv/x"},"mode":"always-ask","ui":false}`
	obs = runGiven(t, revised, "")
	assert.Equal(t, map[string]any{"tier": "write", "policy": "allow"}, obs["declared"], "declared is the original input's declaration")
	assert.Equal(t, "throw", obs["outcome"], "the revised input is critical and asks, with no UI to ask")

	write := `{"tool":"write","args":{"path":"skill://s/SKILL.md","content":"x"},"mode":"yolo"}`
	assert.Equal(t, "skill:// URLs are read-only", runGiven(t, write, "18.3.4")["declared"].(map[string]any)["reason"])
	assert.Equal(t, map[string]any{"tier": "read"}, runGiven(t, write, "18.2.9")["declared"])
}

// TestDeclaredComparer: the keys written must equal; keys not written are
// not checked; a written key the declaration lacks differs.
func TestDeclaredComparer(t *testing.T) {
	got := map[string]any{"tier": "exec", "override": true, "reason": "Critical pattern detected"}
	tests := []struct {
		want  any
		match bool
	}{
		{map[string]any{"tier": "exec"}, true},
		{map[string]any{"override": true, "reason": "Critical pattern detected"}, true},
		{map[string]any{}, true},
		{map[string]any{"tier": "write"}, false},
		{map[string]any{"policy": "prompt"}, false},
		{map[string]any{"override": false}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.match, Declared.Match(tt.want, got), "%v", tt.want)
	}
	assert.False(t, Declared.Match(map[string]any{"tier": "exec"}, nil), "no declaration lacks every key")
	parts := Declared.(scenario.Parter).Parts(map[string]any{"tier": "write", "policy": "deny"}, got)
	require.Len(t, parts, 2)
	assert.Equal(t, ".policy", parts[0].Name)
	assert.Nil(t, parts[0].Observed)
	assert.Equal(t, ".tier", parts[1].Name)
}

// TestLintTools: an approval replacing a real tool, and a write to a device
// that would need a mounted xd:// device, are warned about.
func TestLintTools(t *testing.T) {
	msgs := func(given string) []string {
		var out []string
		for _, p := range Wrapper.Compile([]byte(given), nil).Problems() {
			assert.True(t, p.Warning)
			out = append(out, p.Pointer)
		}
		return out
	}
	assert.Equal(t, []string{"/given/approval"}, msgs(`{"tool":"bash","approval":"exec","args":{"command":"ls"}}`))
	assert.Equal(t, []string{"/given/approval"}, msgs(`{"tool":"write","approval":{"tier":"read"}}`))
	assert.Empty(t, msgs(`{"tool":"seed_note","approval":"exec"}`))
	assert.Equal(t, []string{"/given/args/path"}, msgs(`{"tool":"write","args":{"path":"xd://shelf_scanner"}}`))
	assert.Equal(t, []string{"/given/args/path"}, msgs(`{"tool":"write","args":{"path":"[xd://shelf_scanner#ABCD]"}}`))
	for _, p := range []string{"xd://resolve", "xd://report_issue", "xd://", "notes/card.txt"} {
		assert.Empty(t, msgs(`{"tool":"write","args":{"path":"`+p+`"}}`), p)
	}
}

// TestToolsDeskAsDocumented: the manual's count of the tools desk's cases.
func TestToolsDeskAsDocumented(t *testing.T) {
	var n int64 = -1
	for _, f := range cases.Files() {
		if f.Path == "cases/omp-tools-desk.json" {
			n = gjson.GetBytes(f.Data, "cases.#").Int()
		}
	}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), fmt.Sprintf("`cases/omp-tools-desk.json` (%d cases", n))
}

// TestLoneSurrogatesInRules: a lone surrogate in a rule and in the command
// compares as the host compares it (the same code unit), and never breaks
// the matcher.
func TestLoneSurrogatesInRules(t *testing.T) {
	given := `{"tool":"bash","args":{"command":"echo \ud800x"},"settings":{"bash.patterns":[{"match":"echo \udc00*","approval":"deny"},{"match":"echo \ud800*","approval":"allow"}]},"mode":"always-ask","ui":false}`
	obs := runGiven(t, given, "")
	assert.Equal(t, map[string]any{"tier": "write", "policy": "allow"}, obs["declared"], "the other surrogate's rule does not match; this one does")
	assert.Equal(t, 1, obs["effects"])
}
