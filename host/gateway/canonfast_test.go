package gateway

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// canonSeeds are texts the fast canonical form must agree with jcs on, or
// leave to it: escapes, surrogates, key orders that UTF-8 and UTF-16
// disagree on, numbers, duplicates, invalid input.
var canonSeeds = []string{
	`{}`, `[]`, ` { } `, `{"text":"Q2"}`, `{"b":1,"a":2}`, `{"a":{"d":[1,2,{"c":null,"b":true}],"a":false}}`,
	`{"t\u0065xt" : "caf\u00e9"}`, `{"text":"café"}`, `"\u0000\u001f\b\f\n\r\t\"\\\/"`, `"\u007f\u0080\u2028"`,
	`"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800x"`, `"\uDBFF\uDFFF"`,
	`{"\ud83d\ude00":1,"\uffff":2,"\ue000":3,"z":4}`, `{"é":1,"e\u0301":2,"e":3,"":4}`,
	`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `[0,-0,1,-1,123456789012345,1234567890123456,1.5,1e2,1E-7,-0.0,0.1,1e400,-1e400,5e-324,1e21,1e20]`,
	`[true,false,null]`, `[tru]`, `{"a"}`, `{"a":}`, `[1,]`, `{,}`, `01`, `1.`, `.5`, `-`, `"abc`, `"a` + "\x01" + `"`,
	"\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xef\xbf\xbd\"", `"\x"`, `"\u12"`, `[1] 2`, ``, ` `, `[[[[[[[[[[]]]]]]]]]]`,
	`{"text":"` + strings.Repeat("é", 50) + `"}`, "{\"a\":\n\t1\r}", `{"limit":10}`, `{"n":1.0,"m":[1e2,-0,0.1]}`,
}

// TestCanonicalFastMatchesJCS: wherever the fast path answers, it answers
// what jcs does; Canonical always gives jcs's result or error.
func TestCanonicalFastMatchesJCS(t *testing.T) {
	for _, in := range canonSeeds {
		checkCanonical(t, []byte(in))
	}
	rng := rand.New(rand.NewSource(1))
	for range 20000 {
		checkCanonical(t, []byte(randomJSON(rng, 0)))
	}
}

// TestCanonicalFastCovers: the values cases hold take the fast path.
func TestCanonicalFastCovers(t *testing.T) {
	for _, in := range []string{`{}`, `{"text":"Q2 summary"}`, `{"text":"caf\u00e9 \ud83d\ude00 \"q\"\n"}`, `{"b":[1,-0,1.5e3],"a":{"x":null}}`} {
		_, ok := appendCanonicalFast(nil, []byte(in))
		assert.True(t, ok, in)
	}
}

func FuzzCanonicalMatchesJCS(f *testing.F) {
	for _, in := range canonSeeds {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkCanonical(t, in) })
}

func checkCanonical(t *testing.T, in []byte) {
	t.Helper()
	want, wantErr := jcs.Transform(in)
	if fast, ok := appendCanonicalFast([]byte("prefix"), in); ok {
		require.NoError(t, wantErr, "fast path accepted what jcs refuses: %q", in)
		require.Equal(t, "prefix"+string(want), string(fast), "input %q", in)
	}
	got, err := Canonical(in)
	if wantErr != nil {
		require.EqualError(t, err, "canonical JSON: "+wantErr.Error(), "input %q", in)
		return
	}
	require.NoError(t, err, "input %q", in)
	require.Equal(t, string(want), string(got), "input %q", in)
}

// randomJSON writes a random, mostly valid JSON text with the features the
// canonical form cares about.
func randomJSON(rng *rand.Rand, depth int) string {
	ws := func() string { return []string{"", "", " ", "\n\t"}[rng.Intn(4)] }
	switch k := rng.Intn(10); {
	case depth < 4 && k < 3:
		n := rng.Intn(5)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = ws() + randomString(rng) + ws() + ":" + ws() + randomJSON(rng, depth+1)
		}
		return "{" + strings.Join(parts, ",") + ws() + "}"
	case depth < 4 && k < 5:
		n := rng.Intn(5)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = ws() + randomJSON(rng, depth+1) + ws()
		}
		return "[" + strings.Join(parts, ",") + "]"
	case k < 7:
		return randomString(rng)
	case k < 9:
		return []string{"0", "-0", "1", "-17", "123456789012345", "12345678901234567890", "1.5", "-0.0", "1e2", "1E+2", "2.5e-3", "1e400", "0.1", "100", "1e21", "3.0"}[rng.Intn(16)]
	}
	return []string{"true", "false", "null"}[rng.Intn(3)]
}

func randomString(rng *rand.Rand) string {
	pieces := []string{"a", "b", "z", "é", "😀", "\uffff", "\ue000", `\n`, `\t`, `\"`, `\\`, `\/`, `\u0000`, `\u001f`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00`, `\uD83D\uDE00`, "\x7f", " ", "<&>", "\u2028", fmt.Sprintf(`\u%04x`, rng.Intn(0x10000))}
	n := rng.Intn(4)
	var b strings.Builder
	b.WriteByte('"')
	for range n {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	b.WriteByte('"')
	return b.String()
}
