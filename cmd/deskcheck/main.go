// Command deskcheck verifies inert JSON teaching cases about AI-agent
// permission boundaries against an executable model of the host's approval
// code, and writes a private pass/fail report.
//
// Usage:
//
//	deskcheck verify   [-run REGEX] [-v] [-format text|json] [-out DIR] [PATH...]
//	deskcheck validate [PATH...]
//
// With no PATH the bundled desks are used. Exit codes: 0 every verified case
// passed (or, for validate, no errors); 1 at least one case failed or could
// not run; 2 invalid input or usage.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// Exit codes.
const (
	exitPass    = 0
	exitFail    = 1
	exitInvalid = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `deskcheck verifies inert JSON teaching cases about agent permission boundaries.

Usage:
  deskcheck verify   [-run REGEX] [-v] [-format text|json] [-out DIR] [PATH...]
  deskcheck validate [PATH...]

With no PATH, the bundled desks (cases/*.json) are used. A PATH may be a
file or a folder, whose *.json files are read recursively.

Exit codes: 0 all cases passed (validate: no errors), 1 a case failed or
could not run, 2 invalid input or usage.
`

// run is the whole command with its streams injected; it returns the exit
// code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitInvalid
	}
	switch args[0] {
	case "verify":
		return verify(args[1:], stdout, stderr)
	case "validate":
		return validate(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitPass
	}
	fmt.Fprintf(stderr, "deskcheck: unknown command %q\n\n%s", args[0], usage)
	return exitInvalid
}

func verify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runExpr := fs.String("run", "", "verify only cases whose `<desk-id>/<case-id>` matches this regular expression")
	verbose := fs.Bool("v", false, "print the event trace of passing cases too")
	format := fs.String("format", "text", "output on stdout: text or json")
	out := fs.String("out", reports.DefaultDir, "folder for the private JSON evidence")
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "deskcheck: -format must be text or json, not %q\n", *format)
		return exitInvalid
	}
	var sel *regexp.Regexp
	if *runExpr != "" {
		re, err := regexp.Compile(*runExpr)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: -run: %v\n", err)
			return exitInvalid
		}
		sel = re
	}
	inputs, code := readInputs(fs.Args(), stderr)
	if code != exitPass {
		return code
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Run: sel})
	printDiagnostics(stderr, ds)
	if ds.HasErrors() {
		fmt.Fprintf(stderr, "deskcheck: invalid case files; nothing was run\n")
		return exitInvalid
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}

	report := reports.Build(suite, time.Now())
	path, err := reports.WriteDir(*out, report, caseDirs(fs.Args()))
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	if *format == "json" {
		err = reports.WriteJSON(stdout, report)
	} else {
		err = reports.WriteText(stdout, report, reports.TextOptions{Verbose: *verbose, Color: colorOK(stdout)})
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: writing results: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(stderr, "evidence: %s\n", path)
	if !suite.Passed() {
		return exitFail
	}
	return exitPass
}

func validate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	inputs, code := readInputs(fs.Args(), stderr)
	if code != exitPass {
		return code
	}
	desks, ds := verifier.LoadAll(inputs, verifier.DefaultLimits)
	printDiagnostics(stderr, ds)
	if ds.HasErrors() {
		return exitInvalid
	}
	for _, d := range desks {
		fmt.Fprintf(stdout, "%s: ok (desk %s: %d cases, %d source-only claims)\n", d.Path, d.ID, len(d.Cases), len(d.Claims))
	}
	return exitPass
}

// readInputs reads the given paths, or the bundled desks when there are
// none.
func readInputs(paths []string, stderr io.Writer) ([]verifier.Input, int) {
	if len(paths) == 0 {
		var inputs []verifier.Input
		for _, f := range cases.Files() {
			inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
		}
		return inputs, exitPass
	}
	inputs, err := verifier.ReadPaths(paths)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return nil, exitInvalid
	}
	if len(inputs) == 0 {
		fmt.Fprintf(stderr, "deskcheck: no cases: no *.json file found in %v\n", paths)
		return nil, exitInvalid
	}
	return inputs, exitPass
}

// caseDirs are the folders the reports must stay out of.
func caseDirs(paths []string) []string {
	var dirs []string
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			dirs = append(dirs, p)
		} else {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	return dirs
}

func printDiagnostics(w io.Writer, ds verifier.Diagnostics) {
	for _, d := range ds {
		fmt.Fprintln(w, d.String())
	}
}

// colorOK reports whether w is a terminal and NO_COLOR is unset.
func colorOK(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
