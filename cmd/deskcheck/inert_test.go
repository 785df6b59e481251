package main

import (
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

// module is this module's path.
const module = "github.com/deskcheck/deskcheck"

// mayExecute says which packages alone may start a program: the real-host
// driver, which starts bun or node on a harness, the sandbox it starts it
// in, and its command; the Python sandbox; and, under host/, a family's
// real-code packages, whose names start with "real" (a family's declared
// harness, which installs its real code, or a driver of real frameworks
// that starts their Python) and the list of the declared harnesses the
// command reads.
func mayExecute(pkg string) bool {
	switch strings.TrimPrefix(pkg, module+"/") {
	case "realhost", "internal/sandbox", "cmd/deskcheck-host", "pysandbox":
		return true
	}
	rest, ok := strings.CutPrefix(pkg, module+"/host/")
	return ok && strings.HasPrefix(path.Base(rest), "real") && strings.Count(rest, "/") == 1
}

// TestNothingCanExecute lists the dependencies of every non-test package of
// the module and fails if any of them, but the real-host driver and its
// command, could run a command or load code; deskcheck itself above all.
func TestNothingCanExecute(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "github.com/deskcheck/deskcheck/...").CombinedOutput()
	require.NoError(t, err, string(out))
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, deps := fields[0], fields[1:]
		seen[pkg] = true
		if mayExecute(pkg) {
			continue
		}
		for _, d := range deps {
			require.NotContains(t, []string{"os/exec", "plugin"}, d, "%s depends on %s", pkg, d)
			require.False(t, mayExecute(d), "%s depends on %s, which starts programs", pkg, d)
		}
	}
	require.True(t, seen[module+"/cmd/deskcheck"], "the listing covers the module")
	for _, f := range all.Registry().Families() {
		require.True(t, seen[module+"/"+f.Host.Model], "the listing covers the module: %s", f.Host.Model)
	}
}
