// Command deskcheck verifies inert JSON teaching cases about AI-agent
// permission boundaries against an executable model of the host's approval
// code, and writes a private pass/fail report.
//
// Usage:
//
//	deskcheck verify   [-run REGEX] [-v] [-dimensions] [-format FORMAT] [-out DIR] [PATH...]
//	deskcheck validate [PATH...]
//	deskcheck report render [-format html|markdown|junit|text|json] FILE.json
//	deskcheck report -schema
//	deskcheck faults   [-fault NAME] [-run REGEX] [-format text|json] [-out DIR] [PATH...]
//	deskcheck explain  [-run REGEX] [PATH...]
//	deskcheck observe  [-run REGEX] [PATH...]
//	deskcheck new      SCENARIO
//	deskcheck schema
//
// With no PATH the bundled desks are used. Exit codes: 0 every verified case
// passed (or, for validate, no errors); 1 at least one case failed or could
// not run; 2 invalid input or usage.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// Exit codes.
const (
	exitPass    = 0
	exitFail    = 1
	exitInvalid = 2
)

func main() {
	tuneGC()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// tuneGC trades memory for less collection work, unless the environment
// says otherwise: most of deskcheck's heap is results that live until the
// report is written, so collecting at every doubling mostly finds them
// alive. The collector runs when the heap has grown by three times what
// was live; the soft limit makes it run sooner as the heap nears 900 MiB,
// so that a large suite stays under it.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(900 << 20)
	}
}

