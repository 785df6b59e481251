package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// tryName is how diagnostics name a given block passed as an argument.
const tryName = "<argument>"

func try(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("try", stderr)
	reg := all.Registry()
	desk := fs.Bool("desk", false, "print a complete desk with the case, its expected block the one observed, ready to save")
	hosts := &hostFlag{reg: reg}
	fs.Var(hosts, "host", "run on the release `HOST@VERSION`"+hostExample(reg)+" instead of the newest")
	limits := limitFlags(fs, reg)
	rest, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if len(rest) < 1 || len(rest) > 2 {
		fmt.Fprintf(stderr, "deskcheck: usage: %s (SCENARIO one of %s)\n", synopses["try"], strings.Join(reg.Names(), ", "))
		return exitInvalid
	}
	if err := limits.Check(); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	in, code := tryInput(rest[1:], *limits, stderr)
	if code != exitPass {
		return code
	}
	if ds := verifier.Scan(in.Path, in.Data, *limits); len(ds) > 0 {
		printDiagnostics(stderr, ds)
		fmt.Fprintf(stderr, "deskcheck: the given block must be one JSON object\n")
		return exitInvalid
	}
	probe, err := verifier.NewProbe(reg, rest[0], in.Data)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	ctx := context.Background()
	first, err := probe.First(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	pin := hosts.pins[probe.Family.Host.Name]
	first = pinDesk(first, probe.Family.Host.Name, pin)
	opts := verifier.Options{Registry: reg, Limits: *limits, Hosts: hosts.pins}
	suite, ds, err := verifier.Verify(ctx, []verifier.Input{{Path: in.Path, Data: first}}, opts)
	if code := tryProblems(ds, err, in.Path, true, stderr); code != exitPass {
		return code
	}
	r := suite.Results[0]
	if r.Status == verifier.Errored {
		fmt.Fprintf(stderr, "%s: error: the given block cannot run: %s\n", in.Path, r.Err)
		return exitInvalid
	}
	if r.Status == verifier.NotApplicable {
		fmt.Fprintf(stderr, "deskcheck: scenario %s does not run on %s %s\n", rest[0], probe.Family.Host.Name, pin)
		return exitInvalid
	}
	saved := pinDesk(probe.Saved(r), probe.Family.Host.Name, pin)
	if *desk {
		stdout.Write(saved)
		return exitPass
	}
	// The saved desk is run too: what is printed is what the desk says.
	suite, ds, err = verifier.Verify(ctx, []verifier.Input{{Path: in.Path, Data: saved}}, opts)
	if code := tryProblems(ds, err, in.Path, false, stderr); code != exitPass {
		return code
	}
	rep := reports.Build(suite, origin())
	if on := reports.JudgedOn(&rep.Cases[0]); on != "" {
		why := "the newest modelled release; -host " + probe.Family.Host.Name + "@VERSION runs another"
		if pin != "" {
			why = "-host"
		}
		fmt.Fprintf(stdout, "release:  %s (%s)\n", on, why)
	}
	if err := emit(stdout, reports.Try{}, rep); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	return exitPass
}

// tryInput reads the given block: an argument, @FILE or standard input.
func tryInput(rest []string, limits verifier.Limits, stderr io.Writer) (verifier.Input, int) {
	switch {
	case len(rest) == 0 || rest[0] == "-":
		in, err := readStdin(limits.WithDefaults().FileSize)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return in, exitInvalid
		}
		return in, exitPass
	case strings.HasPrefix(rest[0], "@"):
		inputs, ds, err := verifier.ReadPaths([]string{rest[0][1:]}, limits)
		printDiagnostics(stderr, ds)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return verifier.Input{}, exitInvalid
		}
		if ds.HasErrors() || len(inputs) != 1 {
			if len(inputs) != 1 && !ds.HasErrors() {
				fmt.Fprintf(stderr, "deskcheck: %s: a given block is one file, not a folder\n", rest[0][1:])
			}
			return verifier.Input{}, exitInvalid
		}
		return inputs[0], exitPass
	}
	return verifier.Input{Path: tryName, Data: []byte(rest[0])}, exitPass
}

// tryProblems prints the problems of a probe desk that concern the given
// block, named by its pointer inside the case (/given/mode): the desk
// around it is deskcheck's own, so its lines and columns would mislead.
// Warnings about that desk (its placeholders, its pairing) and, on the
// first run, those its stand-in expected block causes are not the
// author's and are left out.
func tryProblems(ds verifier.Diagnostics, err error, name string, first bool, stderr io.Writer) int {
	for _, d := range ds {
		if d.Severity == verifier.Warning && (first || d.Name == "placeholder" || !strings.HasPrefix(d.Pointer, "/cases/0/")) {
			continue
		}
		d.File, d.Line, d.Col = name, 0, 0
		d.Pointer = strings.TrimPrefix(d.Pointer, "/cases/0")
		fmt.Fprintln(stderr, d.String())
	}
	if ds.HasErrors() {
		fmt.Fprintf(stderr, "deskcheck: invalid given block; nothing was run\n")
		return exitInvalid
	}
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	return exitPass
}

// pinHosts is the hosts line of a desk try makes, naming one release.
var pinHosts = regexp.MustCompile(`(?m)^  "hosts": \{[^\n]*\},$`)

// pinDesk makes the desk try ran name the release -host pinned, so that
// the desk -desk prints is judged on the release that answered; a desk
// with no hosts line, or no pin, is returned as it is.
func pinDesk(desk []byte, host, version string) []byte {
	if version == "" {
		return desk
	}
	name, _ := json.Marshal(host)
	v, _ := json.Marshal(version)
	line := `  "hosts": {` + string(name) + `: ` + string(v) + `},`
	return pinHosts.ReplaceAllLiteral(desk, []byte(line))
}
