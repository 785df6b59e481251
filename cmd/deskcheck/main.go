package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

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
	startCollector()
	catchSignals()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// guardedWriter shows every acting character written to it as a visible
// escape, keeping line feeds and tabs: what deskcheck says on standard
// error often quotes a file name or a value from a case file, and neither
// may move the cursor, recolour the terminal or reorder the text. Each
// write is one whole message, so no character is split between writes.
type guardedWriter struct{ w io.Writer }

func (g guardedWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(g.w, reports.Visible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// run is the whole command with its streams injected; it returns the exit
// code.
func run(args []string, stdout, stderr io.Writer) int {
	stderr = guardedWriter{stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitInvalid
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" {
			return help(args[1:], stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitPass
	case "--version", "-version":
		return versionCommand(args[1:], stdout, stderr)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "deskcheck: unknown command %q%s\n\n%s", args[0], didYouMean(args[0], commandNames()), usage)
		return exitInvalid
	}
	if stamps[args[0]] && !wantsHelp(args[1:]) {
		if err := checkSourceDateEpoch(); err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
	}
	return cmd(args[1:], stdout, stderr)
}

// help prints one command's help on stdout.
func help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return exitPass
	}
	cmd, ok := commands[args[0]]
	if len(args) == 1 && !ok {
		return helpTopic(args[0], stdout, stderr)
	}
	if len(args) != 1 {
		fmt.Fprintf(stderr, "deskcheck: usage: deskcheck help COMMAND (one of %s)\n", strings.Join(commandNames(), ", "))
		return exitInvalid
	}
	return cmd([]string{"-h"}, stdout, stderr)
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// didYouMean names the closest of known when name is a likely slip.
func didYouMean(name string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(name), k); d < bestDist || d == bestDist && k < best {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// wantsHelp reports whether args ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// newFlags returns the flag set of a command. Help (-h) goes to stdout,
// with the command's synopsis, and is not an error; a mistake is reported
// on stderr with a pointer to the help.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // parse prints help itself
	return fs
}

// flagError is the exit code of a parse error: 0 for help, which parse
// printed on stdout, else 2.
func flagError(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitPass
	}
	return exitInvalid
}

// printHelp prints a command's synopsis and flags on w.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n", synopses[fs.Name()])
	if desc := descriptions[fs.Name()]; desc != "" {
		fmt.Fprintf(w, "\n%s\n", desc)
	}
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintf(w, "\nFlags:\n")
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
}

func schemaCommand(args []string, stdout, stderr io.Writer) int {
	if wantsHelp(args) {
		fs := newFlags("schema", stderr)
		printHelp(stdout, fs)
		return exitPass
	}
	if len(args) != 0 {
		fmt.Fprintf(stderr, "deskcheck: usage: deskcheck schema\n")
		return exitInvalid
	}
	stdout.Write(all.Registry().CaseSchema())
	return exitPass
}

// versionCommand prints what a report records as provenance.deskcheck and
// provenance.revision.
func versionCommand(args []string, stdout, stderr io.Writer) int {
	if wantsHelp(args) {
		printHelp(stdout, newFlags("version", stderr))
		return exitPass
	}
	if len(args) != 0 {
		fmt.Fprintf(stderr, "deskcheck: usage: deskcheck version\n")
		return exitInvalid
	}
	version, revision := buildVersion()
	fmt.Fprintf(stdout, "deskcheck %s (revision %s, %s)\n", version, revision, runtime.Version())
	return exitPass
}

// buildVersion returns the module version and VCS revision the binary was
// built from, "(devel)" and "unknown" when the build does not say, as the
// reports record them.
func buildVersion() (version, revision string) {
	version, revision = "(devel)", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				revision = s.Value
			}
		}
	}
	return version, revision
}

// maxSourceDateEpoch is 9999-12-31T23:59:59Z, the last time an RFC 3339
// time stamp can write.
const maxSourceDateEpoch = 253402300799

// checkSourceDateEpoch refuses a SOURCE_DATE_EPOCH the reports could not
// record: anything but a whole number of seconds from 0 to the end of
// year 9999.
func checkSourceDateEpoch() error {
	v := os.Getenv("SOURCE_DATE_EPOCH")
	if v == "" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > maxSourceDateEpoch {
		return fmt.Errorf("SOURCE_DATE_EPOCH is %q: it must be a whole number of seconds from 0 to %d (the end of year 9999)", v, maxSourceDateEpoch)
	}
	return nil
}

