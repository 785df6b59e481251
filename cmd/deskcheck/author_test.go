package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./cmd/deskcheck -update to create the goldens")
	assert.Equal(t, string(want), got, "golden %s differs; review and run with -update", name)
}

func TestExplainAndObserveGoldens(t *testing.T) {
	for _, cmd := range []string{"explain", "observe"} {
		code, out, errOut := runCLI(t, cmd)
		require.Equal(t, 0, code, errOut)
		golden(t, cmd+".txt", out)
		code, out, errOut = runCLI(t, cmd, "../../reports/testdata/boundary-desk-mutated.json")
		require.Equal(t, 0, code, errOut)
		golden(t, cmd+"-failing.txt", out)
	}
}

func TestObserveNamesDifferences(t *testing.T) {
	_, out, _ := runCLI(t, "observe", "-run", "deny-one-call", "../../reports/testdata/boundary-desk-mutated.json")
	assert.Contains(t, out, "differences from the authored block:\n  ~ prompts: authored 2, observed 1 (exact)\n")
	_, out, _ = runCLI(t, "observe", "-run", "fallback-no-handler")
	assert.Contains(t, out, "  + errorIncludes: \"Synthetic denied fictional seed note\" (observed, not asserted)")
}

func TestNewDeskAsPrinted(t *testing.T) {
	for _, scenario := range []string{"wrapper", "fallback", "classify-error"} {
		code, out, errOut := runCLI(t, "new", scenario)
		require.Equal(t, 0, code, errOut)
		golden(t, "new-"+scenario+".json", out)
		dir := t.TempDir()
		path := filepath.Join(dir, "desk", "new.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
		code, _, errOut = runCLI(t, "validate", path)
		assert.Equal(t, 0, code, errOut)
		for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
			assert.Regexp(t, `: warning: (placeholder|no allowed control)`, line, "only the placeholders and an unpaired control are flagged")
		}
		code, vout, errOut := runCLI(t, "verify", "-out", filepath.Join(dir, "out"), path)
		assert.Equal(t, 0, code, errOut)
		assert.Contains(t, vout, "1 passed, 0 failed")
	}
	for _, args := range [][]string{{"new"}, {"new", "gatway"}, {"new", "wrapper", "extra"}, {"explain", "-run", "("}, {"observe", "nope.json"}, {"explain", "../../verifier/testdata/invalid/wrong-type.json"}} {
		code, _, _ := runCLI(t, args...)
		assert.Equal(t, 2, code, args)
	}
}

func TestExplainNeverWrites(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	for _, cmd := range []string{"explain", "observe"} {
		code, _, _ := runCLI(t, cmd)
		require.Equal(t, 0, code)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "explain and observe write no report")
}
