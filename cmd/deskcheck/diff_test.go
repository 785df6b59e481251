package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// editJSON rewrites a JSON file through edit.
func editJSON(t *testing.T, from, to string, edit func(doc map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	edit(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, out, 0o644))
}

// diffReports writes the report of the bundled desks (the base) and of a
// copy of them with one expectation changed and one case removed (the
// head), and returns their paths.
func diffReports(t *testing.T) (base, head string) {
	t.Helper()
	dir := t.TempDir()
	code, _, errOut := runCLI(t, "verify", "-out", filepath.Join(dir, "base"))
	require.Equal(t, 0, code, errOut)
	desks := filepath.Join(dir, "head-desks")
	require.NoError(t, os.Mkdir(desks, 0o755))
	var paths []string
	for _, d := range bundledDesks(t) {
		to := filepath.Join(desks, filepath.Base(d.Path))
		data, err := os.ReadFile(filepath.Join("../..", d.Path))
		require.NoError(t, err)
		if d.Name == "boundary-desk" {
			// Edited as text, so that nothing else of the desk changes.
			data, err = os.ReadFile(mutatedBundled(t, t.TempDir()))
			require.NoError(t, err)
			k := -1
			for i, id := range d.Cases {
				if id == "boundary-approval-does-not-persist" {
					k = i
				}
			}
			require.GreaterOrEqual(t, k, 0)
			c := gjson.GetBytes(data, "cases."+strconv.Itoa(k))
			end := c.Index + len(c.Raw)
			rest := strings.TrimLeft(string(data[end:]), " \t\r\n")
			require.True(t, strings.HasPrefix(rest, ","), "the case is not the last")
			data = append(append([]byte{}, data[:c.Index]...), strings.TrimLeft(rest[1:], " \t\r\n")...)
		}
		require.NoError(t, os.WriteFile(to, data, 0o644))
		paths = append(paths, to)
	}
	code, _, errOut = runCLI(t, append([]string{"verify", "-out", filepath.Join(dir, "head")}, paths...)...)
	require.Equal(t, 1, code, errOut)
	return filepath.Join(dir, "base", "report.json"), filepath.Join(dir, "head", "report.json")
}

// TestDiffBundled: the diff of the two reports names exactly the changed
// expectation and the removed case, and exits 1 for the case that now
// fails.
func TestDiffBundled(t *testing.T) {
	base, head := diffReports(t)
	unchanged := bundledCaseCount(t) - 2
	code, out, errOut := runCLI(t, "diff", base, head)
	assert.Equal(t, 1, code, errOut)
	var cases []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && strings.Contains(line, "boundary-desk/") {
			cases = append(cases, strings.Join(strings.Fields(line), " "))
		}
	}
	assert.Equal(t, []string{
		"pass→fail boundary-desk/boundary-deny-one-call (expected prompts: 1 → 2)",
		"removed boundary-desk/boundary-approval-does-not-persist",
	}, cases, "exactly the two changes")
	assert.Contains(t, out, "cases: 1 pass→fail, 0 fail→pass, 0 stimulus changed, 0 expectation changed, 0 new, 1 removed, "+thousandsOf(unchanged)+" unchanged\n")
	assert.Regexp(t, `(?m)^  denial propagation +\d+/\d+ → \d+/\d+`, out, "each dimension before and after")
	assert.True(t, strings.HasSuffix(out, "diff REGRESSION — 1 case went from pass to fail · 1 pass→fail, 0 fail→pass, 0 stimulus changed, 0 expectation changed, 0 new, 1 removed, "+thousandsOf(unchanged)+" unchanged\n"), out)

	code, out, _ = runCLI(t, "diff", "-format", "json", base, head)
	assert.Equal(t, 1, code)
	var d struct {
		Cases []struct {
			ID, Change string
		}
		Regressed bool
	}
	require.NoError(t, json.Unmarshal([]byte(out), &d))
	assert.Len(t, d.Cases, 2)
	assert.True(t, d.Regressed)

	code, out, _ = runCLI(t, "diff", "-format", "github", base, head)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `(?m)^::error file=[^,]*boundary-desk\.json,line=\d+,col=\d+,title=pass→fail boundary-desk/boundary-deny-one-call`, out)
	assert.Regexp(t, `(?m)^::warning file=cases/boundary-desk\.json,title=removed boundary-desk/boundary-approval-does-not-persist`, out)

	code, out, _ = runCLI(t, "diff", "-format", "markdown", base, head)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "<tr><td>pass→fail</td><td><code>boundary-desk/boundary-deny-one-call</code></td><td>pass</td><td>fail</td><td>expected prompts: 1 → 2</td></tr>")

	code, out, _ = runCLI(t, "diff", head, head)
	assert.Equal(t, 0, code, "nothing changed")
	assert.Contains(t, out, "diff no regression · 0 pass→fail")

	code, _, _ = runCLI(t, "diff", head, base)
	assert.Equal(t, 0, code, "going back is no regression: a fail→pass and a new case")
}