// selection holds the flags that choose and bound the cases to run.
type selection struct {
	reg    *scenario.Registry
	run    *string
	limits *verifier.Limits
	// runs says how many times a case will run (nil: once), for the
	// bound on the run's scripted work.
	runs func(*verifier.Case) int
	// invalid, when set, is told the diagnostics that stopped the run,
	// for the annotation and SARIF formats.
	invalid func(verifier.Diagnostics)
	// diagnostics, when set, receives the diagnostics of a run that went
	// ahead (its warnings), for the annotation and SARIF formats.
	diagnostics *verifier.Diagnostics
	// warnings, when set, receives the number of warnings no desk or
	// case acknowledges (-fail-on-warn).
	warnings *int
	// hosts pins host families to one release each (-host).
	hosts *hostFlag
	// shown: the cases are printed as they run (explain, observe), so a
	// run stopped by an invalid file has printed those before it.
	shown bool
}

func selectionFlags(fs *flag.FlagSet, reg *scenario.Registry, runUsage string) selection {
	sel := selection{reg: reg, run: fs.String("run", "", runUsage), limits: limitFlags(fs, reg), hosts: &hostFlag{reg: reg}}
	fs.Var(sel.hosts, "host", hostUsage(reg))
	return sel
}

// verifySuite reads the paths (or the bundled desks), validates, lints and
// runs the selected cases. On invalid input it reports to stderr and
// returns exitInvalid.
func (sel selection) verifySuite(paths []string, stderr io.Writer) (*verifier.SuiteResult, int) {
	return sel.judge(paths, stderr, verifier.ReadPaths, func(inputs []verifier.Input, opts verifier.Options) (*verifier.SuiteResult, verifier.Diagnostics, error) {
		return verifier.Verify(context.Background(), inputs, opts)
	})
}

// streamSuite is verifySuite for a suite of any size: the files are read
// in turn and each desk's results go to st as its cases have run, which
// keeps what the report needs of them (verifier.VerifyEach).
func (sel selection) streamSuite(paths []string, st *reports.Stream, stderr io.Writer) (*verifier.SuiteResult, int) {
	return sel.judge(paths, stderr, verifier.ListPaths, func(inputs []verifier.Input, opts verifier.Options) (*verifier.SuiteResult, verifier.Diagnostics, error) {
		return verifier.VerifyStream[*reports.Streamed](context.Background(), inputs, opts, st)
	})
}

// pointsSuite is streamSuite for what cover reads of the results: each
// result keeps its case and the points it reached, and its trace,
// observed values and mismatches are let go as soon as its case has run.
func (sel selection) pointsSuite(paths []string, stderr io.Writer) (*verifier.SuiteResult, int) {
	kept := &pointsOnly{}
	suite, code := sel.judge(paths, stderr, verifier.ListPaths, func(inputs []verifier.Input, opts verifier.Options) (*verifier.SuiteResult, verifier.Diagnostics, error) {
		return verifier.VerifyStream[verifier.Result](context.Background(), inputs, opts, kept)
	})
	if suite != nil {
		suite.Results = kept.results
	}
	return suite, code
}

// pointsOnly keeps each result without its trace, observed values and
// mismatches (verifier.Sink).
type pointsOnly struct{ results []verifier.Result }

func (p *pointsOnly) Prepare(r *verifier.Result) verifier.Result {
	x := *r
	x.Trace, x.Observed, x.Mismatches = nil, nil, nil
	return x
}

func (p *pointsOnly) Take(_ *verifier.Desk, r verifier.Result) error {
	p.results = append(p.results, r)
	return nil
}

func (p *pointsOnly) Done(*verifier.Desk, []*verifier.Claim) error { return nil }

