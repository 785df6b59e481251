package scenario

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// Change is one difference between an expected and an observed JSON value.
type Change struct {
	// Path is where the difference sits, from the compared value:
	// [3], ["reason"], [2]["effectCount"]; [+2] is an observed element
	// with no expected one, at its observed index; empty for the value
	// itself.
	Path string `json:"path"`
	// Kind is "changed", "missing" (expected, not observed) or "extra"
	// (observed, not expected).
	Kind     string `json:"kind"`
	Expected any    `json:"expected,omitempty"`
	Observed any    `json:"observed,omitempty"`
}

// maxAlign bounds the work of aligning two arrays: past this many pairs of
// elements (after their common head and tail), the rest are compared
// index by index.
const maxAlign = 1 << 20

// Diff lists the differences between two plain JSON values when both are
// arrays or both are objects: elements added, removed or changed, at which
// index or key. Arrays are aligned by a longest common subsequence of
// equal elements, so one element inserted early shows as one extra
// element, not as every later element changed; between two aligned
// elements, the removed and added ones are paired in order and compared,
// and what is left over is missing or extra. Keys are compared in sorted
// order. The result depends only on the two values: the same pair gives
// the same changes on every run. It returns nil for scalars and for values
// of different kinds, whose two sides say enough on their own. At most max
// changes are listed. equal compares two scalars (strings, numbers,
// booleans, null); nil means reflect.DeepEqual.
func Diff(want, got any, max int, equal func(a, b any) bool) []Change {
	if !composite(want, got) {
		return nil
	}
	if equal == nil {
		equal = func(a, b any) bool { return reflect.DeepEqual(a, b) }
	}
	d := &differ{max: max, equal: equal}
	d.value("", want, got)
	return d.changes
}

func composite(want, got any) bool {
	_, wa := want.([]any)
	_, ga := got.([]any)
	_, wo := want.(map[string]any)
	_, gobj := got.(map[string]any)
	return (wa && ga) || (wo && gobj)
}

type differ struct {
	changes []Change
	max     int
	equal   func(a, b any) bool
}

func (d *differ) add(c Change) {
	if len(d.changes) < d.max {
		d.changes = append(d.changes, c)
	}
}

func (d *differ) full() bool { return len(d.changes) >= d.max }

// same reports whether two JSON values are equal, scalars compared by
// d.equal.
func (d *differ) same(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !d.same(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !d.same(v, w) {
				return false
			}
		}
		return true
	}
	switch b.(type) {
	case []any, map[string]any:
		return false
	}
	return d.equal(a, b)
}

func (d *differ) value(path string, want, got any) {
	if d.full() {
		return
	}
	if w, ok := want.(map[string]any); ok {
		if g, ok := got.(map[string]any); ok {
			d.object(path, w, g)
			return
		}
	}
	if w, ok := want.([]any); ok {
		if g, ok := got.([]any); ok {
			d.array(path, w, g)
			return
		}
	}
	if !d.same(want, got) {
		d.add(Change{Path: path, Kind: "changed", Expected: want, Observed: got})
	}
}

func (d *differ) object(path string, want, got map[string]any) {
	keys := make([]string, 0, len(want)+len(got))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if d.full() {
			return
		}
		at := path + "[" + JSONText(k) + "]"
		w, inWant := want[k]
		g, inGot := got[k]
		switch {
		case !inGot:
			d.add(Change{Path: at, Kind: "missing", Expected: w})
		case !inWant:
			d.add(Change{Path: at, Kind: "extra", Observed: g})
		default:
			d.value(at, w, g)
		}
	}
}

func (d *differ) array(path string, want, got []any) {
	// The common head and tail are equal and need no alignment.
	head := 0
	for head < len(want) && head < len(got) && d.same(want[head], got[head]) {
		head++
	}
	tail := 0
	for tail < len(want)-head && tail < len(got)-head && d.same(want[len(want)-1-tail], got[len(got)-1-tail]) {
		tail++
	}
	w, g := want[head:len(want)-tail], got[head:len(got)-tail]
	var matches [][2]int // aligned pairs of equal elements, indexes into w and g
	if len(w) > 0 && len(g) > 0 && len(w)*len(g) <= maxAlign {
		matches = d.align(w, g)
	}
	// Between aligned pairs (and after the last), removed and added
	// elements are paired in order; the rest are missing or extra.
	i, j := 0, 0
	for _, m := range append(matches, [2]int{len(w), len(g)}) {
		for ; i < m[0] && j < m[1]; i, j = i+1, j+1 {
			d.value(path+"["+strconv.Itoa(head+i)+"]", w[i], g[j])
		}
		for ; i < m[0]; i++ {
			d.add(Change{Path: path + "[" + strconv.Itoa(head+i) + "]", Kind: "missing", Expected: w[i]})
		}
		for ; j < m[1]; j++ {
			d.add(Change{Path: path + "[+" + strconv.Itoa(head+j) + "]", Kind: "extra", Observed: g[j]})
		}
		if d.full() {
			return
		}
		i, j = m[0]+1, m[1]+1
	}
}

// align returns a longest common subsequence of w and g as pairs of
// indexes, in order. Of several, it takes the one whose pairs come
// earliest in g: an expected element is let go before an observed one.
func (d *differ) align(w, g []any) [][2]int {
	n, m := len(w), len(g)
	// lcs[i*(m+1)+j] is the length of a longest common subsequence of
	// w[i:] and g[j:].
	lcs := make([]int32, (n+1)*(m+1))
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case d.same(w[i], g[j]):
				lcs[i*(m+1)+j] = lcs[(i+1)*(m+1)+j+1] + 1
			case lcs[(i+1)*(m+1)+j] >= lcs[i*(m+1)+j+1]:
				lcs[i*(m+1)+j] = lcs[(i+1)*(m+1)+j]
			default:
				lcs[i*(m+1)+j] = lcs[i*(m+1)+j+1]
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case d.same(w[i], g[j]) && lcs[i*(m+1)+j] == lcs[(i+1)*(m+1)+j+1]+1:
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case lcs[(i+1)*(m+1)+j] >= lcs[i*(m+1)+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// JSONText renders v as compact JSON with <, > and & left as they are:
// values shown to people are not embedded in HTML.
// A host's unpaired surrogate is written as its escape (\ud800) and an
// exact integer with all its digits, as report.json holds them.
func JSONText(v any) string { return string(jsonx.Append(nil, v)) }