const usage = `deskcheck verifies inert JSON teaching cases about agent permission boundaries.

Usage:
  deskcheck verify   [-run REGEX] [-v] [-dimensions] [-format FORMAT] [-out DIR] [PATH...]
  deskcheck validate [PATH...]
  deskcheck report render [-format FORMAT] FILE.json
  deskcheck report -schema
  deskcheck faults   [-fault NAME] [-run REGEX] [-format text|json] [-out DIR] [PATH...]
  deskcheck explain  [-run REGEX] [PATH...]
  deskcheck observe  [-run REGEX] [PATH...]
  deskcheck new      SCENARIO
  deskcheck schema

explain shows, case by case, what happened and why; observe prints the
expected block the host model observes, ready to paste, and how it differs
from the authored one; new prints a complete desk with one case of a
scenario; schema prints the JSON Schema of case files. None of them writes
a file.

faults runs every case once per deliberate host fault and shows which
faults the cases catch; it exits 1 when any fault is missed.

FORMAT is text, json, markdown, junit or html. verify writes report.json,
report.html, report.md and report.junit.xml into -out (default
reports/private); report render re-renders a saved report.json.

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
	case "report":
		return report(args[1:], stdout, stderr)
	case "faults":
		return faults(args[1:], stdout, stderr)
	case "explain":
		return show(args[1:], "explain", reports.Explain{}, stdout, stderr)
	case "observe":
		return show(args[1:], "observe", reports.Observe{}, stdout, stderr)
	case "new":
		return newDesk(args[1:], stdout, stderr)
	case "schema":
		if len(args) != 1 {
			fmt.Fprintf(stderr, "deskcheck: usage: deskcheck schema\n")
			return exitInvalid
		}
		stdout.Write(all.Registry().CaseSchema())
		return exitPass
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitPass
	}
	fmt.Fprintf(stderr, "deskcheck: unknown command %q\n\n%s", args[0], usage)
	return exitInvalid
}

// selection holds the flags that choose and bound the cases to run.
type selection struct {
	reg    *scenario.Registry
	run    *string
	limits *verifier.Limits
}

func selectionFlags(fs *flag.FlagSet, reg *scenario.Registry, runUsage string) selection {
	return selection{reg: reg, run: fs.String("run", "", runUsage), limits: limitFlags(fs, reg)}
}

// verifySuite reads the paths (or the bundled desks), validates, lints and
// runs the selected cases. On invalid input it reports to stderr and
// returns exitInvalid.
func (sel selection) verifySuite(paths []string, stderr io.Writer) (*verifier.SuiteResult, int) {
	re, code := compileRun(*sel.run, stderr)
	if code != exitPass {
		return nil, code
	}
	inputs, code := readInputs(sel.reg, paths, *sel.limits, stderr)
	if code != exitPass {
		return nil, code
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: sel.reg, Run: re, Limits: *sel.limits})
	printDiagnostics(stderr, ds)
	if ds.HasErrors() {
		fmt.Fprintf(stderr, "deskcheck: invalid case files; nothing was run\n")
		return nil, exitInvalid
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return nil, exitInvalid
	}
	return suite, exitPass
}

// emit renders rep to w through a buffer: a reporter writes a line or a
// template fragment at a time, which would otherwise be one system call
// each on a terminal or pipe.
func emit(w io.Writer, r reports.Reporter, rep *reports.Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := r.Write(bw, rep); err != nil {
		bw.Flush()
		return err
	}
	return bw.Flush()
}

// writeReports writes the report files and then r's rendering to stdout.
func writeReports(out string, paths []string, rep *reports.Report, r reports.Reporter, stdout, stderr io.Writer) int {
	written, err := reports.Writer{CaseDirs: caseDirs(paths)}.WriteDir(out, rep)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	if err := emit(stdout, r, rep); err != nil {
		fmt.Fprintf(stderr, "deskcheck: writing results: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(stderr, "reports: %s\n", strings.Join(written, ", "))
	return exitPass
}

func verify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sel := selectionFlags(fs, all.Registry(), "verify only cases whose `<desk-id>/<case-id>` matches this regular expression")
	verbose := fs.Bool("v", false, "print the event trace of passing cases and the boundary-response table too")
	dims := fs.Bool("dimensions", false, "print the boundary-response table in the text output")
	format := fs.String("format", "text", "output on stdout: text, json, markdown, junit or html")
	out := fs.String("out", reports.DefaultDir, "folder for the private report files")
	paths, err := parse(fs, args)
	if err != nil {
		return exitInvalid
	}
	render, err := reports.Lookup(*format, reports.Text{Verbose: *verbose, Dimensions: *dims, Color: colorOK(stdout)})
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: -format: %v\n", err)
		return exitInvalid
	}
	suite, code := sel.verifySuite(paths, stderr)
	if code != exitPass {
		return code
	}
	if code := writeReports(*out, paths, reports.Build(suite, time.Now()), render.Reporter, stdout, stderr); code != exitPass {
		return code
	}
	if !suite.Passed() {
		return exitFail
	}
	return exitPass
}

func validate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	reg := all.Registry()
	limits := limitFlags(fs, reg)
	paths, err := parse(fs, args)
	if err != nil {
		return exitInvalid
	}
	inputs, code := readInputs(reg, paths, *limits, stderr)
	if code != exitPass {
		return code
	}
	desks, ds := verifier.LoadAll(reg, inputs, *limits)
	printDiagnostics(stderr, ds)
	if ds.HasErrors() {
		return exitInvalid
	}
	for _, d := range desks {
		fmt.Fprintf(stdout, "%s: ok (desk %s: %d cases, %d source-only claims)\n", d.Path, d.ID, len(d.Cases), len(d.Claims))
	}
	return exitPass
}

func faults(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("faults", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("fault", "", "run only the fault called `NAME` (host/fault, or the fault's name when only one host has it)")
	reg := all.Registry()
	sel := selectionFlags(fs, reg, "use only cases whose `<desk-id>/<case-id>` matches this regular expression")
	format := fs.String("format", "text", "output on stdout: text or json")
	out := fs.String("out", reports.DefaultDir, "folder for the private report files")
	paths, err := parse(fs, args)
	if err != nil {
		return exitInvalid
	}
	var r reports.Reporter = reports.StrengthText{}
	switch *format {
	case "json":
		r = reports.JSON{}
	case "text":
	default:
		fmt.Fprintf(stderr, "deskcheck: -format must be text or json, not %q\n", *format)
		return exitInvalid
	}
	selected := reg.Faults()
	if *only != "" {
		f, err := reg.LookupFault(*only)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
		selected = []scenario.QualifiedFault{f}
	}
	suite, code := sel.verifySuite(paths, stderr)
	if code != exitPass {
		return code
	}
	if *only == "" {
		selected = verifier.FaultsOf(suite.Results, selected)
	}
	strength := verifier.MeasureStrength(context.Background(), suite.Results, selected)
	rep := reports.Build(suite, time.Now())
	rep.AddStrength(strength)
	if code := writeReports(*out, paths, rep, r, stdout, stderr); code != exitPass {
		return code
	}
	if strength.Caught() < len(strength.Faults) {
		return exitFail
	}
	return exitPass
}

// show runs the selected cases and prints them with r; it writes no file.
func show(args []string, name string, r reports.Reporter, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	sel := selectionFlags(fs, all.Registry(), "only cases whose `<desk-id>/<case-id>` matches this regular expression")
	paths, err := parse(fs, args)
	if err != nil {
		return exitInvalid
	}
	suite, code := sel.verifySuite(paths, stderr)
	if code != exitPass {
		return code
	}
	if err := emit(stdout, r, reports.Build(suite, time.Now())); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	return exitPass
}

func newDesk(args []string, stdout, stderr io.Writer) int {
	reg := all.Registry()
	if len(args) != 1 {
		fmt.Fprintf(stderr, "deskcheck: usage: deskcheck new SCENARIO (one of %s)\n", strings.Join(reg.Names(), ", "))
		return exitInvalid
	}
	data, err := verifier.NewDesk(context.Background(), reg, args[0])
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	stdout.Write(data)
	return exitPass
}

// compileRun compiles a -run expression (empty: everything).
func compileRun(expr string, stderr io.Writer) (*regexp.Regexp, int) {
	if expr == "" {
		return nil, exitPass
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: -run: %v\n", err)
		return nil, exitInvalid
	}
	return re, exitPass
}

func report(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	printSchema := fs.Bool("schema", false, "print the JSON Schema of report.json")
	format := fs.String("format", "html", "with render: html, markdown, junit, text or json")
	dims := fs.Bool("dimensions", false, "with render -format text: print the boundary-response table")
	rest, err := parse(fs, args)
	if err != nil {
		return exitInvalid
	}
	switch {
	case *printSchema && len(rest) == 0:
		stdout.Write(reports.ReportSchema)
		return exitPass
	case len(rest) == 2 && rest[0] == "render":
		f, err := reports.Lookup(*format, reports.Text{Dimensions: *dims, Color: colorOK(stdout)})
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: -format: %v\n", err)
			return exitInvalid
		}
		data, err := os.ReadFile(rest[1])
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
		rep, err := reports.ReadJSON(data)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %s: %v\n", rest[1], err)
			return exitInvalid
		}
		if err := emit(stdout, f.Reporter, rep); err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
		return exitPass
	}
	fmt.Fprintf(stderr, "deskcheck: usage: deskcheck report render [-format FORMAT] FILE.json | deskcheck report -schema\n")
	return exitInvalid
}

// limitFlags registers the input limits on fs: the file limits, -limit
// for every limit a scenario declares, and -max-repeat and -max-choices
// as names of wrapper.repeat and wrapper.choices.
func limitFlags(fs *flag.FlagSet, reg *scenario.Registry) *verifier.Limits {
	l := verifier.DefaultLimits
	l.Scenario = map[string]int{}
	fs.Int64Var(&l.FileSize, "max-file-size", l.FileSize, "largest case file, in bytes")
	fs.IntVar(&l.Depth, "max-depth", l.Depth, "deepest nesting of objects and arrays in a case file")
	fs.IntVar(&l.Cases, "max-cases", l.Cases, "most cases (or source-only claims) in one file")
	fs.IntVar(&l.String, "max-string", l.String, "longest string or key, in bytes")
	fs.Var(scenarioLimit{l.Scenario, ""}, "limit", "set a scenario's limit, as `SCENARIO.NAME=N` (repeatable; known: "+strings.Join(verifier.LimitNames(reg), ", ")+")")
	fs.Var(scenarioLimit{l.Scenario, "wrapper.repeat"}, "max-repeat", "largest given.repeat of a wrapper case (same as -limit wrapper.repeat=`N`)")
	fs.Var(scenarioLimit{l.Scenario, "wrapper.choices"}, "max-choices", "most scripted choices in one wrapper case (same as -limit wrapper.choices=`N`)")
	return &l
}

// scenarioLimit is a flag that sets one scenario limit: the one it names,
// or, with no name, the one its value names (NAME=N).
type scenarioLimit struct {
	into map[string]int
	name string
}

func (f scenarioLimit) String() string { return "" }

func (f scenarioLimit) Set(v string) error {
	name, num := f.name, v
	if name == "" {
		var ok bool
		name, num, ok = strings.Cut(v, "=")
		if !ok || !strings.Contains(name, ".") {
			return fmt.Errorf("want SCENARIO.NAME=N, not %q", v)
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return fmt.Errorf("%s must be a positive whole number, not %q", name, num)
	}
	f.into[name] = n
	return nil
}

// parse parses flags that may come before or after the positional
// arguments, and returns the positional ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// readInputs reads the given paths, or the bundled desks when there are
// none.
func readInputs(reg *scenario.Registry, paths []string, limits verifier.Limits, stderr io.Writer) ([]verifier.Input, int) {
	if err := limits.Check(); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return nil, exitInvalid
	}
	if err := limits.CheckNames(reg); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return nil, exitInvalid
	}
	if len(paths) == 0 {
		var inputs []verifier.Input
		for _, f := range cases.Files() {
			inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
		}
		return inputs, exitPass
	}
	inputs, skipped, err := verifier.ReadPaths(paths, limits)
	printDiagnostics(stderr, skipped)
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
