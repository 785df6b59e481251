// Package pyrepr writes values as Python's repr() prints them, for host
// models whose observations are the text a Python program would show.
//
// It covers the types those models print: None, bool, int (Go integers and
// *big.Int), float (shortest round-trip digits, positional or exponent form
// by Python's rule), str and dict in insertion order (Dict). A value may
// also render itself by implementing Reprer. Any other type is written as
// Go formats it with %v, which is not Python text; callers only pass the
// types above.
//
// Strings are quoted as Python quotes them: single quotes unless the text
// holds a single quote and no double quote, with backslash escapes for the
// quote, backslash, \t, \n, \r and other ASCII control characters. Non-ASCII
// characters are kept when Go's unicode.IsPrint accepts them and escaped
// otherwise; Python's str.isprintable differs from it for a few rare code
// points.
//
// Round implements Python's round(x, n) for floats.
package pyrepr

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Reprer is a value that knows its own Python repr.
type Reprer interface {
	PyRepr() string
}

// Item is one entry of a Dict.
type Item struct {
	Key   any
	Value any
}

// Dict is a Python dict: its entries print in slice order, the insertion
// order of the dict it models. Keys are not deduplicated.
type Dict []Item

// PyRepr returns the dict's repr.
func (d Dict) PyRepr() string { return string(appendDict(nil, d)) }

// Repr returns the Python repr of v.
func Repr(v any) string { return string(Append(nil, v)) }

// Append appends the Python repr of v to b.
func Append(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "None"...)
	case bool:
		return AppendBool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int8:
		return strconv.AppendInt(b, int64(x), 10)
	case int16:
		return strconv.AppendInt(b, int64(x), 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case uint:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint8:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint16:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case *big.Int:
		if x == nil {
			return append(b, "None"...)
		}
		return x.Append(b, 10)
	case float64:
		return AppendFloat(b, x)
	case float32:
		return AppendFloat(b, float64(x))
	case string:
		return AppendStr(b, x)
	case Dict:
		return appendDict(b, x)
	case Reprer:
		return append(b, x.PyRepr()...)
	}
	return fmt.Append(b, v)
}

func appendDict(b []byte, d Dict) []byte {
	b = append(b, '{')
	for i, it := range d {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = Append(b, it.Key)
		b = append(b, ": "...)
		b = Append(b, it.Value)
	}
	return append(b, '}')
}

// Bool returns True or False.
func Bool(v bool) string { return string(AppendBool(nil, v)) }

// AppendBool appends True or False.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "True"...)
	}
	return append(b, "False"...)
}

// Int returns the decimal digits of i, with '-' for negatives.
func Int(i int64) string { return strconv.FormatInt(i, 10) }

// Float returns repr(x) for a Python float.
func Float(x float64) string { return string(AppendFloat(nil, x)) }

// AppendFloat appends repr(x) for a Python float: the shortest decimal
// digits that read back to x, in positional notation when the decimal
// exponent e of d.ddd×10^e satisfies −4 ≤ e < 16 (with ".0" appended when
// there is no fractional part), otherwise as d.ddde±XX with at least two
// exponent digits. Negative zero keeps its sign; infinities and NaN print
// as inf, -inf and nan.
func AppendFloat(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, "nan"...)
	case math.IsInf(x, 1):
		return append(b, "inf"...)
	case math.IsInf(x, -1):
		return append(b, "-inf"...)
	}
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], x, 'e', -1, 64)
	// s is [-]d[.ddd]e±XX; Go already writes at least two exponent digits,
	// which is Python's exponent form.
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	ePos := 0
	for ePos < len(s) && s[ePos] != 'e' {
		ePos++
	}
	exp := 0
	for _, c := range s[ePos+2:] {
		exp = exp*10 + int(c-'0')
	}
	if s[ePos+1] == '-' {
		exp = -exp
	}
	if neg {
		b = append(b, '-')
	}
	if exp < -4 || exp >= 16 {
		return append(b, s...)
	}
	// The significant digits without the point.
	var dbuf [20]byte
	digits := append(dbuf[:0], s[0])
	if ePos > 1 {
		digits = append(digits, s[2:ePos]...)
	}
	n := len(digits)
	if exp < 0 {
		b = append(b, "0."...)
		for i := 0; i < -exp-1; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	if exp+1 >= n {
		b = append(b, digits...)
		for i := 0; i < exp+1-n; i++ {
			b = append(b, '0')
		}
		return append(b, ".0"...)
	}
	b = append(b, digits[:exp+1]...)
	b = append(b, '.')
	return append(b, digits[exp+1:]...)
}

