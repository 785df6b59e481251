// Command schemafloor validates case files with gojsonschema alone, one
// file after another, as a program using gojsonschema alone does: the
// floor BENCHMARKS.md compares the built deskcheck with, timed as a whole
// process in the same interleaved runs.
//
//	go build -o /tmp/floor ./internal/gen/schemafloor
//	/tmp/floor DIR...
//
// It reads each *.json file under each DIR (sorted), validates it against
// the composed case schema with gojsonschema's own loader, and exits 1 if
// any file does not validate.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
)

func main() {
	s, err := verifier.CompiledCaseSchema(all.Registry())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var paths []string
	for _, dir := range os.Args[1:] {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	sort.Strings(paths)
	bad := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if problems, err := s.ValidateWithLoader(data); err != nil || len(problems) > 0 {
			fmt.Fprintf(os.Stderr, "%s: %v %v\n", p, err, problems)
			bad++
		}
	}
	fmt.Printf("%d files validated, %d with problems\n", len(paths), bad)
	if bad > 0 {
		os.Exit(1)
	}
}
