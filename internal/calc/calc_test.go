package calc

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// result returns the tool's view of an evaluation: the value's repr or the
// error text.
func result(expr string, opts Options) string {
	v, err := Eval(expr, opts)
	if err != nil {
		return err.Error()
	}
	return v.PyRepr()
}

func TestGrammar(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want string
	}{
		{"float with trailing point", "1.", "1.0"},
		{"float with leading point", ".5", "0.5"},
		{"all-zeros int", "00", "0"},
		{"float with leading zeros", "00.5", "0.5"},
		{"float with leading zeros before the point", "007.5", "7.5"},
		{"zero", "0", "0"},
		{"leading spaces", "   1+1", "2"},
		{"spaces everywhere", " ( 1 + 2 ) * 7 ", "21"},
		{"unary minus", "-3", "-3"},
		{"unary plus", "+3", "3"},
		{"stacked unary", "--+-3", "-3"},
		{"unary binds tighter than *", "-2*3", "-6"},
		{"unary after an operator", "2*-3", "-6"},
		{"precedence", "1+2*3", "7"},
		{"parentheses", "(1+2)*3", "9"},
		{"left-associative minus", "10-4-3", "3"},
		{"left-associative division", "8/4/2", "1.0"},
		{"nested parentheses", "((((1))))", "1"},
		{"int leading zero", "007", TextUnsupported},
		{"lone point", ".", TextUnsupported},
		{"two points", "1..2", TextUnsupported},
		{"point then number", "1.2.3", TextUnsupported},
		{"power operator", "2**3", TextUnsupported},
		{"star space star", "2* *3", TextUnsupported},
		{"floor division", "7//2", TextUnsupported},
		{"bare operators", "**", TextUnsupported},
		{"bare slashes", "//", TextUnsupported},
		{"implicit multiplication", "2(3)", TextUnsupported},
		{"empty", "", TextUnsupported},
		{"only spaces", "   ", TextUnsupported},
		{"tab", "1\t+1", TextUnsupported},
		{"newline", "1+1\n", TextUnsupported},
		{"exponent literal", "1e5", TextUnsupported},
		{"underscore literal", "1_0", TextUnsupported},
		{"percent", "10%3", TextUnsupported},
		{"letters", "abs(1)", TextUnsupported},
		{"non-ASCII digit", "١", TextUnsupported},
		{"unbalanced open", "(1", TextUnsupported},
		{"unbalanced close", "1)", TextUnsupported},
		{"empty parentheses", "()", TextUnsupported},
		{"adjacent numbers", "1 2", TextUnsupported},
		{"adjacent float and point number", "1 .5", TextUnsupported},
		{"trailing operator", "1+", TextUnsupported},
		{"leading binary operator", "*1", TextUnsupported},
		{"adjacent parenthesised groups", "(1)(2)", TextUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, result(tt.expr, Options{}))
		})
	}
}

func TestEvaluation(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want string
	}{
		{"true division of ints is a float", "100/2", "50.0"},
		{"inexact division", "10/4", "2.5"},
		{"small quotient in exponent form", "1/100000", "1e-05"},
		{"negative zero from int division", "0/-5", "-0.0"},
		{"negative zero literal", "-0.0", "-0.0"},
		{"negative int zero is zero", "-0", "0"},
		{"negative zero minus zero", "-0.0-0", "-0.0"},
		{"int times float", "7*0.5", "3.5"},
		{"int plus float", "1+1.0", "2.0"},
		{"float sum", "0.1+0.2", "0.30000000000000004"},
		{"int arithmetic stays int", "(1+2)*7", "21"},
		{"10^12 is allowed", "1000000*1000000", "1000000000000"},
		{"-10^12 is allowed", "-1000000000000", "-1000000000000"},
		{"float 1e12 is allowed", "1000000000000.0", "1000000000000.0"},
		{"one third", "1/3", "0.3333333333333333"},
		{"long all-zeros literal", "000000000000000000000000000000", "0"},
		{"long literal beyond int64 is out of bounds", "100000000000000000000000000000", TextUnsupported},
		{"long float literal within bounds", "0.10000000000000000000000000000000000001", "0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, result(tt.expr, Options{}))
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		expr string
		kind ErrorKind
		want string
	}{
		{"division by zero", "1/0", DivisionByZero, TextDivisionByZero},
		{"division by float zero", "1/0.0", DivisionByZero, TextDivisionByZero},
		{"division by negative zero", "1/-0.0", DivisionByZero, TextDivisionByZero},
		{"division by a zero result", "1/(2-2)", DivisionByZero, TextDivisionByZero},
		{"zero divided by zero", "0/0", DivisionByZero, TextDivisionByZero},
		{"literal beyond 10^12", "1000000000001", OutOfBounds, TextUnsupported},
		{"float literal beyond 1e12", "1000000000000.5", OutOfBounds, TextUnsupported},
		{"sum beyond 10^12", "1000000*1000000+1", OutOfBounds, TextUnsupported},
		{"negative beyond -10^12", "-1000000000000-1", OutOfBounds, TextUnsupported},
		{"product past int64 is refused, not wrapped", "1000000000000*1000000000000", OutOfBounds, TextUnsupported},
		{"product wrapping to a small int64 is refused", "4294967296*4294967296", OutOfBounds, TextUnsupported},
		{"intermediate out of bounds even if the final is not", "1000000000000*10/10", OutOfBounds, TextUnsupported},
		{"quotient beyond 1e12", "1/0.0000000000001", OutOfBounds, TextUnsupported},
		{"left division by zero wins over a later bound", "1/0+1000000000001", DivisionByZero, TextDivisionByZero},
		{"left bound wins over a later division by zero", "1000000000001+1/0", OutOfBounds, TextUnsupported},
		{"syntax before evaluation", "1/0+", Unsupported, TextUnsupported},
		{"length before syntax", strings.Repeat("x", 121), TooLong, TextTooLong},
		{"syntax before node count", strings.Repeat("1+", 30) + "1)", Unsupported, TextUnsupported},
		{"node count before evaluation", strings.Repeat("1/0+", 10) + strings.Repeat("1+", 10) + "1", TooComplex, TextTooComplex},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Eval(tt.expr, Options{})
			require.Error(t, err)
			var ce *Error
			require.True(t, errors.As(err, &ce))
			assert.Equal(t, tt.kind, ce.Kind)
			assert.Equal(t, tt.want, err.Error())
			assert.NotEmpty(t, ce.Detail)
		})
	}
}

