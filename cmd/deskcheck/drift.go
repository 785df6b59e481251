package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// drift runs every case on every behaviour group of its host that its
// hosts range selects (-all-releases: whatever the range says), and prints
// what changes across the releases and which release changes no case
// exercises. A difference is no failure: it exits 0 unless the input is
// invalid (2).
func drift(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("drift", stderr)
	reg := all.Registry()
	run := fs.String("run", "", "only cases whose `<desk-id>/<case-id>` matches this regular expression")
	format := fs.String("format", "text", "output on stdout: text or json")
	allReleases := fs.Bool("all-releases", false, "run each case on every release group, whatever its hosts range says")
	limits := limitFlags(fs, reg)
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "deskcheck: -format must be text or json, not %q\n", *format)
		return exitInvalid
	}
	re, code := compileRun(*run, stderr)
	if code != exitPass {
		return code
	}
	inputs, code := readInputs(reg, paths, *limits, stderr)
	if code != exitPass {
		return code
	}
	desks, ds := verifier.LoadAll(reg, inputs, *limits)
	printDiagnostics(stderr, ds)
	if ds.HasErrors() {
		fmt.Fprintf(stderr, "deskcheck: invalid case files; nothing was run\n")
		return exitInvalid
	}
	cases, _ := verifier.Select(desks, re)
	if len(cases) == 0 {
		fmt.Fprintf(stderr, "deskcheck: no cases: nothing was selected to compare\n")
		return exitInvalid
	}
	if err := verifier.CheckRunWork(cases, verifier.DriftRuns, *limits); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	measure := verifier.MeasureDriftInRange
	if *allReleases {
		measure = verifier.MeasureDrift
	}
	d := measure(context.Background(), cases)
	bw := bufio.NewWriter(stdout)
	if *format == "json" {
		err = reports.WriteDriftJSON(bw, d)
	} else {
		err = reports.WriteDriftText(bw, d)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: writing the drift: %v\n", err)
		return exitInvalid
	}
	return exitPass
}
