package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
	"github.com/xeipuuv/gojsonschema"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
)

// mutatedBundled writes the seed desk with one expectation broken into
// dir and returns its path: boundary-deny-one-call expects 2 prompts.
func mutatedBundled(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	i := strings.Index(string(data), `"id": "boundary-deny-one-call"`)
	require.Positive(t, i)
	j := i + strings.Index(string(data[i:]), `"prompts": 1`)
	out := string(data[:j]) + `"prompts": 2` + string(data[j+len(`"prompts": 1`):])
	path := filepath.Join(dir, "boundary-desk.json")
	require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
	return path
}

// unwritable is a report folder no one can create, root included: its
// parent is a regular file.
func unwritable(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "a-file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	return filepath.Join(file, "reports", "private")
}

// TestVerdictBeforeReportFolder: in a working folder the job cannot
// write, every format prints its results and headline; the folder is an
// error of its own after them (exit 2), and -out none writes nothing and
// keeps the verdict's exit code.
func TestVerdictBeforeReportFolder(t *testing.T) {
	failing := mutatedBundled(t, t.TempDir())
	for _, format := range commandFormats["verify"] {
		t.Run(format, func(t *testing.T) {
			code, out, errOut := runCLI(t, "verify", "-format", format, "-out", unwritable(t), failing)
			assert.Equal(t, 2, code, errOut)
			assert.NotEmpty(t, out, "the results are printed")
			assert.Contains(t, errOut, "deskcheck: the results above stand, but the report folder was not written: ")
			switch format {
			case "github":
				assert.Regexp(t, `(?m)^::error file=[^,]*boundary-desk\.json,line=\d+,col=\d+,title=FAIL boundary-desk/boundary-deny-one-call`, out)
				assert.True(t, strings.HasSuffix(out, "FAIL — 14 passed, 1 failed\n"), "the headline closes: %q", out[max(0, len(out)-80):])
			case "text":
				assert.Contains(t, out, "FAIL boundary-desk/boundary-deny-one-call")
			case "markdown":
				assert.Contains(t, out, "## deskcheck: FAIL")
			}
		})
	}
	t.Run("-out none", func(t *testing.T) {
		dir := t.TempDir()
		t.Chdir(dir)
		code, out, errOut := runCLI(t, "verify", "-format", "github", "-out", "none", failing)
		assert.Equal(t, 1, code, errOut)
		assert.Contains(t, out, "FAIL — 14 passed, 1 failed\n")
		assert.NotContains(t, errOut, "reports:")
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Empty(t, entries, "no folder written")
		code, _, errOut = runCLI(t, "verify", "-out", "none")
		assert.Equal(t, 0, code, errOut)
	})
	t.Run("-out ./none is a folder", func(t *testing.T) {
		dir := t.TempDir()
		t.Chdir(dir)
		code, _, errOut := runCLI(t, "verify", "-out", "./none")
		assert.Equal(t, 0, code, errOut)
		assert.FileExists(t, filepath.Join(dir, "none", "report.json"))
	})
	if os.Geteuid() != 0 {
		t.Run("a read-only working folder", func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.Chmod(dir, 0o555))
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			t.Chdir(dir)
			code, out, errOut := runCLI(t, "verify", "-format", "github", failing)
			assert.Equal(t, 2, code, errOut)
			assert.Contains(t, out, "FAIL — 14 passed, 1 failed\n")
			assert.Contains(t, errOut, "permission denied")
		})
	}
}

// checkSARIF validates out against the SARIF 2.1.0 schema OASIS
// published, shipped in the reports package's testdata.
func checkSARIF(t *testing.T, out string) {
	t.Helper()
	schema, err := os.ReadFile("../../reports/testdata/sarif/sarif-schema-2.1.0.json")
	require.NoError(t, err)
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schema), gojsonschema.NewStringLoader(out))
	require.NoError(t, err)
	for _, e := range res.Errors() {
		t.Errorf("SARIF schema: %s", e)
	}
}

