// Command deskcheck-host runs deskcheck cases through the real code of the
// OMP coding agent: a published release installed into deskcheck's cache
// folder, or a local checkout.
//
// Usage:
//
//	deskcheck-host install [-substitute] omp@V
//	deskcheck-host list
//	deskcheck-host remove omp@V
//	deskcheck-host verify [-host omp@V | -host-src DIR] [-run REGEX] [-v] [-format text|json|markdown|junit|html] [-out DIR] [PATH...]
//	deskcheck-host drift [-run REGEX] [-format text|json] [PATH...]
//
// It is a command of its own, apart from deskcheck, because it starts a
// program (bun, running deskcheck's harness over the release's modules):
// deskcheck itself cannot start any. The cache folder is $DESKCHECK_CACHE
// when set, else deskcheck/ in the user's cache folder. Exit codes: 0 every
// case holds on the real code and the model agrees; 1 a case does not hold,
// the model and the real code disagree, or a case could not run; 2 invalid
// input or usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/omp/realhost"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

const (
	exitPass    = 0
	exitFail    = 1
	exitInvalid = 2
)

const usage = `deskcheck-host runs deskcheck cases through the real OMP code.

Usage:
  deskcheck-host install [-substitute] omp@V   install a release (the only step that uses the network)
  deskcheck-host list                          list the installed releases
  deskcheck-host remove omp@V                  remove an installed release
  deskcheck-host verify [-host omp@V | -host-src DIR] [-run REGEX] [-v] [-format FORMAT] [-out DIR] [PATH...]
  deskcheck-host drift [-run REGEX] [-format text|json] [PATH...]

verify runs every case on the model and on the real code and shows three
columns per case (authored expectation, model, real code) with a verdict:
"holds on the real code", "does not hold on the real code" or "model and
real code disagree" (with a one-case desk to reproduce). drift runs the
cases on every installed release and shows what differs between them.

With no PATH the bundled desks are used. FORMAT is text, json, markdown,
junit or html; -out DIR writes all five.
The cache folder is $DESKCHECK_CACHE, else deskcheck/ in the user's cache.

Exit codes: 0 every case holds and the model agrees, 1 a case does not hold,
disagrees or could not run, 2 invalid input or usage.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

// run is the command with its streams injected; fault is a test-only
// hook that switches a deliberate model fault on.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, fault *scenario.QualifiedFault) int {
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
		fmt.Fprintln(stderr, "deskcheck-host: usage: deskcheck-host install [-substitute] omp@V")
		return exitInvalid
	}
	v, err := realhost.ParseHost(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitInvalid
	}
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	if _, err := realhost.Install(ctx, c, v, realhost.InstallOptions{Substitute: *sub, Progress: stdout}); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		if errors.Is(err, realhost.ErrNeedsSubstitute) {
			return exitInvalid
		}
		return exitFail
	}
	return exitPass
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
	installed, err := realhost.List(c)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "cache: %s\n", c)
	if len(installed) == 0 {
		fmt.Fprintln(stdout, "no release is installed; install one with: deskcheck-host install omp@V")
	}
	for _, in := range installed {
		note := ""
		if len(in.Substituted) > 0 {
			note = "  (substituted dependencies)"
		}
		fmt.Fprintf(stdout, "omp@%-8s %8d MB  %s%s\n", in.Version, in.Bytes>>20, in.InstalledAt.Format(time.DateOnly), note)
	}
	var all []string
	for _, r := range realhost.Releases() {
		all = append(all, r.Version)
	}
	fmt.Fprintf(stdout, "installable: %s\n", strings.Join(all, ", "))
	return exitPass
}

func remove(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("remove", stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "deskcheck-host: usage: deskcheck-host remove omp@V")
		return exitInvalid
	}
	v, err := realhost.ParseHost(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitInvalid
	}
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	if err := realhost.Remove(c, v); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(stdout, "removed omp@%s\n", v)
	return exitPass
}

// loadCases reads and loads the desks (the bundled ones when no path is
// given) and selects the cases -run matches.
func loadCases(paths []string, runRe string, stderr io.Writer) ([]*verifier.Case, int) {
	reg := all.Registry()
	var re *regexp.Regexp
	if runRe != "" {
		var err error
		if re, err = regexp.Compile(runRe); err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: -run: %v\n", err)
			return nil, exitInvalid
		}
	}
	limits := verifier.Limits{}.WithDefaults()
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
	for _, d := range ds {
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
	return selected, exitPass
}

// startHost starts the harness for -host or -host-src.
func startHost(ctx context.Context, hostFlag, srcFlag, bun string, stderr io.Writer) (*realhost.Host, func(), int) {
	c, ok := cache(stderr)
	if !ok {
		return nil, nil, exitInvalid
	}
	var spec realhost.Spec
	cleanup := func() {}
	switch {
	case hostFlag != "" && srcFlag != "":
		fmt.Fprintln(stderr, "deskcheck-host: give -host or -host-src, not both")
		return nil, nil, exitInvalid
	case srcFlag != "":
		s, err := realhost.ForCheckout(srcFlag, c, bun)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: -host-src: %v\n", err)
			return nil, nil, exitInvalid
		}
		spec = s
	default:
		v := hostFlag
		if v == "" {
			installed, _ := realhost.List(c)
			if len(installed) == 0 {
				fmt.Fprintf(stderr, "deskcheck-host: no release is installed in %s; install one with: deskcheck-host install omp@V\n", c)
				return nil, nil, exitInvalid
			}
			v = "omp@" + installed[len(installed)-1].Version
		}
		ver, err := realhost.ParseHost(v)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: -host: %v\n", err)
			return nil, nil, exitInvalid
		}
		in, err := realhost.Lookup(c, ver)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			return nil, nil, exitInvalid
		}
		spec = realhost.ForInstalled(in)
	}
	h, err := realhost.Start(ctx, spec)
	if err != nil {
		cleanup()
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return nil, nil, exitFail
	}
	return h, func() { h.Close(); cleanup() }, exitPass
}

func verify(ctx context.Context, args []string, stdout, stderr io.Writer, fault *scenario.QualifiedFault) int {
	fs := newFlags("verify", stderr)
	hostFlag := fs.String("host", "", "the installed release to run on, omp@V (default: the newest installed)")
	srcFlag := fs.String("host-src", "", "a local OMP checkout's packages/coding-agent (dependencies installed) to run on instead")
	bun := fs.String("bun", "", "the bun binary for -host-src (default: an installed release's, else bun on PATH)")
	runRe := fs.String("run", "", "run only the cases whose <desk-id>/<case-id> matches REGEX")
	verbose := fs.Bool("v", false, "show the three columns and the harness's adaptations for every case")
	format := fs.String("format", "text", "output format: text, json, markdown, junit or html")
	out := fs.String("out", "", "also write report.txt, report.json, report.md, report.junit.xml and report.html into DIR")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if !validFormat(*format) {
		fmt.Fprintf(stderr, "deskcheck-host: -format %q: one of %s\n", *format, strings.Join(realhost.Formats, ", "))
		return exitInvalid
	}
	selected, code := loadCases(fs.Args(), *runRe, stderr)
	if code != exitPass {
		return code
	}
	h, done, code := startHost(ctx, *hostFlag, *srcFlag, *bun, stderr)
	if code != exitPass {
		return code
	}
	defer done()
	res, err := realhost.Judge(ctx, h, selected, realhost.Options{Fault: fault})
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitFail
	}
	runs := []*realhost.Run{res}
	if err := realhost.Write(stdout, *format, runs, *verbose); err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitFail
	}
	if *out != "" {
		if err := writeReports(*out, runs); err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: -out: %v\n", err)
			return exitFail
		}
	}
	if !res.Summary.OK() {
		return exitFail
	}
	return exitPass
}

func validFormat(f string) bool {
	for _, x := range realhost.Formats {
		if f == x {
			return true
		}
	}
	return false
}

// writeReports writes the five reports into dir, private to the user as
// deskcheck's report folder is (a folder 0700, files 0600): they hold the
// cases and what the real code answered.
func writeReports(dir string, runs []*realhost.Run) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for name, format := range map[string]string{"report.txt": "text", "report.json": "json", "report.md": "markdown", "report.junit.xml": "junit", "report.html": "html"} {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return err
		}
		if err := f.Chmod(0o600); err != nil { // a report an earlier run left readable
			f.Close()
			return err
		}
		werr := realhost.Write(f, format, runs, true)
		if err := f.Close(); werr == nil {
			werr = err
		}
		if werr != nil {
			return werr
		}
	}
	return nil
}
