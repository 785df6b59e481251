package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/all/real"
	"github.com/deskcheck/deskcheck/host/arena"
	"github.com/deskcheck/deskcheck/host/arena/realarena"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
	"github.com/deskcheck/deskcheck/pysandbox"
	"github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/verifier"
)

// A target is what install, remove and verify -host name: a release of a
// family that declares its real code through realcode (host/all/real), or
// the arena's adapters.
type target struct {
	// fam is the declared family; nil for the arena.
	fam *realcode.Family
	// version is the release ("" for the newest installed).
	version string
	// adapters are the arena adapters named; nil when not the arena.
	adapters []string
}

// arenaHost is the name that selects every arena adapter.
const arenaHost = "arena"

// adapterVersion is the framework version an adapter pins ("1.2.11").
func adapterVersion(name string) string {
	for _, a := range realarena.Adapters {
		if a == name {
			for _, f := range strings.Fields(frameworkOf(name)) {
				if f != "" && f[0] >= '0' && f[0] <= '9' {
					return f
				}
			}
		}
	}
	return ""
}

// parseTarget reads NAME@V, NAME, or a bare V of the default family
// (defaultFamily); it is not ours when NAME names no host.
func parseTarget(s string, needVersion bool) (target, bool, error) {
	name, version, hasVersion := strings.Cut(s, "@")
	if !hasVersion && !isHostName(name) {
		// A bare version, of the default family.
		name, version, hasVersion = defaultFamily().Host, s, true
	}
	for _, f := range real.Families() {
		if name != f.Host {
			continue
		}
		if !hasVersion {
			if needVersion {
				return target{}, true, fmt.Errorf("%q: name a release, %s@VERSION; the releases are %s", s, f.Host, strings.Join(f.Releases(), ", "))
			}
			return target{fam: &f}, true, nil
		}
		if !slices.Contains(f.Releases(), version) {
			return target{}, true, fmt.Errorf("%s@%s is not a release deskcheck-host can install; the releases are %s", f.Host, version, strings.Join(f.Releases(), ", "))
		}
		return target{fam: &f, version: version}, true, nil
	}
	if s == arenaHost {
		return target{adapters: append([]string(nil), realarena.Adapters...)}, true, nil
	}
	if name == arenaHost && hasVersion {
		// arena@NAME[@VERSION], as deskcheck verify -host pins an adapter.
		name, version, hasVersion = strings.Cut(version, "@")
	}
	adapter := strings.TrimPrefix(name, arenaHost+":")
	if slices.Contains(realarena.Adapters, adapter) {
		if hasVersion && version != adapterVersion(adapter) {
			return target{}, true, fmt.Errorf("%s: the %s adapter pins %s %s", s, adapter, adapter, adapterVersion(adapter))
		}
		return target{adapters: []string{adapter}}, true, nil
	}
	return target{}, false, nil
}

// isHostName says whether name is a family's host name, the arena's or
// an adapter's.
func isHostName(name string) bool {
	for _, f := range real.Families() {
		if f.Host == name {
			return true
		}
	}
	adapter := strings.TrimPrefix(name, arenaHost+":")
	return name == arenaHost || slices.Contains(realarena.Adapters, adapter)
}

// defaultFamily is the family verify runs without -host and drift runs:
// the first that host/all/real lists.
func defaultFamily() realcode.Family { return real.Families()[0] }

// sourceFamily is the first family that runs a source folder
// (-host-src), if any.
func sourceFamily() (realcode.Family, bool) {
	for _, f := range real.Families() {
		if f.Sources != "" {
			return f, true
		}
	}
	return realcode.Family{}, false
}

// hostNames lists what -host and install accept.
func hostNames() string {
	var names []string
	for _, f := range real.Families() {
		names = append(names, f.Host+"@V")
	}
	names = append(names, arenaHost)
	for _, a := range realarena.Adapters {
		names = append(names, a+"@"+adapterVersion(a))
	}
	return strings.Join(names, ", ")
}

// installTarget installs a declared family's release or arena adapters.
func installTarget(ctx context.Context, t target, substitute bool, stdout, stderr io.Writer) int {
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	if t.fam != nil {
		err := t.fam.Install(ctx, c, t.version, realcode.InstallOptions{Substitute: substitute, Progress: stdout, Start: realhost.InstallStart()})
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			if errors.Is(err, realcode.ErrNeedsSubstitute) {
				return exitInvalid
			}
			return exitFail
		}
		return exitPass
	}
	for _, a := range t.adapters {
		fmt.Fprintf(stdout, "%s: %s from its hash-pinned lock (pip, wheels only)\n", a, frameworkOf(a))
		in, err := realarena.Install(ctx, c, a, "")
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %s: %v\n", a, err)
			return exitFail
		}
		if in.Kept {
			fmt.Fprintf(stdout, "%s: already installed from this lock (%d packages on Python %s)\n", a, in.Packages, in.Python)
			continue
		}
		fmt.Fprintf(stdout, "%s: installed %d packages on Python %s (%d MB)\n", a, in.Packages, in.Python, in.Bytes>>20)
	}
	return exitPass
}