// judge reads the inputs with read and judges them with verify, reporting
// what stops the run to stderr.
func (sel selection) judge(paths []string, stderr io.Writer, read func([]string, verifier.Limits) ([]verifier.Input, verifier.Diagnostics, error),
	verify func([]verifier.Input, verifier.Options) (*verifier.SuiteResult, verifier.Diagnostics, error)) (*verifier.SuiteResult, int) {
	re, code := compileRun(*sel.run, stderr)
	if code != exitPass {
		return nil, code
	}
	inputs, code := gatherInputs(sel.reg, paths, *sel.limits, stderr, read)
	if code != exitPass {
		return nil, code
	}
	suite, ds, err := verify(inputs, verifier.Options{Registry: sel.reg, Run: re, Limits: *sel.limits, Runs: sel.runs, Hosts: sel.hosts.pins})
	if errors.Is(err, verifier.ErrNoCases) && !ds.HasErrors() {
		// That nothing matched is the news; the files' warnings follow.
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		printDiagnostics(stderr, ds)
		return nil, exitInvalid
	}
	printDiagnostics(stderr, ds)
	if sel.warnings != nil {
		*sel.warnings = ds.Unacknowledged()
	}
	if ds.HasErrors() {
		if sel.invalid != nil {
			sel.invalid(ds)
		}
		var ran *verifier.RanBeforeInvalid
		switch {
		case errors.As(err, &ran) && sel.shown:
			fmt.Fprintf(stderr, "deskcheck: invalid case files; nothing more is shown (%v)\n", ran)
		case errors.As(err, &ran):
			fmt.Fprintf(stderr, "deskcheck: invalid case files; nothing is reported (%v)\n", ran)
		default:
			fmt.Fprintf(stderr, "deskcheck: invalid case files; nothing was run\n")
		}
		return nil, exitInvalid
	}
	if sel.diagnostics != nil {
		*sel.diagnostics = ds
	}
	if err != nil {
		var over *verifier.TraceLimitError
		if errors.As(err, &over) && sel.shown {
			fmt.Fprintf(stderr, "deskcheck: %s\n", over.Shown())
		} else {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		}
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

func verify(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("verify", stderr)
	reg := all.Registry()
	sel := selectionFlags(fs, reg, "verify only cases whose `<desk-id>/<case-id>` matches this regular expression")
	verbose := fs.Bool("v", false, "print the event trace of passing cases and the boundary-response table too")
	dims := fs.Bool("dimensions", false, "print the boundary-response table in the text output")
	o := outputFlags(fs, "verify")
	out := fs.String("out", reports.DefaultDir, "folder for the private report files (none: write no folder)")
	maxReport := reportBytesFlag(fs)
	failOnWarn := failOnWarnFlag(fs)
	sel.warnings = new(int)
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if code := o.check(stderr); code != exitPass {
		return code
	}
	if *out == "" {
		// Said before anything runs, not after.
		fmt.Fprintf(stderr, "deskcheck: the report folder name is empty; name a folder with -out (or -out none)\n")
		return exitInvalid
	}
	var ds verifier.Diagnostics
	sel.diagnostics = &ds
	sel.invalid = func(ds verifier.Diagnostics) {
		o.invalid(stdout, ds, reg, "deskcheck: invalid case files; nothing was run")
	}
	// Each desk's results are made into evidence as its cases have run,
	// so that the memory taken does not grow with the suite's evidence.
	traces := *verbose && *o.format == "text"
	st := reports.NewStream(origin(), traces)
	if *out == noOut && *o.format != "json" {
		// No report.json is written: its evidence need not be made.
		st = reports.NewStreamWithoutJSON(origin(), traces)
	}
	defer st.Close()
	suite, code := sel.streamSuite(paths, st, stderr)
	if code != exitPass {
		return code
	}
	rep, err := st.Finish(suite)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	rep.Diagnostics = ds
	render := o.reporter(reports.Text{Verbose: *verbose, Dimensions: *dims, Color: colorOK(stdout)}, ds, reg, whereAll("verify", *out))
	if code := writeReports(*out, *maxReport, paths, stamp(rep, "verify", args, *sel.limits, reg), render, stdout, stderr); code != exitPass {
		return code
	}
	if !suite.Passed() {
		return exitFail
	}
	return warnExit(*failOnWarn, *sel.warnings, stderr)
}

func validate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", stderr)
	reg := all.Registry()
	limits := limitFlags(fs, reg)
	o := outputFlags(fs, "validate")
	failOnWarn := failOnWarnFlag(fs)
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if code := o.check(stderr); code != exitPass {
		return code
	}
	// Each file is read, checked and let go in turn: what is kept is a
	// line for each file and the diagnostics, never the suite.
	inputs, code := gatherInputs(reg, paths, *limits, stderr, verifier.ListPaths)
	if code != exitPass {
		return code
	}
	var oks []string
	ds := verifier.LoadEach(reg, inputs, *limits, func(d *verifier.Desk) {
		oks = append(oks, fmt.Sprintf("%s: ok (desk %s: %s, %d source-only claims)\n", reports.OneLine(d.Path), reports.OneLine(d.ID), plural(len(d.Cases), "case", "cases"), len(d.Claims)))
	})
	printDiagnostics(stderr, ds)
	code = exitPass
	if ds.HasErrors() {
		code = exitInvalid
	}
	switch *o.format {
	case "github":
		o.github(ds, reg, "the output of deskcheck validate").WriteDiagnostics(stdout, validateHeadline(len(inputs), ds))
		if code != exitPass {
			return code
		}
		return warnExit(*failOnWarn, ds.Unacknowledged(), stderr)
	case "sarif":
		version, _ := buildVersion()
		reports.SARIF{Diagnostics: ds, Registry: reg, Version: version, Where: "the output of deskcheck validate"}.WriteDiagnostics(stdout)
		if code != exitPass {
			return code
		}
		return warnExit(*failOnWarn, ds.Unacknowledged(), stderr)
	}
	if code != exitPass {
		return code
	}
	for _, ok := range oks {
		io.WriteString(stdout, ok)
	}
	return warnExit(*failOnWarn, ds.Unacknowledged(), stderr)
}

func faults(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("faults", stderr)
	only := fs.String("fault", "", "run only the fault called `NAME` (host/fault, or a bare name: every host's fault of that name)")
	reg := all.Registry()
	sel := selectionFlags(fs, reg, "use only cases whose `<desk-id>/<case-id>` matches this regular expression")
	o := outputFlags(fs, "faults")
	out := fs.String("out", reports.DefaultDir, "folder for the private report files (none: write no folder)")
	maxReport := reportBytesFlag(fs)
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if code := o.check(stderr); code != exitPass {
		return code
	}
	if *out == "" {
		// Said before anything runs, not after.
		fmt.Fprintf(stderr, "deskcheck: the report folder name is empty; name a folder with -out (or -out none)\n")
		return exitInvalid
	}
	var ds verifier.Diagnostics
	sel.diagnostics = &ds
	sel.invalid = func(ds verifier.Diagnostics) {
		o.invalid(stdout, ds, reg, "deskcheck: invalid case files; nothing was run")
	}
	selected := reg.Faults()
	if *only != "" {
		fs, err := reg.LookupFaults(*only)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
		selected = fs
	}
	// Each case runs once, then once more under each fault of its host.
	perHost := map[string]int{}
	for _, f := range selected {
		perHost[f.Host]++
	}
	sel.runs = func(c *verifier.Case) int {
		_, fam := c.Spec()
		return 1 + perHost[fam.Host.Name]
	}
	suite, code := sel.verifySuite(paths, stderr)
	if code != exitPass {
		return code
	}
	if *only == "" || len(selected) > 1 {
		selected = verifier.FaultsOf(suite.Results, selected)
	}
	strength := verifier.MeasureStrengthPinned(context.Background(), suite.Results, selected, suite.Hosts)
	// Only the report folder and the page formats show a case's suggested
	// block; the strength table alone needs none.
	suite.Unshown = *out == "none" && *o.format == "text"
	rep := stamp(buildReport(suite), "faults", args, *sel.limits, reg)
	rep.AddStrength(strength)
	var r reports.Reporter = reports.StrengthText{}
	if *o.format != "text" {
		r = o.reporter(reports.Text{}, ds, reg, whereAll("faults", *out))
	}
	if code := writeReports(*out, *maxReport, paths, rep, r, stdout, stderr); code != exitPass {
		return code
	}
	if !rep.Strength.Pass() {
		return exitFail
	}
	return exitPass
}

// show runs the selected cases and prints each with out as soon as it and
// the cases before it have run; it writes no file.
func show(args []string, name string, out *reports.Shown, stdout, stderr io.Writer) int {
	fs := newFlags(name, stderr)
	sel := selectionFlags(fs, all.Registry(), "only cases whose `<desk-id>/<case-id>` matches this regular expression")
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	return sel.showSuite(paths, out, stderr)
}

// showSuite runs the selected cases and prints each with out as it has
// run (verifier.VerifyStream): the memory taken is that of the cases in
// flight, not of every result.
func (sel selection) showSuite(paths []string, out *reports.Shown, stderr io.Writer) int {
	sel.shown = true
	_, code := sel.judge(paths, stderr, verifier.ListPaths, func(inputs []verifier.Input, opts verifier.Options) (*verifier.SuiteResult, verifier.Diagnostics, error) {
		return verifier.VerifyStream[*reports.Case](context.Background(), inputs, opts, out)
	})
	if err := out.Close(); err != nil && code == exitPass {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	return code
}

func newDesk(args []string, stdout, stderr io.Writer) int {
	reg := all.Registry()
	if wantsHelp(args) {
		printHelp(stdout, newFlags("new", stderr))
		fmt.Fprintf(stdout, "\nSCENARIO is one of %s.\n", strings.Join(reg.Names(), ", "))
		return exitPass
	}
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
	fs := newFlags("report", stderr)
	printSchema := fs.Bool("schema", false, "print the JSON Schema of report.json")
	o := outputFlags(fs, "report")
	maxSize := fs.Int64("max-file-size", reports.ReadLimits.FileSize, "largest report.json to read, in bytes")
	dims := fs.Bool("dimensions", false, "with render -format text: print the boundary-response table")
	rest, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	switch {
	case *printSchema && len(rest) == 0:
		stdout.Write(reports.ReportSchema)
		return exitPass
	case len(rest) == 2 && rest[0] == "render":
		if code := o.check(stderr); code != exitPass {
			return code
		}
		data, code := readReport(rest[1], *maxSize, stderr)
		if code != exitPass {
			return code
		}
		collectForReport(len(data))
		// Read a case at a time: what grows with a case's run is set
		// aside until a format shows it.
		rep, err := reports.ReadJSONLean(data, *o.format == "json")
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %s: %v\n", rest[1], err)
			return exitInvalid
		}
		defer rep.Close()
		data = nil
		r := o.reporter(reports.Text{Dimensions: *dims, Color: colorOK(stdout)}, nil, all.Registry(), rest[1])
		if err := emit(stdout, r, rep); err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
		return exitPass
	}
	fmt.Fprintf(stderr, "deskcheck: usage: deskcheck report render [-format FORMAT] FILE.json | deskcheck report -schema\n")
	return exitInvalid
}

// readReport reads a saved report.json as a case file is read: a regular
// file only (a FIFO or device is never opened), within the size limit.
func readReport(path string, limit int64, stderr io.Writer) ([]byte, int) {
	if limit <= 0 {
		fmt.Fprintf(stderr, "deskcheck: the file size limit must be positive, not %d\n", limit)
		return nil, exitInvalid
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		fmt.Fprintf(stderr, "deskcheck: %s: cannot be read: a folder, not a report.json\n", path)
		return nil, exitInvalid
	}
	inputs, ds, err := verifier.ReadPaths([]string{path}, verifier.Limits{FileSize: limit})
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return nil, exitInvalid
	}
	if ds.HasErrors() || len(inputs) != 1 {
		printDiagnostics(stderr, ds)
		return nil, exitInvalid
	}
	return inputs[0].Data, exitPass
}

