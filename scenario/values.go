package scenario

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// Values names the language whose values a host reads: what a string of a
// case is and what a number is. A case's given block and its expected
// values are decoded the way the host decodes the same text, and compared
// in that domain.
type Values int

const (
	// The zero value names no language: a family that leaves Values
	// unset is refused by NewRegistry rather than read as one by default.
	_ Values = iota
	// JavaScript: JSON.parse. A string is UTF-16 code units, an unpaired
	// surrogate escape kept; every number is an IEEE double (float64).
	JavaScript
	// Python: json.loads. A string is code points, an unpaired surrogate
	// kept; an integer literal is exact at any size (a json.Number of its
	// digits), any other number a double (float64).
	Python
)

// String names the domain.
func (v Values) String() string {
	switch v {
	case JavaScript:
		return "JavaScript"
	case Python:
		return "Python"
	}
	return "unchosen"
}

// chosen reports whether v is one of the languages.
func (v Values) chosen() bool { return v == JavaScript || v == Python }

// Decode decodes raw, one JSON value, as the host language does. A string
// holding an unpaired surrogate keeps it in WTF-8 form (see
// internal/jsontext). ok is false for text that is not one valid value
// within the readers' depth, or with a number beyond a double.
func (v Values) Decode(raw []byte) (any, bool) {
	if v == Python {
		return jsontext.DecodePy(raw)
	}
	return jsontext.DecodeJS(raw)
}

// numberEqual compares two JSON numbers of a host's domain as its
// language does: doubles by value, an exact integer (json.Number) with
// another by its digits, and an exact integer with a double exactly, as
// Python compares an int with a float (2**53+1 != 2.0**53).
func numberEqual(a, b any) (equal, numbers bool) {
	switch x := a.(type) {
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y, true
		case json.Number:
			return intEqualsFloat(y, x), true
		}
	case json.Number:
		switch y := b.(type) {
		case json.Number:
			return x == y || intEqualsInt(x, y), true
		case float64:
			return intEqualsFloat(x, y), true
		}
	}
	return false, false
}

func bigInt(n json.Number) (*big.Int, bool) {
	return new(big.Int).SetString(string(n), 10)
}

func intEqualsInt(a, b json.Number) bool {
	if x, err := strconv.ParseInt(string(a), 10, 64); err == nil {
		y, err := strconv.ParseInt(string(b), 10, 64)
		if err == nil {
			return x == y
		}
	}
	x, ok1 := bigInt(a)
	y, ok2 := bigInt(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}

func intEqualsFloat(n json.Number, f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
		return false
	}
	// An integral float64 below 2^63 in size is an int64 exactly.
	if x, err := strconv.ParseInt(string(n), 10, 64); err == nil && math.Abs(f) < 1<<63 {
		return x == int64(f)
	}
	x, ok := bigInt(n)
	if !ok {
		return false
	}
	y, _ := new(big.Float).SetFloat64(f).Int(nil)
	return x.Cmp(y) == 0
}

// DomainMatcher is a Comparer that compares as the host's language does
// where the two differ; the engine calls MatchIn with the family's
// domain, and Match only when it has none.
type DomainMatcher interface {
	MatchIn(v Values, want, got any) bool
}

// Match applies c to want and got in the domain v.
func (v Values) Match(c Comparer, want, got any) bool {
	if m, ok := c.(DomainMatcher); ok {
		return m.MatchIn(v, want, got)
	}
	return c.Match(want, got)
}

// A JavaScript string is UTF-16 code units, so a lone high surrogate
// followed by a lone low one is the pair they make, and a substring may
// be half of a pair ("😀".includes("\ude00")). Python's code points do
// neither. jsCanon makes a JavaScript string canonical (a pair written as
// two surrogates becomes its code point), and jsContains searches code
// units when the text sought holds a lone surrogate.

// jsCanon returns s with every pair of surrogates in WTF-8 form joined
// into its code point: the one spelling of each JavaScript string.
func jsCanon(s string) string {
	if strings.IndexByte(s, 0xED) < 0 || !jsontext.HasSurrogate(s) {
		return s
	}
	return jsontext.FromUTF16(jsontext.UTF16(s))
}

// jsCanonValue is v with every string and key made canonical; v itself
// when nothing changes.
func jsCanonValue(v any) any {
	switch x := v.(type) {
	case string:
		return jsCanon(x)
	case []any:
		var out []any
		for i, e := range x {
			if c := jsCanonValue(e); out != nil || !sameValue(c, e) {
				if out == nil {
					out = append(make([]any, 0, len(x)), x[:i]...)
				}
				out = append(out, c)
			}
		}
		if out == nil {
			return x
		}
		return out
	case map[string]any:
		changed := false
		for k, e := range x {
			if jsCanon(k) != k || !sameValue(jsCanonValue(e), e) {
				changed = true
				break
			}
		}
		if !changed {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[jsCanon(k)] = jsCanonValue(e)
		}
		return out
	}
	return v
}

// sameValue reports whether jsCanonValue returned e itself.
func sameValue(c, e any) bool {
	switch x := c.(type) {
	case string:
		y, ok := e.(string)
		return ok && x == y
	case []any:
		y, ok := e.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	case map[string]any:
		y, ok := e.(map[string]any)
		return ok && reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
	}
	return true
}

// contains reports whether sub occurs in s as the domain's language
// finds it.
func (v Values) contains(s, sub string) bool {
	if v == Python {
		return strings.Contains(s, sub)
	}
	s, sub = jsCanon(s), jsCanon(sub)
	if !jsontext.HasSurrogate(sub) {
		return strings.Contains(s, sub)
	}
	hay, needle := jsontext.UTF16(s), jsontext.UTF16(sub)
	for i := 0; i+len(needle) <= len(hay); i++ {
		if slices.Equal(hay[i:i+len(needle)], needle) {
			return true
		}
	}
	return false
}
