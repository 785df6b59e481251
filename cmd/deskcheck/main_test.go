package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVerifyBundledSuite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "private")
	code, out, errOut := runCLI(t, "verify", "-out", dir)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Contains(t, lines, "68 passed, 0 failed", "the closing summary line")
	assert.Equal(t, 68, strings.Count(out, "\nPASS ")+boolInt(strings.HasPrefix(out, "PASS ")))
	for _, desk := range []string{"boundary-desk", "gateway-desk", "runner-desk", "household-desk"} {
		assert.Contains(t, out, "PASS "+desk+"/", "every bundled desk runs")
	}
	for _, id := range []string{"rpc-construction", "rpc-not-a-tui", "fallback-is-not-grant"} {
		assert.Contains(t, out, "NOT EXECUTED boundary-desk/"+id)
	}
	assert.NotContains(t, out, "\x1b[", "no colour when stdout is not a terminal")

	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "report folder is private")
	info, err = os.Stat(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "report file is private")
	assert.Contains(t, errOut, "reports: "+filepath.Join(dir, "report.json")+", "+filepath.Join(dir, "report.html"))
	for _, f := range []string{"report.json", "report.html", "report.md", "report.junit.xml"} {
		info, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), f)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestVerifyMutatedDeskFails(t *testing.T) {
	data, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	// boundary-deny-one-call expects one prompt; claim two.
	i := bytes.Index(data, []byte(`"id": "boundary-deny-one-call"`))
	require.Greater(t, i, 0)
	j := i + bytes.Index(data[i:], []byte(`"prompts": 1`))
	mutated := append(append(append([]byte{}, data[:j]...), `"prompts": 2`...), data[j+len(`"prompts": 1`):]...)
	dir := t.TempDir()
	path := filepath.Join(dir, "cases", "desk.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, mutated, 0o644))

	code, out, _ := runCLI(t, "verify", "-out", filepath.Join(dir, "out"), path)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL boundary-desk/boundary-deny-one-call  Deny stops execution\n    prompts (exact): expected 2, observed 1\n")
	assert.Contains(t, out, "14 passed, 1 failed")
	assert.Contains(t, out, "      [call 1] select \"Allow tool: seed_note\" [Approve, Deny] → \"Deny\"", "a failure shows its trace")
}

func TestVerifyJSONFormat(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	dir := t.TempDir()
	code, out, _ := runCLI(t, "verify", "-format", "json", "-run", "fallback", "-out", dir)
	require.Equal(t, 0, code)
	var report struct {
		GeneratedAt string
		Verdict     string
		Summary     struct{ Cases, Passed int }
		Cases       []struct{ ID, Status string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	assert.Equal(t, "1970-01-01T00:00:00Z", report.GeneratedAt)
	assert.Equal(t, "pass", report.Verdict)
	assert.Equal(t, 3, report.Summary.Cases)
	saved, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, out, string(saved), "stdout and the saved evidence are the same bytes")

	code, again, _ := runCLI(t, "verify", "-format", "json", "-run", "fallback", "-out", dir)
	require.Equal(t, 0, code)
	assert.Equal(t, out, again, "two runs with SOURCE_DATE_EPOCH are byte-identical")
}

func TestValidate(t *testing.T) {
	code, out, errOut := runCLI(t, "validate")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "cases/boundary-desk.json: ok (desk boundary-desk: 15 cases, 3 source-only claims)\n"+
		"cases/gateway-desk.json: ok (desk gateway-desk: 23 cases, 2 source-only claims)\n"+
		"cases/household-desk.json: ok (desk household-desk: 16 cases, 0 source-only claims)\n"+
		"cases/runner-desk.json: ok (desk runner-desk: 14 cases, 0 source-only claims)\n", out)

	for _, f := range []string{"malformed", "duplicate-key", "unknown-scenario", "unknown-given-key", "misspelled-expected", "wrong-type"} {
		path := "../../verifier/testdata/invalid/" + f + ".json"
		code, _, errOut := runCLI(t, "validate", path)
		assert.Equal(t, 2, code, f)
		assert.Regexp(t, `^`+regexpQuote(path)+`:\d+:\d+: error: `, errOut, f)
	}
}

func regexpQuote(s string) string {
	return strings.NewReplacer(".", `\.`, "/", `/`).Replace(s)
}

func TestUsageAndInputErrors(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"no command", nil, 2, "Usage:"},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"bad flag", []string{"verify", "-nope"}, 2, "flag provided but not defined: -nope"},
		{"bad format", []string{"verify", "-format", "xml"}, 2, `-format: unknown format "xml"`},
		{"report without a subcommand", []string{"report"}, 2, "usage: deskcheck report render"},
		{"render a file that is not evidence", []string{"report", "render", "../../cases/boundary-desk.json"}, 2, "not deskcheck evidence"},
		{"render a missing file", []string{"report", "render", "nope.json"}, 2, "no such file"},
		{"render in an unknown format", []string{"report", "render", "-format", "pdf", "x.json"}, 2, `unknown format "pdf"`},
		{"the report folder is a file", []string{"verify", "-out", "main.go"}, 2, "not a directory"},
		{"bad -run", []string{"verify", "-run", "("}, 2, "-run: error parsing regexp"},
		{"no case selected", []string{"verify", "-run", "no-such-case", "-out", "%TMP%"}, 2, "no cases"},
		{"missing path", []string{"validate", "does/not/exist.json"}, 2, "does/not/exist.json: no such file or directory"},
		{"a folder without case files", []string{"verify", "%TMP%"}, 2, "no cases: no *.json file found"},
		{"invalid files are not run", []string{"verify", "../../verifier/testdata/invalid/wrong-type.json"}, 2, "invalid case files; nothing was run"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			args := make([]string, len(tt.args))
			tmp := t.TempDir()
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "%TMP%", tmp)
			}
			code, _, errOut := runCLI(t, args...)
			assert.Equal(t, tt.code, code)
			assert.Contains(t, errOut, tt.stderr)
		})
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCLI(t, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "deskcheck verify")
}

