// Package pysandbox starts a Python adapter process of the real arena runs
// (host/arena/realarena) inside the real-code sandbox of internal/sandbox:
// bubblewrap with no network, a read-only view of the venv, the Python
// installation the venv was made from and the shipped adapter files, and
// the run folder (which holds the recorders' Unix sockets) as the one
// writable folder. A deskcheck-host command passes Start as the runs'
// Start; host/ packages may not import the sandbox themselves.
package pysandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/deskcheck/deskcheck/host/arena/realarena"
	"github.com/deskcheck/deskcheck/internal/sandbox"
)

// Start starts c inside the sandbox, or fails (wrapping
// sandbox.ErrUnavailable) where bubblewrap cannot make one.
func Start(ctx context.Context, c realarena.Command) (*realarena.Started, error) {
	spec, err := Spec(c)
	if err != nil {
		return nil, err
	}
	p, err := sandbox.Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	return &realarena.Started{
		Stdin: p.Stdin, Stdout: p.Stdout, Isolation: p.Isolation,
		Kill: p.Kill, Wait: p.Wait,
	}, nil
}

// Spec is the sandbox for c: the interpreter is the venv's, the venv's
// folder and the Python installation named by its pyvenv.cfg are
// readable, with every shared object under them (so the libraries their
// extension modules load are readable too).
func Spec(c realarena.Command) (sandbox.Spec, error) {
	if !filepath.IsAbs(c.Python) || !filepath.IsAbs(c.Dir) {
		return sandbox.Spec{}, fmt.Errorf("pysandbox: the interpreter (%q) and the run folder (%q) must be absolute paths", c.Python, c.Dir)
	}
	venv := filepath.Dir(filepath.Dir(c.Python))
	home, err := venvHome(filepath.Join(venv, "pyvenv.cfg"))
	if err != nil {
		return sandbox.Spec{}, err
	}
	installation := filepath.Dir(home)
	native, err := sharedObjects(venv, installation)
	if err != nil {
		return sandbox.Spec{}, err
	}
	return sandbox.Spec{
		Runtime:  c.Python,
		Args:     c.Args,
		ReadOnly: append([]string{venv, installation}, c.ReadOnly...),
		Native:   native,
		Temp:     c.Dir,
		Dir:      c.Dir,
		Env:      c.Env,
		Stderr:   c.Stderr,
		Require:  true,
	}, nil
}

// venvHome reads the folder of the interpreter a venv was made from (the
// home line of its pyvenv.cfg).
func venvHome(cfg string) (string, error) {
	f, err := os.Open(cfg)
	if err != nil {
		return "", fmt.Errorf("pysandbox: not a venv's interpreter: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), "=")
		if ok && strings.TrimSpace(key) == "home" {
			home := strings.TrimSpace(value)
			if !filepath.IsAbs(home) {
				return "", fmt.Errorf("pysandbox: %s: home %q is not an absolute path", cfg, home)
			}
			return home, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", errors.New("pysandbox: " + cfg + " has no home line")
}

// sharedObjects lists the shared objects (*.so, *.so.N) under the
// folders, following no link.
func sharedObjects(dirs ...string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.Type().IsRegular() && (strings.HasSuffix(p, ".so") || strings.Contains(filepath.Base(p), ".so.")) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
