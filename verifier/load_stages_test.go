package verifier

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stageDesk is a desk of the given cases, with a label and a source.
func stageDesk(cases ...string) []byte {
	return []byte(`{"schemaVersion":1,"id":"s","title":"t","label":"DO NOT EXECUTE","sources":{"w":"x"},"cases":[` + strings.Join(cases, ",") + `]}`)
}

// stageCase is a wrapper case that passes (an allowed control): extra
// members of its given block, and its expected block if not "".
func stageCase(id, given, expected string) string {
	g := `"tool":"seed_note","approval":"exec","mode":"always-ask","ui":true,"choices":["Approve"]`
	e := `"outcome":"return","effects":1,"prompts":1`
	if given != "" {
		g += "," + given
	}
	if expected != "" {
		e = expected
	}
	return fmt.Sprintf(named(`{"id":%q,"title":"t","scenario":"{prompt}","given":{%s},"expected":{%s},"sourceRefs":["w"]}`), id, g, e)
}

// what is a diagnostic without its file and position: what the stage
// tests compare.
func what(ds Diagnostics) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		s := string(d.Severity) + ": " + d.Summary
		if d.Pointer != "" {
			s += " (" + d.Pointer + ")"
		}
		if d.Name != "" {
			s += " [" + d.Name + "]"
		}
		out[i] = s
	}
	return out
}

