// Command deskcheck-host runs deskcheck cases through real code: a
// published release of the OMP coding agent or of the Gemini CLI's policy
// engine installed into deskcheck's cache folder, a local OMP checkout, or
// the arena's adapters on their real Python frameworks.
//
// Usage:
//
//	deskcheck-host install [-substitute] omp@V | gemini@V | arena | arena@ADAPTER[@V]
//	deskcheck-host list
//	deskcheck-host remove omp@V | gemini@V | arena | arena@ADAPTER
//	deskcheck-host verify [-host omp@V | -host gemini@V | -host NAME@*,... | -host arena | -host arena@ADAPTER[@V] | -host-src DIR] [-jobs N] [-allow-changed-release] [-run REGEX] [-v] [-format text|json|markdown|junit|html] [-out DIR|none] [limits] [PATH...]
//	deskcheck-host drift [-run REGEX] [-format text|json] [-jobs N] [PATH...]
//
// It is a command of its own, apart from deskcheck, because it starts a
// program (bun, node or python, running deskcheck's harness over the
// release's modules, in a sandbox): deskcheck itself cannot start any. The cache folder is $DESKCHECK_CACHE
// when set, else deskcheck/ in the user's cache folder. Exit codes: 0 every
// case holds on the real code and the model agrees; 1 a case does not hold,
// the model and the real code disagree, or a case could not run; 2 invalid
// input or usage.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/all/real"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/reports/folder"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

const (
	exitPass    = 0
	exitFail    = 1
	exitInvalid = 2
)

// usage is the command's help, naming the families of host/all/real.
var usage = usageText()

func usageText() string {
	var titles, hosts, alternatives, every []string
	for _, f := range real.Families() {
		titles = append(titles, possessive(f.Title))
		every = append(every, f.Host+"@*")
		if !f.Every {
			hosts = append(hosts, f.Host+"@V")
			continue
		}
		alternatives = append(alternatives, fmt.Sprintf("%s (every installed release) or one release, %s", f.Host, orList(prefixed(f.Host+"@", f.Releases()))))
	}
	hostParagraph := wrap(fmt.Sprintf("HOST is %s (the newest installed when -host names no version)%s; "+
		"verify's default is the newest installed %s release. verify -host takes several, "+
		"separated by commas, and NAME@* for every installed release of NAME (%s): each release runs in a harness of its own, "+
		"at most -jobs at once, and the output gives each release's section.",
		strings.Join(hosts, ", "), strings.Join(prefixed(", ", alternatives), ""), defaultFamily().Host, strings.Join(every, ", ")), 72)
	return `deskcheck-host runs deskcheck cases through real code: ` + strings.Join(titles, ", ") + `.

Usage:
  deskcheck-host install [-substitute] HOST    install a release (the only step that uses the network)
  deskcheck-host list                          list the installed releases
  deskcheck-host remove HOST                   remove an installed release
  deskcheck-host verify [-host HOST[,HOST...] | -host-src DIR] [-jobs N] [-fault NAME] [-allow-changed-release] [-run REGEX] [-v] [-format FORMAT] [-out DIR|none] [limits] [PATH...]
  deskcheck-host drift [-run REGEX] [-format text|json] [-jobs N] [PATH...]

verify runs every case on the model and on the real code and shows three
columns per case (authored expectation, model, real code) with a verdict:
"holds on the real code", "does not hold on the real code" or "model and
real code disagree" (with a one-case desk to reproduce). drift runs the
cases on every installed release and shows what differs between them.

` + hostParagraph + `

With no PATH the bundled desks are used. FORMAT is text, json, markdown,
junit or html. -out DIR writes a deskcheck report of the run: the model's
results with the real code's as its model-against-real-code section, in
report.json (deskcheck report render and diff read it) and its four
renderings. The limits are deskcheck's, counted
before anything runs (-max-file-size, -max-work, -max-run-work,
-max-copy-bytes), and -max-answer-bytes, the most the harness may answer in
all; a run over one exits 2 naming it.
The cache folder is $DESKCHECK_CACHE, else deskcheck/ in the user's cache.

Exit codes: 0 every case holds and the model agrees, 1 a case does not hold,
disagrees or could not run, 2 invalid input or usage.
`
}

