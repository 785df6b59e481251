package realhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sandboxStart starts a program in the sandbox, as the driver does (the
// driver adds the bound on answers and keeps standard error).
func sandboxStart(ctx context.Context, p realcode.Program) (*realcode.Proc, error) {
	proc, err := sandbox.Start(ctx, sandbox.Spec{
		Runtime: p.Runtime, Args: p.Args, ReadOnly: p.ReadOnly, Native: p.Native,
		Temp: p.Temp, Dir: p.Dir, Env: p.Env, Stderr: p.Stderr, Require: p.Require, Over: overlays(p.Over),
	})
	if errors.Is(err, sandbox.ErrNoOverlay) {
		return nil, fmt.Errorf("%w: %w", realcode.ErrNoOverlay, err)
	}
	if err != nil {
		return nil, err
	}
	return &realcode.Proc{Stdin: proc.Stdin, Stdout: proc.Stdout, Isolation: proc.Isolation, Sandboxed: proc.Sandboxed, Kill: proc.Kill, Wait: proc.Wait}, nil
}

// overlays are the sandbox's of the program's.
func overlays(over []realcode.Overlay) []sandbox.Overlay {
	var out []sandbox.Overlay
	for _, o := range over {
		out = append(out, sandbox.Overlay{From: o.From, To: o.To})
	}
	return out
}

// startInstalled starts the harness on installed release in, in the
// sandbox, with a temporary folder of the test's.
func startInstalled(t *testing.T, in *Installed, allowChanged bool) (*harness, error) {
	t.Helper()
	spec := ForInstalled(in)
	spec.AllowChanged = allowChanged
	return open(context.Background(), spec, t.TempDir(), sandboxStart, nil)
}

// installedForTest returns installed release v of deskcheck-host's cache
// folder, skipping when it is missing (failing in CI).
func installedForTest(t *testing.T, v string) *Installed {
	t.Helper()
	cache := os.Getenv("DESKCHECK_CACHE")
	if cache == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("skipping: no cache folder: %v", err)
		}
		cache = filepath.Join(d, "deskcheck")
	}
	in, err := Lookup(cache, v)
	if err == nil {
		return in
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("omp@%s is missing in CI: %v", v, err)
	}
	t.Skipf("skipping: %v", err)
	return nil
}

// treeState is every file under dir with its size and time.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		state[p] = fmt.Sprintf("%d %s", fi.Size(), fi.ModTime().UTC().Format(time.RFC3339Nano))
		return nil
	}))
	return state
}

// TestRunReadsTheTranspilerCacheInPlace: a run reads the install's
// transpiler cache where it is, read-only in the sandbox, instead of a
// copy in its temporary folder; the cache is the same after the run.
func TestRunReadsTheTranspilerCacheInPlace(t *testing.T) {
	in := installedForTest(t, "18.3.4")
	spec := ForInstalled(in)
	require.NotEmpty(t, spec.TranspilerCache)
	before := treeState(t, spec.TranspilerCache)
	require.NotEmpty(t, before)
	tmp := t.TempDir()
	h, err := open(context.Background(), spec, tmp, sandboxStart, nil)
	require.NoError(t, err)
	assert.NoDirExists(t, filepath.Join(tmp, transpilerCache), "no copy of the cache in the run's folder")
	h.Close()
	assert.Equal(t, before, treeState(t, spec.TranspilerCache))
}

// TestPlaceholderIsTheHarnessShell: the path the sandbox shows as the
// null device is the shellPath the harness gives the release's tools.
func TestPlaceholderIsTheHarnessShell(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("harness", "harness.ts"))
	require.NoError(t, err)
	assert.Contains(t, string(src), `shellPath: "`+harnessShell+`"`)
	assert.Equal(t, 1, strings.Count(string(src), "shellPath: "), "one shell for every tool")
}
