package folder

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// faultyFS wraps the real file system and fails as told.
type faultyFS struct {
	OS
	mkdirErr    error
	createErr   error
	renameErr   error
	exchangeErr error
	// failWriteAfter makes writes fail (as a full disk would) once this
	// many bytes were written in all; negative: never.
	failWriteAfter int
	// readDirMissing makes this many listings fail as a folder removed
	// while it is read.
	readDirMissing int
	mu             sync.Mutex
	written        int
}

func (f *faultyFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f.mu.Lock()
	missing := f.readDirMissing > 0
	f.readDirMissing--
	f.mu.Unlock()
	if missing {
		return nil, &os.PathError{Op: "readdirent", Path: name, Err: syscall.ENOENT}
	}
	return f.OS.ReadDir(name)
}

func (f *faultyFS) MkdirAll(dir string, perm os.FileMode) error {
	if f.mkdirErr != nil {
		return f.mkdirErr
	}
	return f.OS.MkdirAll(dir, perm)
}

func (f *faultyFS) MkdirTemp(dir, pattern string) (string, error) {
	if f.mkdirErr != nil {
		return "", f.mkdirErr
	}
	return f.OS.MkdirTemp(dir, pattern)
}

func (f *faultyFS) Create(name string) (TempFile, error) {
	if f.createErr != nil {
		return nil, f.createErr
	}
	tf, err := f.OS.Create(name)
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

func (f *faultyFS) Exchange(a, b string) error {
	if f.exchangeErr != nil {
		return f.exchangeErr
	}
	return f.OS.Exchange(a, b)
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

// names lists a folder's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// contents are the files of one run called name: four files of different
// sizes (the largest over 60 kB, so that a disk filling at 60 kB fills in
// a later file), each naming the run on every line.
func contents(name string) map[string]string {
	out := map[string]string{}
	for i, f := range []string{"report.json", "report.html", "report.md", "report.junit.xml"} {
		out[f] = strings.Repeat(fmt.Sprintf("%s of run %s\n", f, name), 1000*(i+1)+7*len(name))
	}
	return out
}

// run is the file set of the run called name.
func run(name string) []File {
	var files []File
	for f, data := range contents(name) {
		files = append(files, File{Name: f, Render: func(w io.Writer) error {
			_, err := io.WriteString(w, data)
			return err
		}})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files
}

// rendered is what Write writes for a file set, file by file.
func rendered(files []File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		var b strings.Builder
		if err := f.Render(&b); err != nil {
			panic(err)
		}
		out[f.Name] = b.String()
	}
	return out
}

func TestWritePrivateAndComplete(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "private")
	paths, err := Writer{}.Write(dir, run("a"))
	require.NoError(t, err)
	var got []string
	for _, p := range paths {
		got = append(got, filepath.Base(p))
		info, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), p)
	}
	sort.Strings(got)
	assert.Equal(t, []string{"report.html", "report.json", "report.junit.xml", "report.md"}, got)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
	assert.Len(t, listDir(t, dir), 4, "no temporary file is left")
	assert.Equal(t, []string{"private"}, names(t, filepath.Dir(dir)), "no temporary folder is left beside it")
}

func TestWriteMakesAnOpenFolderPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.Mkdir(dir, 0o777))
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := Writer{}.Write(dir, run("a"))
	require.NoError(t, err)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "a report folder others could read is replaced by a private one")
}

func TestWriteFaultsKeepEarlierReports(t *testing.T) {
	good := run("a")
	newer := run("b")
	tests := []struct {
		reason string
		fs     *faultyFS
		want   string
	}{
		{"the disk fills in the first file", &faultyFS{failWriteAfter: 100}, "no space left on device"},
		{"the disk fills in a later file", &faultyFS{failWriteAfter: 60_000}, "no space left on device"},
		{"the folder cannot be written", &faultyFS{failWriteAfter: -1, createErr: &os.PathError{Op: "open", Path: "x", Err: os.ErrPermission}}, "permission denied"},
		{"the swap fails", &faultyFS{failWriteAfter: -1, exchangeErr: errors.New("exchange refused")}, "exchange refused"},
		{"without an atomic exchange, the rename fails", &faultyFS{failWriteAfter: -1, exchangeErr: ErrNoExchange, renameErr: errors.New("rename refused")}, "rename refused"},
		{"the folder cannot be made", &faultyFS{failWriteAfter: -1, mkdirErr: errors.New("read-only file system")}, "creating report folder: read-only file system"},
		// The tests may run as root, whom a folder's mode does not stop:
		// a read-only folder is what the system then says.
		{"the parent folder is read-only", &faultyFS{failWriteAfter: -1, mkdirErr: &os.PathError{Op: "mkdir", Path: "out.tmp", Err: syscall.EROFS}}, "creating report folder: out.tmp: read-only file system"},
		{"the new folder is read-only", &faultyFS{failWriteAfter: -1, createErr: &os.PathError{Op: "open", Path: "report.json", Err: syscall.EACCES}}, "report.json: permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			_, err := Writer{}.Write(dir, good)
			require.NoError(t, err)
			before := listDir(t, dir)
			_, err = Writer{FS: tt.fs}.Write(dir, newer)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, before, listDir(t, dir), "earlier reports intact, no partial or temporary file")
			assert.Equal(t, []string{"out"}, names(t, filepath.Dir(dir)), "no temporary folder is left")
		})
	}
	t.Run("without an atomic exchange the reports are still replaced whole", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		_, err := Writer{}.Write(dir, good)
		require.NoError(t, err)
		_, err = Writer{FS: &faultyFS{failWriteAfter: -1, exchangeErr: ErrNoExchange}}.Write(dir, newer)
		require.NoError(t, err)
		assert.Equal(t, rendered(newer), listDir(t, dir))
		assert.Equal(t, []string{"out"}, names(t, filepath.Dir(dir)))
	})
	t.Run("the report files over MaxBytes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		_, err := Writer{}.Write(dir, good)
		require.NoError(t, err)
		before := listDir(t, dir)
		_, err = Writer{MaxBytes: 10_000}.Write(dir, newer)
		assert.ErrorContains(t, err, "the report files would exceed 10000 bytes")
		assert.Equal(t, before, listDir(t, dir))
	})
}