// limitFlags registers the input limits on fs: the file limits, -limit
// for every limit a scenario declares, and the flag of its own a limit
// may declare (-max-repeat for wrapper.repeat, say).
func limitFlags(fs *flag.FlagSet, reg *scenario.Registry) *verifier.Limits {
	l := verifier.DefaultLimits
	l.Scenario = map[string]int{}
	fs.Var(int64Limit{&l.FileSize, "-max-file-size"}, "max-file-size", "largest case file, in `BYTES`")
	fs.Var(intLimit{&l.Depth, "-max-depth"}, "max-depth", "deepest nesting of objects and arrays in a case file, `N` levels")
	fs.Var(intLimit{&l.Cases, "-max-cases"}, "max-cases", "most cases (or source-only claims) in one file, `N`")
	fs.Var(intLimit{&l.String, "-max-string"}, "max-string", "longest string or key, in `BYTES` of its decoded text")
	fs.Var(intLimit{&l.Work, "-max-work"}, "max-work", "most scripted work (`N` units) in one file: the sum over its cases of every value a scenario declares a limit for")
	fs.Var(intLimit{&l.RunWork, "-max-run-work"}, "max-run-work", "most scripted work (`N` units) in one run, over the selected cases (faults: times the runs of each)")
	fs.Var(intLimit{&l.CopyBytes, "-max-copy-bytes"}, "max-copy-bytes", "most `BYTES` of case data one run (or one file) may copy into results, trace and reports: the records of every read, the args of every call")
	fs.Var(intLimit{&l.Events, "-max-events"}, "max-events", "most trace events (`N`) one run may record")
	fs.Var(intLimit{&l.TraceBytes, "-max-trace-bytes"}, "max-trace-bytes", "most `BYTES` of trace text one run may record")
	fs.Var(intLimit{&l.Diagnostics, "-max-diagnostics"}, "max-diagnostics", "most problems (`N`) listed for one file; the rest are counted")
	fs.Var(verifier.ScenarioLimit{Into: l.Scenario}, "limit", "set a scenario's limit, as `SCENARIO.NAME=N` (repeatable; known: "+strings.Join(verifier.LimitNames(reg), ", ")+")")
	for _, n := range reg.Names() {
		sc, _, _ := reg.Lookup(n)
		for _, x := range sc.Limits {
			if x.Flag != "" {
				name := n + "." + x.Name
				fs.Var(verifier.ScenarioLimit{Into: l.Scenario, Name: name}, x.Flag, x.Help+" (same as -limit "+name+"=`N`)")
			}
		}
	}
	return &l
}

