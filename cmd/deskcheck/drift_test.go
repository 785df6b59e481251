package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDriftCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "drift")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "boundary-desk/boundary-auto-approve-mode: same on all omp releases\n")
	assert.Contains(t, out, "  omp G1 (17.2.15, 17.3.5) differs from 18.3.4:\n    errorIncludes: ")
	assert.Contains(t, out, "not applicable: omp 13.19.0, 14.9.9: has no file-write fallback")
	assert.Regexp(t, `\n1 of [0-9]+ cases behave the same on every release`, out, "only the autoApprove case of the seed desk is the same everywhere")
	assert.Contains(t, out, "Release changes no case exercises:\n  omp 18.2.3: an unknown approval mode auto-approves every tier, as yolo (before, none) — no case uses an unknown mode\n")

	code, out, errOut = runCLI(t, "drift", "-format", "json", "-run", "deny-before", "../../cases/boundary-desk.json")
	require.Equal(t, 0, code, errOut)
	var d struct {
		Cases []struct {
			ID     string `json:"id"`
			Groups []struct {
				Group  string `json:"group"`
				Status string `json:"status"`
			} `json:"groups"`
		} `json:"cases"`
		Unexercised []struct {
			ID string `json:"id"`
		} `json:"unexercised"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &d))
	require.Len(t, d.Cases, 1)
	assert.Equal(t, "differs", d.Cases[0].Groups[1].Status)
	assert.NotEmpty(t, d.Unexercised)
}

func TestDriftInvalidInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"schemaVersion": 1, "id": "d", "title": "t", "hosts": {"omp": ">=99.0.0"}, "cases": []}`), 0o644))
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"drift", bad}, "bad.json:1:64: error: release range \">=99.0.0\" selects no modelled release"},
		{[]string{"drift", "-format", "sarif"}, "-format must be text or json"},
		{[]string{"drift", "-run", "nothing-matches"}, "no cases"},
		{[]string{"verify", "-host", "omp@18.1.18"}, "omp 18.1.18 is not a modelled release (modelled omp releases: 13.19.0"},
		{[]string{"explain", "-host", "omp"}, "write HOST@VERSION"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, tt.args...)
		assert.Equal(t, 2, code, "%v", tt.args)
		assert.Contains(t, errOut, tt.want, "%v", tt.args)
	}
}

// TestHostFlag: -host omp@18.1.16 judges the seed desk on that release
// alone, and 17.3.5 fails its tool-deny case naming the release.
func TestHostFlag(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "verify", "-host", "omp@18.1.16", "-out", dir, "../../cases/boundary-desk.json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "15 passed, 0 failed\n")
	code, out, _ = runCLI(t, "verify", "-host", "omp@17.3.5", "-out", dir, "../../cases/boundary-desk.json")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL boundary-desk/boundary-deny-before-handler  A deny on original input cannot be rewritten away  [omp 17.3.5]\n")
	assert.Contains(t, out, "N/A boundary-desk/boundary-fallback-no-handler  A denied primitive does not magically become an operator grant\n    not applicable: omp 17.3.5 has no file-write fallback\n")
	assert.Contains(t, out, "11 passed, 1 failed, 3 not applicable\n")
}

// TestReadmeDriftOutput: the OMP manual shows drift's real output on the
// bundled desks: the excerpt as printed, and the end of the full run.
func TestReadmeDriftOutput(t *testing.T) {
	data, err := os.ReadFile("../../host/omp/ompcheck/README.md")
	require.NoError(t, err)
	readme := string(data)
	const excerpt = "$ deskcheck drift -run 'deny-before|auto-approve-mode|fallback-no-handler'\n"
	i := strings.Index(readme, excerpt)
	require.GreaterOrEqual(t, i, 0, "the README shows the drift excerpt")
	block := readme[i+len(excerpt):]
	full := "…\n$ deskcheck drift\n…\n"
	j := strings.Index(block, full)
	require.GreaterOrEqual(t, j, 0)
	shownExcerpt, shownEnd := block[:j], block[j+len(full):]
	shownEnd = shownEnd[:strings.Index(shownEnd, "```")]

	code, out, _ := runCLI(t, "drift", "-run", "deny-before|auto-approve-mode|fallback-no-handler")
	require.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(out, shownExcerpt), "the excerpt is the start of the real output:\n%s", out)
	code, out, _ = runCLI(t, "drift")
	require.Equal(t, 0, code)
	assert.True(t, strings.HasSuffix(out, shownEnd), "the README shows the end of the real output:\n%s", out)
}

// TestReadmeHostOutput: every line the OMP manual shows of a -host run is a
// line of the real output.
func TestReadmeHostOutput(t *testing.T) {
	data, err := os.ReadFile("../../host/omp/ompcheck/README.md")
	require.NoError(t, err)
	const cmd = "$ deskcheck verify -host omp@17.3.5 cases/boundary-desk.json\n"
	readme := string(data)
	i := strings.Index(readme, cmd)
	require.GreaterOrEqual(t, i, 0)
	block := readme[i+len(cmd):]
	block = block[:strings.Index(block, "```")]
	code, out, _ := runCLI(t, "verify", "-host", "omp@17.3.5", "-out", t.TempDir(), "../../cases/boundary-desk.json")
	assert.Equal(t, 1, code)
	lines := strings.Split(out, "\n")
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if l != "…" {
			assert.Contains(t, lines, l)
		}
	}
}

// TestDriftAppliesHosts: a case is run on the groups its hosts range
// selects, as deskcheck-host drift and verify -host judge it; with
// -all-releases on every group.
func TestDriftAppliesHosts(t *testing.T) {
	const run = "tools-yolo-critical-runs"
	code, out, errOut := runCLI(t, "drift", "-run", run, "../../cases/omp-tools-desk.json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "  omp G0 (13.19.0, 14.9.9): not applicable: omp 13.19.0, 14.9.9: outside the case's hosts range >=17.2.15\n")
	assert.Contains(t, out, "its hosts range selects")

	code, out, errOut = runCLI(t, "drift", "-all-releases", "-run", run, "../../cases/omp-tools-desk.json")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "outside the case's hosts range")
	assert.Contains(t, out, "omp G0 (13.19.0, 14.9.9) differs from 18.3.4:")

	code, js, errOut := runCLI(t, "drift", "-format", "json", "-run", run, "../../cases/omp-tools-desk.json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, js, `"inRange": true`)
}