// TestWriteFolderSwappedWhileListed: another run may swap the report
// folder out and remove it between the check that it exists and its
// listing. The listing is taken again; a folder that still cannot be
// listed but is there is refused and left as it is, never replaced
// unread.
func TestWriteFolderSwappedWhileListed(t *testing.T) {
	good := run("a")
	newer := run("b")
	for _, missing := range []int{1, 3} {
		dir := filepath.Join(t.TempDir(), "out")
		_, err := Writer{}.Write(dir, good)
		require.NoError(t, err)
		_, err = Writer{FS: &faultyFS{failWriteAfter: -1, readDirMissing: missing}}.Write(dir, newer)
		require.NoError(t, err, "listing missing %d times", missing)
		assert.Equal(t, rendered(newer), listDir(t, dir))
		assert.Equal(t, []string{"out"}, names(t, filepath.Dir(dir)), "no temporary folder is left")
	}

	dir := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("mine"), 0o600))
	_, err := Writer{FS: &faultyFS{failWriteAfter: -1, readDirMissing: 100}}.Write(dir, newer)
	require.ErrorContains(t, err, "cannot be listed")
	assert.Equal(t, map[string]string{"thesis.tex": "mine"}, listDir(t, dir), "a folder that cannot be read is not replaced")
	assert.Equal(t, []string{"out"}, names(t, filepath.Dir(dir)), "no temporary folder is left")
}

// TestWriteRunsNeverMix writes two different reports into one folder
// from several goroutines at once while readers look at the folder: a
// reader holding the folder open always finds the four files of one run,
// (or, in a folder the next run has just replaced and is removing, some of
// them), and the folder ends up holding one run's four files.
func TestWriteRunsNeverMix(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("readers use /proc/self/fd to hold the folder")
	}
	a, b := run("a"), run("b")
	want := []map[string]string{rendered(a), rendered(b)}
	// same: every file read belongs to one run. A folder being removed
	// (the previous run's, after a swap) may have lost some already.
	same := func(got map[string]string) bool {
		for _, w := range want {
			match := true
			for f, data := range got {
				match = match && w[f] == data
			}
			if match {
				return true
			}
		}
		return false
	}
	dir := filepath.Join(t.TempDir(), "out")
	_, err := Writer{}.Write(dir, a)
	require.NoError(t, err)

	stop := make(chan struct{})
	var mixed []string
	var mu sync.Mutex
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				d, err := os.Open(dir)
				if err != nil {
					continue
				}
				got := map[string]string{}
				for f := range want[0] {
					data, err := os.ReadFile(fmt.Sprintf("/proc/self/fd/%d/%s", d.Fd(), f))
					if err == nil {
						got[f] = string(data)
					}
				}
				d.Close()
				if len(got) > 0 && !same(got) {
					mu.Lock()
					mixed = append(mixed, fmt.Sprint(len(got)))
					mu.Unlock()
				}
			}
		}()
	}
	var writers sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		writers.Add(1)
		go func() {
			defer writers.Done()
			r := a
			if i%2 == 1 {
				r = b
			}
			_, errs[i] = Writer{}.Write(dir, r)
		}()
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	for _, err := range errs {
		assert.NoError(t, err)
	}
	assert.Empty(t, mixed, "a reader saw files of two runs")
	final := listDir(t, dir)
	assert.Len(t, final, 4)
	assert.True(t, same(final), "the folder holds one run's four files")
	assert.Equal(t, []string{"out"}, names(t, filepath.Dir(dir)), "no temporary folder is left")
}

