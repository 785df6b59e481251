package verifier

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostileSecondPass holds the classes of the second hostile-input pass
// that concern one file: each row is a file under testdata and a
// diagnostic it must get, whole.
func TestHostileSecondPass(t *testing.T) {
	tests := []struct {
		reason string
		file   string
		want   string
	}{
		{"a NUL inside a key points at the key, with the key whole in the pointer",
			"hostile/nul-in-key.json", named(`1:127: error: given key "mo\x00de" is not read by scenario {prompt}; did you mean "mode"? (/cases/0/given/mo\u0000de)`)},
		{"a NUL inside a key on the way to a value keeps the pointer whole, so it points at the value",
			"hostile/nul-in-sources-key.json", `1:96: error: wrong type: expected string, found integer (/sources/a\u0000b)`},
		{"the string limit measures the decoded text: 33,000 escapes of é are 66,000 bytes",
			"hostile/escaped-string-over-limit.json", "1:37: error: the length of a string is 66000, over the limit of 65536 (/title)"},
		{"an unknown top-level key gets a suggestion",
			"authoring/misspelled-keys.json", `6:3: error: unknown key "source"; did you mean "sources"? (/source)`},
		{"an unknown case key gets a suggestion",
			"authoring/misspelled-keys.json", `13:7: error: unknown key "expect"; did you mean "expected"? (/cases/0/expect)`},
		{"an unknown claim key gets a suggestion",
			"authoring/misspelled-keys.json", `17:51: error: unknown key "sourceRef"; did you mean "sourceRefs"? (/sourceOnly/0/sourceRef)`},
		{"a mode the host does not know is a warning that says what the host does",
			"authoring/unknown-mode-and-tier.json", named(`7:104: warning: mode "Write" is not one the host knows (always-ask, write, yolo, matched exactly), and what it means depends on the release: {host} 13.19.0 … 14.9.9 have no approval gate, so the mode means nothing; {host} 17.2.15 … 18.2.0 keep it as a mode that auto-approves no tier, so every call that no policy decides asks for approval; {host} 18.2.3 … 18.3.4 read it as yolo, which auto-approves every tier; did you mean "write"? (/cases/0/given/mode) [unknown-mode]`)},
		{"a tier string the host does not know is a warning",
			"authoring/unknown-mode-and-tier.json", `8:83: warning: tier "paranoid" is not one the host knows (read, write, exec, matched exactly): it treats the tool as exec, the highest tier (/cases/1/given/approval) [unknown-tier]`},
		{"so is an unknown tier in an approval object",
			"authoring/unknown-mode-and-tier.json", `9:95: warning: tier "Read" is not one the host knows (read, write, exec, matched exactly): it treats the tool as exec, the highest tier; did you mean "read"? (/cases/2/given/approval/tier) [unknown-tier]`},
	}
	for _, tt := range tests {
		path := filepath.Join("testdata", tt.file)
		_, ds := LoadAll(testReg, []Input{readInput(t, path)}, Limits{})
		assert.Contains(t, diagStrings(ds), path+":"+tt.want, tt.reason)
	}

	in := readInput(t, "testdata/authoring/unknown-mode-and-tier.json")
	_, ds := LoadAll(testReg, []Input{in}, Limits{})
	assert.False(t, ds.HasErrors(), "the host accepts unknown modes and tiers: warnings only")
	assert.Len(t, ds, 3, "the known mode and tier get no warning: %v", diagStrings(ds))

	in = readInput(t, "testdata/authoring/escaped-title.json")
	desk, ds := Load(testReg, in.Path, in.Data, Limits{})
	require.Empty(t, ds, "20,000 escapes of A are 20,000 bytes, within the limit, though 120,000 bytes long as written")
	assert.Equal(t, strings.Repeat("A", 20000), desk.Title)
}

func TestCaseIDsAreUniqueWithinTheirDesk(t *testing.T) {
	boundary := readInput(t, "../cases/boundary-desk.json")
	other := readInput(t, "testdata/authoring/ids-within-desks.json")
	_, ds := LoadAll(testReg, []Input{boundary, other}, Limits{})
	assert.False(t, ds.HasErrors(), "a case or claim id another desk uses is fine: %v", diagStrings(ds))

	_, ds = LoadAll(testReg, []Input{readInput(t, "testdata/invalid/bad-refs.json")}, Limits{})
	assert.Contains(t, diagStrings(ds), `testdata/invalid/bad-refs.json:17:13: error: duplicate id "a" in this desk (first at 9:13) (/cases/1/id)`, "within a desk an id is unique")
}

