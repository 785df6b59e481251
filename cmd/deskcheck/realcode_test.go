package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// TestRealCodeRenderAndDiff: a report.json with the model-against-real-
// code section (as deskcheck-host verify -out writes it) renders in every
// format with the section, diffs against itself with no change, and is
// refused with exit 2, naming where, when the section contradicts itself.
func TestRealCodeRenderAndDiff(t *testing.T) {
	data, err := os.ReadFile("../../reports/testdata/realcode.json")
	require.NoError(t, err)
	source := gjson.GetBytes(data, "realCode.0.host.source").String()
	require.NotEmpty(t, source)
	dir := t.TempDir()
	good := filepath.Join(dir, "report.json")
	require.NoError(t, os.WriteFile(good, data, 0o600))
	for _, f := range []string{"text", "markdown", "html", "junit", "github", "sarif", "json"} {
		code, out, errOut := runCLI(t, "report", "render", "-format", f, good)
		require.Equal(t, exitPass, code, "%s: %s", f, errOut)
		want := map[string]string{"junit": "real host " + source, "github": "model against real code", "sarif": "real-code/model-and-real-code-disagree", "json": `"realCode"`}[f]
		if want == "" {
			want = "Model against real code"
		}
		assert.Contains(t, out, want, f)
	}
	code, out, errOut := runCLI(t, "diff", good, good)
	require.Equal(t, exitPass, code, errOut)
	assert.NotContains(t, out, "real code", "nothing changed on the real code")

	twice := strings.Replace(string(data), `"cases": [
        {
          "desk": "boundary-desk",
          "id": "boundary-approval-does-not-persist",`, `"cases": [
        {
          "desk": "boundary-desk",
          "id": "boundary-auto-approve-mode",`, 1)
	require.NotEqual(t, string(data), twice, "the fixture's first real-code case is where the test expects it")
	bad := filepath.Join(dir, "twice.json")
	require.NoError(t, os.WriteFile(bad, []byte(twice), 0o600))
	for _, args := range [][]string{{"report", "render", bad}, {"diff", good, bad}, {"diff", bad, good}} {
		code, _, errOut := runCLI(t, args...)
		assert.Equal(t, exitInvalid, code, args)
		assert.Contains(t, errOut, "/realCode/0/cases/1: case boundary-desk/boundary-auto-approve-mode is listed twice on "+source+" (first at /realCode/0/cases/0)", args)
	}
}