// parse parses flags that may come before or after the positional
// arguments, and returns the positional ones. Asked for help, it prints it
// on stdout and returns flag.ErrHelp; on a mistake, flag has said what it
// is on stderr and parse adds where to find help.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(stdout, fs)
			} else {
				fmt.Fprintf(fs.Output(), "run 'deskcheck help %s' for its usage\n", fs.Name())
			}
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
	return gatherInputs(reg, paths, limits, stderr, verifier.ReadPaths)
}

// gatherInputs is readInputs with the reader of named paths given:
// verifier.ReadPaths, or verifier.ListPaths to leave files to be read
// when loaded.
func gatherInputs(reg *scenario.Registry, paths []string, limits verifier.Limits, stderr io.Writer, read func([]string, verifier.Limits) ([]verifier.Input, verifier.Diagnostics, error)) ([]verifier.Input, int) {
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
		for _, f := range all.Desks() {
			inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
		}
		return inputs, exitPass
	}
	inputs, skipped, err := readPaths(paths, limits, read)
	printDiagnostics(stderr, skipped)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return nil, exitInvalid
	}
	if skipped.HasErrors() {
		fmt.Fprintf(stderr, "deskcheck: a path named on the command line cannot be read; nothing was run\n")
		return nil, exitInvalid
	}
	if len(inputs) == 0 {
		fmt.Fprintf(stderr, "deskcheck: no cases: no *.json file found in %v\n", paths)
		return nil, exitInvalid
	}
	return inputs, exitPass
}

// caseDirs are the folders the reports must stay out of: those walked for
// case files. A file named alone is read alone, so the folder holding it
// may hold the reports too (a desk saved next to the README).
func caseDirs(paths []string) []string {
	var dirs []string
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			dirs = append(dirs, p)
		}
	}
	return dirs
}

func printDiagnostics(w io.Writer, ds verifier.Diagnostics) {
	for _, d := range ds {
		fmt.Fprintln(w, d.String())
	}
}

// colorOK reports whether w is a terminal and colour is wanted.
func colorOK(w io.Writer) bool {
	if !colorWanted() {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// colorWanted: NO_COLOR is unset or empty (no-color.org) and the terminal
// is not dumb.
func colorWanted() bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}
