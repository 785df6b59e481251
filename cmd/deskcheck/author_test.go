package main

import (
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden %s is missing: run go test ./cmd/deskcheck -update to create the goldens", name)
	assert.Equal(t, string(want), got, "golden %s differs; review and run with -update", name)
}

// TestExplainAndObserveGoldens compares explain and observe with one golden
// per bundled desk, testdata/<command>/<desk file name>.txt, so that a new
// desk adds its own goldens and leaves the others as they are. Run without
// a path, each command prints the desks' outputs in file order, a blank
// line between them.
func TestExplainAndObserveGoldens(t *testing.T) {
	desks := bundledDesks(t)
	for _, cmd := range []string{"explain", "observe"} {
		var each []string
		for _, d := range desks {
			code, out, errOut := runCLI(t, cmd, "../../"+d.Path)
			require.Equal(t, 0, code, errOut)
			t.Run(cmd+"/"+d.Name, func(t *testing.T) {
				golden(t, cmd+"/"+d.Name+".txt", out)
			})
			each = append(each, out)
		}
		code, out, errOut := runCLI(t, cmd)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, strings.Join(each, "\n"), out, "%s of the bundled suite is that of each bundled desk in turn", cmd)
		// A golden left behind by a desk no longer bundled is compared with
		// nothing; it would only mislead.
		bundled := map[string]bool{}
		for _, d := range desks {
			bundled[d.Name+".txt"] = true
		}
		names, err := filepath.Glob(filepath.Join("testdata", cmd, "*"))
		require.NoError(t, err)
		for _, name := range names {
			assert.True(t, bundled[filepath.Base(name)], "%s belongs to no bundled desk; delete it", name)
		}
		code, out, errOut = runCLI(t, cmd, "../../reports/testdata/boundary-desk-mutated.json")
		require.Equal(t, 0, code, errOut)
		golden(t, cmd+"-failing.txt", out)
	}
}

func TestObserveNamesDifferences(t *testing.T) {
	_, out, _ := runCLI(t, "observe", "-run", "deny-one-call", "../../reports/testdata/boundary-desk-mutated.json")
	assert.Contains(t, out, "differences from the authored block:\n  ~ prompts: authored 2, observed 1 (exact)\n")
	// A key the author leaves out is shown as observed: the first string
	// a bundled case asserts that its block may leave out, taken out.
	var desk []byte
	var id, key, value string
	for _, d := range bundledDesks(t) {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(deskData(t, d), &doc))
		for _, c := range doc["cases"].([]any) {
			expected := c.(map[string]any)["expected"].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(expected)) {
				s, ok := expected[k].(string)
				if !ok {
					continue
				}
				delete(expected, k)
				data, err := json.MarshalIndent(doc, "", "  ")
				require.NoError(t, err)
				expected[k] = s
				if _, ds := verifier.LoadAll(all.Registry(), []verifier.Input{{Path: "desk.json", Data: data}}, verifier.Limits{}); ds.HasErrors() {
					continue
				}
				b, err := json.Marshal(s)
				require.NoError(t, err)
				desk, id, key, value = data, d.ID+"/"+c.(map[string]any)["id"].(string), k, string(b)
				break
			}
			if desk != nil {
				break
			}
		}
		if desk != nil {
			break
		}
	}
	require.NotEmpty(t, desk, "a bundled case asserts a string")
	path := filepath.Join(t.TempDir(), "desk.json")
	require.NoError(t, os.WriteFile(path, desk, 0o600))
	_, out, errOut := runCLI(t, "observe", "-run", "^"+regexp.QuoteMeta(id)+"$", path)
	// The observed value is shown, which holds the authored one.
	assert.Regexp(t, `(?m)^  \+ `+regexp.QuoteMeta(key)+`: "[^\n]*`+regexp.QuoteMeta(strings.Trim(value, `"`))+`[^\n]*" \(observed, not asserted\)$`, out, errOut)
}

func TestNewDeskAsPrinted(t *testing.T) {
	names := all.Registry().Names()
	goldens, err := filepath.Glob(filepath.Join("testdata", "new-*.json"))
	require.NoError(t, err)
	for _, g := range goldens {
		assert.Contains(t, names, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(g), "new-"), ".json"), "%s is the new desk of no scenario; delete it", g)
	}
	for _, scenario := range names {
		code, out, errOut := runCLI(t, "new", scenario)
		require.Equal(t, 0, code, errOut)
		golden(t, "new-"+scenario+".json", out)
		dir := t.TempDir()
		path := filepath.Join(dir, "desk", "new.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
		code, _, errOut = runCLI(t, "validate", path)
		assert.Equal(t, 0, code, errOut)
		for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
			assert.Regexp(t, `: warning: (placeholder|no allowed control)`, line, "only the placeholders and an unpaired control are flagged")
		}
		code, vout, errOut := runCLI(t, "verify", "-out", filepath.Join(dir, "out"), path)
		assert.Equal(t, 0, code, errOut)
		assert.Contains(t, vout, "1 passed, 0 failed", "new prints one case")
	}
	typo := names[0][:len(names[0])-1]
	for _, args := range [][]string{{"new"}, {"new", typo}, {"new", names[0], "extra"}, {"explain", "-run", "("}, {"observe", "nope.json"}, {"explain", "../../verifier/testdata/invalid/wrong-type.json"}} {
		code, _, _ := runCLI(t, args...)
		assert.Equal(t, 2, code, args)
	}
}

func TestExplainNeverWrites(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	for _, cmd := range []string{"explain", "observe"} {
		code, _, _ := runCLI(t, cmd)
		require.Equal(t, 0, code)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "explain and observe write no report")
}
