package verifier

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewDeskValidatesAndVerifies(t *testing.T) {
	for _, name := range testReg.Names() {
		t.Run(name, func(t *testing.T) {
			data, err := NewDesk(context.Background(), testReg, name)
			require.NoError(t, err)
			in := Input{Path: "new.json", Data: data}
			desks, ds := LoadAll(testReg, []Input{in}, Limits{})
			for _, d := range ds {
				require.Equal(t, Warning, d.Severity, "validates with no error: %v", d)
				assert.Regexp(t, `^(placeholder|no allowed control)`, d.Summary, "only the placeholders and an unpaired control are flagged")
			}
			require.Len(t, desks, 1)
			c := desks[0].Cases[0]
			sc, _, _ := testReg.Lookup(name)
			assert.ElementsMatch(t, testReg.GivenKeys(name), keysOfGiven(c), "every given key is present")
			var proposed []string
			for _, k := range sc.Expected.Keys() {
				if sc.Shape == nil {
					proposed = append(proposed, k)
				} else if _, ok := sc.Shape(k, nil); ok {
					proposed = append(proposed, k)
				}
			}
			assert.Equal(t, proposed, fieldKeys(c.Expected), "every expected key an author can write, in canonical order")
			suite, _, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg})
			require.NoError(t, err)
			assert.True(t, suite.Passed(), "%+v", suite.Results[0].Mismatches)
		})
	}
	_, err := NewDesk(context.Background(), testReg, "wraper")
	assert.ErrorContains(t, err, `unknown scenario "wraper"`)
	assert.ErrorContains(t, err, named(`did you mean "{prompt}"?`))
}

func keysOfGiven(c *Case) []string {
	var keys []string
	for k := range c.Given.Map() {
		keys = append(keys, k)
	}
	return keys
}

func TestSuggestedBlocksHold(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	suite, _, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg})
	require.NoError(t, err)
	for _, r := range suite.Results {
		require.NotEmpty(t, r.Suggestions(), r.Case.ID)
		// A suggested block verifies against the same model.
		var fields []Field
		for _, x := range r.Suggestions() {
			fields = append(fields, Field{Key: x.Key, Value: parseJSON(jsonValue(x.Value))})
		}
		sc, _ := r.Case.Spec()
		assert.Empty(t, Compare(fields, r.Observed, sc), r.Case.ID)
	}
	assert.Equal(t, "{\n    \"a\": 1,\n    \"b\": \"<x>\"\n  }", FormatExpected([]Suggestion{{Key: "a", Value: 1}, {Key: "b", Value: "<x>"}}, "  "))
}