func TestPlaceholdersAndEmptyDesks(t *testing.T) {
	printed, err := NewDesk(context.Background(), testReg, exPrompt.Name)
	require.NoError(t, err)
	edited := strings.NewReplacer(`"id": "new-desk"`, `"id": "seed-desk"`, named(`"id": "new-{prompt}-case"`), `"id": "deny-once"`, "Placeholder:", "Now:").Replace(string(printed))
	empty := `{"schemaVersion":1,"id":"empty","title":"t","label":"DO NOT EXECUTE","cases":[]}`
	tests := []struct {
		reason string
		data   string
		want   []string // warnings, in order
	}{
		{"a desk straight from deskcheck new names each placeholder", string(printed), []string{
			`new.json:3:9: warning: placeholder id "new-desk" from deskcheck new: give the desk an id of its own (/id) [placeholder]`,
			`new.json:4:12: warning: placeholder text from deskcheck new: say what this desk or case is about (/title) [placeholder]`,
			`new.json:6:13: warning: placeholder text from deskcheck new: say what this desk or case is about (/domain) [placeholder]`,
			named(`new.json:10:16: warning: placeholder text from deskcheck new: say what this desk or case is about (/sources/{prompt}) [placeholder]`),
			named(`new.json:14:13: warning: placeholder id "new-{prompt}-case" from deskcheck new: give the case an id of its own (/cases/0/id) [placeholder]`),
			`new.json:15:16: warning: placeholder text from deskcheck new: say what this desk or case is about (/cases/0/title) [placeholder]`,
		}},
		{"once edited, nothing is said", edited, nil},
		{"a desk with no case says which file it is", empty, []string{
			`new.json:1:78: warning: the desk holds no case: nothing in new.json is verified (/cases) [empty-desk]`,
		}},
	}
	for _, tt := range tests {
		_, ds := LoadAll(testReg, []Input{{Path: "new.json", Data: []byte(tt.data)}}, Limits{})
		require.False(t, ds.HasErrors(), tt.reason)
		var got []string
		for _, s := range diagStrings(ds) {
			if strings.Contains(s, "placeholder") || strings.Contains(s, "no case") {
				got = append(got, s)
			}
		}
		if len(tt.want) > 0 {
			// The why of the case is the last placeholder; it sits on a
			// line that depends on the template, so it is only counted.
			assert.Equal(t, tt.want, got[:min(len(got), len(tt.want))], tt.reason)
		} else {
			assert.Empty(t, got, tt.reason)
		}
	}

	_, _, err = Verify(context.Background(), []Input{{Path: "empty.json", Data: []byte(empty)}}, Options{Registry: testReg})
	assert.True(t, errors.Is(err, ErrNoCases))
	assert.EqualError(t, err, "no cases: empty.json holds no case, so there is no evidence")
}

// repeatDesk is a desk of n wrapper cases of repeat calls each.
func repeatDesk(id string, n, repeat int) Input {
	var cases []string
	for i := 0; i < n; i++ {
		cases = append(cases, fmt.Sprintf(named(`{"id":"c%d","title":"t","scenario":"{prompt}","given":{"approval":"exec","mode":"always-ask","repeat":%d},"expected":{"outcome":"throw","effects":0}}`), i, repeat))
	}
	return Input{Path: id + ".json", Data: []byte(`{"schemaVersion":1,"id":"` + id + `","title":"t","label":"DO NOT EXECUTE","cases":[` + strings.Join(cases, ",") + `]}`)}
}

