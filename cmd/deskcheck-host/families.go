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

	"github.com/deskcheck/deskcheck/host/all/real"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
	"github.com/deskcheck/deskcheck/realhost"
)

// A target is what install, remove and verify -host name: a release of a
// family that declares its real code through realcode (host/all/real).
type target struct {
	// fam is the declared family.
	fam *realcode.Family
	// version is the release: "" for the newest installed, or for a
	// family whose bare name selects every release (Every), for all.
	version string
}

// parseTarget reads NAME@V, NAME, a spelling a family resolves
// (realcode.Family.Resolve), or a bare V of the default family
// (defaultFamily); it is not ours when it names no host.
func parseTarget(s string, needVersion bool) (target, bool, error) {
	for _, f := range real.Families() {
		if f.Resolve == nil {
			continue
		}
		v, ok, err := f.Resolve(s)
		if err != nil {
			return target{}, true, err
		}
		if ok {
			return target{fam: &f, version: v}, true, nil
		}
	}
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
			if needVersion && !f.Every {
				return target{}, true, fmt.Errorf("%q: name a release, %s@VERSION; the releases are %s", s, f.Host, strings.Join(f.Releases(), ", "))
			}
			return target{fam: &f}, true, nil
		}
		if !slices.Contains(f.Releases(), version) {
			return target{}, true, fmt.Errorf("%s@%s is not a release deskcheck-host can install; the releases are %s", f.Host, version, strings.Join(f.Releases(), ", "))
		}
		return target{fam: &f, version: version}, true, nil
	}
	return target{}, false, nil
}

// isHostName says whether name is a family's host name or a spelling
// of one of its releases that the family resolves.
func isHostName(name string) bool {
	for _, f := range real.Families() {
		if f.Host == name {
			return true
		}
		if f.Resolve != nil {
			if _, ok, _ := f.Resolve(name); ok {
				return true
			}
		}
	}
	return false
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
		if f.Every {
			names = append(names, f.Host)
		}
		names = append(names, f.Host+"@V")
	}
	return strings.Join(names, ", ")
}

// versions are the releases t names: its own, or every release of a
// family whose bare name selects them all (installed ones when
// installed is set).
func versions(c string, t target, installed bool) ([]string, error) {
	if t.version != "" || !t.fam.Every {
		return []string{t.version}, nil
	}
	if !installed {
		return t.fam.Releases(), nil
	}
	in, err := t.fam.List(c)
	var vs []string
	for _, r := range in {
		vs = append(vs, r.Version)
	}
	if err == nil && len(vs) == 0 {
		err = fmt.Errorf("no %s release is installed in %s; install them with: deskcheck-host install %s (the releases are %s)", t.fam.Host, c, t.fam.Host, strings.Join(t.fam.Releases(), ", "))
	}
	return vs, err
}

// installTarget installs a declared family's release (or every release,
// for a family whose bare name selects them all).
func installTarget(ctx context.Context, t target, substitute bool, stdout, stderr io.Writer) int {
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	vs, _ := versions(c, t, false)
	for _, v := range vs {
		err := t.fam.Install(ctx, c, v, realcode.InstallOptions{Substitute: substitute, Progress: stdout, Start: realhost.InstallStart(t.fam.Sandbox)})
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			if errors.Is(err, realcode.ErrNeedsSubstitute) {
				return exitInvalid
			}
			return exitFail
		}
	}
	return exitPass
}

// removeTarget removes a declared family's release (or every installed
// release, for a family whose bare name selects them all).
func removeTarget(t target, stdout, stderr io.Writer) int {
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	vs, err := versions(c, t, true)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		return exitInvalid
	}
	for _, v := range vs {
		if err := t.fam.Remove(c, v); err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			return exitInvalid
		}
		fmt.Fprintf(stdout, "removed %s@%s\n", t.fam.Host, v)
	}
	return exitPass
}

