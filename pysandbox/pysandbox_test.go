package pysandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/arena/realarena"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
)

// adaptersDesk is the bundled desk of the family whose releases are the
// real adapters: the desk every case of which is of that family.
func adaptersDesk(t *testing.T) []byte {
	t.Helper()
	reg := all.Registry()
	for _, d := range all.Desks() {
		scs := gjson.GetBytes(d.Data, "cases.#.scenario").Array()
		ours := len(scs) > 0
		for _, sc := range scs {
			_, f, ok := reg.Lookup(sc.String())
			require.True(t, ok, sc.String())
			_, adapter := f.Host.Release(realarena.Adapters[0])
			ours = ours && f.Host.Named() && adapter
		}
		if ours {
			return d.Data
		}
	}
	t.Fatal("no bundled desk is of the family of the real adapters")
	return nil
}

// TestEachAdapterHoldsInTheSandbox judges every installed adapter on the
// bundled desk with each process inside bubblewrap: the Unix sockets in
// the run folder are all it reaches, and every case still holds. Under
// CI=true a missing venv or sandbox fails the test.
func TestEachAdapterHoldsInTheSandbox(t *testing.T) {
	desk := adaptersDesk(t)
	cs, _, err := realarena.CasesOf(desk)
	require.NoError(t, err)
	for _, name := range realarena.Adapters {
		py, err := realarena.Python(name)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal(err)
			}
			t.Skip(err)
		}
		j, err := realarena.Judge(context.Background(), realarena.Config{Adapter: name, Python: py, Start: start}, cs)
		if errors.Is(err, sandbox.ErrUnavailable) && os.Getenv("CI") != "true" {
			t.Skip(err)
		}
		require.NoError(t, err, name)
		assert.True(t, j.Holds(), "%s: %+v", name, j.Cases)
		assert.Equal(t, []string{"10/10", "14/14", "16/16", "16/16", "1.00 (24/24)", "0"}, j.Dimensions.Columns(), name)
		assert.True(t, strings.HasPrefix(j.Provenance.Network, "sandbox (bubblewrap): "), j.Provenance.Network)
		assert.Contains(t, j.Provenance.Network, "no network at all")
	}
}

// start starts an adapter's command in the sandbox Spec makes, its run
// folder the one writable folder.
func start(ctx context.Context, c realarena.Command) (*realarena.Started, error) {
	spec, err := Spec(realcode.Program{Runtime: c.Python, Args: c.Args, Env: c.Env, Temp: c.Dir, Dir: c.Dir, ReadOnly: c.ReadOnly, Stderr: c.Stderr})
	if err != nil {
		return nil, err
	}
	p, err := sandbox.Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	return &realarena.Started{Stdin: p.Stdin, Stdout: p.Stdout, Isolation: p.Isolation, Kill: p.Kill, Wait: p.Wait}, nil
}

// TestSpecRefusesWhatIsNotAVenv: an interpreter without a pyvenv.cfg
// beside its folder, a relative path, or a pyvenv.cfg without an absolute
// home is refused before anything starts.
func TestSpecRefusesWhatIsNotAVenv(t *testing.T) {
	dir := t.TempDir()
	_, err := Spec(realcode.Program{Runtime: "python3", Temp: dir, Dir: dir})
	assert.ErrorContains(t, err, "must be absolute paths")
	py := filepath.Join(dir, "venv", "bin", "python")
	require.NoError(t, os.MkdirAll(filepath.Dir(py), 0o700))
	_, err = Spec(realcode.Program{Runtime: py, Temp: dir, Dir: dir})
	assert.ErrorContains(t, err, "not a venv's interpreter")
	for cfg, want := range map[string]string{
		"version = 3.11\n":    "has no home line",
		"home = usr/bin\n":    "is not an absolute path",
		"home=\n":             "is not an absolute path",
		"include = false\n\n": "has no home line",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "venv", "pyvenv.cfg"), []byte(cfg), 0o600))
		_, err = Spec(realcode.Program{Runtime: py, Temp: dir, Dir: dir})
		assert.ErrorContains(t, err, want, cfg)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "venv", "pyvenv.cfg"), []byte("home = "+filepath.Join(dir, "py", "bin")+"\n"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "py", "lib"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "py", "lib", "libpython3.so.1"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "venv", "m.so"), nil, 0o600))
	s, err := Spec(realcode.Program{Runtime: py, Temp: dir, Dir: dir, Args: []string{"a.py"}})
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "venv"), filepath.Join(dir, "py")}, s.ReadOnly)
	assert.ElementsMatch(t, []string{filepath.Join(dir, "venv", "m.so"), filepath.Join(dir, "py", "lib", "libpython3.so.1")}, s.Native)
	assert.True(t, s.Require)
	assert.Equal(t, dir, s.Temp)
}
