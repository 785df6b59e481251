package realarena

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
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

// TestPipFetches: the wheels pip download saved and those it found in
// the wheel cache are counted from its output.
func TestPipFetches(t *testing.T) {
	out := "Collecting openai==3.0.0 (from -r requirements.lock (line 9))\n" +
		"  File was already downloaded /c/arena/wheels/openai-3.0.0-py3-none-any.whl\n" +
		"Collecting distro==1.9.0 (from -r requirements.lock (line 3))\n" +
		"  Downloading distro-1.9.0-py3-none-any.whl (20 kB)\n" +
		"Saved /c/arena/wheels/distro-1.9.0-py3-none-any.whl\n" +
		"Successfully downloaded openai distro\n"
	downloaded, cached := pipFetches([]byte(out))
	assert.Equal(t, 1, downloaded)
	assert.Equal(t, 1, cached)
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
	assert.Positive(t, in.Downloaded)
	assert.Zero(t, in.Cached, "the wheel cache was empty")

	// A second adapter takes the wheels the first downloaded from the
	// cache: openai 3.0.0 and its dependencies are downloaded once.
	second, err := Install(context.Background(), cache, "openai-agents", "")
	require.NoError(t, err)
	assert.Positive(t, second.Cached)
	wheels, err := filepath.Glob(filepath.Join(wheelsDir(cache), "openai-3.0.0-*.whl"))
	require.NoError(t, err)
	assert.Len(t, wheels, 1)
}

// TestInstallsTakeTurnsAtTheWheelCache: while one install holds the
// wheel cache's lock, another cannot take it; once released, it can.
func TestInstallsTakeTurnsAtTheWheelCache(t *testing.T) {
	cache := t.TempDir()
	unlock, err := lockWheels(cache)
	require.NoError(t, err)
	f, err := os.Open(filepath.Join(cache, "arena", "wheels.lock"))
	require.NoError(t, err)
	defer f.Close()
	assert.ErrorIs(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB), syscall.EWOULDBLOCK)
	unlock()
	require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
}
