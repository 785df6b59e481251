package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNothingCanExecute lists the dependencies of every non-test package of
// the module and fails if any of them could run a command or load code.
func TestNothingCanExecute(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/deskcheck/deskcheck/...").CombinedOutput()
	require.NoError(t, err, string(out))
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/deskcheck/deskcheck/host/omp", "the listing covers the module")
	for _, d := range deps {
		require.NotContains(t, []string{"os/exec", "plugin"}, d, "non-test code depends on %s", d)
	}
}
