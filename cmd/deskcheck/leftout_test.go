package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

// manyProblems writes a desk of n copies of the first scenario's template
// case, each expecting a key no scenario observes: n errors in one file.
func manyProblems(t *testing.T, n int) string {
	t.Helper()
	name := all.Registry().Names()[0]
	code, out, errOut := runCLI(t, "new", name)
	require.Equal(t, 0, code, errOut)
	var desk map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &desk))
	template := desk["cases"].([]any)[0].(map[string]any)
	var cases []any
	for i := range n {
		c := map[string]any{}
		for k, v := range template {
			c[k] = v
		}
		c["id"] = fmt.Sprintf("case-%d", i)
		expected := map[string]any{}
		for k, v := range template["expected"].(map[string]any) {
			expected[k] = v
		}
		expected["zzzNotObserved"] = 1
		c["expected"] = expected
		cases = append(cases, c)
	}
	desk["cases"] = cases
	data, err := json.Marshal(desk)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "many.json")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// TestProblemsLeftOutAreCounted: a file with more problems than its list
// holds is counted whole in validate's headline, its left-out problems
// are counted in GitHub's notice instead of becoming an annotation, and
// SARIF gives their count as a note, not as an error at line 1.
func TestProblemsLeftOutAreCounted(t *testing.T) {
	path := manyProblems(t, 200)

	code, out, errOut := runCLI(t, "validate", path)
	assert.Equal(t, 2, code)
	text := out + errOut
	assert.Equal(t, 100, len(regexp.MustCompile(`(?m)^.*zzzNotObserved.*$`).FindAllString(text, -1)), "the text lists the first 100")
	// The cases fail the schema, so lint reads the desk alone: its four
	// placeholders are listed after the errors, and one line says which
	// checks were skipped.
	assert.Contains(t, text, "… and 104 more")
	assert.Contains(t, text, "later checks (whole numbers, hosts, lint) were skipped for 200 cases")

	code, out, _ = runCLI(t, "validate", "-format", "github", path)
	assert.Equal(t, 2, code)
	assert.Regexp(t, `(?m)^validate FAIL — 1 file, 200 errors, 5 warnings$`, out)
	assert.NotContains(t, out, "… and 100 more", "a count is no annotation")
	assert.Equal(t, 10, len(regexp.MustCompile(`(?m)^::error `).FindAllString(out, -1)))
	assert.Contains(t, out, "190 more errors and 4 more warnings in 1 file not annotated")
	assert.Contains(t, out, "counts the rest (-max-diagnostics raises how many)")

	code, out, _ = runCLI(t, "validate", "-format", "sarif", path)
	assert.Equal(t, 2, code)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &log))
	require.Len(t, log.Runs, 1)
	more := 0
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "lint/more" {
			more++
			assert.Equal(t, "note", r.Level)
			assert.Contains(t, r.Message.Text, "not listed: 100 errors, 4 warnings and 0 acknowledged warnings")
		}
	}
	assert.Equal(t, 1, more)
}

// TestRenderOfACaseFileSaysSo: report render given a desk instead of a
// report names a bounded number of problems, each bounded, and says what
// the file looks like.
func TestRenderOfACaseFileSaysSo(t *testing.T) {
	path := manyProblems(t, 2000)
	code, out, errOut := runCLI(t, "report", "render", path)
	assert.Equal(t, 2, code, out)
	assert.Less(t, len(errOut), 20*400, "the error is bounded whatever the file holds")
	assert.Contains(t, errOut, "this looks like a case file")
	assert.Regexp(t, `and \d+ more`, errOut)
}

// TestHostTwiceIsRefused: two -host values for one host are a usage
// error, not the last one silently winning; the same value twice is one.
func TestHostTwiceIsRefused(t *testing.T) {
	for _, f := range all.Registry().Families() {
		if len(f.Host.Releases) < 2 {
			continue
		}
		rs := f.Host.Releases
		a, b := f.Host.Name+"@"+rs[0].Version, f.Host.Name+"@"+rs[len(rs)-1].Version
		code, _, errOut := runCLI(t, "verify", "-out", "none", "-host", a, "-host", b)
		assert.Equal(t, 2, code, errOut)
		assert.Contains(t, errOut, "-host names "+f.Host.Name+" once")
		_, _, errOut = runCLI(t, "verify", "-out", "none", "-run", "^no such case$", "-host", b, "-host", b)
		assert.NotContains(t, errOut, "-host names", "the same release twice is one")
	}
}

// TestRenderCountsWhatTheRunLeftOut: a run whose files listed fewer
// problems than they had writes the counts into report.json, so that
// report render's GitHub and SARIF outputs say what verify's said: the
// left-out acknowledged warnings in the notice, not the count's own line
// as one more annotation.
func TestRenderCountsWhatTheRunLeftOut(t *testing.T) {
	dir := t.TempDir()
	// Two of the bundled desks acknowledge warnings, ten between them.
	desks, err := filepath.Glob(filepath.Join("..", "..", "cases", "*.json"))
	require.NoError(t, err)
	for _, format := range []string{"github", "sarif"} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(dir, format)
			code, verified, errOut := runCLI(t, append([]string{"verify", "-max-diagnostics", "1", "-format", format, "-out", out}, desks...)...)
			require.Equal(t, 0, code, errOut)
			code, rendered, errOut := runCLI(t, "report", "render", "-format", format, filepath.Join(out, "report.json"))
			require.Equal(t, 0, code, errOut)
			if format == "github" {
				assert.Regexp(t, `(?m)^::notice title=deskcheck%3A more than GitHub shows::8 more acknowledged warnings in 2 files not annotated`, verified)
				// Where the rest are differs: the run names its folder's
				// summary, the render the file it read.
				where := regexp.MustCompile(`every one is in [^\n]*, which`)
				verified = where.ReplaceAllString(verified, "every one is in …, which")
				rendered = where.ReplaceAllString(rendered, "every one is in …, which")
				assert.NotContains(t, rendered, "… and 3 more", "a count is no annotation")
			} else {
				assert.Contains(t, rendered, "3 acknowledged warnings (-max-diagnostics", "SARIF gives the count as a note")
			}
			assert.Equal(t, verified, rendered)
		})
	}
}
