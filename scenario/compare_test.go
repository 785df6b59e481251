package scenario

import (
	"encoding/json"
	"math"
	"math/rand"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEqualAgreesWithDeepEqual holds Equal to reflect.DeepEqual on the
// values comparers see and on a few they should not.
func TestEqualAgreesWithDeepEqual(t *testing.T) {
	nan := math.NaN()
	values := []any{
		nil, true, false, 0.0, math.Copysign(0, -1), 1.0, nan, "", "a", "1",
		[]any{nan}, map[string]any{"a": nan},
		1, int64(1), []string{"a"}, []string(nil),
		[]any{}, []any(nil), []any{1.0}, []any{1.0, "a"}, []any{"a", 1.0},
		map[string]any{}, map[string]any(nil), map[string]any{"a": 1.0}, map[string]any{"a": 1.0, "b": nil},
		map[string]any{"a": nil}, map[string]any{"b": nil}, map[string]any{"a": []any{map[string]any{"x": true}}},
		map[string]string{"a": "b"}, json.Number("1"),
	}
	for i, a := range values {
		for j, b := range values {
			want := reflect.DeepEqual(a, b)
			if a == json.Number("1") && b == 1.0 || a == 1.0 && b == json.Number("1") {
				// An exact integer equals the double of its value.
				want = true
			}
			if i == j && (i == 10 || i == 11) {
				// reflect.DeepEqual takes a slice or map compared
				// with itself as equal without looking inside.
				want = false
			}
			assert.Equal(t, want, Equal(a, b), "%#v vs %#v", a, b)
		}
	}

	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		a, b := randomJSON(r, 3), randomJSON(r, 3)
		assert.Equal(t, reflect.DeepEqual(a, b), Equal(a, b), "%#v vs %#v", a, b)
		assert.True(t, Equal(a, clone(a)), "%#v equals its copy", a)
	}
}

// randomJSON draws a small plain JSON value from few atoms, so that equal
// values are drawn often.
func randomJSON(r *rand.Rand, depth int) any {
	switch n := r.Intn(7); {
	case n == 0 || depth == 0 && n >= 5:
		return []any{nil, true, false}[r.Intn(3)]
	case n == 1:
		return float64(r.Intn(3))
	case n == 2:
		return []string{"", "a", "b"}[r.Intn(3)]
	case n < 5:
		if depth == 0 {
			return nil
		}
		out := make([]any, r.Intn(3))
		for i := range out {
			out[i] = randomJSON(r, depth-1)
		}
		return out
	default:
		out := map[string]any{}
		for i := r.Intn(3); i > 0; i-- {
			out[[]string{"a", "b", "c"}[r.Intn(3)]] = randomJSON(r, depth-1)
		}
		return out
	}
}

func clone(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = clone(e)
		}
		return out
	}
	return v
}