// TestOneLoadListsEveryStage: the problems of every stage of Load (reading,
// schema, whole numbers, hosts, lint) come in one call, where the earlier
// ones leave the later checks something to read; where they do not, one
// checks-skipped warning says which checks were skipped.
func TestOneLoadListsEveryStage(t *testing.T) {
	skipB := `warning: later checks (whole numbers, hosts, lint) were skipped for case "b" (/cases/1), whose schema errors make them meaningless; so were lint's checks that read all cases together [checks-skipped]`
	tests := []struct {
		reason string
		data   []byte
		want   []string
	}{
		{"a duplicate key leaves the schema to check the first value",
			stageDesk(stageCase("a", "", `"outcome":"return","effects":"none","prompts":1,"effects":1`)),
			[]string{
				"error: wrong type: expected integer, found string (/cases/0/expected/effects)",
				`error: duplicate key "effects" (first at 1:268) (/cases/0/expected/effects)`,
				`warning: later checks (whole numbers, hosts, lint) were skipped for case "a" (/cases/0), whose schema errors make them meaningless; so were lint's checks that read all cases together [checks-skipped]`,
			}},
		{"the repeated value is not read: it is not checked",
			stageDesk(stageCase("a", "", `"outcome":"return","effects":1,"prompts":1,"effects":"none"`)),
			[]string{`error: duplicate key "effects" (first at 1:268) (/cases/0/expected/effects)`}},
		{"a repeated member is left out whole, repeats inside it included",
			stageDesk(stageCase("a", `"args":{"x":1},"args":{"y":1,"y":"z","q":[{"r":1,"r":2}]}`, "")),
			[]string{
				`error: duplicate key "args" (first at 1:236) (/cases/0/given/args)`,
				`error: duplicate key "y" (first at 1:259) (/cases/0/given/args/y)`,
				`error: duplicate key "r" (first at 1:279) (/cases/0/given/args/q/0/r)`,
			}},
		{"a duplicate key, then lint",
			[]byte(`{"schemaVersion":1,"id":"s","id":"t","title":"t","label":"teaching","cases":[` + stageCase("a", "", "") + `]}`),
			[]string{
				`error: duplicate key "id" (first at 1:20) (/id)`,
				"warning: the label should warn readers: DO NOT EXECUTE (/label) [label]",
				`error: sourceRef "w" names no key of sources (the desk has no sources) (/cases/0/sourceRefs/0)`,
			}},
		{"schema errors in one case leave the others to the later checks",
			stageDesk(stageCase("a", `"repeat":1.0`, ""), stageCase("b", `"mdoe":"yolo"`, ""), stageCase("c", "", `"outcome":"return","effects":1,"prompts":3`)),
			[]string{
				"error: a whole number is expected (digits only, at most 15), found 1.0 (/cases/0/given/repeat)",
				named(`error: given key "mdoe" is not read by scenario {prompt}; did you mean "mode"? (/cases/1/given/mdoe)`),
				"warning: 1 scripted choices but 3 prompts expected (/cases/2/given/choices) [choices-vs-prompts]",
				skipB,
			}},
		{"lint runs past a whole number and a release range",
			stageDesk(strings.Replace(stageCase("a", `"repeat":1e0`, ""), `"scenario"`, named(`"hosts":{"{host}":">=99.0.0"},"scenario"`), 1), stageCase("a", "", "")),
			[]string{
				named(`error: release range ">=99.0.0" selects no modelled release (modelled {host} releases: 13.19.0, 14.9.9, 17.2.15, 17.3.5, 18.1.16, 18.1.17, 18.1.20, 18.1.21, 18.2.0, 18.2.3, 18.2.9, 18.3.4) (/cases/0/hosts/{host})`),
				"error: a whole number is expected (digits only, at most 15), found 1e0 (/cases/0/given/repeat)",
				`error: duplicate id "a" in this desk (first at 1:101) (/cases/1/id)`,
			}},
		{"a case of no known scenario is left out, the others are read",
			stageDesk(strings.Replace(stageCase("b", "", ""), named(`"{prompt}"`), `"wrapepr"`, 1), stageCase("a", `"repeat":2.5`, "")),
			[]string{
				`error: unknown scenario "wrapepr" (known: ` + strings.Join(testReg.Names(), ", ") + named(`); did you mean "{prompt}"? (/cases/0/scenario)`),
				"error: wrong type: expected integer, found number (/cases/1/given/repeat)",
				`warning: later checks (whole numbers, hosts, lint) were skipped for cases "b" (/cases/0) and "a" (/cases/1), whose schema errors make them meaningless; so were lint's checks that read all cases together [checks-skipped]`,
			}},
		{"a lesson whose other case fails the schema is not judged alone",
			stageDesk(strings.Replace(stageCase("a", "", ""), `"scenario"`, `"lesson":"pair","scenario"`, 1),
				named(`{"id":"g","lesson":"pair","title":"t","scenario":"{policy}","given":{"tool":"read_file","tol":1},"expected":{"decision":"allow","outcome":"allowed"}}`)),
			[]string{
				named(`error: given key "tol" is not read by scenario {policy}; did you mean "tool"? (/cases/1/given/tol)`),
				`warning: later checks (whole numbers, hosts, lint) were skipped for case "g" (/cases/1), whose schema errors make them meaningless; so were lint's checks that read all cases together [checks-skipped]`,
			}},
		{"a desk key the format does not know breaks nothing",
			[]byte(`{"schemaVersion":1,"id":"s","title":"t","label":"teaching","soruces":{"w":"x"},"cases":[` + stageCase("a", "", "") + `]}`),
			[]string{
				"warning: the label should warn readers: DO NOT EXECUTE (/label) [label]",
				`error: unknown key "soruces"; did you mean "sources"? (/soruces)`,
				`error: sourceRef "w" names no key of sources (the desk has no sources) (/cases/0/sourceRefs/0)`,
			}},
		{"a desk value of the wrong type skips lint and the desk's hosts, not the cases' own checks",
			[]byte(named(`{"schemaVersion":1,"id":"s","title":"t","label":"teaching","hosts":{"{host}":"^1"},"sources":["x"],"cases":[`) + stageCase("a", `"repeat":1.0`, "") + `,` + stageCase("b", `"mdoe":"yolo"`, "") + `]}`),
			[]string{
				"error: wrong type: expected object, found array (/sources)",
				"error: a whole number is expected (digits only, at most 15), found 1.0 (/cases/0/given/repeat)",
				named(`error: given key "mdoe" is not read by scenario {prompt}; did you mean "mode"? (/cases/1/given/mdoe)`),
				`warning: later checks (the desk's hosts, lint) were skipped for the whole file, and (whole numbers, hosts) for case "b" (/cases/1): schema errors make them meaningless [checks-skipped]`,
			}},
		{"cases that are not a list: nothing of them is read",
			[]byte(`{"schemaVersion":1,"id":"s","title":"t","label":"DO NOT EXECUTE","cases":{"a":` + stageCase("a", "", "") + `}}`),
			[]string{
				"error: wrong type: expected array, found object (/cases)",
				`warning: later checks (the desk's hosts, lint) were skipped for the whole file: its schema errors outside the cases make them meaningless [checks-skipped]`,
			}},
		{"more skipped cases than the line names",
			stageDesk(stageCase("a", `"x":1`, ""), stageCase("b", `"x":1`, ""), stageCase("c", "", ""), stageCase("d", `"x":1`, ""), stageCase("e", `"x":1`, "")),
			[]string{
				named(`error: given key "x" is not read by scenario {prompt}; did you mean "ui"? (/cases/0/given/x)`),
				named(`error: given key "x" is not read by scenario {prompt}; did you mean "ui"? (/cases/1/given/x)`),
				named(`error: given key "x" is not read by scenario {prompt}; did you mean "ui"? (/cases/3/given/x)`),
				named(`error: given key "x" is not read by scenario {prompt}; did you mean "ui"? (/cases/4/given/x)`),
				`warning: later checks (whole numbers, hosts, lint) were skipped for 4 cases (the first 3: "a" (/cases/0), "b" (/cases/1), "d" (/cases/3)), whose schema errors make them meaningless; so were lint's checks that read all cases together [checks-skipped]`,
			}},
		{"a syntax error leaves nothing to read",
			append(stageDesk(stageCase("a", `"repeat":1.0`, "")), '}'),
			[]string{
				"error: malformed JSON: invalid character '}' after top-level value",
				"warning: later checks (schema, whole numbers, hosts, lint) were skipped for the whole file: it must first read as JSON within the limits [checks-skipped]",
			}},
		{"a duplicate key and a syntax error",
			[]byte(`{"id":"a","id":"b","cases":[}`),
			[]string{
				`error: duplicate key "id" (first at 1:2) (/id)`,
				"error: malformed JSON: invalid character '}' looking for beginning of value",
				"warning: later checks (schema, whole numbers, hosts, lint) were skipped for the whole file: it must first read as JSON within the limits [checks-skipped]",
			}},
		{"a number out of range leaves nothing to read",
			stageDesk(stageCase("a", `"repeat":1e400`, "")),
			[]string{
				"error: number 1e400 is out of range (/cases/0/given/repeat)",
				"warning: later checks (schema, whole numbers, hosts, lint) were skipped for the whole file: it must first read as JSON within the limits [checks-skipped]",
			}},
		{"an unsupported schemaVersion",
			[]byte(`{"schemaVersion":2,"id":"s","id":"t"}`),
			[]string{
				"error: unsupported schemaVersion 2; this deskcheck reads 1 (/schemaVersion)",
				`error: duplicate key "id" (first at 1:20) (/id)`,
				"warning: later checks (schema, whole numbers, hosts, lint) were skipped for the whole file: they check files of schemaVersion 1 [checks-skipped]",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			desk, ds := Load(testReg, "stages.json", tt.data, Limits{})
			assert.Nil(t, desk)
			assert.Equal(t, tt.want, what(ds), "%s", tt.data)
			again, _ := LoadAll(testReg, []Input{{Path: "stages.json", Data: tt.data}}, Limits{})
			assert.Empty(t, again)
			_, all := LoadAll(testReg, []Input{{Path: "stages.json", Data: tt.data}}, Limits{})
			assert.Equal(t, diagStrings(ds), diagStrings(all), "LoadAll lists what Load does")
			each := LoadEach(testReg, []Input{{Path: "stages.json", Data: tt.data}}, Limits{}, nil)
			assert.Equal(t, diagStrings(ds), diagStrings(each), "LoadEach lists what Load does")
		})
	}
}

