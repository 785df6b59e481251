package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDiff(t *testing.T) {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tt := range []struct {
		name      string
		want, got any
		changes   []Change
	}{
		{"scalars say enough", 1.0, 2.0, nil},
		{"different kinds say enough", []any{1.0}, obj("a", 1.0), nil},
		{"equal", []any{1.0, obj("a", "x")}, []any{1.0, obj("a", "x")}, nil},
		{"one inserted early is one extra", []any{"a", "b", "c"}, []any{"x", "a", "b", "c"},
			[]Change{{Path: "[+0]", Kind: "extra", Observed: "x"}}},
		{"one removed is one missing", []any{"a", "b", "c"}, []any{"a", "c"},
			[]Change{{Path: "[1]", Kind: "missing", Expected: "b"}}},
		{"one changed in place", []any{"a", "b", "c"}, []any{"a", "x", "c"},
			[]Change{{Path: "[1]", Kind: "changed", Expected: "b", Observed: "x"}}},
		{"a changed element's own changes", []any{obj("n", 1.0, "k", "a")}, []any{obj("n", 2.0, "k", "a")},
			[]Change{{Path: `[0]["n"]`, Kind: "changed", Expected: 1.0, Observed: 2.0}}},
		{"keys in order", obj("b", 1.0, "a", 1.0, "c", 1.0), obj("c", 2.0, "d", 1.0, "b", 1.0),
			[]Change{{Path: `["a"]`, Kind: "missing", Expected: 1.0}, {Path: `["c"]`, Kind: "changed", Expected: 1.0, Observed: 2.0}, {Path: `["d"]`, Kind: "extra", Observed: 1.0}}},
		{"two swapped: the earlier kept", []any{"a", "b"}, []any{"b", "a"},
			[]Change{{Path: "[0]", Kind: "missing", Expected: "a"}, {Path: "[+1]", Kind: "extra", Observed: "a"}}},
		{"a longer tail is extra", []any{"a"}, []any{"a", "b", "c"},
			[]Change{{Path: "[+1]", Kind: "extra", Observed: "b"}, {Path: "[+2]", Kind: "extra", Observed: "c"}}},
		{"types differ", []any{1.0}, []any{"1"}, []Change{{Path: "[0]", Kind: "changed", Expected: 1.0, Observed: "1"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.changes, Diff(tt.want, tt.got, 20, nil))
		})
	}
}

// TestDiffTakesOneAlignment: where several alignments are equally long,
// the one taken is fixed by the values alone, the earliest pairs in the
// observed array (go-cmp chose by a coin tossed once a second, so two
// runs of one binary gave two lists).
func TestDiffTakesOneAlignment(t *testing.T) {
	// Past the equal tail (c, a): [a b a b] against [b a b a c], where
	// "a b a" and "b a b" are both longest; "b a b" pairs earlier in
	// the observed array.
	want := []any{"a", "b", "a", "b", "c", "a"}
	got := []any{"b", "a", "b", "a", "c", "c", "a"}
	assert.Equal(t, []Change{
		{Path: "[0]", Kind: "missing", Expected: "a"},
		{Path: "[+3]", Kind: "extra", Observed: "a"},
		{Path: "[+4]", Kind: "extra", Observed: "c"},
	}, Diff(want, got, 20, nil))
}

// TestDiffBounds: at most max changes, and arrays too large to align are
// compared index by index (after their common head and tail).
func TestDiffBounds(t *testing.T) {
	want, got := make([]any, 2000), make([]any, 2000)
	for i := range want {
		want[i], got[i] = float64(i), float64(i+1)
	}
	assert.Len(t, Diff(want, got, 5, nil), 5)
	assert.Len(t, Diff(want, got, 20000, nil), 2000, "2,000 × 2,000 is past the alignment's bound: each index changed")
	small := Diff(want[:10], got[:10], 100, nil)
	assert.Equal(t, []Change{{Path: "[0]", Kind: "missing", Expected: 0.0}, {Path: "[+9]", Kind: "extra", Observed: 10.0}}, small, "aligned: one shift")
}

// TestDiffComparesScalarsWithEqual: the caller's equality decides what a
// scalar change is (a host's domain: the integer 1 and the double 1).
func TestDiffComparesScalarsWithEqual(t *testing.T) {
	loose := func(a, b any) bool { return JSONText(a) == JSONText(b) }
	assert.Empty(t, Diff([]any{1.0, "x"}, []any{1.0, "x"}, 20, loose))
	assert.Equal(t, []Change{{Path: "[1]", Kind: "changed", Expected: "x", Observed: "y"}}, Diff([]any{1.0, "x"}, []any{1.0, "y"}, 20, loose))
}
