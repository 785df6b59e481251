package reports

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// faultyFS wraps the real file system and fails as told.
type faultyFS struct {
	OS
	mkdirErr  error
	createErr error
	renameErr error
	// failWriteAfter makes writes fail (as a full disk would) once this
	// many bytes were written in all; negative: never.
	failWriteAfter int
	mu             sync.Mutex
	written        int
}

func (f *faultyFS) MkdirAll(dir string, perm os.FileMode) error {
	if f.mkdirErr != nil {
		return f.mkdirErr
	}
	return f.OS.MkdirAll(dir, perm)
}

func (f *faultyFS) CreateTemp(dir, pattern string) (TempFile, error) {
	if f.createErr != nil {
		return nil, f.createErr
	}
	tf, err := f.OS.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &faultyFile{TempFile: tf, fs: f}, nil
}

func (f *faultyFS) Rename(o, n string) error {
	if f.renameErr != nil {
		return f.renameErr
	}
	return f.OS.Rename(o, n)
}

type faultyFile struct {
	TempFile
	fs *faultyFS
}

var errDiskFull = errors.New("no space left on device")

func (f *faultyFile) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.fs.failWriteAfter >= 0 && f.fs.written+len(p) > f.fs.failWriteAfter {
		n := f.fs.failWriteAfter - f.fs.written
		if n > 0 {
			f.TempFile.Write(p[:n])
			f.fs.written += n
		}
		return n, errDiskFull
	}
	f.fs.written += len(p)
	return f.TempFile.Write(p)
}

func listDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = string(b)
	}
	return out
}

func TestWriteDirPrivateAndComplete(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "private")
	paths, err := Writer{}.WriteDir(dir, stableReport(t, "../cases/boundary-desk.json"))
	require.NoError(t, err)
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
		info, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), p)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"report.html", "report.json", "report.junit.xml", "report.md"}, names)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
	assert.Len(t, listDir(t, dir), 4, "no temporary file is left")
}

func TestWriteDirFaultsKeepEarlierReports(t *testing.T) {
	good := stableReport(t, "../cases/boundary-desk.json")
	newer := stableReport(t, mutatedDesk(t))
	tests := []struct {
		reason string
		fs     *faultyFS
		want   string
	}{
		{"the disk fills in the first file", &faultyFS{failWriteAfter: 100}, "no space left on device"},
		{"the disk fills in a later file", &faultyFS{failWriteAfter: 60_000}, "no space left on device"},
		{"the folder cannot be written", &faultyFS{failWriteAfter: -1, createErr: &os.PathError{Op: "open", Path: "x", Err: os.ErrPermission}}, "permission denied"},
		{"a rename fails", &faultyFS{failWriteAfter: -1, renameErr: errors.New("rename refused")}, "rename refused"},
		{"the folder cannot be made", &faultyFS{failWriteAfter: -1, mkdirErr: errors.New("read-only file system")}, "creating report folder: read-only file system"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			dir := t.TempDir()
			_, err := Writer{}.WriteDir(dir, good)
			require.NoError(t, err)
			before := listDir(t, dir)
			_, err = Writer{FS: tt.fs}.WriteDir(dir, newer)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, before, listDir(t, dir), "earlier reports intact, no partial or temporary file")
		})
	}
}

func TestWriteDirRefusals(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a-file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	_, err := Writer{}.WriteDir(file, stableReport(t, "../cases/boundary-desk.json"))
	assert.ErrorContains(t, err, "not a directory")

	cases := filepath.Join(root, "cases")
	for _, out := range []string{cases, filepath.Join(cases, "out"), filepath.Join(cases, "a", "..", "b")} {
		_, err = Writer{CaseDirs: []string{cases}}.WriteDir(out, stableReport(t, "../cases/boundary-desk.json"))
		assert.ErrorContains(t, err, "which holds case files", out)
	}
	_, err = Writer{CaseDirs: []string{cases}}.WriteDir(filepath.Join(root, "cases-reports"), stableReport(t, "../cases/boundary-desk.json"))
	assert.NoError(t, err, "a sibling folder with a shared prefix is fine")
}