// possessive is a title's possessive ("OMP's", "the arena's frameworks'").
func possessive(title string) string {
	if strings.HasSuffix(title, "s") {
		return title + "'"
	}
	return title + "'s"
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// wrap breaks text into lines of at most width bytes, at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case line+1+len(w) > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

func main() {
	os.Exit(runWithSignals(os.Args[1:], endSignals...))
}

// endSignals end a run.
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// runWithSignals is the command as started: the signals end the run (the harness's sandbox is killed and its
// temporary folder removed) and the command exits 1.
func runWithSignals(args []string, signals ...os.Signal) int {
	ctx, stop := signal.NotifyContext(context.Background(), signals...)
	defer stop()
	code := run(ctx, args, os.Stdout, os.Stderr, nil)
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "deskcheck-host: stopped by a signal; the harness was ended and its temporary folder removed")
		if code == exitPass {
			code = exitFail
		}
	}
	return code
}

// run is the command with its streams injected; fault is a test-only
// hook that switches a deliberate model fault on.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, fault *scenario.QualifiedFault) int {
	// Messages may quote a desk, a checkout's path or what its code wrote
	// on standard error: none of it acts on the terminal.
	stderr = visibleWriter{stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitInvalid
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitPass
	case "install":
		return install(ctx, args[1:], stdout, stderr)
	case "list":
		return list(args[1:], stdout, stderr)
	case "remove":
		return remove(args[1:], stdout, stderr)
	case "verify":
		return verify(ctx, args[1:], stdout, stderr, fault)
	case "drift":
		return drift(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "deskcheck-host: unknown command %q\n\n%s", args[0], usage)
	return exitInvalid
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("deskcheck-host "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitPass, false
		}
		return exitInvalid, false
	}
	return 0, true
}

func cache(stderr io.Writer) (string, bool) {
	c, err := realhost.CacheDir()
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return "", false
	}
	return c, true
}

func install(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("install", stderr)
	sub := fs.Bool("substitute", false, "for a release whose exact dependencies are not published, install the nearest published ones (every result then says so)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "deskcheck-host: usage: deskcheck-host install [-substitute] %s\n", targetForms())
		return exitInvalid
	}
	t, ok, err := parseTarget(fs.Arg(0), true)
	if !ok {
		err = unknownHost(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitInvalid
	}
	if *sub && (t.fam == nil || t.fam.Substitute == nil) {
		fmt.Fprintf(stderr, "deskcheck-host: -substitute is for %s releases only\n", strings.Join(substituting(), " and "))
		return exitInvalid
	}
	return installTarget(ctx, t, *sub, stdout, stderr)
}

// targetForms are the forms install and remove take: the default
// family's HOST@V, any NAME@V, and the bare name of a family whose bare
// name selects every release.
func targetForms() string {
	forms := []string{defaultFamily().Host + "@V", "NAME@V"}
	for _, f := range real.Families() {
		if f.Every {
			forms = append(forms, f.Host)
		}
	}
	return strings.Join(forms, " | ")
}

// substituting names the families whose releases -substitute installs.
func substituting() []string {
	var out []string
	for _, f := range real.Families() {
		if f.Substitute != nil {
			out = append(out, f.Host)
		}
	}
	return out
}

// unknownHost is the error for a NAME@V whose NAME is no host.
func unknownHost(s string) error {
	name, _, _ := strings.Cut(s, "@")
	return fmt.Errorf("%q: no host is named %q; the hosts are %s", s, name, hostNames())
}

func list(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	fmt.Fprintf(stdout, "cache: %s\n", c)
	if err := listAll(c, stdout); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitFail
	}
	return exitPass
}

func remove(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("remove", stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "deskcheck-host: usage: deskcheck-host remove %s\n", targetForms())
		return exitInvalid
	}
	t, ok, err := parseTarget(fs.Arg(0), true)
	if !ok {
		err = unknownHost(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitInvalid
	}
	return removeTarget(t, stdout, stderr)
}

