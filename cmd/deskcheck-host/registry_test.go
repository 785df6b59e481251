package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/all/real"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/verifier"
)

// familyWhere returns the first family host/all/real declares for which
// ok holds, failing the test when none does.
func familyWhere(t testing.TB, what string, ok func(realcode.Family) bool) realcode.Family {
	t.Helper()
	for _, f := range real.Families() {
		if ok(f) {
			return f
		}
	}
	t.Fatalf("no declared family is %s", what)
	return realcode.Family{}
}

// venvFamily is the declared family whose runtime is a venv's
// interpreter.
func venvFamily(t testing.TB) realcode.Family {
	return familyWhere(t, "run by a venv's interpreter", func(f realcode.Family) bool { return f.Sandbox == realcode.SandboxPythonVenv })
}

// bundledDeskOf returns the path, from this package's folder, of the
// first bundled desk whose cases are all of host.
func bundledDeskOf(t testing.TB, host string) string {
	t.Helper()
	for _, d := range all.Desks() {
		desk, ds := verifier.Load(all.Registry(), d.Path, d.Data, verifier.Limits{})
		if ds.HasErrors() || desk == nil || len(desk.Cases) == 0 {
			continue
		}
		mine := true
		for _, c := range desk.Cases {
			if _, fam := c.Spec(); fam == nil || fam.Host.Name != host {
				mine = false
			}
		}
		if mine {
			return filepath.Join("..", "..", filepath.FromSlash(d.Path))
		}
	}
	require.Failf(t, "no bundled desk", "no bundled desk holds only cases of %s", host)
	return ""
}

// The hosts of the declared families the tests speak of, each found by
// what sets it apart: the default family (the first declared), the one
// whose releases are alternatives side by side, run by a venv's
// interpreter, and the other, whose bare name selects its newest
// installed release.
var (
	hostDefault = real.Families()[0].Host
	hostVenv    = declaredHost(func(f realcode.Family) bool { return f.Sandbox == realcode.SandboxPythonVenv && f.Every })
	hostNewest  = declaredHost(func(f realcode.Family) bool { return f.Host != hostDefault && !f.Every })
)

// declaredHost returns the host of the first declared family for which ok
// holds, "" when none does.
func declaredHost(ok func(realcode.Family) bool) string {
	for _, f := range real.Families() {
		if ok(f) {
			return f.Host
		}
	}
	return ""
}