func TestWriteRefusals(t *testing.T) {
	report := run("a")
	root := t.TempDir()
	cases := filepath.Join(root, "cases")
	require.NoError(t, os.MkdirAll(filepath.Join(cases, "sub"), 0o755))
	file := filepath.Join(root, "a-file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	require.NoError(t, os.Symlink(cases, filepath.Join(root, "link-to-cases")))
	require.NoError(t, os.Symlink(filepath.Join(cases, "sub"), filepath.Join(root, "link-to-sub")))
	busy := filepath.Join(root, "busy")
	require.NoError(t, os.MkdirAll(busy, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(busy, "notes.txt"), []byte("mine"), 0o600))
	wd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(wd, cases)
	require.NoError(t, err)

	tests := []struct {
		reason string
		out    string
		want   string // "" when the folder is accepted
	}{
		{"a file is not a folder", file, "is not a directory"},
		{"the walked folder itself", cases, "whose case files are read"},
		{"a folder inside the walked one", filepath.Join(cases, "out"), "whose case files are read"},
		{"a path that climbs back into it", filepath.Join(cases, "a", "..", "b"), "whose case files are read"},
		{"a folder named ..rep inside it is inside it", filepath.Join(cases, "..rep"), "whose case files are read"},
		{"a relative path into it", filepath.Join(rel, "rep"), "whose case files are read"},
		{"a symbolic link to it", filepath.Join(root, "link-to-cases"), "whose case files are read"},
		{"a path through a link into it", filepath.Join(root, "link-to-sub", "rep"), "whose case files are read"},
		{"a folder holding other files is never replaced", busy, "holds other files (notes.txt)"},
		{"a sibling folder with a shared prefix is fine", filepath.Join(root, "cases-reports"), ""},
		{"a folder beside the case files of a named file is fine", filepath.Join(root, "reports", "private"), ""},
	}
	for _, tt := range tests {
		_, err := Writer{CaseDirs: []string{cases}}.Write(tt.out, report)
		if tt.want == "" {
			assert.NoError(t, err, tt.reason)
			continue
		}
		assert.ErrorContains(t, err, tt.want, tt.reason)
	}
	assert.Equal(t, map[string]string{"notes.txt": "mine"}, listDir(t, busy), "the refused folder is untouched")
	entries, err := os.ReadDir(cases)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was written into the case folder")
}

func TestResolvePath(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(root, "a", "b"), filepath.Join(root, "abs")))
	require.NoError(t, os.Symlink("a/b", filepath.Join(root, "rel")))
	require.NoError(t, os.Symlink("loop", filepath.Join(root, "loop")))
	tests := []struct {
		reason, in, want string
	}{
		{"a plain path", filepath.Join(root, "a"), filepath.Join(root, "a")},
		{"an absolute link", filepath.Join(root, "abs", "x"), filepath.Join(root, "a", "b", "x")},
		{"a relative link", filepath.Join(root, "rel"), filepath.Join(root, "a", "b")},
		{".. after a link leaves the link's target, as the system does", filepath.Join(root, "abs") + "/../c", filepath.Join(root, "a", "c")},
		{"a name that starts with two dots is a name", filepath.Join(root, "a", "..rep"), filepath.Join(root, "a", "..rep")},
		{"a missing tail is kept as written", filepath.Join(root, "new", "x", "..", "y"), filepath.Join(root, "new", "y")},
	}
	for _, tt := range tests {
		got, err := resolvePath(OS{}, tt.in)
		require.NoError(t, err, tt.reason)
		assert.Equal(t, tt.want, got, tt.reason)
	}
	_, err = resolvePath(OS{}, filepath.Join(root, "loop", "x"))
	assert.ErrorContains(t, err, "too many levels of symbolic links")
	assert.False(t, within(filepath.Join(root, "cases-x"), filepath.Join(root, "cases")))
	assert.True(t, within(filepath.Join(root, "cases", "..x"), filepath.Join(root, "cases")))
}

// The working folder is never replaced: not by an empty name, which would
// resolve to it, nor by ".", nor by a folder that holds it, even when it
// is empty (or holds reports only) and would otherwise be swapped.
func TestWriteNeverReplacesTheWorkingFolder(t *testing.T) {
	report := run("a")
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	wd := filepath.Join(root, "empty")
	require.NoError(t, os.Mkdir(wd, 0o755))
	t.Chdir(wd)
	for _, tt := range []struct{ reason, out, want string }{
		{"an empty name", "", "the report folder name is empty"},
		{"the working folder", ".", "is the working folder or holds it"},
		{"the working folder by its full name", wd, "is the working folder or holds it"},
		{"the working folder through ..", filepath.Join("..", "empty"), "is the working folder or holds it"},
	} {
		_, err := Writer{}.Write(tt.out, report)
		assert.ErrorContains(t, err, tt.want, tt.reason)
	}
	info, err := os.Stat(wd)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), info.Mode().Perm(), "the folder was not swapped")
	got, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, wd, got)
	entries, err := os.ReadDir(wd)
	require.NoError(t, err)
	assert.Empty(t, entries)
	_, err = Writer{}.Write("reports", report)
	assert.NoError(t, err, "a folder inside the working folder is fine")
}