// loadCases reads and loads the desks (the bundled ones when no path is
// given) and selects the cases -run matches.
func loadCases(paths []string, runRe string, limits verifier.Limits, stderr io.Writer) ([]*verifier.Case, int) {
	reg := all.Registry()
	var re *regexp.Regexp
	if runRe != "" {
		var err error
		if re, err = regexp.Compile(runRe); err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: -run: %v\n", err)
			return nil, exitInvalid
		}
	}
	limits = limits.WithDefaults()
	if err := limits.CheckNames(reg); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return nil, exitInvalid
	}
	if err := limits.Check(); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return nil, exitInvalid
	}
	var inputs []verifier.Input
	if len(paths) == 0 {
		for _, f := range all.Desks() {
			inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
		}
	} else {
		in, ds, err := verifier.ReadPaths(paths, limits)
		for _, d := range ds {
			fmt.Fprintln(stderr, d.String())
		}
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			return nil, exitInvalid
		}
		if ds.HasErrors() || len(in) == 0 {
			fmt.Fprintln(stderr, "deskcheck-host: no readable case file; nothing was run")
			return nil, exitInvalid
		}
		inputs = in
	}
	desks, ds := verifier.LoadAll(reg, inputs, limits)
	// A case outside the model is judged on the real code alone: its
	// error is a note here.
	ds, notes := ds.OutsideModel()
	for _, d := range append(ds, notes...) {
		fmt.Fprintln(stderr, d.String())
	}
	if ds.HasErrors() {
		fmt.Fprintln(stderr, "deskcheck-host: invalid input; nothing was run")
		return nil, exitInvalid
	}
	selected, _ := verifier.Select(desks, re)
	if len(selected) == 0 {
		fmt.Fprintln(stderr, "deskcheck-host: no cases: nothing was selected, so there is no evidence")
		return nil, exitInvalid
	}
	// deskcheck's limits of a run, counted before any case runs.
	if err := verifier.CheckRunWork(selected, nil, limits); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v; nothing was run\n", err)
		return nil, exitInvalid
	}
	return selected, exitPass
}

