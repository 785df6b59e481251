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
	"github.com/deskcheck/deskcheck/realhost"
)

// A target is what install, remove and verify -host name: an OMP release
// (the bun harness of realhost) or a release of a family that declares
// its harness through realcode.
type target struct {
	// fam is the declared family; nil for OMP.
	fam *realcode.Family
	// version is the release: "" for the newest installed, or for a
	// family whose bare name selects every release (Every), for all.
	version string
}

// parseTarget reads NAME@V, NAME, or a spelling the family resolves
// (realcode.Family.Resolve); ours is false for OMP (omp@V or a bare V)
// and for a name of no declared family.
func parseTarget(s string, needVersion bool) (target, bool, error) {
	name, version, hasVersion := strings.Cut(s, "@")
	for _, f := range real.Families() {
		if f.Resolve != nil {
			v, ok, err := f.Resolve(s)
			if err != nil {
				return target{}, true, err
			}
			if ok {
				return target{fam: &f, version: v}, true, nil
			}
		}
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

// hostNames lists what -host and install accept besides omp@V.
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

// installOther installs a declared family's release (or every release,
// for a family whose bare name selects them all).
func installOther(ctx context.Context, t target, stdout, stderr io.Writer) int {
	c, ok := cache(stderr)
	if !ok {
		return exitInvalid
	}
	vs, _ := versions(c, t, false)
	for _, v := range vs {
		if err := t.fam.Install(ctx, c, v, stdout); err != nil {
			fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
			return exitFail
		}
	}
	return exitPass
}

// removeOther removes a declared family's release (or every installed
// release, for a family whose bare name selects them all).
func removeOther(t target, stdout, stderr io.Writer) int {
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

// listOthers lists the installed releases of the declared families: each
// with its size, date, what it alone takes beside what the family's
// releases share, and its note; then what they share and what can be
// installed.
func listOthers(c string, stdout io.Writer) {
	for _, f := range real.Families() {
		in, err := f.List(c)
		if err != nil {
			fmt.Fprintf(stdout, "%s: %v\n", f.Host, err)
			continue
		}
		for _, r := range in {
			line := fmt.Sprintf("%s@%-8s %8d MB  %s", f.Host, r.Version, r.Bytes>>20, r.InstalledAt.Format(time.DateOnly))
			if r.Own > 0 {
				line += "  own " + realhost.HumanBytes(r.Own)
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
}

func prefixed(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}

// openFamily starts release t.version of a declared family (the newest
// installed when none is named) in the sandbox.
func openFamily(ctx context.Context, t target, maxAnswer int64, stderr io.Writer) (*realhost.FamilyHost, int) {
	c, ok := cache(stderr)
	if !ok {
		return nil, exitInvalid
	}
	if t.version == "" {
		in, _ := t.fam.List(c)
		if len(in) == 0 {
			fmt.Fprintf(stderr, "deskcheck-host: no %s release is installed in %s; install one with: deskcheck-host install %s@V (the releases are %s)\n", t.fam.Host, c, t.fam.Host, strings.Join(t.fam.Releases(), ", "))
			return nil, exitInvalid
		}
		t.version = in[len(in)-1].Version
	} else if in, _ := t.fam.List(c); !slices.ContainsFunc(in, func(r realcode.Installed) bool { return r.Version == t.version }) {
		fmt.Fprintf(stderr, "deskcheck-host: %s@%s is not installed in %s; install it with: deskcheck-host install %s@%s\n", t.fam.Host, t.version, c, t.fam.Host, t.version)
		return nil, exitInvalid
	}
	h, err := realhost.OpenFamily(ctx, *t.fam, c, t.version, maxAnswer)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck-host: %v\n", err)
		if errors.Is(err, realhost.ErrAnswerLimit) {
			return nil, exitInvalid
		}
		return nil, exitFail
	}
	if !h.Info().Sandboxed {
		fmt.Fprintf(stderr, "deskcheck-host: warning: %s\n", h.Info().Isolation)
	}
	return h, exitPass
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
	if name == ompHost {
		in, err := realhost.List(c)
		var vs []string
		for _, r := range in {
			vs = append(vs, r.Version)
		}
		return vs, err
	}
	return nil, fmt.Errorf("%q is no host with releases; the hosts are %s", name, strings.Join(releaseHosts(), ", "))
}

// ompHost is OMP's host name: its releases run on the bun harness of
// realhost.
var ompHost = realhost.HostName

func releaseHosts() []string {
	out := []string{ompHost}
	for _, f := range real.Families() {
		out = append(out, f.Host)
	}
	return out
}

// parseOMP reads omp@V (or a bare V); a name of no host says which hosts
// there are.
func parseOMP(s string) (string, error) {
	if name, _, ok := strings.Cut(s, "@"); ok && name != ompHost {
		return "", fmt.Errorf("%q: no host is named %q; the hosts are omp@V, %s", s, name, hostNames())
	}
	return realhost.ParseHost(s)
}