// listAll lists the installed releases of the declared families: a
// family's own lines (Listing), or each release with its size, date,
// what it alone takes beside what the family's releases share, and its
// note; then what they share and what can be installed.
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
		width := 8 // the versions' column, as wide as the longest
		for _, r := range in {
			width = max(width, len(r.Version))
		}
		for _, r := range in {
			line := fmt.Sprintf("%s@%-*s %8d MB  %s", f.Host, width, r.Version, r.Bytes>>20, r.InstalledAt.Format(time.DateOnly))
			if r.Own > 0 {
				line += "  own " + realcode.HumanBytes(r.Own)
			}
			if r.Note != "" {
				line += "  (" + r.Note + ")"
			}
			fmt.Fprintln(stdout, line)
		}
		if f.Shared != nil {
			if s, err := f.Shared(c); err != nil {
				fmt.Fprintf(stdout, "%s: %v\n", f.Host, err)
			} else if s != "" {
				fmt.Fprintf(stdout, "%s: %s\n", f.Host, s)
			}
		}
		every := ""
		if f.Every {
			every = fmt.Sprintf(" (or %s: all of them)", f.Host)
		}
		fmt.Fprintf(stdout, "installable: %s%s\n", strings.Join(prefixed(f.Host+"@", f.Releases()), ", "), every)
	}
	return nil
}

func prefixed(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}

// openFamily starts release t.version of a declared family (the newest
// installed when none is named), or the source folder src, in the
// sandbox.
func openFamily(ctx context.Context, t target, src, runtime string, maxAnswer int64, allowChanged bool, harnessFault string, stderr io.Writer) (*realhost.FamilyHost, int) {
	c, ok := cache(stderr)
	if !ok {
		return nil, exitInvalid
	}
	if src == "" {
		if code := pickVersion(c, &t, stderr); code != exitPass {
			return nil, code
		}
	}
	h, err := realhost.OpenFamily(ctx, *t.fam, realcode.OpenOptions{Cache: c, Version: t.version, Source: src, Runtime: runtime, AllowChanged: allowChanged, Fault: harnessFault}, realhost.Bounds{MaxAnswerBytes: maxAnswer})
	if err != nil {
		if errors.Is(err, realcode.ErrSource) {
			fmt.Fprintf(stderr, "deskcheck-host: -host-src: %v\n", err)
		} else {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		}
		why, code := openFailure(err, src != "")
		if why != "" {
			fmt.Fprintln(stderr, "deskcheck-host: "+why)
		}
		return nil, code
	}
	if !h.Info().Sandboxed {
		fmt.Fprintf(stderr, "deskcheck-host: warning: %s\n", h.Info().Isolation)
	}
	return h, exitPass
}

// openFailure is the exit code for a release that did not open, and what
// to add to its error: a run that cannot be made as asked (a checkout, or
// a release whose folders must be seen at fixed paths, without the
// sandbox) or a release the cache does not hold as installed is invalid
// input (2); anything else failed (1).
func openFailure(err error, checkout bool) (why string, code int) {
	switch {
	case errors.Is(err, realhost.ErrAnswerLimit), errors.Is(err, realcode.ErrChanged), errors.Is(err, realcode.ErrSource):
		return "", exitInvalid
	case checkout && errors.Is(err, sandbox.ErrUnavailable):
		return "a checkout is code of unknown origin and runs only in the sandbox; nothing was run", exitInvalid
	case errors.Is(err, realcode.ErrNoBind):
		return "", exitInvalid // the family's error says why
	}
	return "", exitFail
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

// defaultJobs is -jobs' default: a harness per processor, at most four.
func defaultJobs() int { return min(runtime.GOMAXPROCS(0), 4) }

// expandHosts reads -host: one value, or several separated by commas,
// where NAME@* is every installed release of NAME, oldest first, as is
// the bare name of a family whose bare name selects every release.
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
			t, ours, err := parseTarget(item, false)
			switch {
			case !ours || err != nil:
			case t.version != "":
				// One spelling per release, so that a release named twice
				// runs once.
				expanded = []string{t.fam.Host + "@" + t.version}
			case t.fam.Every:
				vs, err := versions(c, t, true)
				if err != nil {
					fmt.Fprintf(stderr, "deskcheck-host: -host %s: %v\n", item, err)
					return nil, exitInvalid
				}
				expanded = prefixed(t.fam.Host+"@", vs)
			}
		}
		for _, e := range expanded {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
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
