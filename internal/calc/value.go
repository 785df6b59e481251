package calc

import (
	"math"
	"math/big"

	"github.com/deskcheck/deskcheck/internal/pyrepr"
)

// Value is a calculator value with Python's numeric type: an int or a
// float. Ints that fit in an int64 are held as one; larger ints (possible
// only when a fault lifts the bounds) are held as a *big.Int.
type Value struct {
	isFloat bool
	i       int64
	big     *big.Int // non-nil for an int outside int64
	f       float64
}

// Int returns the int value i.
func Int(i int64) Value { return Value{i: i} }

// Float returns the float value f.
func Float(f float64) Value { return Value{isFloat: true, f: f} }

// bigInt returns the int value n, held as an int64 when it fits.
func bigInt(n *big.Int) Value {
	if n.IsInt64() {
		return Value{i: n.Int64()}
	}
	return Value{big: n}
}

// IsFloat reports whether v is a Python float (else it is an int).
func (v Value) IsFloat() bool { return v.isFloat }

// Int64 returns v as an int64 when v is an int that fits.
func (v Value) Int64() (int64, bool) {
	if v.isFloat || v.big != nil {
		return 0, false
	}
	return v.i, true
}

// BigInt returns v as a new *big.Int when v is an int.
func (v Value) BigInt() (*big.Int, bool) {
	if v.isFloat {
		return nil, false
	}
	if v.big != nil {
		return new(big.Int).Set(v.big), true
	}
	return big.NewInt(v.i), true
}

// Float64 returns v as a double: a float as it is, an int rounded to the
// nearest double (ties to even), as Python's float(v) does; an int too
// large for a double gives an infinity where Python raises OverflowError.
func (v Value) Float64() float64 {
	switch {
	case v.isFloat:
		return v.f
	case v.big != nil:
		f, _ := new(big.Float).SetInt(v.big).Float64()
		return f
	}
	return float64(v.i)
}

// PyRepr returns Python's repr of v: `2`, `50.0`, `1e-05`, `-0.0`.
func (v Value) PyRepr() string {
	switch {
	case v.isFloat:
		return pyrepr.Float(v.f)
	case v.big != nil:
		return v.big.String()
	}
	return pyrepr.Int(v.i)
}

// String returns the same text as PyRepr.
func (v Value) String() string { return v.PyRepr() }

// isZero reports whether v is 0, 0.0 or -0.0.
func (v Value) isZero() bool {
	if v.isFloat {
		return v.f == 0
	}
	return v.big == nil && v.i == 0
}

// finite reports whether v is an int or a finite float.
func (v Value) finite() bool {
	return !v.isFloat || !(math.IsInf(v.f, 0) || math.IsNaN(v.f))
}

// withinBound reports whether |v| ≤ 10^12: ints compared exactly, floats
// with 1e12. A non-finite float is never within bounds.
func (v Value) withinBound() bool {
	switch {
	case v.isFloat:
		return v.finite() && math.Abs(v.f) <= Bound
	case v.big != nil:
		return false
	}
	return v.i >= -Bound && v.i <= Bound
}

// bitLen returns the bit length of |v| for an int.
func (v Value) bitLen() int {
	if v.big != nil {
		return v.big.BitLen()
	}
	u := v.i
	if u < 0 {
		if u == math.MinInt64 {
			return 64
		}
		u = -u
	}
	n := 0
	for u != 0 {
		n++
		u >>= 1
	}
	return n
}
