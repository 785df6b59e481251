package verifier

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/internal/parallel"
)

// Input is one case file's name and bytes.
type Input struct {
	Path string
	Data []byte
	// file, set by ListPaths instead of Data, is the file to read the
	// bytes from when LoadEach comes to it.
	file string
}

// ReadPaths reads case files. Each path is a file, or a folder whose *.json
// files are read recursively, sorted by path. A path named here is read
// whatever it is a link to, but nothing that could hang or escape is
// followed inside a folder: symbolic links, FIFOs, devices, sockets,
// unreadable files and files over the size limit found there are skipped
// with a warning. A named path that does not exist or cannot be read (not
// a regular file or folder, over the size limit, unreadable) is an error
// diagnostic with the reason; a path that does not exist at all is
// returned as an error. A file reached twice (named and inside a named
// folder, or through two names) is read once, under its first name.
func ReadPaths(paths []string, limits Limits) ([]Input, Diagnostics, error) {
	return readPaths(paths, limits, false)
}

// ListPaths finds the case files as ReadPaths does, with the same
// warnings and errors, but leaves the files inside folders unread:
// LoadEach reads each when it comes to it, so that the bytes of only a
// few files are held at a time. A file that cannot be read then (removed
// or grown past the limit since) is skipped with a warning, as ReadPaths
// would have skipped it.
func ListPaths(paths []string, limits Limits) ([]Input, Diagnostics, error) {
	return readPaths(paths, limits, true)
}

func readPaths(paths []string, limits Limits, lazy bool) ([]Input, Diagnostics, error) {
	limits = limits.WithDefaults()
	var out []Input
	var ds Diagnostics
	skip := func(path, format string, args ...any) {
		ds = append(ds, Diagnostic{Severity: Warning, Name: "skipped", File: path, Summary: "skipped: " + fmt.Sprintf(format, args...)})
	}
	refuse := func(path, format string, args ...any) {
		ds = append(ds, Diagnostic{Severity: Error, File: path, Summary: "cannot be read: " + fmt.Sprintf(format, args...)})
	}
	seen := map[string]bool{} // resolved paths already read
	first := func(resolved string) bool {
		if seen[resolved] {
			return false
		}
		seen[resolved] = true
		return true
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(p); lerr != nil {
				return nil, ds, fmt.Errorf("%s: no such file or directory", p)
			}
		}
		if err != nil {
			refuse(p, "%v", bare(err))
			continue
		}
		resolved, err := filepath.EvalSymlinks(p)
		if err != nil {
			refuse(p, "%v", bare(err))
			continue
		}
		if resolved, err = filepath.Abs(resolved); err != nil {
			refuse(p, "%v", bare(err))
			continue
		}
		if !info.IsDir() {
			in, err := readFile(p, limits.FileSize)
			if err != nil {
				refuse(p, "%v", err)
				continue
			}
			if first(resolved) {
				out = append(out, in)
			}
			continue
		}
		// The folder is walked at its resolved path, so that a named link
		// to a folder is read; files keep the name they were reached by.
		var files []string
		err = filepath.WalkDir(resolved, func(path string, d fs.DirEntry, err error) error {
			shown := filepath.Join(p, strings.TrimPrefix(path, resolved))
			if err != nil && path == resolved {
				refuse(p, "%v", bare(err)) // the named folder itself
				return fs.SkipDir
			}
			if err != nil {
				skip(shown, "%v", bare(err))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if v, ok := reportFolder(path); ok {
					skip(shown, "a deskcheck report folder (its report.json has formatVersion %s), not case files", v)
					return fs.SkipDir
				}
				return nil
			}
			if !strings.EqualFold(filepath.Ext(path), ".json") {
				return nil
			}
			switch t := d.Type(); {
			case t&fs.ModeSymlink != 0:
				skip(shown, "symbolic link not followed")
			case !t.IsRegular():
				skip(shown, "not a regular file (%s)", kind(t))
			default:
				if first(path) {
					files = append(files, path)
				}
			}
			return nil
		})
		if err != nil {
			return nil, ds, err
		}
		sort.Strings(files)
		read := make([]Input, len(files))
		errs := make([]error, len(files))
		parallel.For(len(files), func(i int) {
			if lazy {
				read[i], errs[i] = Input{file: files[i]}, checkFile(files[i], limits.FileSize)
				return
			}
			read[i], errs[i] = readFile(files[i], limits.FileSize)
		})
		for i, f := range files {
			shown := filepath.Join(p, strings.TrimPrefix(f, resolved))
			if errs[i] != nil {
				skip(shown, "%v", errs[i])
				continue
			}
			read[i].Path = shown
			out = append(out, read[i])
		}
	}
	return out, ds, nil
}

// reportFolder tells whether dir is a report folder deskcheck wrote: it
// holds a regular file report.json whose first member is formatVersion,
// a whole number (every report.json deskcheck writes starts so). It reads
// at most the first 64 bytes of that file, and opens nothing else.
func reportFolder(dir string) (version string, ok bool) {
	path := filepath.Join(dir, "report.json")
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	rest, found := bytes.CutPrefix(bytes.TrimLeft(head[:n], " \t\r\n"), []byte("{"))
	if !found {
		return "", false
	}
	rest, found = bytes.CutPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte(`"formatVersion"`))
	if !found {
		return "", false
	}
	rest, found = bytes.CutPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte(":"))
	if !found {
		return "", false
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	end := 0
	for end < len(rest) && '0' <= rest[end] && rest[end] <= '9' {
		end++
	}
	if end == 0 || end == len(rest) {
		return "", false
	}
	return string(rest[:end]), true
}

// fill reads the bytes of an input that ListPaths listed without reading
// (its Data is nil), bounded by limit; any other input comes back as it is.
func (in Input) fill(limit int64) (Input, error) {
	if in.Data != nil || in.file == "" {
		return in, nil
	}
	read, err := readFile(in.file, limit)
	if err != nil {
		return in, err
	}
	in.Data = read.Data
	return in, nil
}

// readFile reads one regular file of at most limit bytes, checking what it
// is before opening it so that a FIFO or device is never opened.
func readFile(path string, limit int64) (Input, error) {
	info, err := statFile(path, limit)
	if err != nil {
		return Input{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return Input{}, bare(err)
	}
	defer f.Close()
	// Room for the size stat gave, so a file that stays that size is read
	// into one buffer; one that grew meanwhile is still read to limit+1.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return Input{}, bare(err)
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return Input{}, fmt.Errorf("%s", overLimit("the file size in bytes", int64(len(data)), limit))
	}
	return Input{Path: path, Data: data}, nil
}

// statFile checks that path is a regular file of at most limit bytes.
func statFile(path string, limit int64) (fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, bare(err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", kind(info.Mode()))
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%s", overLimit("the file size in bytes", info.Size(), limit))
	}
	return info, nil
}

func checkFile(path string, limit int64) error {
	_, err := statFile(path, limit)
	return err
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return m.Type().String()
}

// bare drops the path a *fs.PathError repeats.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