// removeTarget removes a declared family's release or arena adapters.
func removeTarget(t target, stdout, stderr io.Writer) int {
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	if t.fam != nil {
		if err := t.fam.Remove(c, t.version); err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			return exitInvalid
		}
		fmt.Fprintf(stdout, "removed %s@%s\n", t.fam.Host, t.version)
		return exitPass
	}
	for _, a := range t.adapters {
		if err := realarena.Remove(c, a); err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			return exitInvalid
		}
		fmt.Fprintf(stdout, "removed %s\n", a)
	}
	return exitPass
}

// listAll lists the installed releases of the declared families and the
// installed arena adapters.
func listAll(c string, stdout io.Writer) error {
	for _, f := range real.Families() {
		if f.Listing != nil {
			if err := f.Listing(c, stdout); err != nil {
				return err
			}
			continue
		}
		in, err := f.List(c)
		if err != nil {
			fmt.Fprintf(stdout, "%s: %v\n", f.Host, err)
			continue
		}
		for _, r := range in {
			fmt.Fprintf(stdout, "%s@%-8s %8d MB  %s\n", f.Host, r.Version, r.Bytes>>20, r.InstalledAt.Format(time.DateOnly))
		}
		fmt.Fprintf(stdout, "installable: %s\n", strings.Join(prefixed(f.Host+"@", f.Releases()), ", "))
	}
	for _, a := range realarena.Adapters {
		if in, err := realarena.Lookup(c, a); err == nil {
			day, _, _ := strings.Cut(in.InstalledAt, "T")
			fmt.Fprintf(stdout, "%s@%-8s %8d MB  %s  (Python %s)\n", a, adapterVersion(a), in.Bytes>>20, day, in.Python)
		}
	}
	fmt.Fprintf(stdout, "installable: %s (or %s: all three)\n", strings.Join(adapterNames(), ", "), arenaHost)
	return nil
}

func prefixed(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}

func adapterNames() []string {
	var out []string
	for _, a := range realarena.Adapters {
		out = append(out, a+"@"+adapterVersion(a))
	}
	return out
}

// openFamily starts release t.version of a declared family (the newest
// installed when none is named), or the source folder src, in the
// sandbox.
func openFamily(ctx context.Context, t target, src, runtime string, maxAnswer int64, allowChanged bool, stderr io.Writer) (*realhost.FamilyHost, int) {
	c, ok := cache(stderr)
	if !ok {
		return nil, exitInvalid
	}
	if src == "" {
		if code := pickVersion(c, &t, stderr); code != exitPass {
			return nil, code
		}
	}
	h, err := realhost.OpenFamily(ctx, *t.fam, realcode.OpenOptions{Cache: c, Version: t.version, Source: src, Runtime: runtime, AllowChanged: allowChanged}, realhost.Bounds{MaxAnswerBytes: maxAnswer})
	if err != nil {
		if errors.Is(err, realcode.ErrSource) {
			fmt.Fprintf(stderr, "deskcheck-host: -host-src: %v\n", err)
		} else {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		}
		switch {
		case errors.Is(err, realhost.ErrAnswerLimit), errors.Is(err, realcode.ErrChanged), errors.Is(err, realcode.ErrSource):
			return nil, exitInvalid
		case src != "" && errors.Is(err, sandbox.ErrUnavailable):
			fmt.Fprintln(stderr, "deskcheck-host: a checkout is code of unknown origin and runs only in the sandbox; nothing was run")
			return nil, exitInvalid
		}
		return nil, exitFail
	}
	if !h.Info().Sandboxed {
		fmt.Fprintf(stderr, "deskcheck-host: warning: %s\n", h.Info().Isolation)
	}
	return h, exitPass
}

