package scenario

import (
	"encoding/json"
	"reflect"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// Comparer decides whether an observed value satisfies an expected one.
// Both are plain JSON values: nil, bool, float64, string, []any and
// map[string]any.
type Comparer interface {
	// Name says how values are compared, in words a report shows.
	Name() string
	Match(want, got any) bool
}

// Parter is a Comparer whose mismatches are best shown part by part (one
// per audit field, say). Parts returns one Part per difference; the engine
// names each mismatch key+Part.Name.
type Parter interface {
	Comparer
	Parts(want, got any) []Part
}

// Part is one named difference inside a value.
type Part struct {
	Name     string
	Expected any
	Observed any
}

// The built-in comparers.
var (
	// Exact: counts, booleans and words must be equal, type included.
	Exact Comparer = &builtin{"exact", equalIn}
	// JSONEqual: equal as JSON values (key order and number spelling
	// aside).
	JSONEqual Comparer = &builtin{"JSON-equal", equalIn}
	// Substring: the expected text occurs in the observed text.
	Substring Comparer = &builtin{"substring", substring}
	// AnySubstring: the expected text occurs in at least one observed text.
	AnySubstring Comparer = &builtin{"substring of any", anySubstring}
	// Absent: the expected text (not empty) occurs in no string of the
	// observed value, neither a value nor a key, at any depth.
	Absent Comparer = &builtin{"absent", absent}
)

// equalIn is Equal in the domain v: JavaScript strings are compared in
// their one spelling (see jsCanon).
func equalIn(v Values, want, got any) bool {
	if Equal(want, got) {
		return true
	}
	return v == JavaScript && Equal(jsCanonValue(want), jsCanonValue(got))
}

// Equal reports whether two values are deeply equal, as reflect.DeepEqual
// says, without reflection for plain JSON values (nil, bool, float64,
// json.Number, string, []any, map[string]any); other values go to
// reflect.DeepEqual. Numbers compare by their exact value: a json.Number
// (an exact integer of a Python host) equals another of the same value,
// and a float64 only when the double is exactly that integer.
// One difference, which JSON values never meet: a NaN is unequal to
// itself even inside a slice or map compared with itself.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		if y, ok := b.(float64); ok {
			return x == y
		}
		eq, _ := numberEqual(x, b)
		return eq
	case json.Number:
		eq, _ := numberEqual(x, b)
		return eq
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, v := range x {
			w, found := y[k]
			if !found || !Equal(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

type builtin struct {
	name  string
	match func(v Values, want, got any) bool
}

func (b *builtin) Name() string { return b.name }

// Match compares as a JavaScript host does (where the domains differ).
func (b *builtin) Match(want, got any) bool { return b.match(JavaScript, want, got) }

// MatchIn compares in the domain v.
func (b *builtin) MatchIn(v Values, want, got any) bool { return b.match(v, want, got) }

func substring(v Values, want, got any) bool {
	w, ok1 := want.(string)
	g, ok2 := got.(string)
	return ok1 && ok2 && v.contains(g, w)
}

func anySubstring(v Values, want, got any) bool {
	w, ok := want.(string)
	list, _ := got.([]any)
	for _, g := range list {
		if s, isStr := g.(string); ok && isStr && v.contains(s, w) {
			return true
		}
	}
	return false
}

func absent(in Values, want, got any) bool {
	w, ok := want.(string)
	if !ok || w == "" {
		return false
	}
	var occurs func(v any) bool
	occurs = func(v any) bool {
		switch x := v.(type) {
		case string:
			return in.contains(x, w)
		case []any:
			for _, e := range x {
				if occurs(e) {
					return true
				}
			}
		case map[string]any:
			for k, e := range x {
				if in.contains(k, w) || occurs(e) {
					return true
				}
			}
		}
		return false
	}
	return !occurs(got)
}

// Count is n as an observed count: the float64 a JSON number decodes to,
// those of 0 to 255 the values the desk reader gives too
// (jsontext.Float), made once.
func Count(n int) any { return jsontext.Float(n) }

// Normalize turns an observed Go value into the plain JSON form expected
// values take (float64 numbers, []any, map[string]any), so that they
// compare as JSON. Common shapes are converted directly; anything else
// goes through encoding/json.
func Normalize(v any) any {
	switch x := v.(type) {
	case nil, bool, string, float64, json.Number:
		return x
	case int:
		return Count(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case []any:
		if isPlain(x) {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Normalize(e)
		}
		return out
	case map[string]any:
		if isPlain(x) {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Normalize(e)
		}
		return out
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return string(b)
	}
	return out
}

// isPlain tells whether v is already in plain JSON form, so that Normalize
// can return it as it is instead of copying it.
func isPlain(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, float64, json.Number:
		return true
	case []any:
		for _, e := range x {
			if !isPlain(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !isPlain(e) {
				return false
			}
		}
		return true
	}
	return false
}
