package scenario

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompileTurnsAPanicIntoTheCaseError: a family whose reading of a
// case panics, in Decode or in Plan, leaves that case an error that says
// so, and nothing else: it runs to that error, and plans nothing.
func TestCompileTurnsAPanicIntoTheCaseError(t *testing.T) {
	for _, where := range []string{"decode", "plan"} {
		sc := Declare(&Scenario{Name: "panics-in-" + where, Unit: "step"}, Kind[[]string, struct{}, struct{}]{
			Decode: func([]byte) ([]string, error) {
				if where == "decode" {
					var none []string
					_ = none[0]
				}
				return nil, nil
			},
			Plan: func(g []string, _ []Field) Plan[struct{}] {
				_ = g[0]
				return Plan[struct{}]{Permitted: 1}
			},
			Run: func(context.Context, []string, Env) (Observation, struct{}, error) {
				t.Fatal("a case its family could not read was run")
				return Observation{}, struct{}{}, nil
			},
			Suggest: func([]string, map[string]any) []string { return nil },
		})
		var c *Compiled
		require.NotPanics(t, func() { c = sc.Compile([]byte(`{}`), nil) }, where)
		require.Error(t, c.Err(), where)
		assert.Contains(t, c.Err().Error(), "panic while reading the case (a fault of deskcheck's model, not of the desk: please report it with the case): runtime error: index out of range [0] with length 0", where)
		_, err := c.Run(context.Background(), Env{})
		assert.Equal(t, c.Err(), err, where)
		permitted, denied := c.Script()
		assert.Equal(t, [2]int{0, 0}, [2]int{permitted, denied}, where)
		assert.Empty(t, c.Problems(), where)
		assert.Nil(t, c.Suggest(nil), where)
	}
}