// TestSARIFOfEveryCommand: validate, verify, faults and report render
// write SARIF that validates against the schema, for passing, failing and
// broken desks.
func TestSARIFOfEveryCommand(t *testing.T) {
	dir := t.TempDir()
	failing := mutatedBundled(t, t.TempDir())
	_, _, errOut := runCLI(t, "verify", "-out", dir, failing)
	require.FileExists(t, filepath.Join(dir, "report.json"), errOut)
	broken := "../../verifier/testdata/invalid/misspelled-expected.json"
	for _, tt := range []struct {
		name string
		args []string
		code int
		rule string
	}{
		{"validate", []string{"validate", "-format", "sarif"}, 0, ""},
		{"validate a broken desk", []string{"validate", "-format", "sarif", broken}, 2, `"ruleId":"lint/expected-key"`},
		{"verify", []string{"verify", "-format", "sarif", "-out", "none", failing}, 1, `"ruleId":"mismatch/exact"`},
		{"verify a broken desk", []string{"verify", "-format", "sarif", "-out", "none", broken}, 2, `"ruleId":"lint/expected-key"`},
		{"faults", []string{"faults", "-format", "sarif", "-out", "none", "../../cases/boundary-desk.json"}, 1, `"ruleId":"fault/`},
		{"report render", []string{"report", "render", "-format", "sarif", filepath.Join(dir, "report.json")}, 0, `"ruleId":"mismatch/exact"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			assert.Equal(t, tt.code, code, errOut)
			checkSARIF(t, out)
			assert.Contains(t, out, tt.rule)
		})
	}
}

// TestGitHubOfValidateAndFaults: both commands annotate within GitHub's
// limits and close with a plain headline.
func TestGitHubOfValidateAndFaults(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "-format", "github", "../../verifier/testdata/invalid/misspelled-expected.json")
	assert.Equal(t, 2, code)
	assert.Regexp(t, `(?m)^::error file=[^,]*misspelled-expected\.json,line=\d+,col=\d+,title=deskcheck error::expected key`, out)
	assert.Regexp(t, `(?m)^::warning file=[^,]*misspelled-expected\.json,title=deskcheck warning checks-skipped::later checks`, out)
	assert.Regexp(t, `(?m)^validate FAIL — 1 file, 1 error, 1 warning$`, out, "the line that says which checks were skipped counts as a warning")

	// The warnings the bundled desks acknowledge as their lessons, as the
	// text output lists them on stderr: GitHub is shown as many as its notices of one
	// step leave room for beside the notice that counts the rest.
	code, _, text := runCLI(t, "validate")
	require.Equal(t, 0, code)
	acknowledged := regexp.MustCompile(`(?m)^cases/[^:]+:\d+:\d+: acknowledged `).FindAllStringIndex(text, -1)
	require.NotEmpty(t, acknowledged, "the bundled desks acknowledge warnings as their lessons")
	ack := len(acknowledged)
	shown := min(ack, reports.GitHubLimit-1)
	code, out, _ = runCLI(t, "validate", "-format", "github")
	assert.Equal(t, 0, code)
	assert.NotContains(t, out, "::warning")
	assert.Equal(t, shown, strings.Count(out, "::notice file=cases/"), "the warnings the desks acknowledge as their lessons are notices")
	if left := ack - shown; left > 0 {
		assert.Regexp(t, fmt.Sprintf(`%d more acknowledged warnings? in \d+ files? not annotated`, left), out)
	} else {
		assert.NotContains(t, out, "not annotated")
	}
	assert.Regexp(t, fmt.Sprintf(`(?m)^validate PASS — \d+ files, 0 errors, 0 warnings, %d acknowledged\n\z`, ack), out)

	code, out, errOut := runCLI(t, "faults", "-format", "github", "-out", "none", "../../cases/boundary-desk.json")
	assert.Equal(t, 1, code, errOut)
	seed, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	_, fam, ok := all.Registry().Lookup(gjson.GetBytes(seed, "cases.0.scenario").String())
	require.True(t, ok)
	missed := regexp.MustCompile(`(?m)^::error file=\.\./\.\./cases/boundary-desk\.json,title=fault `+regexp.QuoteMeta(fam.Host.Name)+`/[a-z-]+ missed::`).FindAllString(out, -1)
	assert.NotEmpty(t, missed, "a missed fault on the desk that addresses it, at no line")
	assert.NotContains(t, out, "line=1,col=1", "a fault is not at a desk's first line")
	assert.Regexp(t, `strength FAIL — \d+ of \d+ faults caught · cases PASS — 15 passed, 0 failed\n$`, out)

	code, _, errOut = runCLI(t, "verify", "-format", "github", "-max-annotations", "11")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-max-annotations must be 1 to 10 (GitHub shows no more of one step), not 11")
}

// TestHelpListsFormats: the usage and each command's help name every
// format the command takes.
func TestHelpListsFormats(t *testing.T) {
	_, usageOut, _ := runCLI(t, "help")
	for cmd, formats := range commandFormats {
		code, out, _ := runCLI(t, "help", cmd)
		require.Equal(t, 0, code)
		assert.Contains(t, out, "-format string\n    \toutput on stdout: "+orList(formats), cmd)
		for _, f := range formats {
			assert.Contains(t, usageOut, f, "the usage names %s", f)
		}
		code, _, errOut := runCLI(t, cmd, "-format", "no-such")
		if cmd == "report" {
			code, _, errOut = runCLI(t, cmd, "render", "-format", "no-such", "x.json")
		}
		assert.Equal(t, 2, code)
		assert.Contains(t, errOut, "-format must be "+orList(formats)+`, not "no-such"`, cmd)
	}
}
