package sandbox

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// libraryDirs are searched, in order, for a library an ELF object needs
// and names without a path (after its own RUNPATH or RPATH).
var libraryDirs = []string{
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib",
}

// Libraries returns the shared libraries the ELF objects load, with
// what those load in turn, and their program interpreter: the paths as
// the dynamic loader asks for them, each an existing file. A file that
// is not ELF (a script) needs none; a needed library that cannot be found
// is an error, since the runtime could not start without it. An object
// built for another machine than the first (an addon for another
// architecture, which is never loaded) is left out.
func Libraries(objects []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	var machine elf.Machine
	first := true
	var visit func(path string, origin string) error
	visit = func(path, origin string) error {
		f, err := elf.Open(path)
		if err != nil {
			if os.IsNotExist(err) {
				return err
			}
			return nil // not ELF: nothing to load
		}
		defer f.Close()
		if first {
			machine, first = f.Machine, false
		} else if f.Machine != machine {
			return nil
		}
		var next []string
		for _, p := range f.Progs {
			if p.Type != elf.PT_INTERP {
				continue
			}
			data := make([]byte, p.Filesz)
			if _, err := p.ReadAt(data, 0); err != nil {
				return fmt.Errorf("%s: program interpreter: %w", path, err)
			}
			interp := strings.TrimRight(string(data), "\x00")
			if !seen[interp] {
				seen[interp] = true
				out = append(out, interp)
			}
		}
		needed, _ := f.ImportedLibraries()
		var search []string
		for _, tag := range []elf.DynTag{elf.DT_RUNPATH, elf.DT_RPATH} {
			vals, _ := f.DynString(tag)
			for _, v := range vals {
				for _, d := range strings.Split(v, ":") {
					search = append(search, strings.ReplaceAll(strings.ReplaceAll(d, "${ORIGIN}", origin), "$ORIGIN", origin))
				}
			}
		}
		search = append(search, libraryDirs...)
		for _, name := range needed {
			found := ""
			if strings.Contains(name, "/") {
				found = name
			} else {
				for _, d := range search {
					if st, err := os.Stat(filepath.Join(d, name)); err == nil && st.Mode().IsRegular() {
						found = filepath.Join(d, name)
						break
					}
				}
			}
			if found == "" {
				return fmt.Errorf("%s needs %s, which is in none of %s", path, name, strings.Join(search, ", "))
			}
			if !seen[found] {
				seen[found] = true
				out = append(out, found)
				next = append(next, found)
			}
		}
		for _, n := range next {
			real, err := filepath.EvalSymlinks(n)
			if err != nil {
				return err
			}
			if err := visit(n, filepath.Dir(real)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, o := range objects {
		real, err := filepath.EvalSymlinks(o)
		if err != nil {
			return nil, err
		}
		if err := visit(o, filepath.Dir(real)); err != nil {
			return nil, err
		}
	}
	return sortedUnique(out), nil
}
