package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

// outsideModelDesk is the desk of cases outside the newest family's
// model, outsideModelID its id.
var (
	outsideModelID   = hostNewest + "-outside-model"
	outsideModelDesk = outsideModelID + ".json"
)

// A case the model does not read (a shell statement, a count of 9,000,
// groups nested 1,001 deep) is an error to deskcheck and a note here: its
// cases load and nothing else is excused.
func TestOutsideTheModelIsANote(t *testing.T) {
	var stderr bytes.Buffer
	cases, code := loadCases([]string{filepath.Join("testdata", outsideModelDesk)}, "", verifier.Limits{}, &stderr)
	require.Equal(t, exitPass, code, stderr.String())
	assert.Len(t, cases, 3)
	assert.Equal(t, 3, strings.Count(stderr.String(), ": note: "), stderr.String())
	assert.NotContains(t, stderr.String(), ": error: ")
	for _, c := range cases {
		assert.NotEmpty(t, c.OutsideModel(), c.ID)
	}

	// Another error in the same desk still refuses it.
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", outsideModelDesk))
	require.NoError(t, err)
	bad := strings.Replace(string(data), `"expected": {"decision": "ask_user", "outcome": "asks"}`, `"expected": {"decision": "ask_user", "outcome": "asks", "interactive": 1}`, 1)
	require.NotEqual(t, string(data), bad)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "d.json"), []byte(bad), 0o644))
	stderr.Reset()
	_, code = loadCases([]string{filepath.Join(dir, "d.json")}, "", verifier.Limits{}, &stderr)
	assert.Equal(t, exitInvalid, code, stderr.String())
	assert.Contains(t, stderr.String(), ": error: ")
}

// On the real engine such a case gets the real code's verdict alone.
func TestOutsideTheModelIsJudgedOnTheRealCode(t *testing.T) {
	requireFamily(t, hostNewest, "0.61.0")
	code, out, errOut := runCmd(t, nil, "verify", "-host", hostNewest+"@0.61.0", "-out", "none", filepath.Join("testdata", outsideModelDesk))
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "PASS  "+outsideModelID+"/shell-if\n      holds on the real code\n      outside the model, judged on the real code alone: shell command")
	assert.Contains(t, out, "PASS  "+outsideModelID+"/count-over-eight-thousand-allows\n      holds on the real code\n      outside the model, judged on the real code alone: user.toml: argsPattern")
	assert.Contains(t, out, "FAIL  "+outsideModelID+"/deep-nesting-written-wrong\n      does not hold on the real code\n")
	assert.Contains(t, out, hostNewest+"@0.61.0: 3 cases: 2 hold on the real code, 1 do not hold, 0 model and real code disagree, 0 not applicable, 0 could not run")
}