// ones returns "1+1+…+1" with n ones (2n-1 nodes), preceded by a unary
// minus when neg is set (one node more).
func ones(n int, neg bool) string {
	s := strings.TrimSuffix(strings.Repeat("1+", n), "+")
	if neg {
		s = "-" + s
	}
	return s
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name  string
		expr  string
		nodes int
		want  string
	}{
		{"40 nodes", ones(20, true), 40, "18"},
		{"41 nodes", ones(21, false), 41, TextTooComplex},
		{"parentheses are not nodes", "((((((((((1))))))))))+" + ones(19, false), 39, "20"},
		{"unary operators are nodes", strings.Repeat("-", 39) + "1", 40, "-1"},
		{"41 nodes with unary operators", strings.Repeat("-", 40) + "1", 41, TextTooComplex},
		{"120 characters", "1+1" + strings.Repeat(" ", 117), 3, "2"},
		{"121 characters", "1+1" + strings.Repeat(" ", 118), -1, TextTooLong},
		{"120 two-byte characters are not too long", strings.Repeat("é", 120), -1, TextUnsupported},
		{"121 two-byte characters are too long", strings.Repeat("é", 121), -1, TextTooLong},
		{"deep parentheses within the length", strings.Repeat("(", 59) + "1" + strings.Repeat(")", 59), 1, "1"},
		{"deep unary within the length", strings.Repeat("-", 119) + "1", 120, TextTooComplex},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, result(tt.expr, Options{}))
			if tt.nodes >= 0 {
				n, err := Nodes(tt.expr, Options{})
				require.NoError(t, err)
				assert.Equal(t, tt.nodes, n)
			}
		})
	}
}

func TestDepthGuard(t *testing.T) {
	tests := []struct {
		name  string
		depth int
		ok    bool
	}{
		{"at the cap", MaxDepth, true},
		{"past the cap", MaxDepth + 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The length limit keeps Eval far from this depth; parse
			// directly.
			expr := strings.Repeat("(", tt.depth-1) + "1" + strings.Repeat(")", tt.depth-1)
			_, err := parse(expr, Options{})
			if tt.ok {
				assert.Nil(t, err)
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, Unsupported, err.Kind)
		})
	}
}