// Str returns repr(s) for a Python str.
func Str(s string) string { return string(AppendStr(nil, s)) }

// AppendStr appends repr(s) for a Python str (see the package comment for
// the quoting rules).
func AppendStr(b []byte, s string) []byte {
	quote := byte('\'')
	hasSingle, hasDouble := false, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			hasSingle = true
		case '"':
			hasDouble = true
		}
	}
	if hasSingle && !hasDouble {
		quote = '"'
	}
	b = append(b, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == quote || c == '\\':
				b = append(b, '\\', c)
			case c == '\t':
				b = append(b, `\t`...)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c < 0x20 || c == 0x7f:
				b = appendHex(b, 'x', uint32(c), 2)
			default:
				b = append(b, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Not UTF-8: Python would have a surrogate escape here.
			b = appendHex(b, 'x', uint32(s[i]), 2)
			i++
			continue
		}
		i += size
		switch {
		case unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r <= 0xff:
			b = appendHex(b, 'x', uint32(r), 2)
		case r <= 0xffff:
			b = appendHex(b, 'u', uint32(r), 4)
		default:
			b = appendHex(b, 'U', uint32(r), 8)
		}
	}
	return append(b, quote)
}

func appendHex(b []byte, kind byte, v uint32, width int) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '\\', kind)
	for shift := (width - 1) * 4; shift >= 0; shift -= 4 {
		b = append(b, hex[(v>>uint(shift))&0xf])
	}
	return b
}

// Round returns Python's round(x, places) for a float: the exact binary
// value of x rounded to places decimals (ties to even), then the nearest
// double. The sign of a zero result is kept (round(-0.001, 2) is -0.0).
// Infinities and NaN are returned unchanged. A negative places rounds to
// tens, hundreds and so on, as Python does; a result too large for a double
// (Python's OverflowError) is returned as an infinity.
func Round(x float64, places int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	if places >= 0 {
		// A double has at most 1074 fractional binary digits, so at that
		// many decimals it is already exact; Python returns x unchanged
		// well before that.
		if places > 1100 {
			return x
		}
		r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', places, 64), 64)
		if err != nil {
			return x
		}
		return r
	}
	// Negative places: round x / 10^k to an integer, ties to even, exactly.
	k := -places
	if k > 400 {
		// 10^400 exceeds every double: the result is a signed zero.
		return math.Copysign(0, x)
	}
	exact := new(big.Rat)
	exact.SetFloat64(x)
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
	q := new(big.Rat).Quo(exact, new(big.Rat).SetInt(scale))
	n := roundHalfEven(q)
	n.Mul(n, scale)
	f, _ := new(big.Float).SetInt(n).Float64()
	if f == 0 {
		return math.Copysign(0, x)
	}
	return f
}

// roundHalfEven rounds q to the nearest integer, ties to even.
func roundHalfEven(q *big.Rat) *big.Int {
	num, den := q.Num(), q.Denom()
	quo, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	// Compare 2|rem| with den.
	twice := new(big.Int).Abs(rem)
	twice.Lsh(twice, 1)
	c := twice.Cmp(den)
	if c > 0 || (c == 0 && quo.Bit(0) == 1) {
		if num.Sign() < 0 {
			quo.Sub(quo, big.NewInt(1))
		} else {
			quo.Add(quo, big.NewInt(1))
		}
	}
	return quo
}