func verify(ctx context.Context, args []string, stdout, stderr io.Writer, fault *scenario.QualifiedFault) int {
	fs := newFlags("verify", stderr)
	hostFlag := fs.String("host", "", fmt.Sprintf("the installed release to run on: %s (default: the newest installed %s release)", orList(strings.Split(hostNames(), ", ")), defaultFamily().Host))
	src, _ := sourceFamily()
	srcFlag := fs.String("host-src", "", src.Sources+" to run on instead")
	bun := fs.String("bun", "", src.SourceRuntime)
	runRe := fs.String("run", "", "run only the cases whose <desk-id>/<case-id> matches REGEX")
	verbose := fs.Bool("v", false, "show the three columns and the harness's adaptations for every case")
	format := fs.String("format", "text", "output format: text, json, markdown, junit or html")
	limits := limitFlags(fs)
	allowChanged := fs.Bool("allow-changed-release", false, "run an installed release whose files differ from those recorded at install (every report then lists them)")
	maxAnswer := fs.Int64("max-answer-bytes", realhost.DefaultMaxAnswerBytes, "most `BYTES` the harness may answer in all, over every case of the run")
	jobs := fs.Int("jobs", defaultJobs(), "most releases run at once when -host names several (each one harness process)")
	faultFlag := fs.String("fault", "", "switch on the harness's fault `NAME` (a negative control: "+faultHosts()+" hosts only); the model runs with its fault of the same name, and the results do not describe the real code")
	out := fs.String("out", "", "also write a deskcheck report of the run, the real code's results in its realCode section, as report.json, report.txt, report.md, report.junit.xml and report.html into DIR, as deskcheck writes its folder (none: no folder)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if !validFormat(*format) {
		fmt.Fprintf(stderr, "deskcheck-host: -format %q: one of %s\n", *format, strings.Join(realhost.Formats, ", "))
		return exitInvalid
	}
	if *maxAnswer <= 0 {
		fmt.Fprintf(stderr, "deskcheck-host: -max-answer-bytes must be positive, not %d\n", *maxAnswer)
		return exitInvalid
	}
	hosts, code := expandHosts(*hostFlag, stderr)
	if code != exitPass {
		return code
	}
	if len(hosts) > 1 && *srcFlag != "" {
		fmt.Fprintln(stderr, "deskcheck-host: give -host or -host-src, not both")
		return exitInvalid
	}
	if len(hosts) == 1 {
		_, ours, err := parseTarget(hosts[0], false)
		if !ours {
			err = unknownHost(hosts[0])
		}
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: -host: %v\n", err)
			return exitInvalid
		}
		if *srcFlag != "" {
			fmt.Fprintln(stderr, "deskcheck-host: give -host or -host-src, not both")
			return exitInvalid
		}
	}
	if *jobs < 1 {
		fmt.Fprintf(stderr, "deskcheck-host: -jobs must be at least 1, not %d\n", *jobs)
		return exitInvalid
	}
	selected, code := loadCases(fs.Args(), *runRe, *limits, stderr)
	if code != exitPass {
		return code
	}
	if len(hosts) == 0 {
		hosts = []string{""}
	}
	if code := everyHostHasCases(hosts, *srcFlag, selected, stderr); code != exitPass {
		return code
	}
	harnessFault := ""
	if *faultFlag != "" {
		var code int
		if harnessFault, fault, code = switchFault(*faultFlag, hosts, *srcFlag, stderr); code != exitPass {
			return code
		}
		// Above everything: the first line of a text or Markdown result,
		// and of standard error where a line would break the document
		// (JSON, JUnit, HTML).
		banner := stderr
		if *format == "text" || *format == "markdown" {
			banner = stdout
		}
		fmt.Fprintf(banner, "FAULT SWITCHED ON: %s — results do not describe the adapter\n", harnessFault)
	}
	// One harness per release, at most -jobs at once, each kept alive
	// for all of its release's cases; what each says on standard error is
	// printed in the order of the releases.
	runs, worst := eachRelease(*jobs, len(hosts), stderr, func(i int, w io.Writer) (*realhost.Run, int) {
		return judgeOn(ctx, hosts[i], *srcFlag, *bun, *maxAnswer, *allowChanged, harnessFault, selected, fault, w)
	})
	if worst != exitPass {
		return worst
	}
	if err := realhost.Write(stdout, *format, runs, *verbose); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitFail
	}
	if *out != "" && *out != noOut {
		written, err := writeReports(ctx, *out, fs.Args(), reportRun{args: args, run: *runRe, limits: *limits, answerBytes: *maxAnswer, fault: fault, runs: runs})
		if err != nil {
			// The results above stand; the folder is an error of its own.
			fmt.Fprintf(stderr, "deskcheck-host: the results above stand, but the report folder was not written: %s (-out names another folder; -out none writes none)\n", reports.OneLine(err.Error()))
			return exitInvalid
		}
		for i, w := range written {
			written[i] = reports.OneLine(w)
		}
		fmt.Fprintf(stderr, "reports: %s\n", strings.Join(written, ", "))
	}
	for _, r := range runs {
		if !r.Summary.OK() {
			return exitFail
		}
	}
	return exitPass
}

// eachRelease runs judge(i) for i from 0 to n-1, at most jobs at once
// (one harness each), and prints on stderr what each wrote to its own
// writer, in order. It returns the runs and the worst exit code.
func eachRelease(jobs, n int, stderr io.Writer, judge func(i int, w io.Writer) (*realhost.Run, int)) ([]*realhost.Run, int) {
	runs := make([]*realhost.Run, n)
	codes := make([]int, n)
	msgs := make([]bytes.Buffer, n)
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			runs[i], codes[i] = judge(i, &msgs[i])
		}()
	}
	wg.Wait()
	worst := exitPass
	for i := range n {
		_, _ = stderr.Write(msgs[i].Bytes())
		worst = max(worst, codes[i])
	}
	return runs, worst
}

// familyOf is the family a -host value runs (hs "" is the default
// family, or -host-src's when srcFlag is given) and how to name the value
// to the user; not ok when it names no family, which judgeOn reports.
func familyOf(hs, srcFlag string) (realcode.Family, string, bool) {
	switch {
	case srcFlag != "":
		fam, ok := sourceFamily()
		return fam, "-host-src " + srcFlag, ok
	case hs == "":
		fam := defaultFamily()
		return fam, "the default host, " + fam.Host, true
	}
	t, ours, err := parseTarget(hs, false)
	if !ours || err != nil {
		return realcode.Family{}, "", false
	}
	return *t.fam, "-host " + hs, true
}

