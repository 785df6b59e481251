// Package folder writes a set of files into a folder as a whole: privately
// (folder 0700, files 0600), within a bound on their size, and swapped in
// for the folder's previous content in one step where the system can
// (renameat2 with RENAME_EXCHANGE on Linux), so that a reader never sees
// the files of two runs mixed. It knows nothing of what the files hold.
package folder

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// FS is the part of the file system report writing uses; tests inject
// faults through it.
type FS interface {
	MkdirAll(dir string, perm os.FileMode) error
	// MkdirTemp creates a new private folder in dir.
	MkdirTemp(dir, pattern string) (string, error)
	// Create creates a new file that did not exist, private to its owner.
	Create(name string) (TempFile, error)
	Rename(oldpath, newpath string) error
	// Exchange swaps two existing paths in one step; ErrNoExchange says
	// the system cannot.
	Exchange(a, b string) error
	RemoveAll(path string) error
	Lstat(name string) (fs.FileInfo, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	Readlink(name string) (string, error)
	Getwd() (string, error)
}

// TempFile is a file being written.
type TempFile interface {
	io.Writer
	Name() string
	Sync() error
	Close() error
}

// ErrNoExchange is returned by FS.Exchange where the system has no atomic
// swap of two paths.
var ErrNoExchange = errors.New("atomic exchange not supported")

// OS is the real file system.
type OS struct{}

// MkdirAll creates dir and its parents.
func (OS) MkdirAll(dir string, perm os.FileMode) error { return os.MkdirAll(dir, perm) }

// MkdirTemp creates a new folder, mode 0700, in dir.
func (OS) MkdirTemp(dir, pattern string) (string, error) { return os.MkdirTemp(dir, pattern) }

// Create creates a new file, mode 0600; it fails if name exists.
func (OS) Create(name string) (TempFile, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
}

// Rename renames a file or folder.
func (OS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Exchange swaps a and b atomically where the system can.
func (OS) Exchange(a, b string) error { return exchange(a, b) }

// RemoveAll removes path and what it holds.
func (OS) RemoveAll(path string) error { return os.RemoveAll(path) }

// Lstat describes name without following a final symbolic link.
func (OS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }

// ReadDir lists a folder.
func (OS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// Readlink returns the target of a symbolic link.
func (OS) Readlink(name string) (string, error) { return os.Readlink(name) }

// Getwd returns the working folder.
func (OS) Getwd() (string, error) { return os.Getwd() }

// Writer writes a set of files into a folder as a whole.
type Writer struct {
	FS FS
	// CaseDirs are the folders whose case files are read, recursively:
	// the report folder may not be one of them or lie inside one, or the
	// next run would read the reports as case files. Folders holding
	// case files named one by one are not walked and need not be listed.
	CaseDirs []string
	// MaxBytes bounds the files together; 0 means no bound.
	MaxBytes int64
}

// File is one file of the folder: its name and what writes its bytes.
type File struct {
	Name string
	// Render writes the file's content; it is called once, while the
	// other files are rendered too.
	Render func(io.Writer) error
}

// Write renders files and writes them into dir, privately (folder 0700,
// files 0600) and atomically as a whole: the files are rendered into a
// fresh private folder beside dir, and that folder is swapped in for dir
// in one step (where the system can; elsewhere the old folder is moved
// aside first). A reader sees the files of one run or of the one before,
// never a mix, and two runs into one folder never mix theirs. A failure
// leaves the earlier reports intact and no temporary file behind, and so
// does a signal that ends the process if its handler calls Abandon; a
// temporary folder that a process of this machine left when it was killed
// outright is removed by the next Write beside it. The folder is replaced
// as a whole, so an existing dir must hold nothing but files of these
// names; one readable by others becomes private.
// It returns the paths written.
func (wr Writer) Write(dir string, files []File) ([]string, error) {
	fsys := wr.FS
	if fsys == nil {
		fsys = OS{}
	}
	if dir == "" {
		// "" would resolve to the working folder, which Write would
		// then replace as a whole.
		return nil, errors.New("the report folder name is empty; name a folder with -out")
	}
	real, err := resolvePath(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("report folder %s: %w", dir, unwrapPathError(err))
	}
	if wd, err := resolvePath(fsys, "."); err == nil && within(wd, real) {
		return nil, fmt.Errorf("report folder %s is the working folder or holds it (%s): deskcheck replaces the folder as a whole, so choose a folder inside it with -out", dir, real)
	}
	for _, cd := range wr.CaseDirs {
		rc, err := resolvePath(fsys, cd)
		if err != nil {
			continue
		}
		if within(real, rc) {
			return nil, fmt.Errorf("report folder %s is inside %s, whose case files are read (%s lies in %s): the next run would read the reports as case files; choose another with -out", dir, cd, real, rc)
		}
	}
	exists := false
	switch info, err := fsys.Lstat(real); {
	case err == nil && !info.IsDir():
		return nil, fmt.Errorf("report folder %s is not a directory", dir)
	case err == nil:
		exists = true
		switch err := onlyReports(fsys, real, files); {
		case errors.Is(err, fs.ErrNotExist) && gone(fsys, real):
			// Removed since Lstat, by another run that swapped it out;
			// if that run puts its own in its place, swap below
			// exchanges the two.
			exists = false
		case err != nil:
			return nil, fmt.Errorf("report folder %s %w; deskcheck replaces the folder as a whole, so choose an empty or report-only folder with -out", dir, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("report folder %s: %w", dir, unwrapPathError(err))
	}
	parent := filepath.Dir(real)
	if err := fsys.MkdirAll(parent, 0o700); err != nil {
		return nil, fmt.Errorf("creating report folder: %w", unwrapPathError(err))
	}
	removeStale(fsys, parent, filepath.Base(real))
	tmp, err := fsys.MkdirTemp(parent, tempPrefix(filepath.Base(real))+"*")
	if err != nil {
		return nil, fmt.Errorf("creating report folder: %w", unwrapPathError(err))
	}
	// A signal that ends the process removes the folder (Abandon).
	done, err := Track(tmp)
	if err != nil {
		fsys.RemoveAll(tmp)
		return nil, err
	}
	defer done()
	if err := wr.render(fsys, tmp, dir, files); err != nil {
		fsys.RemoveAll(tmp)
		return nil, err
	}
	if err := whileLive(func() error { return swap(fsys, tmp, real, exists) }); err != nil {
		fsys.RemoveAll(tmp)
		if errors.Is(err, syscall.EXDEV) || errors.Is(err, syscall.EBUSY) {
			return nil, fmt.Errorf("writing %s: the folder cannot be replaced as a whole (%v; a mount point?): choose a folder inside it with -out", dir, unwrapPathError(err))
		}
		return nil, fmt.Errorf("writing %s: %w", dir, unwrapPathError(err))
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(dir, f.Name)
	}
	return paths, nil
}

// render writes every file into folder tmp at once, each straight into
// its file, within wr.MaxBytes.
func (wr Writer) render(fsys FS, tmp, dir string, files []File) error {
	var total atomic.Int64
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			shown := filepath.Join(dir, f.Name)
			errs[i] = writeFile(fsys, filepath.Join(tmp, f.Name), shown, func(w io.Writer) error {
				return f.Render(&bounded{w: w, total: &total, max: wr.MaxBytes})
			})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// bounded fails a write that takes the report files past max bytes in all.
type bounded struct {
	w     io.Writer
	total *atomic.Int64
	max   int64
}

func (b *bounded) Write(p []byte) (int, error) {
	if b.max > 0 && b.total.Add(int64(len(p))) > b.max {
		return 0, fmt.Errorf("the report files would exceed %d bytes, the limit; select fewer cases with -run or raise the limit with -max-report-bytes", b.max)
	}
	return b.w.Write(p)
}

// writeFile renders into a new private file and flushes it to disk.
func writeFile(fsys FS, path, shown string, render func(io.Writer) error) error {
	f, err := fsys.Create(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", shown, unwrapPathError(err))
	}
	fail := func(err error) error {
		f.Close()
		return fmt.Errorf("writing %s: %w", shown, unwrapPathError(err))
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	if err := render(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", shown, unwrapPathError(err))
	}
	return nil
}

// swap puts the folder tmp in the place of real and removes what was
// there.
func swap(fsys FS, tmp, real string, exists bool) error {
	if !exists {
		err := fsys.Rename(tmp, real)
		if err == nil {
			return nil
		}
		// Another run may have made the folder meanwhile.
		if _, lerr := fsys.Lstat(real); lerr != nil {
			return err
		}
	}
	err := fsys.Exchange(tmp, real)
	if err == nil {
		return fsys.RemoveAll(tmp) // now the previous reports
	}
	if !errors.Is(err, ErrNoExchange) {
		return err
	}
	// Without an atomic exchange: move the old folder aside, the new one
	// in, and put the old one back if that fails.
	old := tmp + ".old"
	if err := fsys.Rename(real, old); err != nil {
		return err
	}
	if err := fsys.Rename(tmp, real); err != nil {
		fsys.Rename(old, real)
		return err
	}
	return fsys.RemoveAll(old)
}

// gone reports whether nothing is at path now.
func gone(fsys FS, path string) bool {
	_, err := fsys.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// onlyReports checks that folder dir holds nothing but regular files of
// the names written. A
// folder another run swaps out while it is being listed reads as removed
// (the system lists a removed folder as missing); the folder now in its
// place is listed again, a few times at most, and a folder still missing
// is an error that wraps fs.ErrNotExist.
func onlyReports(fsys FS, dir string, files []File) error {
	entries, err := fsys.ReadDir(dir)
	for tries := 0; errors.Is(err, fs.ErrNotExist) && tries < 3; tries++ {
		entries, err = fsys.ReadDir(dir)
	}
	if err != nil {
		return fmt.Errorf("cannot be listed: %w", unwrapPathError(err))
	}
	known := map[string]bool{}
	for _, f := range files {
		known[f.Name] = true
	}
	var other []string
	for _, e := range entries {
		if known[e.Name()] && e.Type().IsRegular() {
			continue
		}
		other = append(other, e.Name())
	}
	if len(other) == 0 {
		return nil
	}
	sort.Strings(other)
	if len(other) > 3 {
		other = append(other[:3], "…")
	}
	return fmt.Errorf("holds other files (%s)", strings.Join(other, ", "))
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return fmt.Errorf("%s: %w", le.New, le.Err)
	}
	return err
}

// resolvePath returns the absolute, physical path of p: every symbolic
// link on the way is followed and every ".." applies to the folder it is
// reached in, as the system does. A part of p that does not exist yet is
// appended as written.
func resolvePath(fsys FS, p string) (string, error) {
	if !filepath.IsAbs(p) {
		wd, err := fsys.Getwd()
		if err != nil {
			return "", err
		}
		p = wd + string(filepath.Separator) + p
	}
	vol := filepath.VolumeName(p)
	rest := strings.Split(filepath.ToSlash(p[len(vol):]), "/")
	var done []string // the resolved components
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		cur := vol + string(filepath.Separator) + filepath.Join(append(done, c)...)
		info, err := fsys.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			done = append(done, c)
			continue
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			done = append(done, c)
			continue
		}
		if hops++; hops > 40 {
			return "", fmt.Errorf("%s: too many levels of symbolic links", cur)
		}
		target, err := fsys.Readlink(cur)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			done = nil
			target = target[len(filepath.VolumeName(target)):]
		}
		rest = append(strings.Split(filepath.ToSlash(target), "/"), rest...)
	}
	return vol + string(filepath.Separator) + filepath.Join(done...), nil
}

// within reports whether path p is folder dir or lies inside it, comparing
// whole components (cases/..rep is not inside cases/..).
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}
