package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// acknowledgedCase is a desk of one bundled case that acknowledges one
// warning, and nothing else to warn of: the desk, the same without the
// acknowledgement, and the warning's name and reason.
func acknowledgedCase(t *testing.T, dir string) (acked, bare, name, reason string) {
	t.Helper()
	for _, d := range bundledDesks(t) {
		var desk map[string]any
		require.NoError(t, json.Unmarshal(deskData(t, d), &desk))
		delete(desk, "acknowledge")
		for _, c := range desk["cases"].([]any) {
			ack, _ := c.(map[string]any)["acknowledge"].(map[string]any)
			if len(ack) != 1 {
				continue
			}
			for n, r := range ack {
				name, reason = n, r.(string)
			}
			desk["cases"] = []any{c}
			data, err := json.MarshalIndent(desk, "", "  ")
			require.NoError(t, err)
			acked = filepath.Join(dir, "acked.json")
			require.NoError(t, os.WriteFile(acked, data, 0o600))
			if code, _, _ := runCLI(t, "validate", "-fail-on-warn", acked); code != 0 {
				continue
			}
			delete(c.(map[string]any), "acknowledge")
			data, err = json.MarshalIndent(desk, "", "  ")
			require.NoError(t, err)
			bare = filepath.Join(dir, "bare.json")
			require.NoError(t, os.WriteFile(bare, data, 0o600))
			return acked, bare, name, reason
		}
	}
	t.Fatal("no bundled case acknowledges one warning and passes -fail-on-warn alone")
	return
}

func TestFailOnWarn(t *testing.T) {
	dir := t.TempDir()
	_, skeleton, _ := runCLI(t, "new", all.Registry().Names()[0])
	fresh := filepath.Join(dir, "fresh.json")
	require.NoError(t, os.WriteFile(fresh, []byte(skeleton), 0o600))
	_, _, errOut := runCLI(t, "validate", fresh)
	placeholders := strings.Count(errOut, "[placeholder]")
	require.Positive(t, placeholders, "a fresh skeleton has placeholders")
	// A desk of one case that keeps one deliberate warning, acknowledged.
	acked, bare, name, reason := acknowledgedCase(t, dir)

	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"a fresh skeleton passes validate", []string{"validate", fresh}, 0, "[placeholder]"},
		{"but not -fail-on-warn: placeholders count", []string{"validate", "-fail-on-warn", fresh}, 1, fmt.Sprintf("%d warnings not acknowledged", placeholders)},
		{"verify -fail-on-warn fails a passing desk with a warning", []string{"verify", "-fail-on-warn", "-out", "OUT", bare}, 1, "1 warning not acknowledged"},
		{"verify without it passes", []string{"verify", "-out", "OUT", bare}, 0, "[" + name + "]"},
		{"an acknowledged warning passes -fail-on-warn", []string{"validate", "-fail-on-warn", acked}, 0, "acknowledged " + name + ": " + reason},
		{"and verify too", []string{"verify", "-fail-on-warn", "-out", "OUT", acked}, 0, "acknowledged " + name},
		{"an error is still exit 2", []string{"validate", "-fail-on-warn", "../../verifier/testdata/invalid/wrong-type.json"}, 2, "error:"},
		{"-format github annotates the warning with its name", []string{"verify", "-format", "github", "-out", "OUT", bare}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			args := append([]string{}, tt.args...)
			for i, a := range args {
				if a == "OUT" {
					args[i] = filepath.Join(t.TempDir(), "out")
				}
			}
			code, out, errOut := runCLI(t, args...)
			assert.Equal(t, tt.code, code, errOut)
			assert.Contains(t, errOut, tt.stderr)
			if strings.Contains(tt.reason, "github") {
				assert.Contains(t, out, "::warning file="+bare)
				assert.Contains(t, out, "title=deskcheck warning "+name+"::")
			}
		})
	}
	_, out, errOut := runCLI(t, "verify", "-format", "github", "-out", filepath.Join(t.TempDir(), "out"), acked)
	assert.NotContains(t, out, "::warning", "an acknowledged warning takes no annotation of the budget")
	assert.Equal(t, 1, strings.Count(errOut, "acknowledged "+name+": "+reason), "it is said once, as acknowledged")
}

