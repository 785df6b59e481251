package folder

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endedPID is the id of a process that ran and has ended.
func endedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

// TestWriteRemovesStaleFolders: the temporary folder a process of this
// machine left when it was killed is removed by the next write beside
// it; one of a process that runs, of another machine, of an unknown
// name, or a link, is left.
func TestWriteRemovesStaleFolders(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("processes are not looked up here")
	}
	dir := t.TempDir()
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.Mkdir(p, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(p, "report.json"), []byte("{"), 0o600))
		return p
	}
	prefix := ".rep.deskcheck-" + hostTag() + "-"
	stale := mk(prefix + strconv.Itoa(endedPID(t)) + "-123")
	running := mk(prefix + strconv.Itoa(os.Getppid()) + "-456")
	other := mk(".rep.deskcheck-00000000-" + strconv.Itoa(endedPID(t)) + "-789")
	old := mk(".rep.deskcheck-2718281828")
	target := mk("elsewhere")
	link := filepath.Join(dir, prefix+strconv.Itoa(endedPID(t))+"-999")
	require.NoError(t, os.Symlink(target, link))

	_, err := Writer{}.Write(filepath.Join(dir, "rep"), []File{{Name: "report.json", Render: func(w io.Writer) error {
		_, err := w.Write([]byte("{}"))
		return err
	}}})
	require.NoError(t, err)
	assert.NoDirExists(t, stale, "left by a process that ended")
	for _, kept := range []string{running, other, old, target} {
		assert.DirExists(t, kept)
	}
	_, err = os.Lstat(link)
	assert.NoError(t, err, "a link is not followed or removed")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Len(t, names, 6, "%v", names)
}

// TestAbandon: once a process is ending, the temporary folder of a write
// in progress is removed and no write starts or completes.
func TestAbandon(t *testing.T) {
	dir := t.TempDir()
	var tmp string
	started := make(chan struct{})
	release := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		_, err := Writer{}.Write(filepath.Join(dir, "rep"), []File{{Name: "report.json", Render: func(w io.Writer) error {
			matches, _ := filepath.Glob(filepath.Join(dir, ".rep.deskcheck-*"))
			if len(matches) == 1 {
				tmp = matches[0]
			}
			close(started)
			<-release
			_, err := w.Write([]byte("{}"))
			return err
		}}})
		errs <- err
	}()
	<-started
	require.NotEmpty(t, tmp)
	Abandon()
	t.Cleanup(func() {
		live.Lock()
		live.abandoned = false
		live.Unlock()
	})
	assert.NoDirExists(t, tmp)
	close(release)
	assert.Error(t, <-errs)
	assert.NoDirExists(t, filepath.Join(dir, "rep"), "nothing is put in place")
	_, err := Track(filepath.Join(dir, "x"))
	assert.ErrorIs(t, err, ErrAbandoned)
}