// everyHostHasCases checks, before any release is started, that each
// -host value (or the default host, or -host-src's) has a selected case
// of its family: a release none of whose cases is of its host would be
// started only to call every case not applicable. Each such value is
// named, with the hosts the selected cases are of, and the run is
// invalid: there is no evidence of it.
func everyHostHasCases(hosts []string, srcFlag string, selected []*verifier.Case, stderr io.Writer) int {
	of := map[string]int{}
	for _, c := range selected {
		if _, fam := c.Spec(); fam != nil {
			of[fam.Host.Name]++
		}
	}
	var theirs []string
	for name, n := range of {
		theirs = append(theirs, fmt.Sprintf("%d of %s", n, name))
	}
	sort.Strings(theirs)
	var missing []string            // host names, in the order given
	labels := map[string][]string{} // what named each
	for _, hs := range hosts {
		fam, label, ok := familyOf(hs, srcFlag)
		if !ok {
			continue // judgeOn says so
		}
		name := fam.Host
		if of[name] > 0 {
			continue
		}
		if labels[name] == nil {
			missing = append(missing, name)
		}
		labels[name] = append(labels[name], label)
	}
	for _, name := range missing {
		label := labels[name][0]
		if n := len(labels[name]); n > 1 {
			label = fmt.Sprintf("%s to %s (%d releases)", label, strings.TrimPrefix(labels[name][n-1], "-host "), n)
		}
		fmt.Fprintf(stderr, "deskcheck-host: %s: none of the %d selected cases is a case of host %s (%s), so its real code was not started and there is no evidence; -host names the host whose real code to run\n",
			label, len(selected), name, strings.Join(theirs, ", "))
	}
	if len(missing) > 0 {
		return exitInvalid
	}
	return exitPass
}

// faultHosts names the hosts whose harness has faults to switch on.
func faultHosts() string {
	var names []string
	for _, f := range real.Families() {
		if f.Faults != nil {
			names = append(names, f.Host)
		}
	}
	return orList(names)
}

// switchFault reads -fault NAME (or HOST/NAME): every host run must be of
// a family whose harness has the fault, and the model fault of the same
// name runs beside it. It returns the harness's fault name and the
// model's fault.
func switchFault(value string, hosts []string, srcFlag string, stderr io.Writer) (string, *scenario.QualifiedFault, int) {
	var fam *realcode.Family
	for _, hs := range hosts {
		f, label, ok := familyOf(hs, srcFlag)
		switch {
		case !ok:
			continue // judgeOn says so
		case f.Faults == nil || srcFlag != "":
			fmt.Fprintf(stderr, "deskcheck-host: -fault is accepted with %s hosts only, not with %s\n", faultHosts(), label)
			return "", nil, exitInvalid
		case fam != nil && fam.Host != f.Host:
			fmt.Fprintln(stderr, "deskcheck-host: -fault: give the hosts of one family")
			return "", nil, exitInvalid
		}
		fam = &f
	}
	if fam == nil {
		fmt.Fprintf(stderr, "deskcheck-host: -fault is accepted with %s hosts only\n", faultHosts())
		return "", nil, exitInvalid
	}
	name := strings.TrimPrefix(value, fam.Host+"/")
	if !slices.Contains(fam.Faults(), name) {
		fmt.Fprintf(stderr, "deskcheck-host: -fault %q: no fault of the %s harness; the faults are %s\n", value, fam.Host, strings.Join(fam.Faults(), ", "))
		return "", nil, exitInvalid
	}
	q, err := all.Registry().LookupFault(fam.Host + "/" + name)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: -fault %q: %v\n", value, err)
		return "", nil, exitInvalid
	}
	return name, &q, exitPass
}