// TestPreCommitStrictHook: the strict hook fails a commit on a warning, the
// plain one does not, and the documentation says how to see warnings.
func TestPreCommitStrictHook(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	require.NoError(t, err)
	hook := string(data)
	assert.Contains(t, hook, "- id: deskcheck-validate-strict")
	assert.Contains(t, hook, "entry: deskcheck validate -fail-on-warn")
	assert.Contains(t, hook, "verbose: true")
	_, readme := documentation(t)
	assert.True(t, strings.Contains(readme, "verbose: true"), "the README says verbose: true")
	assert.True(t, strings.Contains(readme, "deskcheck-validate-strict"), "the README offers the strict hook")
	entry := func(id string) []string {
		at := strings.Index(hook, "- id: "+id+"\n")
		require.GreaterOrEqual(t, at, 0)
		rest := hook[at:]
		e := rest[strings.Index(rest, "entry: ")+len("entry: "):]
		return strings.Fields(e[:strings.IndexByte(e, '\n')])[1:]
	}
	_, skeleton, _ := runCLI(t, "new", all.Registry().Names()[0])
	fresh := filepath.Join(t.TempDir(), "fresh.json")
	require.NoError(t, os.WriteFile(fresh, []byte(skeleton), 0o600))
	code, _, _ := runCLI(t, append(entry("deskcheck-validate"), fresh)...)
	assert.Equal(t, 0, code, "the plain hook passes a skeleton")
	code, _, _ = runCLI(t, append(entry("deskcheck-validate-strict"), fresh)...)
	assert.Equal(t, 1, code, "the strict hook does not")
}

func TestHelpListsEveryWarning(t *testing.T) {
	_, out, _ := runCLI(t, "help", "validate")
	for _, name := range verifier.WarningNames(all.Registry()) {
		assert.Contains(t, out, "  "+name+" ", "help validate names %s", name)
	}
}

// everyWarningDir holds the desks that raise the engine's warnings a desk
// can hold, each acknowledged; each family's desk that raises every warning
// its scenarios can is beside the family (all.EveryWarningDesk).
const everyWarningDir = "testdata/every-warning"

// everyWarningFiles are the every-warning desks: the engine's, then each
// family's, in the registry's order.
func everyWarningFiles(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(everyWarningDir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, f := range all.Registry().Families() {
		p := filepath.Join("..", "..", filepath.FromSlash(all.EveryWarningDesk(f)))
		require.FileExists(t, p, "family %s raises every warning of its scenarios in a desk of its own", f.Host.Name)
		paths = append(paths, p)
	}
	return paths
}

// unacknowledgeable are the warnings no acknowledge key can meet: a
// placeholder is to be replaced, a skipped file is never read, an
// unused acknowledgement is about the acknowledgements themselves, and
// checks are skipped only in a file with errors.
var unacknowledgeable = []string{"placeholder", "skipped", "unused-acknowledgement", "checks-skipped"}

// TestEveryWarningCanBeAcknowledged: the every-warning desks raise every
// warning lint knows but the unacknowledgeable, each is acknowledged by
// its name, and validate -fail-on-warn passes them.
func TestEveryWarningCanBeAcknowledged(t *testing.T) {
	code, _, errOut := runCLI(t, append([]string{"validate", "-fail-on-warn"}, everyWarningFiles(t)...)...)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, errOut, ": warning:")
	got := map[string]bool{}
	for _, line := range strings.Split(errOut, "\n") {
		if _, rest, ok := strings.Cut(line, ": acknowledged "); ok {
			name, _, _ := strings.Cut(rest, ":")
			got[name] = true
		}
	}
	for _, name := range verifier.WarningNames(all.Registry()) {
		if slices.Contains(unacknowledgeable, name) {
			continue
		}
		assert.True(t, got[name], "no every-warning desk raises %s", name)
	}
}

