package pyrepr

import (
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFloat(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{"integral float gets .0", 50.0, "50.0"},
		{"fraction", 2.5, "2.5"},
		{"negative zero keeps its sign", math.Copysign(0, -1), "-0.0"},
		{"positive zero", 0, "0.0"},
		{"e = -4 is positional", 0.0001, "0.0001"},
		{"e = -5 is exponent form", 0.00001, "1e-05"},
		{"shortest digits in exponent form", atRunTime(1) / 3000000, "3.3333333333333335e-07"},
		{"shortest digits positional", atRunTime(0.1) + 0.2, "0.30000000000000004"},
		{"10^12 positional with .0", 1e12, "1000000000000.0"},
		{"e = 15 is positional", 1234567890123456, "1234567890123456.0"},
		{"e = 16 is exponent form", 1e16, "1e+16"},
		{"exponent with fraction digits", 1.5e300, "1.5e+300"},
		{"three exponent digits", 1e-100, "1e-100"},
		{"smallest subnormal", 5e-324, "5e-324"},
		{"largest double", math.MaxFloat64, "1.7976931348623157e+308"},
		{"negative positional", -2.75, "-2.75"},
		{"negative exponent form", -1e-7, "-1e-07"},
		{"one third", atRunTime(1) / 3, "0.3333333333333333"},
		{"digits before and after the point", 123.456, "123.456"},
		{"trailing zeros filled", 1.5e10, "15000000000.0"},
		{"infinity", math.Inf(1), "inf"},
		{"negative infinity", math.Inf(-1), "-inf"},
		{"not a number", math.NaN(), "nan"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Float(tt.in))
			assert.Equal(t, tt.want, Repr(tt.in))
		})
	}
}

// TestFloatProperty checks the rule on random doubles: the text reads back
// to the same double, and it is in exponent form exactly when the decimal
// exponent e of the shortest digits is outside −4 ≤ e < 16.
func TestFloatProperty(t *testing.T) {
	tests := []struct {
		name string
		gen  func(r *rand.Rand) float64
	}{
		{"random bit patterns", func(r *rand.Rand) float64 { return math.Float64frombits(r.Uint64()) }},
		{"magnitudes around the switch points", func(r *rand.Rand) float64 {
			return (r.Float64() - 0.5) * math.Pow(10, float64(r.Intn(30)-10))
		}},
		{"short decimals", func(r *rand.Rand) float64 {
			return float64(r.Int63n(1<<40)-1<<39) / math.Pow(10, float64(r.Intn(12)))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(20260331))
			for i := 0; i < 50000; i++ {
				x := tt.gen(r)
				if math.IsNaN(x) || math.IsInf(x, 0) {
					continue
				}
				s := Float(x)
				back, err := strconv.ParseFloat(s, 64)
				require.NoError(t, err, s)
				require.Equal(t, math.Float64bits(x), math.Float64bits(back), "%s does not read back to %v", s, x)

				e := strconv.FormatFloat(x, 'e', -1, 64)
				exp, err := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
				require.NoError(t, err)
				positional := exp >= -4 && exp < 16
				require.Equal(t, !positional, strings.ContainsRune(s, 'e'), "%s (e = %d)", s, exp)
				if positional {
					require.Contains(t, s, ".", "%s: positional text always has a point", s)
				} else {
					digits := e[len(e)-2:]
					require.Equal(t, digits, s[len(s)-2:], "%s: at least two exponent digits", s)
				}
			}
		})
	}
}

func TestRepr(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"zero", 0, "0"},
		{"negative int", -7, "-7"},
		{"int64 10^12", int64(1000000000000), "1000000000000"},
		{"big int", new(big.Int).Lsh(big.NewInt(1), 100), "1267650600228229401496703205376"},
		{"true", true, "True"},
		{"false", false, "False"},
		{"none", nil, "None"},
		{"string", "Linh", "'Linh'"},
		{"empty string", "", "''"},
		{"string with a single quote", "it's", `"it's"`},
		{"string with both quotes", `it's "x"`, `'it\'s "x"'`},
		{"string with backslash and newline", "a\\b\nc\td\re", `'a\\b\nc\td\re'`},
		{"string with a control character", "a\x00b\x7f", `'a\x00b\x7f'`},
		{"string with printable non-ASCII", "Liên", "'Liên'"},
		{"string with non-printable non-ASCII", "a\u00ad\u200bb", `'a\xad\u200bb'`},
		{"dict in insertion order", Dict{{"name", "Linh"}, {"tier", "gold"}}, "{'name': 'Linh', 'tier': 'gold'}"},
		{"dict with bool and int", Dict{{"saved", true}, {"drafts", 1}}, "{'saved': True, 'drafts': 1}"},
		{"dict with float", Dict{{"result", 50.0}}, "{'result': 50.0}"},
		{"empty dict", Dict{}, "{}"},
		{"nested dict", Dict{{"a", Dict{{"b", 0.0}}}}, "{'a': {'b': 0.0}}"},
		{"reprer", reprer{}, "<custom>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Repr(tt.in))
		})
	}
}

// atRunTime returns x; arithmetic on its result happens in float64 at run
// time, not as exact constant arithmetic at compile time.
func atRunTime(x float64) float64 { return x }

// futureValue compounds yearly by repeated multiplication.
func futureValue(principal, rate float64, years int) float64 {
	f := 1.0
	for i := 0; i < years; i++ {
		f *= 1 + rate
	}
	return principal * f
}

type reprer struct{}

func (reprer) PyRepr() string { return "<custom>" }

func TestScalarHelpers(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"Int", Int(-42), "-42"},
		{"Bool true", Bool(true), "True"},
		{"Bool false", Bool(false), "False"},
		{"Str", Str("u-100"), "'u-100'"},
		{"Dict.PyRepr", Dict{{"k", 1}}.PyRepr(), "{'k': 1}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
		})
	}
}

func TestRound(t *testing.T) {
	tests := []struct {
		name   string
		x      float64
		places int
		want   string // repr of the result
	}{
		{"future value example", futureValue(2500000, 0.06, 5), 2, "3345563.94"},
		{"binary value above the tie rounds up", 1157.6250000000002, 2, "1157.63"},
		{"1.005 is below the tie", 1.005, 2, "1.0"},
		{"2.675 is below the tie", 2.675, 2, "2.67"},
		{"exact tie to even down", 0.125, 2, "0.12"},
		{"exact tie to even up", 0.375, 2, "0.38"},
		{"negative zero result keeps its sign", -0.001, 2, "-0.0"},
		{"four places", atRunTime(48000000) / 120000000, 4, "0.4"},
		{"zero places tie to even", 2.5, 0, "2.0"},
		{"zero places up", 3.5, 0, "4.0"},
		{"negative places", 1234.5, -2, "1200.0"},
		{"negative places tie to even", 250, -2, "200.0"},
		{"negative places beyond the value", 49, -2, "0.0"},
		{"negative places on a negative value", -1250, -2, "-1200.0"},
		{"many places keep the value", 0.1, 400, "0.1"},
		{"zero", 0, 2, "0.0"},
		{"infinity unchanged", math.Inf(1), 2, "inf"},
		{"nan unchanged", math.NaN(), 2, "nan"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Float(Round(tt.x, tt.places)))
		})
	}
}