// pickVersion checks that t's release is installed, or picks the newest
// installed one when t names none.
func pickVersion(c string, t *target, stderr io.Writer) int {
	in, _ := t.fam.List(c)
	if t.version == "" {
		if len(in) == 0 {
			fmt.Fprintf(stderr, "deskcheck-host: no %s release is installed in %s; install one with: deskcheck-host install %s@V (the releases are %s)\n", t.fam.Host, c, t.fam.Host, strings.Join(t.fam.Releases(), ", "))
			return exitInvalid
		}
		t.version = in[len(in)-1].Version
		return exitPass
	}
	if !slices.ContainsFunc(in, func(r realcode.Installed) bool { return r.Version == t.version }) {
		hint := ""
		if t.fam.Substitute != nil && t.fam.Substitute(t.version) != "" {
			hint = " -substitute"
		}
		fmt.Fprintf(stderr, "deskcheck-host: %s@%s is not installed in %s; install it with: deskcheck-host install%s %s@%s\n", t.fam.Host, t.version, c, hint, t.fam.Host, t.version)
		return exitInvalid
	}
	return exitPass
}

// verifyArena runs the desks' arena cases on the adapters named, each in
// the sandbox (pysandbox), and prints per adapter a line per case, the
// seed's table and each run's provenance.
func verifyArena(ctx context.Context, t target, paths []string, fault string, stdout, stderr io.Writer) int {
	var inputs []verifier.Input
	if len(paths) == 0 {
		for _, d := range all.Desks() {
			inputs = append(inputs, verifier.Input{Path: d.Path, Data: d.Data})
		}
	} else {
		in, ds, err := verifier.ReadPaths(paths, verifier.DefaultLimits)
		for _, d := range ds {
			fmt.Fprintln(stderr, d.String())
		}
		if err != nil || ds.HasErrors() {
			if err != nil {
				fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			}
			return exitInvalid
		}
		inputs = in
	}
	code, ran := exitPass, false
	for _, in := range inputs {
		if !hasArenaCase(in.Data) {
			continue
		}
		ran = true
		code = max(code, realarena.Verify(ctx, stdout, in.Data, realarena.VerifyOptions{Adapters: t.adapters, Fault: fault, Start: pysandbox.Start}))
	}
	if !ran {
		fmt.Fprintln(stderr, "deskcheck-host: no desk with an arena case: nothing was run")
		return exitInvalid
	}
	return code
}

// hasArenaCase says whether a desk holds a case that the arena adapters
// run.
func hasArenaCase(desk []byte) bool {
	cases, _, err := realarena.CasesOf(desk)
	return err == nil && len(cases) > 0
}

// frameworkOf names the framework and version an adapter runs.
func frameworkOf(name string) string {
	a, _ := arena.AdapterNamed(name)
	return a.Framework()
}

// defaultJobs is -jobs' default: a harness per processor, at most four.
func defaultJobs() int { return min(runtime.GOMAXPROCS(0), 4) }

// expandHosts reads -host: one value, or several separated by commas,
// where NAME@* is every installed release of NAME, oldest first. The
// arena names one run of its own and is not combined.
func expandHosts(flagValue string, stderr io.Writer) ([]string, int) {
	if flagValue == "" {
		return nil, exitPass
	}
	c, ok := cache(stderr)
	if !ok {
		return nil, exitInvalid
	}
	var out []string
	seen := map[string]bool{}
	for _, item := range strings.Split(flagValue, ",") {
		item = strings.TrimSpace(item)
		var expanded []string
		name, version, _ := strings.Cut(item, "@")
		switch {
		case item == "":
			fmt.Fprintf(stderr, "deskcheck-host: -host %q: an empty value\n", flagValue)
			return nil, exitInvalid
		case version == "*":
			versions, err := installedVersions(c, name)
			if err != nil {
				fmt.Fprintf(stderr, "deskcheck-host: -host %s: %v\n", item, err)
				return nil, exitInvalid
			}
			if len(versions) == 0 {
				fmt.Fprintf(stderr, "deskcheck-host: -host %s: no %s release is installed in %s\n", item, name, c)
				return nil, exitInvalid
			}
			for _, v := range versions {
				expanded = append(expanded, name+"@"+v)
			}
		default:
			expanded = []string{item}
		}
		for _, e := range expanded {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	if len(out) > 1 {
		for _, h := range out {
			if t, ours, _ := parseTarget(h, false); ours && t.adapters != nil {
				fmt.Fprintf(stderr, "deskcheck-host: -host %s: the arena runs on its own (-host arena runs every adapter)\n", h)
				return nil, exitInvalid
			}
		}
	}
	return out, exitPass
}

// installedVersions lists the installed releases of the host name.
func installedVersions(c, name string) ([]string, error) {
	for _, f := range real.Families() {
		if f.Host == name {
			in, err := f.List(c)
			var vs []string
			for _, r := range in {
				vs = append(vs, r.Version)
			}
			return vs, err
		}
	}
	return nil, fmt.Errorf("%q is no host with releases; the hosts are %s", name, strings.Join(releaseHosts(), ", "))
}

func releaseHosts() []string {
	var out []string
	for _, f := range real.Families() {
		out = append(out, f.Host)
	}
	return out
}
