package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// suiteForVersion verifies the boundary desk.
func suiteForVersion(t *testing.T) *verifier.SuiteResult {
	t.Helper()
	data, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "boundary-desk.json", Data: data}}, verifier.Options{Registry: all.Registry()})
	require.NoError(t, err)
	require.False(t, ds.HasErrors())
	return suite
}

func TestHelpAndVersion(t *testing.T) {
	version, revision := buildVersion()
	tests := []struct {
		reason string
		args   []string
		code   int
		stdout string // a part of stdout
	}{
		{"deskcheck -h prints the usage", []string{"-h"}, 0, "Usage:\n  deskcheck verify"},
		{"a command's -h prints its help on stdout and succeeds", []string{"verify", "-h"}, 0, "Usage: deskcheck verify [-run REGEX]"},
		{"--help works as -h", []string{"validate", "--help"}, 0, "Usage: deskcheck validate"},
		{"help COMMAND prints that command's help", []string{"help", "verify"}, 0, "Usage: deskcheck verify [-run REGEX]"},
		{"a command's help lists its flags", []string{"help", "verify"}, 0, "-max-run-work"},
		{"help for a command without flags", []string{"help", "new"}, 0, "SCENARIO is one of"},
		{"help for schema", []string{"schema", "-h"}, 0, "Usage: deskcheck schema"},
		{"help for report", []string{"help", "report"}, 0, "text by default"},
		{"version prints what the reports record", []string{"version"}, 0, "deskcheck " + version + " (revision " + revision + ", go"},
		{"--version is the same", []string{"--version"}, 0, "deskcheck " + version + " (revision " + revision},
		{"help for an unknown command", []string{"help", "verfy"}, 2, ""},
		{"a slip in a command name gets a suggestion", []string{"verfy"}, 2, ""},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, tt.args...)
		assert.Equal(t, tt.code, code, "%s: %s", tt.reason, errOut)
		assert.Contains(t, out, tt.stdout, tt.reason)
		if tt.code == 0 {
			assert.Empty(t, errOut, "%s: help is not an error", tt.reason)
		}
	}
	_, _, errOut := runCLI(t, "verfy")
	assert.Contains(t, errOut, `unknown command "verfy"; did you mean "verify"?`)
	_, _, errOut = runCLI(t, "verify", "-nope")
	assert.Contains(t, errOut, "run 'deskcheck help verify' for its usage", "a mistake points at the help")

	rep := reports.Build(suiteForVersion(t), origin())
	assert.Equal(t, version, rep.Provenance.Deskcheck, "version says what the report records")
	assert.Equal(t, revision, rep.Provenance.Revision)
}

func TestColour(t *testing.T) {
	tests := []struct {
		reason   string
		noColor  string
		setNo    bool
		term     string
		expected bool
	}{
		{"a terminal with nothing said gets colour", "", false, "xterm-256color", true},
		{"NO_COLOR with a value turns colour off", "1", true, "xterm", false},
		{"an empty NO_COLOR counts as unset (no-color.org)", "", true, "xterm", true},
		{"TERM=dumb gets no colour", "", false, "dumb", false},
	}
	for _, tt := range tests {
		t.Setenv("TERM", tt.term)
		if tt.setNo {
			t.Setenv("NO_COLOR", tt.noColor)
		} else {
			t.Setenv("NO_COLOR", "")
			os.Unsetenv("NO_COLOR")
		}
		assert.Equal(t, tt.expected, colorWanted(), tt.reason)
	}
}