// TestRandomInputs checks that any string over the calculator's alphabet
// (and a few other characters) gives a value or one of the five texts,
// under every option.
func TestRandomInputs(t *testing.T) {
	texts := map[string]bool{TextTooLong: true, TextUnsupported: true, TextTooComplex: true, TextDivisionByZero: true, TextZeroPower: true}
	tests := []struct {
		name string
		opts Options
	}{
		{"specified calculator", Options{}},
		{"every option", Options{AllowPow: true, IntDivision: true, Unbounded: true, NoNodeLimit: true}},
	}
	const alphabet = "0123456789.+-*/() 9*e\t"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(7))
			for i := 0; i < 20000; i++ {
				b := make([]byte, r.Intn(130))
				for j := range b {
					b[j] = alphabet[r.Intn(len(alphabet))]
				}
				_, err := Eval(string(b), tt.opts)
				if err != nil {
					require.True(t, texts[err.Error()], "%q: %v", b, err)
				}
			}
		})
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"1+1", "(1+2)*7", "2**1000", "1/0", "00.5", "-.5*-(3)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, opts := range []Options{{}, {AllowPow: true, IntDivision: true, Unbounded: true, NoNodeLimit: true}} {
			v, err := Eval(s, opts)
			if err == nil {
				_ = v.PyRepr()
			}
		}
	})
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name string
		expr string
		opts Options
		want string
	}{
		{"pow refused by default", "2**3", Options{}, TextUnsupported},
		{"pow evaluated", "2**3", Options{AllowPow: true}, "8"},
		{"pow result is not bounded", "2**1000", Options{AllowPow: true}, "10715086071862673209484250490600018105614048117055336074437503883703510511249361224931983788156958581275946729175531468251871452856923140435984577574698574803934567774824230985421074605062371141877954182153046474983581941267398767559165543946077062914571196477686542167660429831652624386837205668069376"},
		{"pow binds tighter than unary minus", "-2**2", Options{AllowPow: true}, "-4"},
		{"pow is right-associative", "2**3**2", Options{AllowPow: true}, "512"},
		{"negative exponent gives a float", "2**-1", Options{AllowPow: true}, "0.5"},
		{"float pow", "2.0**0.5", Options{AllowPow: true}, "1.4142135623730951"},
		{"zero to a negative power", "0**-1", Options{AllowPow: true}, TextZeroPower},
		{"negative base, fractional exponent", "(-8)**0.5", Options{AllowPow: true}, TextUnsupported},
		{"float pow overflow", "9.0**999", Options{AllowPow: true}, TextUnsupported},
		{"huge int pow is capped", "2**100000", Options{AllowPow: true}, TextUnsupported},
		{"pow operands are still bounded", "(-1)**1000000000001", Options{AllowPow: true}, TextUnsupported},
		{"minus one to a large odd power", "(-1)**999999999999", Options{AllowPow: true}, "-1"},
		{"minus one to a large even power", "(-1)**1000000", Options{AllowPow: true}, "1"},
		{"pow result still bounded later", "2**1000+1", Options{AllowPow: true}, TextUnsupported},
		{"pow is a node", "2**2", Options{AllowPow: true}, "4"},
		{"exact int division gives an int", "100/2", Options{IntDivision: true}, "50"},
		{"inexact int division stays a float", "10/4", Options{IntDivision: true}, "2.5"},
		{"float division unchanged", "100.0/2", Options{IntDivision: true}, "50.0"},
		{"int division still refuses zero", "1/0", Options{IntDivision: true}, TextDivisionByZero},
		{"unbounded literal", "1000000000001", Options{Unbounded: true}, "1000000000001"},
		{"unbounded product past int64", "1000000000000*1000000000000", Options{Unbounded: true}, "1000000000000000000000000"},
		{"unbounded big int division", "1000000000000000000000/3", Options{Unbounded: true}, "3.333333333333333e+20"},
		{"unbounded big int times float", "100000000000000000000*1.5", Options{Unbounded: true}, "1.5e+20"},
		{"unbounded big int minus itself", "100000000000000000000-100000000000000000000", Options{Unbounded: true}, "0"},
		{"no node limit", ones(21, false), Options{NoNodeLimit: true}, "21"},
		{"no node limit keeps the length limit", ones(61, false), Options{NoNodeLimit: true}, TextTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, result(tt.expr, tt.opts))
		})
	}
}

func TestValue(t *testing.T) {
	tests := []struct {
		name    string
		expr    string
		isFloat bool
		f       float64
	}{
		{"int result", "6*7", false, 42},
		{"float result", "100/2", true, 50},
		{"negative zero", "0/-5", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Eval(tt.expr, Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.isFloat, v.IsFloat())
			assert.Equal(t, tt.f, v.Float64())
			i, ok := v.Int64()
			assert.Equal(t, !tt.isFloat, ok)
			if ok {
				assert.Equal(t, int64(tt.f), i)
			}
			assert.Equal(t, v.PyRepr(), v.String())
		})
	}
}

// TestLoneSurrogateIsOneCharacter: Python counts a lone surrogate as one
// character, and the refusal names it by its escape.
func TestLoneSurrogateIsOneCharacter(t *testing.T) {
	_, err := Eval("1+\xed\xa0\x80", Options{})
	var ce *Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `character '\ud800' at byte 2 is not allowed`, ce.Detail)
	long := strings.Repeat("1", MaxLength-1) + "\xed\xa0\x80"
	_, err = Eval(long, Options{})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "characters >", "the limit counts the surrogate once")
}
