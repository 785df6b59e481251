package realhost

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/realcode"
)

// TestOpenFamilyNeedsTheSandboxsStart: a family whose Open starts no
// process through the driver's start is refused, and one whose Open fails
// leaves no temporary folder.
func TestOpenFamilyNeedsTheSandboxsStart(t *testing.T) {
	tmpRoot := t.TempDir()
	t.Setenv("TMPDIR", tmpRoot)
	fam := realcode.Family{Host: "toy", Open: func(ctx context.Context, opts realcode.OpenOptions, start realcode.Start) (realcode.Harness, error) {
		return nopHarness{}, nil
	}}
	_, err := OpenFamily(context.Background(), fam, realcode.OpenOptions{Cache: t.TempDir(), Version: "1.0.0"}, Bounds{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "started no process through the sandbox")
	fam.Open = func(ctx context.Context, opts realcode.OpenOptions, start realcode.Start) (realcode.Harness, error) {
		return nil, errors.New("not installed")
	}
	_, err = OpenFamily(context.Background(), fam, realcode.OpenOptions{Cache: t.TempDir(), Version: "1.0.0"}, Bounds{})
	require.EqualError(t, err, "toy@1.0.0: not installed")
	left, _ := filepath.Glob(filepath.Join(tmpRoot, "deskcheck-host-*"))
	assert.Empty(t, left)
}

type nopHarness struct{}

func (nopHarness) Hello() realcode.Hello { return realcode.Hello{Release: "1.0.0", Runtime: "none"} }
func (nopHarness) Close() error          { return nil }
func (nopHarness) Run(context.Context, []realcode.Case) ([]realcode.Answer, error) {
	return nil, nil
}

// TestAnswerLimit: a harness that answers more than the bound is stopped
// with ErrAnswerLimit.
func TestAnswerLimit(t *testing.T) {
	killed := false
	r := &answerLimit{r: strings.NewReader(strings.Repeat("x", 100)), left: 10, max: 10, kill: func() { killed = true }}
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	assert.Equal(t, 10, n)
	require.NoError(t, err)
	_, err = r.Read(buf)
	assert.ErrorIs(t, err, ErrAnswerLimit)
	assert.True(t, killed, "the harness is ended")
}

// TestSandboxSpecByRuntime: a runtime binary's sandbox takes the
// program's folders as given and may run without bubblewrap; a venv's
// interpreter gets pysandbox's, which requires it and refuses what is not
// a venv; an unknown kind is refused.
func TestSandboxSpecByRuntime(t *testing.T) {
	dir := t.TempDir()
	p := realcode.Program{Runtime: "/usr/bin/node", Args: []string{"h.mjs"}, Temp: dir, Dir: dir, ReadOnly: []string{"/rel"}, Native: []string{"/rel/a.node"}}
	s, err := SandboxSpec(realcode.SandboxRuntime, p)
	require.NoError(t, err)
	assert.Equal(t, []string{"/rel"}, s.ReadOnly)
	assert.Equal(t, []string{"/rel/a.node"}, s.Native)
	assert.False(t, s.Require)
	_, err = SandboxSpec(realcode.SandboxPythonVenv, p)
	assert.ErrorContains(t, err, "not a venv's interpreter")
	venv := filepath.Join(dir, "venv")
	require.NoError(t, os.MkdirAll(filepath.Join(venv, "bin"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = "+filepath.Join(dir, "py", "bin")+"\n"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "py", "bin"), 0o700))
	p.Runtime = filepath.Join(venv, "bin", "python")
	s, err = SandboxSpec(realcode.SandboxPythonVenv, p)
	require.NoError(t, err)
	assert.True(t, s.Require, "a venv's interpreter never runs without bubblewrap")
	assert.Equal(t, []string{venv, filepath.Join(dir, "py"), "/rel"}, s.ReadOnly)
	_, err = SandboxSpec("jvm", p)
	assert.EqualError(t, err, `no sandbox is known for a runtime of kind "jvm"`)
}
