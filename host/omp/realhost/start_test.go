package realhost

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
)

// sandboxStart starts a program in the sandbox, as the driver does (the
// driver adds the bound on answers and keeps standard error).
func sandboxStart(ctx context.Context, p realcode.Program) (*realcode.Proc, error) {
	proc, err := sandbox.Start(ctx, sandbox.Spec{
		Runtime: p.Runtime, Args: p.Args, ReadOnly: p.ReadOnly, Native: p.Native,
		Temp: p.Temp, Dir: p.Dir, Env: p.Env, Stderr: p.Stderr, Require: p.Require,
	})
	if err != nil {
		return nil, err
	}
	return &realcode.Proc{Stdin: proc.Stdin, Stdout: proc.Stdout, Isolation: proc.Isolation, Sandboxed: proc.Sandboxed, Kill: proc.Kill, Wait: proc.Wait}, nil
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
