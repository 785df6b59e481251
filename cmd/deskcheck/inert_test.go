package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// mayExecute are the only packages allowed to start a program: the
// real-host driver, which starts a family's harness (bun, node) in the
// sandbox, the sandbox, and their command; the families' declared real
// code, whose installs run npm or pnpm (their harnesses start only
// through the sandbox the driver passes); the arena's real-framework driver, which
// starts the adapters' Python, and the sandbox start it is given; and the
// list of the families' declared harnesses, which the command reads.
var mayExecute = map[string]bool{
	"github.com/deskcheck/deskcheck/realhost":             true,
	"github.com/deskcheck/deskcheck/host/gemini/realhost": true,
	"github.com/deskcheck/deskcheck/host/omp/realhost":    true,
	"github.com/deskcheck/deskcheck/internal/sandbox":     true,
	"github.com/deskcheck/deskcheck/cmd/deskcheck-host":   true,
	"github.com/deskcheck/deskcheck/host/arena/realarena": true,
	"github.com/deskcheck/deskcheck/pysandbox":            true,
	"github.com/deskcheck/deskcheck/host/all/real":        true,
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
		if mayExecute[pkg] {
			continue
		}
		for _, d := range deps {
			require.NotContains(t, []string{"os/exec", "plugin"}, d, "%s depends on %s", pkg, d)
			require.False(t, mayExecute[d], "%s depends on %s, which starts programs", pkg, d)
		}
	}
	require.True(t, seen["github.com/deskcheck/deskcheck/cmd/deskcheck"], "the listing covers the module")
	require.True(t, seen["github.com/deskcheck/deskcheck/host/omp"], "the listing covers the module")
}
