package gemini

import (
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestByPriorityIsSliceStable holds byPriority to sort.SliceStable with
// the engine's less function, both ways, on lists with many ties, long
// enough for the merge steps, and with NaN priorities (which compare
// equal to everything).
func TestByPriorityIsSliceStable(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	values := []float64{1, 1.5, 2, 2.95, 3, 9, -1, 0, math.NaN(), math.Inf(1)}
	for n := 0; n < 200; n += 1 + n/10 {
		for round := 0; round < 5; round++ {
			rules := make([]*Rule, n)
			for i := range rules {
				rules[i] = &Rule{Priority: values[rng.Intn(len(values)-round%3)], Index: i}
			}
			for _, desc := range []bool{true, false} {
				want := append([]*Rule(nil), rules...)
				sort.SliceStable(want, func(i, j int) bool {
					if desc {
						return want[i].Priority > want[j].Priority
					}
					return want[i].Priority < want[j].Priority
				})
				got := append([]*Rule(nil), rules...)
				byPriority(got, desc)
				require.Equal(t, want, got, "n %d round %d desc %v", n, round, desc)
			}
		}
	}
}
