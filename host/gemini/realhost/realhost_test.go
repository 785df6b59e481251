package realhost

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

func TestSessionSpeaksTheProtocol(t *testing.T) {
	var in bytes.Buffer
	out := strings.NewReader(`{"hello":"deskcheck gemini harness","release":"0.61.0","node":"v20","adaptations":["a"]}
{"id":"c1","decision":"ask_user","outcome":"asks","rule":null,"heuristics":["redirection"],"subcommands":2,"policyErrors":0,"policyWarnings":1,"policyMessages":["w"]}
{"id":"c2","error":"touched a stand-in: x.y"}
{"id":"other"}
not json
`)
	s, err := NewSession(&in, out)
	require.NoError(t, err)
	assert.Equal(t, "0.61.0", s.Hello.Release)
	a, err := s.Check("c1", json.RawMessage(`{"tool":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"id":"c1","given":{"tool":"x"}}`+"\n", in.String())
	obs := a.Observed()
	assert.Equal(t, "ask_user", obs["decision"])
	assert.Nil(t, obs["rule"])
	assert.Equal(t, []any{"redirection"}, obs["heuristics"])
	assert.Equal(t, 2.0, obs["subcommands"])
	assert.Equal(t, 1.0, obs["policyWarnings"])
	_, err = s.Check("c2", json.RawMessage(`{}`))
	assert.ErrorContains(t, err, "touched a stand-in")
	_, err = s.Check("c3", json.RawMessage(`{}`))
	assert.ErrorContains(t, err, `answered "other"`)
	_, err = s.Check("c4", json.RawMessage(`{}`))
	assert.ErrorContains(t, err, "not JSON")
	_, err = s.Check("c5", json.RawMessage(`{}`))
	assert.ErrorContains(t, err, "stopped answering")
}

func TestSessionNeedsAHello(t *testing.T) {
	for _, out := range []string{"", "{}\n", "nope\n"} {
		_, err := NewSession(&bytes.Buffer{}, strings.NewReader(out))
		assert.Error(t, err, out)
	}
}

func TestPrepare(t *testing.T) {
	_, err := Prepare(t.TempDir(), t.TempDir(), "/usr/bin/node")
	assert.ErrorContains(t, err, "no gemini policy engine installed")
	core := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(core, "dist", "src", "policy"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(core, "dist", "src", "policy", "policy-engine.js"), nil, 0o644))
	root := t.TempDir()
	c, err := Prepare(root, core, "/opt/node/bin/node")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "ws"), c.Dir)
	assert.Contains(t, c.Env, "PATH=/opt/node/bin")
	assert.Contains(t, c.Env, "HOME="+filepath.Join(root, "home"))
	for _, f := range []string{"harness.mjs", "stubs.mjs", "stub-hooks.mjs"} {
		assert.FileExists(t, filepath.Join(root, "harness", f))
	}
	assert.Equal(t, []string{core, root}, c.Args[len(c.Args)-2:], "the release, then the run's folder")
}

// TestInSandboxShowsTheModelsFolders: in the sandbox the release sees the
// run's workspace and home at the paths the model takes them to be, and
// starts in the workspace; the command as the host runs it is unchanged.
func TestInSandboxShowsTheModelsFolders(t *testing.T) {
	core := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(core, "dist", "src", "policy"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(core, "dist", "src", "policy", "policy-engine.js"), nil, 0o644))
	root := t.TempDir()
	c, err := Prepare(root, core, "/opt/node/bin/node")
	require.NoError(t, err)
	dir, env, binds := c.InSandbox()
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"starts in the model's workspace", dir, "/workspace"},
		{"the model's workspace", gemini.Workspace, "/workspace"},
		{"the model's home", gemini.Home, "/home/user"},
		{"binds", binds, []realcode.Bind{{From: filepath.Join(root, "ws"), To: "/workspace"}, {From: filepath.Join(root, "home"), To: "/home/user"}}},
		{"home in the sandbox", slices.Contains(env, "HOME=/home/user"), true},
		{"no host home", slices.Contains(env, "HOME="+filepath.Join(root, "home")), false},
		{"tmp stays in the run's folder", slices.Contains(env, "TMPDIR="+filepath.Join(root, "tmp")), true},
		{"path", slices.Contains(env, "PATH=/opt/node/bin"), true},
		{"host command keeps its folder", c.Dir, filepath.Join(root, "ws")},
		{"host command keeps its home", slices.Contains(c.Env, "HOME="+filepath.Join(root, "home")), true},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, tc.got) })
	}
	assert.False(t, strings.HasPrefix(gemini.Home+"/", gemini.Workspace+"/"), "home lies outside the workspace")
}
