package verifier

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewDeskValidatesAndVerifies(t *testing.T) {
	for _, name := range ScenarioNames() {
		t.Run(name, func(t *testing.T) {
			data, err := NewDesk(context.Background(), name)
			require.NoError(t, err)
			in := Input{Path: "new.json", Data: data}
			desks, ds := LoadAll([]Input{in}, Limits{})
			require.Empty(t, ds, "validates with no problem at all")
			require.Len(t, desks, 1)
			c := desks[0].Cases[0]
			sc, _ := LookupScenario(name)
			assert.ElementsMatch(t, sc.Given, keysOfGiven(c), "every given key is present")
			assert.Equal(t, sc.Expected.Keys(), fieldKeys(c.Expected), "every expected key, in canonical order")
			suite, _, err := Verify(context.Background(), []Input{in}, Options{})
			require.NoError(t, err)
			assert.True(t, suite.Passed(), "%+v", suite.Results[0].Mismatches)
		})
	}
	_, err := NewDesk(context.Background(), "gateway")
	assert.EqualError(t, err, `unknown scenario "gateway" (known: classify-error, fallback, wrapper)`)
}

func keysOfGiven(c *Case) []string {
	var keys []string
	for k := range c.Given.Map() {
		keys = append(keys, k)
	}
	return keys
}

func TestSuggestExpected(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	suite, _, err := Verify(context.Background(), []Input{in}, Options{})
	require.NoError(t, err)
	for _, r := range suite.Results {
		s, err := SuggestExpected(r.Case.Scenario, []byte(r.Case.Given.Raw), r.Observed)
		require.NoError(t, err)
		// A suggested block verifies against the same model.
		var fields []Field
		for _, x := range s {
			fields = append(fields, Field{Key: x.Key, Value: parseJSON(jsonValue(x.Value))})
		}
		sc, _ := LookupScenario(r.Case.Scenario)
		assert.Empty(t, Compare(fields, Observation{Values: r.Observed}, sc), r.Case.ID)
	}
	_, err = SuggestExpected("gateway", nil, nil)
	assert.Error(t, err)
	assert.Equal(t, "{\n    \"a\": 1,\n    \"b\": \"<x>\"\n  }", FormatExpected([]Suggestion{{"a", 1}, {"b", "<x>"}}, "  "))
}
