package verifier

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/schema"
)

func TestLint(t *testing.T) {
	in := readInput(t, "testdata/invalid/bad-refs.json")
	desks, ds := LoadAll([]Input{in}, DefaultLimits)
	require.Len(t, desks, 1, "lint problems do not stop loading")
	assert.Equal(t, []string{
		"testdata/invalid/bad-refs.json:5:12: warning: the label should warn readers: DO NOT EXECUTE (/label)",
		"testdata/invalid/bad-refs.json:12:70: warning: 2 scripted choices but 1 prompts expected (/cases/0/given/choices)",
		"testdata/invalid/bad-refs.json:12:101: error: repeat is 5000, over the limit of 1000 (/cases/0/given/repeat)",
		`testdata/invalid/bad-refs.json:14:33: error: sourceRef "wraper" names no key of sources (known: wrapper) (/cases/0/sourceRefs/1)`,
		`testdata/invalid/bad-refs.json:17:13: error: duplicate id "a" (first at testdata/invalid/bad-refs.json:9:13) (/cases/1/id)`,
	}, diagStrings(ds))

	ds = Lint(desks, Limits{Repeat: 10000, Choices: 1})
	assert.Contains(t, diagStrings(ds), "testdata/invalid/bad-refs.json:12:70: error: the number of scripted choices is 2, over the limit of 1 (/cases/0/given/choices)")
}

func TestLintAcrossFiles(t *testing.T) {
	a := readInput(t, "../cases/boundary-desk.json")
	b := Input{Path: "copy.json", Data: a.Data}
	_, ds := LoadAll([]Input{a, b}, DefaultLimits)
	assert.True(t, ds.HasErrors())
	s := diagStrings(ds)
	assert.Contains(t, s, `copy.json:3:9: error: duplicate desk id "boundary-desk" (first in ../cases/boundary-desk.json) (/id)`)
	assert.Contains(t, s, `copy.json:22:13: error: duplicate id "boundary-approval-does-not-persist" (first at ../cases/boundary-desk.json:22:13) (/cases/0/id)`)
}

func TestLintUnknownExpectedKeyWithoutSchema(t *testing.T) {
	// A desk built in memory can carry keys the schema would have refused;
	// lint still reports them.
	in := readInput(t, "../cases/boundary-desk.json")
	desk, _ := Load(in.Path, in.Data, Limits{})
	desk.Cases[0].Expected = append(desk.Cases[0].Expected, Field{Key: "promts"})
	desk.Cases[1].Scenario = "gateway"
	s := diagStrings(Lint([]*Desk{desk}, DefaultLimits))
	assert.Contains(t, s, `../cases/boundary-desk.json:37:19: error: expected key "promts" is not observed by scenario wrapper; did you mean "prompts"? (/cases/0/expected/promts)`)
	assert.Contains(t, s, `../cases/boundary-desk.json:57:19: error: unknown scenario "gateway" (known: classify-error, fallback, wrapper) (/cases/1/scenario)`)
}

// TestSchemaMatchesScenarios keeps the schema's per-scenario given and
// expected keys equal to what the scenarios read and observe.
func TestSchemaMatchesScenarios(t *testing.T) {
	var doc struct {
		Definitions map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"definitions"`
	}
	require.NoError(t, json.Unmarshal(schema.CaseSchema, &doc))
	prefix := map[string]string{"wrapper": "wrapper", "fallback": "fallback", "classify-error": "classify"}
	require.ElementsMatch(t, ScenarioNames(), []string{"wrapper", "fallback", "classify-error"})
	for name, p := range prefix {
		sc, _ := LookupScenario(name)
		assert.ElementsMatch(t, keysOf(doc.Definitions[p+"Given"].Properties), sc.Given, name+" given")
		assert.ElementsMatch(t, keysOf(doc.Definitions[p+"Expected"].Properties), sc.Expected.Keys(), name+" expected")
	}
}

func keysOf(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestSuggest(t *testing.T) {
	known := []string{"prompts", "toolCalls", "effects"}
	assert.Equal(t, `; did you mean "prompts"?`, suggest("promts", known))
	assert.Equal(t, `; did you mean "toolCalls"?`, suggest("toolcalls", known))
	assert.Equal(t, "", suggest("somethingElse", known))
}