func TestVerifyFolder(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../host/omp/ompcheck/testdata/omp-desk.json")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "desks", "nested"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "desks", "nested", "s.json"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "desks", "notes.txt"), []byte("not a desk"), 0o644))
	code, out, errOut := runCLI(t, "verify", "-out", filepath.Join(dir, "out"), filepath.Join(dir, "desks"))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "22 passed, 0 failed")
}

func TestFormatsAndRender(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	dir := t.TempDir()
	outputs := map[string]string{}
	for _, f := range []string{"markdown", "junit", "html", "json"} {
		code, out, errOut := runCLI(t, "verify", "-format", f, "-out", dir)
		require.Equal(t, 0, code, errOut)
		outputs[f] = out
	}
	assert.True(t, strings.HasPrefix(outputs["markdown"], "## deskcheck: PASS — 68 passed, 0 failed"))
	assert.Contains(t, outputs["junit"], `<testsuite name="boundary-desk" tests="18" failures="0" errors="0" skipped="3"`)
	assert.Contains(t, outputs["html"], `<span class="verdict pass" id="verdict">PASS</span>`)

	evidence := filepath.Join(dir, "report.json")
	for _, f := range []string{"markdown", "junit", "html", "json"} {
		code, out, errOut := runCLI(t, "report", "render", evidence, "-format", f)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, outputs[f], out, "re-rendering the saved evidence gives the same %s", f)
		saved := map[string]string{"markdown": "report.md", "junit": "report.junit.xml", "html": "report.html", "json": "report.json"}[f]
		b, err := os.ReadFile(filepath.Join(dir, saved))
		require.NoError(t, err)
		assert.Equal(t, string(b), out, "stdout matches the saved %s", saved)
	}

	code, out, _ := runCLI(t, "report", "-schema")
	assert.Equal(t, 0, code)
	assert.True(t, json.Valid([]byte(out)))
	assert.Contains(t, out, `"title": "deskcheck JSON evidence (report.json)"`)
}

