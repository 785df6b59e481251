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
		"testdata/invalid/bad-refs.json:5:12: warning: the label should warn readers: DO NOT EXECUTE (/label)",
		"testdata/invalid/bad-refs.json:12:70: warning: 2 scripted choices but 1 prompts expected (/cases/0/given/choices)",
		"testdata/invalid/bad-refs.json:12:101: error: repeat is 5000, over the limit of 1000 (raise it with -limit wrapper.repeat=N) (/cases/0/given/repeat)",
		`testdata/invalid/bad-refs.json:14:33: error: sourceRef "wraper" names no key of sources (known: wrapper) (/cases/0/sourceRefs/1)`,
		`testdata/invalid/bad-refs.json:17:13: error: duplicate id "a" (first at testdata/invalid/bad-refs.json:9:13) (/cases/1/id)`,
	}, diagStrings(ds))

	ds = Lint(desks, Limits{Scenario: map[string]int{"wrapper.repeat": 10000, "wrapper.choices": 1}})
	assert.Contains(t, diagStrings(ds), "testdata/invalid/bad-refs.json:12:70: error: the number of entries in choices is 2, over the limit of 1 (raise it with -limit wrapper.choices=N) (/cases/0/given/choices)")
}

func TestLintAcrossFiles(t *testing.T) {
	a := readInput(t, "../cases/boundary-desk.json")
	b := Input{Path: "copy.json", Data: a.Data}
	_, ds := LoadAll(testReg, []Input{a, b}, DefaultLimits)
	assert.True(t, ds.HasErrors())
	s := diagStrings(ds)
	assert.Contains(t, s, `copy.json:3:9: error: duplicate desk id "boundary-desk" (first in ../cases/boundary-desk.json) (/id)`)
	assert.Contains(t, s, `copy.json:22:13: error: duplicate id "boundary-approval-does-not-persist" (first at ../cases/boundary-desk.json:22:13) (/cases/0/id)`)
}

func TestLintUnknownExpectedKeyWithoutSchema(t *testing.T) {
	// A desk built in memory can carry keys the schema would have refused;
	// lint still reports them.
	in := readInput(t, "../cases/boundary-desk.json")
	desk, _ := Load(testReg, in.Path, in.Data, Limits{})
	desk.Cases[0].Expected = append(desk.Cases[0].Expected, Field{Key: "promts"})
	desk.Cases[1].Scenario = "wraper"
	s := diagStrings(Lint([]*Desk{desk}, DefaultLimits))
	assert.Contains(t, s, `../cases/boundary-desk.json:37:19: error: expected key "promts" is not observed by scenario wrapper; did you mean "prompts"? (/cases/0/expected/promts)`)
	assert.Contains(t, s, `../cases/boundary-desk.json:57:19: error: unknown scenario "wraper" (known: `+strings.Join(testReg.Names(), ", ")+`); did you mean "wrapper"? (/cases/1/scenario)`)
}

func TestSuggest(t *testing.T) {
	known := []string{"prompts", "toolCalls", "effects"}
	assert.Equal(t, `; did you mean "prompts"?`, suggest("promts", known))
	assert.Equal(t, `; did you mean "toolCalls"?`, suggest("toolcalls", known))
	assert.Equal(t, "", suggest("somethingElse", known))
}