// TestWorkIsBoundedBeforeRunning: each value within its own limit, the
// product of cases and values is bounded per file and per run before
// anything runs, and the trace per run while running.
func TestWorkIsBoundedBeforeRunning(t *testing.T) {
	tests := []struct {
		reason string
		inputs []Input
		limits Limits
		diag   string // an error diagnostic, or
		err    string // an error of the run
	}{
		{"400 cases of repeat 1000 in one small file: over the work of a file", []Input{repeatDesk("r", 400, 1000)}, Limits{},
			named("r.json:1:74: error: the cases of this file script 400,000 units of work ({prompt}.repeat 400,000), over the limit of 300,000 per file; split the file or raise the limit with -max-work N (/cases)"), ""},
		{"split over files, over the work of a run", []Input{repeatDesk("a", 300, 1000), repeatDesk("b", 300, 1000), repeatDesk("c", 300, 1000)}, Limits{},
			"", named("the selected cases script 900,000 units of work ({prompt}.repeat 900,000), over the limit of 600,000 per run; select fewer with -run or raise the limit with -max-run-work N")},
		{"the trace events of a run", []Input{repeatDesk("e", 20, 50)}, Limits{Events: 500},
			"", "the cases recorded more than 500 trace events, the limit per run, so the run was stopped and nothing is reported; select fewer cases with -run or raise the limit with -max-events N"},
		{"the trace text of a run", []Input{repeatDesk("e", 20, 50)}, Limits{TraceBytes: 10_000},
			"", "the cases recorded more than 10,000 bytes of trace text, the limit per run, so the run was stopped and nothing is reported; select fewer cases with -run or raise the limit with -max-trace-bytes N"},
	}
	for _, tt := range tests {
		suite, ds, err := Verify(context.Background(), tt.inputs, Options{Registry: testReg, Limits: tt.limits})
		assert.Nil(t, suite, tt.reason)
		if tt.diag != "" {
			assert.Contains(t, diagStrings(ds), tt.diag, tt.reason)
			continue
		}
		assert.EqualError(t, err, tt.err, tt.reason)
	}
	suite, _, err := Verify(context.Background(), []Input{repeatDesk("ok", 100, 1000)}, Options{Registry: testReg})
	require.NoError(t, err, "100,000 calls are within the defaults")
	assert.Equal(t, 100, suite.Summary.Passed)

	w := 0
	for _, c := range mustLoad(t, repeatDesk("w", 3, 7)).Cases {
		w += c.Work()
	}
	assert.Equal(t, 21, w, named("a {prompt} case's work is its repeat (and its scripted choices)"))
}

func mustLoad(t *testing.T, in Input) *Desk {
	t.Helper()
	d, ds := Load(testReg, in.Path, in.Data, Limits{})
	require.False(t, ds.HasErrors(), diagStrings(ds))
	return d
}

func TestReadPathsReadsEachFileOnce(t *testing.T) {
	root := t.TempDir()
	good, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	desks := filepath.Join(root, "desks")
	require.NoError(t, os.MkdirAll(desks, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "a.json"), good, 0o644))
	require.NoError(t, os.Symlink(desks, filepath.Join(root, "link")))
	a := filepath.Join(desks, "a.json")
	tests := []struct {
		reason string
		paths  []string
		want   []string
	}{
		{"a file named twice", []string{a, a}, []string{a}},
		{"a file, then the folder holding it", []string{a, desks}, []string{a}},
		{"the folder, then a file in it", []string{desks, a}, []string{a}},
		{"a named link to a folder is read, under the name given", []string{filepath.Join(root, "link")}, []string{filepath.Join(root, "link", "a.json")}},
		{"the folder and a link to it", []string{desks, filepath.Join(root, "link")}, []string{a}},
		{"a path with a trailing slash", []string{desks + "/"}, []string{a}},
	}
	for _, tt := range tests {
		inputs, ds, err := ReadPaths(tt.paths, Limits{})
		require.NoError(t, err, tt.reason)
		assert.Empty(t, ds, tt.reason)
		var got []string
		for _, in := range inputs {
			got = append(got, in.Path)
		}
		assert.Equal(t, tt.want, got, tt.reason)
	}
}

func TestDiagnosticsAreCappedPerFile(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"schemaVersion":1,"id":"d","title":"t","label":"DO NOT EXECUTE","cases":[],"sources":{"a":"x"`)
	for i := 0; i < 8000; i++ {
		b.WriteString(`,"a":"x"`)
	}
	b.WriteString(`}}`)
	_, ds := Load(testReg, "dups.json", []byte(b.String()), Limits{Diagnostics: 10})
	require.Len(t, ds, 11)
	assert.Equal(t, "dups.json: error: … and 7,991 more", ds[10].String(), "the rest are counted, never listed")
	assert.Equal(t, "empty-desk", ds[0].Name, "lint reads the desk past its duplicate keys")
	for _, d := range ds[1:10] {
		assert.Contains(t, d.Summary, `duplicate key "a"`)
	}
	assert.Equal(t, "7,990", Thousands(7990))
	assert.Equal(t, "1,234,567", Thousands(1234567))
	assert.Equal(t, "999", Thousands(999))
}

func TestDiagnosticStringIsOneInertLine(t *testing.T) {
	d := Diagnostic{Severity: Error, File: "a\x1b[2Kb.json", Line: 1, Col: 2, Pointer: "/k\x00\u202e", Summary: "x\ny"}
	assert.Equal(t, `a\u001b[2Kb.json:1:2: error: x\u000ay (/k\u0000\u202e)`, d.String())
}
