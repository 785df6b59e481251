package verifier

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

func diagStrings(ds Diagnostics) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.String()
	}
	return out
}

// Lines that say which later checks of a file were skipped.
const (
	skippedUnread = "later checks (schema, whole numbers, hosts, lint) were skipped for the whole file: it must first read as JSON within the limits"
	skippedCaseA  = `later checks (whole numbers, hosts, lint) were skipped for case "a" (/cases/0), whose schema errors make them meaningless; so were lint's checks that read all cases together`
)

func skippedLine(file, summary string) string {
	return file + ": warning: " + summary + " [checks-skipped]"
}

func TestLoadRejectsBadFiles(t *testing.T) {
	tests := []struct {
		reason string
		file   string
		want   []string
		// skipped is what the checks-skipped line says, "" for none.
		skipped string
	}{
		{"malformed JSON points at the offending character", "malformed.json",
			[]string{"testdata/invalid/malformed.json:6:16: error: malformed JSON: invalid character '}' looking for beginning of object key string"}, skippedUnread},
		{"a duplicate key gives both positions", "duplicate-key.json",
			[]string{`testdata/invalid/duplicate-key.json:12:61: error: duplicate key "effects" (first at 12:47) (/cases/0/expected/effects)`}, ""},
		{"an unknown scenario lists the known ones", "unknown-scenario.json",
			[]string{`testdata/invalid/unknown-scenario.json:10:19: error: unknown scenario "gatway" (known: ` + strings.Join(testReg.Names(), ", ") + named(`); did you mean "{requests}"? (/cases/0/scenario)`)}, skippedCaseA},
		{"an unknown given key is named at its key, with a suggestion", "unknown-given-key.json",
			[]string{named(`testdata/invalid/unknown-given-key.json:11:37: error: given key "mdoe" is not read by scenario {prompt}; did you mean "mode"? (/cases/0/given/mdoe)`)}, skippedCaseA},
		{"an unknown settings key is named with a suggestion", "unknown-settings-key.json",
			[]string{`testdata/invalid/unknown-settings-key.json:11:73: error: unknown key "bash.pattern"; did you mean "bash.patterns"? (/cases/0/given/settings/bash.pattern)`}, skippedCaseA},
		{"a misspelled expected key never passes vacuously", "misspelled-expected.json",
			[]string{named(`testdata/invalid/misspelled-expected.json:12:55: error: expected key "promts" is not observed by scenario {prompt}; did you mean "prompts"? (/cases/0/expected/promts)`)}, skippedCaseA},
		{"wrong types are named at their values", "wrong-type.json",
			[]string{
				"testdata/invalid/wrong-type.json:11:47: error: wrong type: expected integer, found string (/cases/0/given/repeat)",
				"testdata/invalid/wrong-type.json:12:52: error: wrong type: expected integer, found string (/cases/0/expected/effects)",
			}, skippedCaseA},
		{"outcome and effects are required", "missing-outcome.json",
			[]string{
				`testdata/invalid/missing-outcome.json:12:19: error: missing required key "effects" (/cases/0/expected)`,
				`testdata/invalid/missing-outcome.json:12:19: error: missing required key "outcome" (/cases/0/expected)`,
			}, skippedCaseA},
		{"an empty file", "empty.json", []string{"testdata/invalid/empty.json:1:1: error: empty file: a case file is a JSON object"}, skippedUnread},
		{"a byte-order mark", "bom.json", []string{"testdata/invalid/bom.json:1:1: error: file starts with a byte-order mark; save it as UTF-8 without one"}, skippedUnread},
		{"invalid UTF-8", "invalid-utf8.json", []string{"testdata/invalid/invalid-utf8.json:1:43: error: invalid UTF-8"}, skippedUnread},
		{"data after the top-level value", "trailing-data.json",
			[]string{"testdata/invalid/trailing-data.json:2:1: error: malformed JSON: invalid character '{' after top-level value"}, skippedUnread},
		{"a top level that is not an object", "top-level-array.json", []string{"testdata/invalid/top-level-array.json:1:1: error: the top level must be a JSON object"}, skippedUnread},
		{"an unsupported schemaVersion", "schema-version-2.json",
			[]string{"testdata/invalid/schema-version-2.json:2:20: error: unsupported schemaVersion 2; this deskcheck reads 1 (/schemaVersion)"}, "later checks (schema, whole numbers, hosts, lint) were skipped for the whole file: they check files of schemaVersion 1"},
		{"NaN is not JSON", "nan.json",
			[]string{"testdata/invalid/nan.json:1:128: error: malformed JSON: NaN is not JSON: JSON has no such number (write a finite number, or null)"}, skippedUnread},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			path := filepath.Join("testdata/invalid", tt.file)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			desk, ds := Load(testReg, path, data, Limits{})
			assert.Nil(t, desk, "no desk comes back from a file with errors")
			want := tt.want
			if tt.skipped != "" {
				want = append(want, skippedLine(path, tt.skipped))
			}
			assert.Equal(t, want, diagStrings(ds), tt.reason)
			assert.True(t, ds.HasErrors())
		})
	}
}

func TestLoadBoundaryDesk(t *testing.T) {
	data, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	desk, ds := Load(testReg, "cases/boundary-desk.json", data, Limits{})
	require.Empty(t, ds)
	require.NotNil(t, desk)
	assert.Equal(t, "boundary-desk", desk.ID)
	assert.Equal(t, 1, desk.SchemaVersion)
	assert.Len(t, desk.Cases, 15)
	assert.Len(t, desk.Claims, 3)
	c := desk.Cases[0]
	assert.Equal(t, "boundary-desk/boundary-approval-does-not-persist", c.FullID())
	var inFile []string
	gjson.GetBytes(data, "cases.0.expected").ForEach(func(k, _ gjson.Result) bool {
		inFile = append(inFile, k.String())
		return true
	})
	require.Len(t, inFile, 7)
	assert.Equal(t, inFile, fieldKeys(c.Expected), "expected keys keep file order")
	line, col := desk.Locate(c.Pointer+"/expected/prompts", true)
	assert.Equal(t, [2]int{40, 9}, [2]int{line, col})
	line, col = desk.Locate("/cases/0/no/such/key", false)
	assert.Equal(t, [2]int{21, 5}, [2]int{line, col}, "an unknown pointer falls back to its nearest parent")
}

func fieldKeys(fs []Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Key
	}
	return out
}

func TestLoadNestingLimit(t *testing.T) {
	deep := `{"schemaVersion":1,"id":"d","title":"t","cases":[],"sources":{"x":` + repeatString("[", 64) + repeatString("]", 64) + `}}`
	_, ds := Load(testReg, "deep.json", []byte(deep), Limits{})
	require.Len(t, ds, 2)
	assert.Contains(t, ds[0].Summary, "nesting deeper than 64 levels")
	assert.Equal(t, skippedLine("deep.json", skippedUnread), ds[1].String(), "nothing past the first reader reads a file nested too deep")
}

func repeatString(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for i := 0; i < n; i++ {
		b = append(b, s...)
	}
	return string(b)
}