// judgeOn starts the harness of one -host value ("" is the default
// family's newest installed release, or -host-src) and judges the cases
// on it.
func judgeOn(ctx context.Context, hostFlag, srcFlag, runtime string, maxAnswer int64, allowChanged bool, harnessFault string, selected []*verifier.Case, fault *scenario.QualifiedFault, stderr io.Writer) (*realhost.Run, int) {
	var t target
	switch {
	case srcFlag != "":
		fam, ok := sourceFamily()
		if !ok {
			fmt.Fprintln(stderr, "deskcheck-host: -host-src: no family runs a source folder")
			return nil, exitInvalid
		}
		t.fam = &fam
	case hostFlag == "":
		fam := defaultFamily()
		c, ok := cache(stderr)
		if !ok {
			return nil, exitInvalid
		}
		in, _ := fam.List(c)
		if len(in) == 0 {
			fmt.Fprintf(stderr, "deskcheck-host: no release is installed in %s; install one with: deskcheck-host install %s@V\n", c, fam.Host)
			return nil, exitInvalid
		}
		t = target{fam: &fam, version: in[len(in)-1].Version}
	default:
		var ours bool
		var err error
		t, ours, err = parseTarget(hostFlag, false)
		if !ours {
			err = unknownHost(hostFlag)
		}
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: -host: %v\n", err)
			return nil, exitInvalid
		}
	}
	h, code := openFamily(ctx, t, srcFlag, runtime, maxAnswer, allowChanged, harnessFault, stderr)
	if code != exitPass {
		return nil, code
	}
	defer h.Close()
	res, err := realhost.Judge(ctx, h, selected, realhost.Options{Fault: fault})
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		if errors.Is(err, realhost.ErrAnswerLimit) {
			return nil, exitInvalid
		}
		return nil, exitFail
	}
	return res, exitPass
}

func validFormat(f string) bool {
	for _, x := range realhost.Formats {
		if f == x {
			return true
		}
	}
	return false
}

// visibleWriter writes each message through deskcheck's escaping
// (reports.Visible): control characters, bidirectional overrides and bytes
// that are not UTF-8 become visible escapes; lines stay lines. Each Write
// must be a whole message (fmt.Fprintf writes one).
type visibleWriter struct{ w io.Writer }

func (v visibleWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(v.w, reports.Visible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// limitFlags registers deskcheck's limits of a run on fs.
func limitFlags(fs *flag.FlagSet) *verifier.Limits {
	l := verifier.DefaultLimits
	fs.IntVar(&l.RunWork, "max-run-work", l.RunWork, "most scripted work (`N` units) in one run, over the selected cases, as deskcheck counts it")
	fs.IntVar(&l.CopyBytes, "max-copy-bytes", l.CopyBytes, "most `BYTES` of case data one run may copy into results and reports, as deskcheck counts them")
	fs.IntVar(&l.Work, "max-work", l.Work, "most scripted work (`N` units) in one file")
	fs.Int64Var(&l.FileSize, "max-file-size", l.FileSize, "largest case file, in `BYTES`")
	l.Scenario = map[string]int{}
	fs.Var(verifier.ScenarioLimit{Into: l.Scenario}, "limit", "set a scenario's limit, as deskcheck does, as `SCENARIO.NAME=N` (repeatable; known: "+strings.Join(verifier.LimitNames(all.Registry()), ", ")+")")
	return &l
}

// noOut is the -out value that writes no folder.
const noOut = "none"

// maxReportBytes bounds the report folder's files together, as deskcheck
// bounds its own.
const maxReportBytes = 4 << 30

// writeReports writes the report of the run (modelReport: the model's
// results with the real hosts' as its real-code section) into dir, as
// report.txt, report.json, report.md, report.junit.xml and report.html,
// each a rendering of the one report, as deskcheck report render renders
// report.json. It writes with deskcheck's folder writer: privately
// (folder 0700, files 0600), swapped in as a whole, refusing a folder
// that holds other files or links, the working folder, and a folder
// inside a desk folder that is read.
func writeReports(ctx context.Context, dir string, paths []string, rr reportRun) ([]string, error) {
	var caseDirs []string
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			caseDirs = append(caseDirs, p)
		}
	}
	rep, err := modelReport(ctx, rr)
	if err != nil {
		return nil, err
	}
	files := []folder.File{{Name: "report.txt", Render: func(w io.Writer) error { return reports.Text{}.Write(w, rep) }}}
	for _, f := range []struct {
		name string
		r    reports.Reporter
	}{{"report.json", reports.JSON{}}, {"report.md", reports.Markdown{}}, {"report.junit.xml", reports.JUnit{}}, {"report.html", reports.HTML{}}} {
		files = append(files, folder.File{Name: f.name, Render: func(w io.Writer) error { return f.r.Write(w, rep) }})
	}
	return folder.Writer{CaseDirs: caseDirs, MaxBytes: maxReportBytes}.Write(dir, files)
}
