package realarena

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVerifyRefusesBadInput(t *testing.T) {
	var b strings.Builder
	assert.Equal(t, 2, Verify(context.Background(), &b, deskBytes(t), VerifyOptions{Adapters: []string{"crewai"}}))
	assert.Contains(t, b.String(), "unknown adapter \"crewai\"; the adapters are vanilla, langgraph, openai-agents")
	b.Reset()
	assert.Equal(t, 2, Verify(context.Background(), &b, deskBytes(t), VerifyOptions{Fault: "nope"}))
	b.Reset()
	assert.Equal(t, 2, Verify(context.Background(), &b, []byte("{"), VerifyOptions{}))
}

// TestVerifyPrintsTheSeedsTable runs the bundled desk on the installed
// vanilla adapter, correct and under a fault.
func TestVerifyPrintsTheSeedsTable(t *testing.T) {
	python(t, "vanilla")
	var b strings.Builder
	code := Verify(context.Background(), &b, deskBytes(t), VerifyOptions{Adapters: []string{"vanilla"}, NoNetNS: true})
	out := b.String()
	assert.Equal(t, 0, code, out)
	assert.Equal(t, 16, strings.Count(out, "\nholds  arena-desk/"), out)
	assert.Regexp(t, `\nvanilla 0\.1\.0 \(openai 3\.0\.0\) +10/10 +14/14 +16/16 +16/16 +1\.00 \(24/24\) +0\n`, out)
	assert.Contains(t, out, `"executed":"framework code executed: yes (the installed packages); desk content executed: no"`)
	b.Reset()
	code = Verify(context.Background(), &b, deskBytes(t), VerifyOptions{Adapters: []string{"vanilla"}, Fault: "deny-all", NoNetNS: true})
	out = b.String()
	assert.Equal(t, 1, code, out)
	assert.True(t, strings.HasPrefix(out, "FAULT SWITCHED ON: deny-all — results do not describe the adapter\n"), out)
	assert.Contains(t, out, "DOES NOT HOLD  arena-desk/arena-protected-file-allowed  (effects)")
	assert.Regexp(t, `\[fault deny-all\] +10/10 +0/14 `, out)
}

// TestRunStartsThroughTheGivenStart: a Config's Start receives the whole
// command (the interpreter, the adapter script in the run folder, the
// environment built from nothing, the shipped files to keep read-only)
// and its refusal is the run's error.
func TestRunStartsThroughTheGivenStart(t *testing.T) {
	var got Command
	refused := errors.New("no sandbox here")
	_, err := Run(context.Background(), Config{Adapter: "vanilla", Python: "/venv/bin/python", Start: func(_ context.Context, c Command) (*Started, error) {
		got = c
		return nil, refused
	}}, nil)
	require.ErrorIs(t, err, refused)
	assert.Equal(t, "/venv/bin/python", got.Python)
	require.NotEmpty(t, got.Args)
	assert.Equal(t, filepath.Join(got.Dir, "adapter_vanilla.py"), got.Args[len(got.Args)-1])
	assert.Equal(t, []string{filepath.Join(got.Dir, "arena_common.py"), filepath.Join(got.Dir, "adapter_vanilla.py")}, got.ReadOnly)
	assert.Contains(t, got.Env, "PATH=/nonexistent")
	assert.NoDirExists(t, got.Dir, "the run folder is removed")
}