// TestEveryStageInOneRun: the fixture with a mistake of every stage lists
// all twelve lines in one run; before, the duplicate key alone was listed,
// and it took four runs, fixing each round, to see them all.
func TestEveryStageInOneRun(t *testing.T) {
	path := filepath.Join("testdata/invalid", "every-stage.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	desk, ds := Load(testReg, path, data, Limits{})
	assert.Nil(t, desk)
	lines := diagStrings(ds)
	require.Len(t, lines, 12, strings.Join(lines, "\n"))
	errs, warns := 0, 0
	for _, d := range ds {
		if d.Severity == Error {
			errs++
		} else {
			warns++
		}
	}
	assert.Equal(t, [2]int{9, 3}, [2]int{errs, warns}, "nine errors, two warnings and the checks-skipped line")
	for _, want := range []string{
		`duplicate key "title"`, "given key \"mdoe\"", "wrong type: expected integer, found string", "found 0.0", "found 2e0",
		`release range "^99"`, `duplicate id "a"`, `sourceRef "wraper"`, "[label]", "[choices-vs-prompts]", `expected key "promts"`,
		`skipped for cases "b" (/cases/1) and "e" (/cases/4)`,
	} {
		assert.Contains(t, strings.Join(lines, "\n"), want)
	}
}

// TestDiagnosticOrder: a file's list is in file order (line, column, then
// text), whatever stage found each problem, then the checks-skipped line,
// then the count of those left out; the checks-skipped line is kept when
// the cap leaves others out.
func TestDiagnosticOrder(t *testing.T) {
	var cases []string
	for i := range 30 {
		cases = append(cases, stageCase(fmt.Sprintf("c%d", i), `"x":1`, ""), stageCase(fmt.Sprintf("d%d", i), `"repeat":1.0`, `"outcome":"return","effects":1,"prompts":1,"prompts":1`))
	}
	data := stageDesk(cases...)
	_, ds := Load(testReg, "order.json", data, Limits{Diagnostics: 25})
	require.Len(t, ds, 27)
	for i := 1; i < 25; i++ {
		a, b := ds[i-1], ds[i]
		assert.True(t, a.Line < b.Line || a.Line == b.Line && (a.Col < b.Col || a.Col == b.Col && a.Summary <= b.Summary), "%s before %s", a, b)
	}
	assert.True(t, ds[25].skip, ds[25].String())
	assert.Equal(t, "order.json: error: … and 65 more", ds[26].String())
	_, again := Load(testReg, "order.json", data, Limits{Diagnostics: 25})
	assert.Equal(t, diagStrings(ds), diagStrings(again), "the same list every time")
}

// TestSyntaxErrorPastTheCap: a file with more duplicate keys than its list
// holds, then a syntax error, lists the syntax error too, the one problem
// that says why the rest was not read, and then the checks-skipped line
// and the count.
func TestSyntaxErrorPastTheCap(t *testing.T) {
	data := []byte(`{"a":1` + strings.Repeat(`,"a":1`, 30) + `,}`)
	_, ds := Load(testReg, "cut.json", data, Limits{Diagnostics: 10})
	lines := diagStrings(ds)
	require.Len(t, lines, 13, strings.Join(lines, "\n"))
	assert.Contains(t, lines[10], "malformed JSON: invalid character '}' looking for beginning of object key string")
	assert.Equal(t, skippedLine("cut.json", skippedUnread), lines[11])
	assert.Equal(t, "cut.json: error: … and 20 more", lines[12])
}
