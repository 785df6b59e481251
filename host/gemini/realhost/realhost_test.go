package realhost

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.Equal(t, core, c.Args[len(c.Args)-1])
}
