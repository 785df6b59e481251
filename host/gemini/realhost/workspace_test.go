package realhost_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini/realhost"
	"github.com/deskcheck/deskcheck/internal/realcode"
	driver "github.com/deskcheck/deskcheck/realhost"
)

// cache is deskcheck-host's cache folder.
func cache() string {
	if d := os.Getenv("DESKCHECK_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "deskcheck")
}

// installedRelease skips the test (fails it on CI) when the release or
// node is missing.
func installedRelease(t *testing.T, version string) {
	t.Helper()
	_, err := os.Stat(filepath.Join(realhost.CoreDir(cache(), version), "dist", "src", "policy", "policy-engine.js"))
	_, nerr := exec.LookPath("node")
	if err != nil || nerr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("gemini %s is not installed in %s, or node is missing", version, cache())
		}
		t.Skipf("gemini %s is not installed in %s (deskcheck-host install gemini@%s), or node is missing", version, cache(), version)
	}
}

// TestOpenAsksTheSandboxForTheModelsWorkspace: the program Open starts
// runs in /workspace with its home at /home/user, both the run's own
// folders; a Start that cannot show them (no bubblewrap) makes Open refuse,
// saying why, and nothing runs.
func TestOpenAsksTheSandboxForTheModelsWorkspace(t *testing.T) {
	installedRelease(t, "0.61.0")
	temp := t.TempDir()
	var got realcode.Program
	start := func(_ context.Context, p realcode.Program) (*realcode.Proc, error) {
		got = p
		return nil, realcode.ErrNoBind
	}
	_, err := realhost.Open(context.Background(), realcode.OpenOptions{Cache: cache(), Version: "0.61.0", Temp: temp}, start)
	require.ErrorIs(t, err, realcode.ErrNoBind)
	for _, want := range []string{"runs only in the sandbox", "workspace at /workspace", "home folder at /home/user", "nothing was run"} {
		assert.ErrorContains(t, err, want)
	}
	assert.Equal(t, "/workspace", got.Dir)
	assert.Equal(t, []realcode.Bind{{From: filepath.Join(temp, "ws"), To: "/workspace"}, {From: filepath.Join(temp, "home"), To: "/home/user"}}, got.Binds)
	assert.Contains(t, got.Env, "HOME=/home/user")
}

// TestWorkspaceIsTheModelsOnTheRealCode runs the release through the
// driver: in the sandbox the engine's workspace is /workspace, so a file
// reader of /workspace/a.txt is known safe, as in the model; without
// bubblewrap the run is refused.
func TestWorkspaceIsTheModelsOnTheRealCode(t *testing.T) {
	installedRelease(t, "0.61.0")
	opts := realcode.OpenOptions{Cache: cache(), Version: "0.61.0"}
	_, err := driver.OpenFamily(context.Background(), realhost.Family, opts, driver.Bounds{NoSandbox: true})
	require.ErrorIs(t, err, realcode.ErrNoBind, "no sandbox: refused")
	assert.ErrorContains(t, err, "nothing was run")

	h, err := driver.OpenFamily(context.Background(), realhost.Family, opts, driver.Bounds{})
	if err != nil && os.Getenv("CI") != "true" {
		t.Skipf("the sandbox cannot be made here: %v", err)
	}
	require.NoError(t, err)
	defer h.Close()
	assert.Contains(t, h.Info().Adaptations, "the workspace is /workspace, the home folder /home/user")
	assert.Contains(t, h.Info().Isolation, "its folder ws seen at /workspace, its folder home seen at /home/user")
	for _, c := range []struct {
		command, dir, decision string
	}{
		{"cat /workspace/a.txt", "", "allow"},
		{"cat a.txt", "/workspace", "allow"},
		{"cat ~/../../workspace/a.txt", "", "allow"},
		{"cat ~/a.txt", "", "ask_user"},
		{"cat " + filepath.Join(cache(), "x"), "", "ask_user"},
	} {
		args := map[string]any{"command": c.command}
		if c.dir != "" {
			args["dir_path"] = c.dir
		}
		given, err := json.Marshal(map[string]any{"tool": "run_shell_command", "args": args})
		require.NoError(t, err)
		answers, err := h.RunCases([]realcode.Case{{ID: "d/c", Scenario: "policy-check", Given: given}})
		require.NoError(t, err)
		require.Len(t, answers, 1)
		require.Empty(t, answers[0].Error)
		assert.Equal(t, c.decision, answers[0].Observed["decision"], "%s in %q", c.command, c.dir)
	}
}