func thousandsOf(n int) string {
	s := ""
	for n >= 1000 {
		s = fmt.Sprintf(",%03d", n%1000) + s
		n /= 1000
	}
	return strconv.Itoa(n) + s
}

// TestDiffRefusesIncomparable: reports of different case schemas or host
// releases are refused (exit 2, saying why) unless -force.
func TestDiffRefusesIncomparable(t *testing.T) {
	base, head := diffReports(t)
	other := filepath.Join(t.TempDir(), "report.json")
	editJSON(t, head, other, func(doc map[string]any) {
		p := doc["provenance"].(map[string]any)
		p["caseSchemaSha256"] = strings.Repeat("ab", 32)
		p["hosts"].([]any)[0].(map[string]any)["reference"] = "another release"
	})
	code, _, errOut := runCLI(t, "diff", base, other)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "the reports are not comparable: their case schemas differ")
	assert.Contains(t, errOut, "in the base and another release in the head")
	assert.Contains(t, errOut, "(-force compares them anyway)")

	code, out, errOut := runCLI(t, "diff", "-force", base, other)
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "comparing anyway (-force)")
	assert.Contains(t, out, "pass→fail")

	for _, args := range [][]string{
		{"diff", base},
		{"diff", "-format", "html", base, head},
		{"diff", base, filepath.Join(t.TempDir(), "missing.json")},
		{"diff", "-max-annotations", "0", base, head},
	} {
		code, _, errOut := runCLI(t, args...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
	}
}

// TestDiffAndRenderRefuseContradictions: a report that lists one case
// twice, with the other verdict, is refused by diff and report render
// (exit 2), saying where.
func TestDiffAndRenderRefuseContradictions(t *testing.T) {
	base, head := diffReports(t)
	twice := filepath.Join(t.TempDir(), "report.json")
	editJSON(t, head, twice, func(doc map[string]any) {
		cases := doc["cases"].([]any)
		var pass, fail int = -1, -1
		for i, c := range cases {
			switch c.(map[string]any)["status"] {
			case "pass":
				if pass < 0 {
					pass = i
				}
			case "fail":
				fail = i
			}
		}
		require.True(t, pass >= 0 && fail >= 0)
		// The failing case again, in the place of a passing one, which
		// keeps the counts: the same id then passes and fails.
		dup := map[string]any{}
		for k, v := range cases[pass].(map[string]any) {
			dup[k] = v
		}
		f := cases[fail].(map[string]any)
		dup["desk"], dup["id"] = f["desk"], f["id"]
		cases[pass] = dup
	})
	for _, args := range [][]string{{"diff", base, twice}, {"diff", twice, base}, {"report", "render", twice}} {
		code, out, errOut := runCLI(t, args...)
		assert.Equal(t, 2, code, "%v: %s", args, out)
		assert.Regexp(t, `not deskcheck evidence: /cases/\d+: case boundary-desk/boundary-deny-one-call is listed twice \(first at /cases/\d+\)`, errOut, "%v", args)
	}
}
