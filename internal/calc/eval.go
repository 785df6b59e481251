package calc

import (
	"math"
	"math/big"
	"math/bits"
)

type evaluator struct {
	t    *tree
	opts Options
}

// eval evaluates node i post-order, left operand before right, checking
// every value as soon as it is computed.
func (e *evaluator) eval(i int32) (Value, *Error) {
	n := e.t.nodes[i]
	var a, b, v Value
	switch n.op {
	case opNum:
		v = literal(n)
	case opNeg, opPos:
		var err *Error
		if a, err = e.eval(n.left); err != nil {
			return Value{}, err
		}
		v = a
		if n.op == opNeg {
			v = neg(a)
		}
	default:
		var err *Error
		if a, err = e.eval(n.left); err != nil {
			return Value{}, err
		}
		if b, err = e.eval(n.right); err != nil {
			return Value{}, err
		}
		switch n.op {
		case opAdd:
			v = add(a, b)
		case opSub:
			v = sub(a, b)
		case opMul:
			v = mul(a, b)
		case opDiv:
			if b.isZero() {
				return Value{}, errorf(DivisionByZero, "%s / %s", a.PyRepr(), b.PyRepr())
			}
			v = e.div(a, b)
		case opPow:
			return e.pow(a, b)
		}
	}
	if !v.finite() || (!e.opts.Unbounded && !v.withinBound()) {
		return Value{}, boundsError(n, a, b, v)
	}
	return v, nil
}

// boundsError explains why v, the value of node n with operands a and b,
// was refused.
func boundsError(n node, a, b, v Value) *Error {
	var what string
	switch n.op {
	case opNum:
		what = "literal " + n.lit
	case opNeg:
		what = "-(" + a.PyRepr() + ") = " + v.PyRepr()
	case opPos:
		what = "+(" + a.PyRepr() + ") = " + v.PyRepr()
	default:
		sym := map[byte]string{opAdd: " + ", opSub: " - ", opMul: " * ", opDiv: " / "}[n.op]
		what = a.PyRepr() + sym + b.PyRepr() + " = " + v.PyRepr()
	}
	if !v.finite() {
		return errorf(OutOfBounds, "%s is not finite", what)
	}
	return errorf(OutOfBounds, "%s exceeds 10^12 in absolute value", what)
}

func neg(v Value) Value {
	switch {
	case v.isFloat:
		return Float(-v.f)
	case v.big != nil:
		return bigInt(new(big.Int).Neg(v.big))
	case v.i == math.MinInt64:
		return bigInt(new(big.Int).Neg(big.NewInt(v.i)))
	}
	return Int(-v.i)
}

func add(a, b Value) Value {
	if a.isFloat || b.isFloat {
		return Float(float64(a.Float64() + b.Float64()))
	}
	if a.big == nil && b.big == nil {
		s := a.i + b.i
		// Overflow when both operands have the same sign and the sum's
		// sign differs.
		if (a.i >= 0) == (b.i >= 0) && (s >= 0) != (a.i >= 0) {
			return bigInt(new(big.Int).Add(big.NewInt(a.i), big.NewInt(b.i)))
		}
		return Int(s)
	}
	x, _ := a.BigInt()
	y, _ := b.BigInt()
	return bigInt(x.Add(x, y))
}

// sub is a - b. For floats it is one IEEE subtraction, not a + (-b): the
// two differ in the sign of a zero result (-0.0 - 0 is -0.0).
func sub(a, b Value) Value {
	if a.isFloat || b.isFloat {
		return Float(float64(a.Float64() - b.Float64()))
	}
	return add(a, neg(b))
}

func mul(a, b Value) Value {
	if a.isFloat || b.isFloat {
		return Float(float64(a.Float64() * b.Float64()))
	}
	if a.big == nil && b.big == nil {
		// Multiply the magnitudes in 128 bits, so an overflow is seen
		// before any bounds check rather than wrapped.
		ua, ub := absU(a.i), absU(b.i)
		hi, lo := bits.Mul64(ua, ub)
		negative := (a.i < 0) != (b.i < 0)
		if hi == 0 && lo <= math.MaxInt64 {
			if negative {
				return Int(-int64(lo))
			}
			return Int(int64(lo))
		}
	}
	x, _ := a.BigInt()
	y, _ := b.BigInt()
	return bigInt(x.Mul(x, y))
}

func absU(i int64) uint64 {
	if i < 0 {
		return uint64(-(i + 1)) + 1
	}
	return uint64(i)
}

// div is true division; b is not zero.
func (e *evaluator) div(a, b Value) Value {
	if a.isFloat || b.isFloat {
		return Float(float64(a.Float64() / b.Float64()))
	}
	x, _ := a.BigInt()
	y, _ := b.BigInt()
	if e.opts.IntDivision {
		q, r := new(big.Int).QuoRem(x, y, new(big.Int))
		if r.Sign() == 0 {
			return bigInt(q)
		}
	}
	const exact = 1 << 53
	if a.big == nil && b.big == nil && a.i > -exact && a.i < exact && b.i > -exact && b.i < exact {
		// Both are exact doubles, so one IEEE division is correctly
		// rounded, as Python's int/int is.
		return Float(float64(a.i) / float64(b.i))
	}
	f, _ := new(big.Rat).SetFrac(x, y).Float64()
	if f == 0 && (x.Sign() < 0) != (y.Sign() < 0) {
		f = math.Copysign(0, -1)
	}
	return Float(f)
}

// pow is Python's a ** b, available only with AllowPow. Its result is not
// bounds-checked (that is the bug the option models); it must still be
// finite and, for an int, at most MaxPowBits bits.
func (e *evaluator) pow(a, b Value) (Value, *Error) {
	what := a.PyRepr() + " ** " + b.PyRepr()
	if !a.isFloat && !b.isFloat && b.big == nil && b.i >= 0 {
		if a.big == nil && (a.i == 0 || a.i == 1 || a.i == -1) {
			r := big.NewInt(a.i)
			if b.i == 0 {
				r.SetInt64(1)
			} else if a.i == -1 && b.i%2 == 0 {
				r.SetInt64(1)
			}
			return bigInt(r), nil
		}
		// |a| ≥ 2 here, so the result has more than (bitLen(a)-1)·b bits
		// and at most bitLen(a)·b ≤ 2·(bitLen(a)-1)·b: refuse early what
		// is certainly too big, compute the rest and measure it.
		if uint64(a.bitLen()-1)*uint64(b.i) > MaxPowBits {
			return Value{}, errorf(OutOfBounds, "%s has more than %d bits", what, MaxPowBits)
		}
		x, _ := a.BigInt()
		r := x.Exp(x, big.NewInt(b.i), nil)
		if r.BitLen() > MaxPowBits {
			return Value{}, errorf(OutOfBounds, "%s has more than %d bits", what, MaxPowBits)
		}
		return bigInt(r), nil
	}
	x, y := a.Float64(), b.Float64()
	if x == 0 && y < 0 {
		return Value{}, errorf(ZeroPower, "%s", what)
	}
	if x < 0 && y != math.Trunc(y) {
		return Value{}, errorf(OutOfBounds, "%s is a complex number", what)
	}
	r := math.Pow(x, y)
	if math.IsInf(r, 0) || math.IsNaN(r) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return Value{}, errorf(OutOfBounds, "%s is not finite", what)
	}
	return Float(r), nil
}