// TestAcknowledgedWarningsInCIFormats: in -format github an acknowledged
// warning is a ::notice, never a ::warning, and validate's headline counts
// it apart; in SARIF its result is suppressed with the reason; and verify
// and report render of one run print the same SARIF and annotations.
func TestAcknowledgedWarningsInCIFormats(t *testing.T) {
	files := everyWarningFiles(t)
	// What the text output says acknowledged, a line each on stderr.
	code, _, text := runCLI(t, append([]string{"validate"}, files...)...)
	require.Equal(t, 0, code, text)
	ack := strings.Count(text, ": acknowledged ")
	require.Greater(t, ack, reports.GitHubLimit, "more than GitHub shows of one kind")
	shown := reports.GitHubLimit - 1

	code, out, errOut := runCLI(t, append([]string{"validate", "-format", "github"}, files...)...)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "::warning")
	assert.Equal(t, shown, strings.Count(out, "::notice file="), "as many notices as leave room for one saying how many more")
	assert.Contains(t, out, "title=deskcheck acknowledged label::the label should warn readers")
	assert.Contains(t, out, "%0Aacknowledged: the label is short on purpose")
	assert.Regexp(t, fmt.Sprintf(`%d more acknowledged warnings in \d+ files not annotated`, ack-shown), out)
	assert.Regexp(t, fmt.Sprintf(`(?m)^validate PASS — %d files, 0 errors, 0 warnings, %d acknowledged$`, len(files), ack), out)

	code, out, errOut = runCLI(t, append([]string{"validate", "-format", "sarif"}, files...)...)
	require.Equal(t, 0, code, errOut)
	checkSARIF(t, out)
	results := gjson.Get(out, "runs.0.results")
	require.Equal(t, int64(ack), results.Get("#").Int())
	results.ForEach(func(_, r gjson.Result) bool {
		s := r.Get("suppressions.0")
		assert.Equal(t, "inSource", s.Get("kind").String(), r.Raw)
		assert.False(t, s.Get("status").Exists(), "a suppression without a status is accepted")
		assert.NotEmpty(t, s.Get("justification").String(), r.Raw)
		return true
	})

	dir := t.TempDir()
	checked := 0
	for _, desk := range everyWarningDesks(t) {
		for _, format := range []string{"sarif", "github"} {
			outDir := filepath.Join(dir, filepath.Base(desk), format)
			code, verified, errOut := runCLI(t, "verify", "-format", format, "-out", outDir, desk)
			require.Contains(t, []int{0, 1}, code, errOut)
			name := firstAcknowledged(t, errOut)
			code, rendered, errOut := runCLI(t, "report", "render", "-format", format, filepath.Join(outDir, "report.json"))
			require.Equal(t, 0, code, errOut)
			// Past GitHub's budget the two count what was left out alike
			// and say where else to look, each its own place; every other
			// line is the same.
			assert.Equal(t, overflowUnplaced(verified), overflowUnplaced(rendered), "verify -format %s and report render -format %s of one run of %s", format, format, desk)
			assert.Contains(t, rendered, name, desk)
			checked++
		}
	}
	assert.Positive(t, checked)
}

// overflowUnplaced is a github-format output whose notice of what
// GitHub's budget left out keeps its counts but not where the rest is.
func overflowUnplaced(out string) string {
	var keep []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.Contains(l, "more than GitHub shows") {
			l, _, _ = strings.Cut(l, "; every one is in ")
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "")
}

// everyWarningDesks are the every-warning desks that hold cases.
func everyWarningDesks(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range everyWarningFiles(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		if gjson.GetBytes(data, "cases.#").Int() > 0 {
			out = append(out, p)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// firstAcknowledged is the name of the first warning said acknowledged in
// a command's standard error.
func firstAcknowledged(t *testing.T, errOut string) string {
	t.Helper()
	m := regexp.MustCompile(`: acknowledged ([a-z-]+): `).FindStringSubmatch(errOut)
	require.NotNil(t, m, "an acknowledged warning is said:\n%s", errOut)
	return m[1]
}

// TestNoMatchIsSaidFirst: when -run selects no case, that is the first
// line, before the warnings of the files read.
func TestNoMatchIsSaidFirst(t *testing.T) {
	desk := everyWarningDesks(t)[0]
	_, _, errOut := runCLI(t, "validate", desk)
	name := firstAcknowledged(t, errOut)
	code, _, errOut := runCLI(t, "verify", "-out", "none", "-run", "nomatch", desk)
	assert.Equal(t, 2, code)
	first, rest, _ := strings.Cut(errOut, "\n")
	assert.True(t, strings.HasPrefix(first, "deskcheck: no cases: no case of "), first)
	assert.Contains(t, first, `matches -run "nomatch"`)
	assert.Contains(t, rest, "acknowledged "+name)
}
