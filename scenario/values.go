package scenario

import (
	"encoding/json"
	"math"
	"math/big"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// Values names the language whose values a host reads: what a string of a
// case is and what a number is. A case's given block and its expected
// values are decoded the way the host decodes the same text, and compared
// in that domain.
type Values int

const (
	// JavaScript: JSON.parse. A string is UTF-16 code units, an unpaired
	// surrogate escape kept; every number is an IEEE double (float64).
	JavaScript Values = iota
	// Python: json.loads. A string is code points, an unpaired surrogate
	// kept; an integer literal is exact at any size (a json.Number of its
	// digits), any other number a double (float64).
	Python
)

// String names the domain.
func (v Values) String() string {
	if v == Python {
		return "Python"
	}
	return "JavaScript"
}

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
	x, ok1 := bigInt(a)
	y, ok2 := bigInt(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}

func intEqualsFloat(n json.Number, f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
		return false
	}
	x, ok := bigInt(n)
	if !ok {
		return false
	}
	y, _ := new(big.Float).SetFloat64(f).Int(nil)
	return x.Cmp(y) == 0
}
