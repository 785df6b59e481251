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
)

// TestReportsCarryHostValues: every format shows a host's lone surrogate
// as a visible escape and never as U+FFFD, report.json keeps it as its
// escape and an exact integer as written, and report render gives the
// same output from the saved evidence.
func TestReportsCarryHostValues(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	const desk = "testdata/values/values-desk.json"
	dir := t.TempDir()
	outputs := map[string]string{}
	for _, f := range []string{"text", "markdown", "junit", "html", "github", "json"} {
		code, out, errOut := runCLI(t, "verify", desk, "-format", f, "-out", dir)
		require.Equal(t, 1, code, errOut)
		outputs[f] = out
		assert.NotContains(t, out, "\ufffd", f)
		assert.NotContains(t, strings.ToLower(out), `\ufffd`, f)
		assert.NotContains(t, out, "\xed", "%s: no raw surrogate bytes", f)
		assert.Contains(t, out, `\udc42`, f)
		assert.Contains(t, out, "9007199254740993", f)
	}
	assert.Contains(t, outputs["text"], `observed "Tool \"n\ud800Ame\" is blocked by tool policy.\nReason: \udc42ABC"`)
	assert.Contains(t, outputs["text"], `[0][0]["n"]: expected 9007199254740992, observed 9007199254740993`)

	evidence := filepath.Join(dir, "report.json")
	saved, err := os.ReadFile(evidence)
	require.NoError(t, err)
	assert.Contains(t, string(saved), `"errorIncludes":"Tool \"n\ud800Ame\" is blocked by tool policy.\nReason: \udc42ABC"`)
	assert.Contains(t, string(saved), `{"id":"o-\udc42A","n":9007199254740993}`)
	assert.Contains(t, string(saved), `"policyCode":"P\ud800é"`)
	for _, f := range []string{"text", "markdown", "junit", "html", "github", "json"} {
		code, out, errOut := runCLI(t, "report", "render", evidence, "-format", f)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, outputs[f], out, "re-rendering the saved evidence gives the same %s", f)
	}
}

// TestObserveProposesWhatValidates: the blocks observe prints for a desk
// holding lone surrogates, exact integers and a policy code that is a
// string, pasted over the authored ones, validate and verify.
func TestObserveProposesWhatValidates(t *testing.T) {
	const desk = "testdata/values/values-desk.json"
	data, err := os.ReadFile(desk)
	require.NoError(t, err)
	_, out, errOut := runCLI(t, "observe", desk)
	blocks := regexp.MustCompile(`(?ms)^"expected": (\{.*?^\})`).FindAllStringSubmatch(out, -1)
	require.Len(t, blocks, 3, "%s%s", out, errOut)
	// Paste from the last case back, so that earlier offsets hold.
	text := string(data)
	for i := len(blocks) - 1; i >= 0; i-- {
		old := gjson.Get(text, fmt.Sprintf("cases.%d.expected", i))
		require.True(t, old.Exists())
		text = text[:old.Index] + blocks[i][1] + text[old.Index+len(old.Raw):]
	}
	pasted := filepath.Join(t.TempDir(), "values-desk.json")
	require.NoError(t, os.WriteFile(pasted, []byte(text), 0o644))
	code, _, errOut := runCLI(t, "validate", pasted)
	require.Equal(t, 0, code, errOut)
	code, out, errOut = runCLI(t, "verify", pasted, "-out", t.TempDir())
	require.Equal(t, 0, code, "%s%s", out, errOut)
	assert.Contains(t, out, "3 passed, 0 failed")
}

// TestValuesInvalidInputExitsTwo: gateway arguments holding a lone
// surrogate and an empty step principal are invalid input, for validate
// and for verify alike: exit 2 at the value's file:line:col and pointer.
func TestValuesInvalidInputExitsTwo(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"testdata/values/surrogate-in-arguments.json", `testdata/values/surrogate-in-arguments.json:14:108: error: a string of the arguments holds an unpaired surrogate (\ud800)`},
		{"testdata/values/empty-step-principal.json", `testdata/values/empty-step-principal.json:14:102: error: String length must be greater than or equal to 1 (/cases/0/given/steps/0/principal)`},
	} {
		for _, cmd := range [][]string{{"validate", tt.path}, {"verify", tt.path, "-out", t.TempDir()}} {
			code, out, errOut := runCLI(t, cmd...)
			assert.Equal(t, 2, code, "%v", cmd)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want, "%v", cmd)
		}
	}
	_, _, errOut := runCLI(t, "validate", "testdata/values/empty-step-principal.json")
	assert.Contains(t, errOut, "(/cases/0/given/steps/0/principal)")
	_, _, errOut = runCLI(t, "validate", "testdata/values/surrogate-in-arguments.json")
	assert.Contains(t, errOut, "(/cases/0/given/steps/0/request/arguments/text)")
}
