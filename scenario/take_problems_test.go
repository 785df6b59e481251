package scenario

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTakeProblemsHandsWarningsOverOnce: lint takes a case's problems;
// the case then keeps its errors alone (a case may have a warning per
// element of its script, and a desk holds its cases until they run). A
// second take plans the case again from its expected block and gives the
// same problems; a case whose plan gave no warning is never planned again.
func TestTakeProblemsHandsWarningsOverOnce(t *testing.T) {
	plans := 0
	sc := Declare(&Scenario{Name: "take", Unit: "step"}, Kind[int, struct{}, struct{}]{
		Decode: func(b []byte) (int, error) { return strconv.Atoi(string(b)) },
		Plan: func(n int, expected []Field) Plan[struct{}] {
			plans++
			var ps []Problem
			for i := range n {
				ps = append(ps, Problem{Pointer: "/given/" + strconv.Itoa(i), Warning: true, Name: "w", Message: "warned"})
			}
			ps = append(ps, Problem{Pointer: "/given", Message: "an error", OutsideModel: true})
			for _, f := range expected {
				ps = append(ps, Problem{Pointer: "/expected/" + f.Key, Warning: true, Name: "e", Message: string(f.Raw)})
			}
			return Plan[struct{}]{Problems: ps}
		},
		Run:     func(context.Context, int, Env) (Observation, struct{}, error) { return Observation{}, struct{}{}, nil },
		Suggest: func(int, map[string]any) []string { return nil },
	})
	expected := []Field{{Key: "k", Raw: []byte(`"v"`)}}
	again := 0
	expectedAgain := func() []Field { again++; return expected }

	c := sc.Compile([]byte(`3`), expected)
	require.NoError(t, c.Err())
	all := c.Problems()
	require.Len(t, all, 5, "three warnings, the error, the expected key's warning")
	assert.Equal(t, all, c.TakeProblems(expectedAgain))
	assert.Equal(t, []Problem{{Pointer: "/given", Message: "an error", OutsideModel: true}}, c.Problems(), "the errors alone are kept")
	assert.Equal(t, 0, again, "the first take does not plan again")
	assert.Equal(t, all, c.TakeProblems(expectedAgain), "a second take gives the same problems")
	assert.Equal(t, 1, again)
	assert.Equal(t, 2, plans)

	plans, again = 0, 0
	quiet := sc.Compile([]byte(`0`), nil)
	errs := quiet.Problems()
	require.Len(t, errs, 1)
	assert.Equal(t, errs, quiet.TakeProblems(expectedAgain))
	assert.Equal(t, errs, quiet.TakeProblems(expectedAgain))
	assert.Equal(t, errs, quiet.Problems())
	assert.Equal(t, 0, again, "no warning: nothing to plan again")
	assert.Equal(t, 1, plans)
}
