package realarena

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstallRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	_, err := Install(ctx, t.TempDir(), "crewai", "")
	assert.ErrorContains(t, err, "unknown adapter")
	_, err = Install(ctx, t.TempDir(), "vanilla", "/nonexistent/python3")
	assert.ErrorContains(t, err, "does not run")
	fake := filepath.Join(t.TempDir(), "python")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho PyPy 3.9.18\n"), 0o755))
	_, err = Install(ctx, t.TempDir(), "vanilla", fake)
	assert.ErrorContains(t, err, "is PyPy 3.9.18; the adapters need CPython 3.10 or newer")
	assert.True(t, atLeast("3.10.2", 3, 10))
	assert.True(t, atLeast("4.0.0", 3, 10))
	assert.False(t, atLeast("3.9.18", 3, 10))
	assert.False(t, atLeast("x", 3, 10))
}

func TestInstalledFromAnotherLock(t *testing.T) {
	cache := t.TempDir()
	venv := venvDir(cache, "vanilla")
	require.NoError(t, os.MkdirAll(filepath.Join(venv, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(venv, "bin", "python"), nil, 0o755))
	t.Setenv("DESKCHECK_ARENA_VENVS", "")
	t.Setenv("DESKCHECK_CACHE", cache)
	_, err := Python("vanilla")
	assert.NoError(t, err, "a venv without installed.json is taken as made by hand")
	b, _ := json.Marshal(Installed{Adapter: "vanilla", Lock: "sha256:0"})
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(venv), "installed.json"), b, 0o644))
	_, err = Python("vanilla")
	assert.ErrorContains(t, err, "installed from another lock; run deskcheck-host install arena:vanilla again")
	_, err = Python("langgraph")
	assert.ErrorContains(t, err, "deskcheck-host install arena:langgraph")
}

// TestInstallFromTheIndex installs the vanilla adapter from the Python
// package index when DESKCHECK_ARENA_INSTALL=1 (it needs the network).
func TestInstallFromTheIndex(t *testing.T) {
	if os.Getenv("DESKCHECK_ARENA_INSTALL") != "1" {
		t.Skip("set DESKCHECK_ARENA_INSTALL=1 to install from the Python package index")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	cache := t.TempDir()
	in, err := Install(context.Background(), cache, "vanilla", "")
	require.NoError(t, err)
	assert.Positive(t, in.Packages)
	t.Setenv("DESKCHECK_ARENA_VENVS", "")
	t.Setenv("DESKCHECK_CACHE", cache)
	py, err := Python("vanilla")
	require.NoError(t, err)
	res, err := Run(context.Background(), Config{Adapter: "vanilla", Python: py, Network: "tcp"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "3.0.0", res.Hello.Packages["openai"])
}
