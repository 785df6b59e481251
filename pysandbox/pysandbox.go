// Package pysandbox is the real-code sandbox of internal/sandbox for a
// harness whose runtime is a venv's Python interpreter (a family that
// declares realcode.SandboxPythonVenv, as the arena's adapters do):
// bubblewrap with no network, a read-only view of the venv, the Python
// installation the venv was made from and the harness files, and the run
// folder as the one writable folder. The driver (realhost) starts such a
// family's harness with it; host/ packages may not import the sandbox.
package pysandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
)

// Spec is the sandbox for p: the interpreter is the venv's, the venv's
// folder and the Python installation named by its pyvenv.cfg are
// readable, with every shared object under them (so the libraries their
// extension modules load are readable too), besides p's own read-only
// folders; p.Temp is the one writable folder. It refuses to run without
// bubblewrap (Require).
func Spec(p realcode.Program) (sandbox.Spec, error) {
	if !filepath.IsAbs(p.Runtime) || !filepath.IsAbs(p.Temp) || !filepath.IsAbs(p.Dir) {
		return sandbox.Spec{}, fmt.Errorf("pysandbox: the interpreter (%q) and the run folders (%q, %q) must be absolute paths", p.Runtime, p.Temp, p.Dir)
	}
	venv := filepath.Dir(filepath.Dir(p.Runtime))
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
		Runtime:  p.Runtime,
		Args:     p.Args,
		ReadOnly: append([]string{venv, installation}, p.ReadOnly...),
		Native:   append(native, p.Native...),
		Temp:     p.Temp,
		Dir:      p.Dir,
		Env:      p.Env,
		Stderr:   p.Stderr,
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
