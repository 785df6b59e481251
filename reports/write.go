package reports

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// DefaultDir is where reports go unless told otherwise. It is git-ignored.
const DefaultDir = "reports/private"

// FS is the part of the file system report writing uses; tests inject
// faults through it.
type FS interface {
	MkdirAll(dir string, perm os.FileMode) error
	CreateTemp(dir, pattern string) (TempFile, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
}

// TempFile is a temporary file being written.
type TempFile interface {
	io.Writer
	Name() string
	Chmod(mode os.FileMode) error
	Sync() error
	Close() error
}

// OS is the real file system.
type OS struct{}

// MkdirAll creates dir and its parents.
func (OS) MkdirAll(dir string, perm os.FileMode) error { return os.MkdirAll(dir, perm) }

// CreateTemp creates a temporary file in dir.
func (OS) CreateTemp(dir, pattern string) (TempFile, error) { return os.CreateTemp(dir, pattern) }

// Rename renames a file.
func (OS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Remove removes a file.
func (OS) Remove(name string) error { return os.Remove(name) }

// Writer writes every report file into a folder.
type Writer struct {
	FS FS
	// CaseDirs are the folders holding the case files read: the report
	// folder may not be one of them or lie inside one.
	CaseDirs []string
}

// WriteDir renders r in every file format and writes the files into dir,
// privately (folder 0700, files 0600) and atomically: each format is
// rendered straight into a temporary file beside its final name, and only
// when every one is complete are they renamed into place. A failure leaves
// no partial file and earlier reports intact. It returns the paths written.
func (wr Writer) WriteDir(dir string, r *Report) ([]string, error) {
	fsys := wr.FS
	if fsys == nil {
		fsys = OS{}
	}
	if err := checkOutside(dir, wr.CaseDirs); err != nil {
		return nil, err
	}
	if err := fsys.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating report folder: %w", unwrapPathError(err))
	}
	var files []Format
	for _, f := range Formats(Text{}) {
		if f.File != "" {
			files = append(files, f)
		}
	}
	// The formats are rendered at the same time, each into its own file.
	temps, paths, errs := make([]string, len(files)), make([]string, len(files)), make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		paths[i] = filepath.Join(dir, f.File)
		wg.Add(1)
		go func() {
			defer wg.Done()
			temps[i], errs[i] = writeTemp(fsys, paths[i], func(w io.Writer) error { return f.Reporter.Write(w, r) })
		}()
	}
	wg.Wait()
	cleanup := func() {
		for _, t := range temps {
			if t != "" {
				fsys.Remove(t)
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			cleanup()
			return nil, err
		}
	}
	for i, p := range paths {
		if err := fsys.Rename(temps[i], p); err != nil {
			cleanup()
			return nil, fmt.Errorf("writing %s: %w", p, unwrapPathError(err))
		}
	}
	return paths, nil
}

// writeTemp renders into a new private temporary file beside path and
// returns its name.
func writeTemp(fsys FS, path string, render func(io.Writer) error) (string, error) {
	tmp, err := fsys.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", path, unwrapPathError(err))
	}
	name := tmp.Name()
	fail := func(err error) (string, error) {
		tmp.Close()
		return name, fmt.Errorf("writing %s: %w", path, unwrapPathError(err))
	}
	if err := tmp.Chmod(0o600); err != nil {
		return fail(err)
	}
	bw := bufio.NewWriterSize(tmp, 256<<10)
	if err := render(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return name, fmt.Errorf("writing %s: %w", path, unwrapPathError(err))
	}
	return name, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

func checkOutside(dir string, caseDirs []string) error {
	out, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, cd := range caseDirs {
		abs, err := filepath.Abs(cd)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(abs, out); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
			return fmt.Errorf("report folder %s is inside %s, which holds case files; choose another with -out", dir, cd)
		}
	}
	return nil
}
