package verifier

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLint(t *testing.T) {
	in := readInput(t, "testdata/invalid/bad-refs.json")
	desks, ds := LoadAll(testReg, []Input{in}, DefaultLimits)
	require.Len(t, desks, 1, "lint problems do not stop loading")
	assert.Equal(t, []string{
		"testdata/invalid/bad-refs.json:5:12: warning: the label should warn readers: DO NOT EXECUTE (/label) [label]",
		"testdata/invalid/bad-refs.json:12:70: warning: 2 scripted choices but 1 prompts expected (/cases/0/given/choices) [choices-vs-prompts]",
		named("testdata/invalid/bad-refs.json:12:101: error: repeat is 5000, over the limit of 1000 (raise it with -limit {prompt}.repeat=N) (/cases/0/given/repeat)"),
		named(`testdata/invalid/bad-refs.json:14:33: error: sourceRef "wraper" names no key of sources (known: {prompt}) (/cases/0/sourceRefs/1)`),
		`testdata/invalid/bad-refs.json:17:13: error: duplicate id "a" in this desk (first at 9:13) (/cases/1/id)`,
	}, diagStrings(ds))

	ds = Lint(desks, Limits{Scenario: map[string]int{named("{prompt}.repeat"): 10000, named("{prompt}.choices"): 1}})
	assert.Contains(t, diagStrings(ds), named("testdata/invalid/bad-refs.json:12:70: error: the number of entries in choices is 2, over the limit of 1 (raise it with -limit {prompt}.choices=N) (/cases/0/given/choices)"))
}

func TestLintAcrossFiles(t *testing.T) {
	a := readInput(t, "../cases/boundary-desk.json")
	tests := []struct {
		reason string
		copy   []byte
		want   []string
	}{
		{"two desks with one id collide on every <desk-id>/<case-id>: the desk id is the error",
			a.Data, []string{`copy.json:3:9: error: duplicate desk id "boundary-desk" (first in ../cases/boundary-desk.json) (/id)`}},
		{"case ids need only be unique within their desk: another desk may reuse them",
			[]byte(strings.Replace(string(a.Data), `"id": "boundary-desk"`, `"id": "another-desk"`, 1)), nil},
	}
	for _, tt := range tests {
		_, ds := LoadAll(testReg, []Input{a, {Path: "copy.json", Data: tt.copy}}, DefaultLimits)
		var errs []string
		for _, d := range ds {
			if d.Severity == Error {
				errs = append(errs, d.String())
			}
		}
		assert.Equal(t, tt.want, errs, tt.reason)
	}
}

func TestLintUnknownExpectedKeyWithoutSchema(t *testing.T) {
	// A desk built in memory can carry keys the schema would have refused;
	// lint still reports them.
	in := readInput(t, "../cases/boundary-desk.json")
	desk, _ := Load(testReg, in.Path, in.Data, Limits{})
	desk.Cases[0].Expected = append(desk.Cases[0].Expected, Field{Key: "promts"})
	desk.Cases[1].Scenario = "wraper"
	s := diagStrings(Lint([]*Desk{desk}, DefaultLimits))
	assert.Contains(t, s, named(`../cases/boundary-desk.json:37:19: error: expected key "promts" is not observed by scenario {prompt}; did you mean "prompts"? (/cases/0/expected/promts)`))
	assert.Contains(t, s, `../cases/boundary-desk.json:57:19: error: unknown scenario "wraper" (known: `+strings.Join(testReg.Names(), ", ")+named(`); did you mean "{prompt}"? (/cases/1/scenario)`))
}

func TestSuggest(t *testing.T) {
	known := []string{"prompts", "toolCalls", "effects"}
	assert.Equal(t, `; did you mean "prompts"?`, suggest("promts", known))
	assert.Equal(t, `; did you mean "toolCalls"?`, suggest("toolcalls", known))
	assert.Equal(t, "", suggest("somethingElse", known))
}