func TestFlagsAfterPaths(t *testing.T) {
	code, out, errOut := runCLI(t, "verify", "../../cases/boundary-desk.json", "-run", "rpc", "-out", t.TempDir())
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "2 passed, 0 failed")
}

func TestHostileFilesExitTwo(t *testing.T) {
	paths, err := filepath.Glob("../../verifier/testdata/hostile/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		for _, cmd := range []string{"validate", "verify"} {
			out := filepath.Join(t.TempDir(), "out")
			args := []string{cmd, p}
			if cmd == "verify" {
				args = append(args, "-out", out)
			}
			code, stdout, errOut := runCLI(t, args...)
			assert.Equal(t, 2, code, "%s %s", cmd, p)
			assert.Regexp(t, "(?m)^"+regexpQuote(p)+`:\d+:\d+: error: `, errOut, p)
			assert.Empty(t, stdout, "nothing printed as a result")
			_, statErr := os.Stat(out)
			assert.True(t, os.IsNotExist(statErr), "no report written for %s", p)
		}
	}
}

func TestFaults(t *testing.T) {
	code, out, errOut := runCLI(t, "faults", "-run", "^boundary-desk/", "-out", t.TempDir())
	assert.Equal(t, 1, code, "the boundary desk misses faults: %s", errOut)
	assert.Regexp(t, `(?m)^omp/approval-remembered +caught  boundary-desk/boundary-approval-does-not-persist$`, out)
	assert.Regexp(t, `(?m)^omp/revision-ignored +MISSED  no case fails when the executor runs the original input, not the revision$`, out)
	assert.Contains(t, out, "to catch it: scenario wrapper: given.revise on a call that runs")
	assert.NotContains(t, out, "gateway/", "only the faults of the hosts whose cases run")
	m := regexp.MustCompile(`(\d+) of (\d+) faults caught\n$`).FindStringSubmatch(out)
	require.Len(t, m, 3, out)
	total, _ := strconv.Atoi(m[2])
	assert.Equal(t, strconv.Itoa(total-3), m[1], "the boundary desk misses three OMP faults")

	code, out, errOut = runCLI(t, "faults", "-run", "^(gateway|runner|household)-desk/", "-out", t.TempDir())
	assert.Equal(t, 0, code, "the other bundled desks catch every fault of their hosts: %s", errOut)
	assert.NotContains(t, out, "MISSED")
	assert.NotContains(t, out, "omp/")

	code, out, _ = runCLI(t, "faults", "-fault", "rpc-cancel-approves", "-out", t.TempDir())
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "1 of 1 faults caught")

	code, out, _ = runCLI(t, "faults", "-fault", "approval-remembered", "-run", "rpc", "-out", t.TempDir())
	assert.Equal(t, 1, code, "the selected cases do not catch it")
	assert.Contains(t, out, "0 of 1 faults caught")

	dir := t.TempDir()
	code, out, _ = runCLI(t, "faults", "-format", "json", "-fault", "fallback-retries", "-out", dir)
	assert.Equal(t, 0, code)
	var rep struct {
		Strength struct {
			Caught, Faults int
			Results        []struct{ Fault string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 1, rep.Strength.Caught)
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(html), `id="fault-omp/fallback-retries"`, "the page has the strength section")

	for _, args := range [][]string{
		{"faults", "-fault", "no-such"},
		{"faults", "-format", "xml"},
		{"faults", "../../verifier/testdata/invalid/wrong-type.json"},
		{"faults", "-run", "nothing-matches"},
	} {
		code, _, errOut := runCLI(t, append(args, "-out", t.TempDir())...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
	}
}

func TestGitHubFormatAnnotatesBrokenFiles(t *testing.T) {
	code, out, errOut := runCLI(t, "verify", "-format", "github", "-out", t.TempDir(), "../../verifier/testdata/invalid/misspelled-expected.json")
	assert.Equal(t, 2, code)
	assert.Regexp(t, `(?m)^::error file=\.\./\.\./verifier/testdata/invalid/misspelled-expected\.json,line=\d+,col=\d+`, out, "the problem becomes an annotation on its line")
	assert.Contains(t, errOut, "error:", "and stays on stderr as a plain line")
}