func TestSourceDateEpoch(t *testing.T) {
	tests := []struct {
		reason string
		value  string
		code   int
	}{
		{"the epoch itself", "0", 0},
		{"the last second of year 9999", "253402300799", 0},
		{"a second later has no RFC 3339 time stamp", "253402300800", 2},
		{"far past year 9999", "99999999999999", 2},
		{"a negative time", "-1", 2},
		{"not a number", "yesterday", 2},
		{"a fraction of a second", "1700000000.5", 2},
		{"a number in exponent form", "1e9", 2},
		{"spaces around it", " 0", 2},
	}
	for _, tt := range tests {
		t.Setenv("SOURCE_DATE_EPOCH", tt.value)
		out := filepath.Join(t.TempDir(), "out")
		code, _, errOut := runCLI(t, "verify", "-run", "^boundary-desk/boundary-deny-one-call$", "-out", out)
		assert.Equal(t, tt.code, code, "%s: %s", tt.reason, errOut)
		if tt.code != 0 {
			assert.Contains(t, errOut, "SOURCE_DATE_EPOCH", tt.reason)
			_, err := os.Stat(out)
			assert.True(t, os.IsNotExist(err), "%s: no report", tt.reason)
			continue
		}
		code, _, errOut = runCLI(t, "report", "render", filepath.Join(out, "report.json"))
		assert.Equal(t, 0, code, "%s: the saved evidence renders again: %s", tt.reason, errOut)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "-1")
	code, _, errOut := runCLI(t, "validate", "../../cases/boundary-desk.json")
	assert.Equal(t, 0, code, "a command that stamps nothing does not read it: %s", errOut)
}

func TestNamedPathsThatCannotBeRead(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	desk := filepath.Join(dir, "desk.json")
	require.NoError(t, os.WriteFile(desk, good, 0o644))
	big := filepath.Join(dir, "big.json")
	require.NoError(t, os.WriteFile(big, good, 0o644))
	fifo := filepath.Join(dir, "pipe.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	folder := filepath.Join(dir, "desks")
	require.NoError(t, os.Mkdir(folder, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(folder, "a.json"), good, 0o644))
	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"a named file over the size limit says so", []string{"validate", "-max-file-size", "1000", big}, 2, big + ": error: cannot be read: the file size in bytes is 13712, over the limit of 1000"},
		{"even when another path is given", []string{"validate", "-max-file-size", "1000", big, "../../cases/boundary-desk.json"}, 2, "over the limit of 1000"},
		{"a named FIFO is never opened", []string{"validate", fifo}, 2, "cannot be read: not a regular file (a FIFO)"},
		{"a file named twice is read once", []string{"validate", desk, desk}, 0, ""},
		{"a file named and inside a named folder is read once", []string{"validate", folder, filepath.Join(folder, "a.json")}, 0, ""},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var code int
		var out, errOut string
		go func() {
			defer close(done)
			code, out, errOut = runCLI(t, tt.args...)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: hung", tt.reason)
		}
		assert.Equal(t, tt.code, code, "%s: %s", tt.reason, errOut)
		assert.Contains(t, errOut, tt.stderr, tt.reason)
		if tt.code == 0 {
			assert.Equal(t, 1, strings.Count(out, ": ok"), "%s: one desk, no duplicate desk id: %s", tt.reason, out)
		}
	}
}

func TestEmptyDeskNamesItsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"schemaVersion":1,"id":"e","title":"t","label":"DO NOT EXECUTE","cases":[]}`), 0o644))
	code, _, errOut := runCLI(t, "verify", "-out", filepath.Join(t.TempDir(), "out"), path)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "the desk holds no case: nothing in "+path+" is verified")
	assert.Contains(t, errOut, "no cases: "+path+" holds no case, so there is no evidence")
}

func TestReportFolderPlacement(t *testing.T) {
	good, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	root := t.TempDir()
	desks := filepath.Join(root, "desks")
	require.NoError(t, os.Mkdir(desks, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "a.json"), good, 0o644))
	require.NoError(t, os.Symlink(desks, filepath.Join(root, "link")))
	require.NoError(t, os.WriteFile(filepath.Join(root, "my-desk.json"), good, 0o644))
	busy := filepath.Join(root, "busy")
	require.NoError(t, os.Mkdir(busy, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(busy, "keep.txt"), []byte("mine"), 0o644))

	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"a report folder inside a walked folder would be read by the next run", []string{"verify", "-out", filepath.Join(desks, "out"), desks}, 2, "whose case files are read"},
		{"also when named like ..rep", []string{"verify", "-out", filepath.Join(desks, "..rep"), desks}, 2, "whose case files are read"},
		{"also when reached through a symbolic link", []string{"verify", "-out", filepath.Join(root, "link", "out"), desks}, 2, "whose case files are read"},
		{"a folder holding other files is never replaced", []string{"verify", "-out", busy, filepath.Join(root, "my-desk.json")}, 2, "holds other files (keep.txt)"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, tt.args...)
		assert.Equal(t, tt.code, code, "%s: %s", tt.reason, errOut)
		assert.Contains(t, errOut, tt.stderr, tt.reason)
	}
	entries, err := os.ReadDir(desks)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was written among the case files")

	// A desk saved next to the README, verified with the default folder.
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(root))
	defer os.Chdir(wd)
	code, out, errOut := runCLI(t, "verify", "my-desk.json")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "15 passed, 0 failed")
	_, err = os.Stat(filepath.Join(root, "reports", "private", "report.json"))
	assert.NoError(t, err, "the report is in reports/private beside the desk")
	code, _, errOut = runCLI(t, "verify", "my-desk.json")
	assert.Equal(t, 0, code, "a second run replaces the first: %s", errOut)
}

func TestRenderReadsLikeACaseFile(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	dir := filepath.Join(t.TempDir(), "out")
	code, text, errOut := runCLI(t, "verify", "-run", "^boundary-desk/", "-out", dir)
	require.Equal(t, 0, code, errOut)
	evidence, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)

	code, out, errOut := runCLI(t, "report", "render", filepath.Join(dir, "report.json"))
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, text, out, "render defaults to text, as verify prints it")

	hostile := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(hostile, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		return p
	}
	s := string(evidence)
	fifo := filepath.Join(hostile, "pipe.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	tests := []struct {
		reason string
		path   string
		args   []string
		stderr string
	}{
		{"a FIFO is never opened (no wait)", fifo, nil, "not a regular file (a FIFO)"},
		{"a device is never read", "/dev/zero", nil, "not a regular file (a device)"},
		{"a folder", hostile, nil, "a folder, not a report.json"},
		{"a file over the size limit", filepath.Join(dir, "report.json"), []string{"-max-file-size", "1000"}, "over the limit of 1000"},
		{"a second verdict key never wins", write("dup.json", strings.Replace(s, `"verdict": "pass",`, `"verdict": "pass", "verdict": "fail",`, 1)), nil, `duplicate key "verdict"`},
		{"a verdict that the counts contradict", write("lie.json", strings.Replace(s, `"verdict": "pass"`, `"verdict": "fail"`, 1)), nil, `the verdict is "fail" but 15 of 15 cases passed`},
		{"counts that do not add up", write("counts.json", strings.Replace(s, `"passed": 15`, `"passed": 14`, 1)), nil, "does not match what is listed"},
		{"not JSON", write("broken.json", s[:100]), nil, "not JSON"},
		{"nested beyond the limit", write("deep.json", strings.Repeat("[", 1<<20)), nil, "nesting deeper than"},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		go func() {
			defer close(done)
			args := append([]string{"report", "render"}, tt.args...)
			code, out, errOut = runCLI(t, append(args, tt.path)...)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: hung", tt.reason)
		}
		assert.Equal(t, 2, code, tt.reason)
		assert.Contains(t, errOut, tt.stderr, tt.reason)
		assert.Empty(t, out, tt.reason)
	}
}

// TestPreCommitHook checks the hook that lets authors validate desks on
// commit: pre-commit builds the module and runs its entry with the staged
// files as arguments, so the entry must be this command's validate, which
// takes file paths and exits non-zero on an invalid desk.
func TestPreCommitHook(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	require.NoError(t, err)
	hook := string(data)
	for _, want := range []string{"- id: deskcheck-validate", "entry: deskcheck validate", "language: golang", "pass_filenames: true", `files: (^|/)(cases|desks)/.*\.json$`} {
		assert.Contains(t, hook, want)
	}
	desks := bundledDesks(t)
	code, _, _ := runCLI(t, "validate", "../../"+desks[0].Path, "../../"+desks[len(desks)-1].Path)
	assert.Equal(t, 0, code, "validate takes the file names pre-commit passes")
	code, _, _ = runCLI(t, "validate", "../../cases/boundary-desk.json", "../../verifier/testdata/invalid/wrong-type.json")
	assert.Equal(t, 2, code, "and fails the commit on an invalid one")
}
