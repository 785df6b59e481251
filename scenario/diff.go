package scenario

import (
	"github.com/deskcheck/deskcheck/internal/jsonx"

	"reflect"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Change is one difference between an expected and an observed JSON value.
type Change struct {
	// Path is where the difference sits, from the compared value:
	// [3], ["reason"], [2]["effectCount"]; empty for the value itself.
	Path string `json:"path"`
	// Kind is "changed", "missing" (expected, not observed) or "extra"
	// (observed, not expected).
	Kind     string `json:"kind"`
	Expected any    `json:"expected,omitempty"`
	Observed any    `json:"observed,omitempty"`
}

// Diff lists the differences between two plain JSON values when both are
// arrays or both are objects: elements added, removed or changed, at which
// index or key. Arrays are aligned by go-cmp's edit script, so one element
// inserted early shows as one extra element, not as every later element
// changed. It returns nil for scalars and for values of different kinds,
// whose two sides say enough on their own. At most max changes are listed.
func Diff(want, got any, max int) []Change {
	if !composite(want, got) {
		return nil
	}
	r := &diffReporter{max: max}
	cmp.Equal(want, got, cmp.Reporter(r))
	return r.changes
}

func composite(want, got any) bool {
	_, wa := want.([]any)
	_, ga := got.([]any)
	_, wo := want.(map[string]any)
	_, gobj := got.(map[string]any)
	return (wa && ga) || (wo && gobj)
}

// diffReporter collects the leaves go-cmp reports unequal.
type diffReporter struct {
	path    cmp.Path
	changes []Change
	max     int
}

func (r *diffReporter) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *diffReporter) PopStep()                 { r.path = r.path[:len(r.path)-1] }

func (r *diffReporter) Report(rs cmp.Result) {
	if rs.Equal() || len(r.changes) >= r.max {
		return
	}
	vx, vy := r.path.Last().Values()
	c := Change{Path: pathText(r.path), Kind: "changed"}
	switch {
	case !vx.IsValid():
		c.Kind, c.Observed = "extra", value(vy)
	case !vy.IsValid():
		c.Kind, c.Expected = "missing", value(vx)
	default:
		c.Expected, c.Observed = value(vx), value(vy)
	}
	r.changes = append(r.changes, c)
}

func value(v reflect.Value) any {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	return v.Interface()
}

// pathText writes the path in index and key steps, skipping go-cmp's type
// assertions of interface values.
func pathText(p cmp.Path) string {
	var b strings.Builder
	for _, s := range p {
		switch x := s.(type) {
		case cmp.SliceIndex:
			kx, ky := x.SplitKeys()
			switch {
			case kx == ky:
				b.WriteString("[" + strconv.Itoa(kx) + "]")
			case kx < 0:
				b.WriteString("[+" + strconv.Itoa(ky) + "]")
			default:
				b.WriteString("[" + strconv.Itoa(kx) + "]")
			}
		case cmp.MapIndex:
			b.WriteString("[" + JSONText(x.Key().Interface()) + "]")
		}
	}
	return b.String()
}

// JSONText renders v as compact JSON with <, > and & left as they are:
// values shown to people are not embedded in HTML.
// A host's unpaired surrogate is written as its escape (\ud800) and an
// exact integer with all its digits, as report.json holds them.
func JSONText(v any) string { return string(jsonx.Append(nil, v)) }
