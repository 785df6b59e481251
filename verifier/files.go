package verifier

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Input is one case file's name and bytes.
type Input struct {
	Path string
	Data []byte
}

// MaxFileSize bounds one case file.
const MaxFileSize = 16 << 20

// ReadPaths reads case files: each path is a file, or a directory whose
// *.json files are read recursively (symbolic links are not followed).
// Files come in the order given, directories' files sorted by path.
func ReadPaths(paths []string) ([]Input, error) {
	var out []Input
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, unwrapPathError(err))
		}
		if !info.IsDir() {
			in, err := readFile(p)
			if err != nil {
				return nil, err
			}
			out = append(out, in)
			continue
		}
		var files []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return fmt.Errorf("%s: %w", path, unwrapPathError(err))
			}
			if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(path), ".json") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			in, err := readFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, in)
		}
	}
	return out, nil
}

func readFile(path string) (Input, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Input{}, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if !info.Mode().IsRegular() {
		return Input{}, fmt.Errorf("%s: not a regular file", path)
	}
	if info.Size() > MaxFileSize {
		return Input{}, fmt.Errorf("%s: %d bytes is over the limit of %d", path, info.Size(), MaxFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Input{}, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	return Input{Path: path, Data: data}, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// LoadAll loads and lints every input. Desks come back only for inputs
// without errors.
func LoadAll(inputs []Input, limits Limits) ([]*Desk, Diagnostics) {
	var desks []*Desk
	var ds Diagnostics
	for _, in := range inputs {
		d, fileDs := Load(in.Path, in.Data)
		ds = append(ds, fileDs...)
		if d != nil {
			desks = append(desks, d)
		}
	}
	ds = append(ds, Lint(desks, limits)...)
	ds.Sort()
	return desks, ds
}
