// Command schemafloor validates case files with gojsonschema alone: the
// floor BENCHMARKS.md compares the built deskcheck with, timed as a whole
// process in the same interleaved runs.
//
//	go build -o /tmp/floor ./internal/gen/schemafloor
//	/tmp/floor [-serial] DIR...
//
// It reads each *.json file under each DIR (sorted), validates it against
// the composed case schema with gojsonschema's own loader, and exits 1 if
// any file does not validate. The files are spread over GOMAXPROCS
// goroutines, as many as deskcheck's verify reads and runs files on, so
// that both sides of a comparison use the same processors; -serial
// validates one file after another, as a program using gojsonschema alone
// in the plainest way does. Problems are printed in file order either way.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/schema"
	"github.com/deskcheck/deskcheck/verifier"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: it returns 0 when every file validates, 1 when some
// do not, and 2 when the arguments or the files cannot be read.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("schemafloor", flag.ContinueOnError)
	fl.SetOutput(stderr)
	serial := fl.Bool("serial", false, "validate one file after another instead of on every processor")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: schemafloor [-serial] DIR...")
		return 2
	}
	paths, err := caseFiles(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	s, err := verifier.CompiledCaseSchema(all.Registry())
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	workers := runtime.GOMAXPROCS(0)
	if *serial {
		workers = 1
	}
	outcomes := validateAll(s, paths, workers)
	bad := 0
	for i, o := range outcomes {
		switch {
		case o.readErr != nil:
			fmt.Fprintln(stderr, o.readErr)
			return 2
		case o.err != nil || len(o.problems) > 0:
			fmt.Fprintf(stderr, "%s: %v %v\n", paths[i], o.err, o.problems)
			bad++
		}
	}
	fmt.Fprintf(stdout, "%d files validated on %d %s, %d with problems\n", len(paths), workers, plural(workers, "goroutine"), bad)
	if bad > 0 {
		return 1
	}
	return 0
}

// caseFiles lists the *.json files under each folder, sorted.
func caseFiles(dirs []string) ([]string, error) {
	var paths []string
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".json") {
				paths = append(paths, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// outcome is what validating one file gave.
type outcome struct {
	readErr  error
	err      error
	problems []schema.Problem
}

// validateAll reads and validates each file, on at most workers goroutines
// at a time, and returns the outcomes in the files' order.
func validateAll(s *schema.Schema, paths []string, workers int) []outcome {
	out := make([]outcome, len(paths))
	one := func(i int) {
		data, err := os.ReadFile(paths[i])
		if err != nil {
			out[i].readErr = err
			return
		}
		out[i].problems, out[i].err = s.ValidateWithLoader(data)
	}
	if workers <= 1 {
		for i := range paths {
			one(i)
		}
		return out
	}
	parallel.For(len(paths), one)
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
