package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"members are sorted and 1.0 and -0 take ECMAScript form",
			`{"b":1.0,"a":-0}`, `{"a":0,"b":1}`},
		{"trailing zeros of a fraction are dropped",
			`[4.50]`, `[4.5]`},
		{"large numbers switch to exponent form at 1e21",
			`[1E21]`, `[1e+21]`},
		{"small numbers switch to exponent form below 1e-6",
			`[0.0000001]`, `[1e-7]`},
		{"1e-6 itself stays in fixed form",
			`[1e-6]`, `[0.000001]`},
		{"1e20 written out stays as written",
			`[100000000000000000000]`, `[100000000000000000000]`},
		{"numbers are IEEE doubles, so 2^53+1 rounds",
			`[9007199254740993]`, `[9007199254740992]`},
		{"the RFC 8785 sample object",
			`{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`,
			`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`},
		{"keys sort by UTF-16 code units, so an astral key precedes U+FB33",
			`{"\u20ac":"Euro","\r":"CR","\ufb33":"Dalet","1":"One","\ud83d\ude00":"Grin","\u0080":"Ctl","\u00f6":"o"}`,
			"{\"\\r\":\"CR\",\"1\":\"One\",\"\u0080\":\"Ctl\",\"ö\":\"o\",\"€\":\"Euro\",\"😀\":\"Grin\",\"\ufb33\":\"Dalet\"}"},
		{"U+2028 stays literal while U+0007 is escaped in lower case",
			`["\u2028","\u0007","\u001F"]`, "[\"\u2028\",\"\\u0007\",\"\\u001f\"]"},
		{"the short escapes are used for their controls, solidus is literal",
			`["\b\f\n\r\t","\/","\"\\"]`, `["\b\f\n\r\t","/","\"\\"]`},
		{"insignificant whitespace goes, array order stays",
			" { \"z\" : [ 3 , 1 , 2 ] ,\n\t\"a\" : { } } ", `{"a":{},"z":[3,1,2]}`},
		{"nested objects are sorted too",
			`{"b":{"y":1,"x":2},"a":[{"d":0,"c":0}]}`, `{"a":[{"c":0,"d":0}],"b":{"x":2,"y":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonical([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestDigest(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"the empty object (spec value)", `{}`,
			"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"},
		{"a one-member text object (spec value)", `{"text":"x"}`,
			"sha256:fcd1ccec08db6f78a81fee6c26da9e6b8d0d3ba58b4403713fffebcfaa6cf119"},
		{"whitespace and escapes do not change the digest", " {\n \"t\\u0065xt\" : \"\\u0078\" } ",
			"sha256:fcd1ccec08db6f78a81fee6c26da9e6b8d0d3ba58b4403713fffebcfaa6cf119"},
		{"the Q2 summary arguments", `{"text":"Q2 summary: 41 orders shipped, 3 tickets open."}`,
			"sha256:d9a81a79b41f581c67025ade82061c368ca28a9cdbc5e8386a98d60523233142"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Digest([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.True(t, IsDigest(got))
		})
	}
}

func TestDigestIsSHA256OfCanonical(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"numbers and member order", `{"b":1.0,"a":-0}`},
		{"non-ASCII text", `{"text":"é😀"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Canonical([]byte(tt.in))
			require.NoError(t, err)
			sum := sha256.Sum256(c)
			got, err := Digest([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, "sha256:"+hex.EncodeToString(sum[:]), got)
		})
	}
}

func TestDigestErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"not JSON", `{"text":`},
		{"a number outside the double range", `{"n":1e400}`},
		{"a lone surrogate escape", `{"s":"\ud800"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Digest([]byte(tt.in))
			assert.Error(t, err)
		})
	}
}

func TestIsDigest(t *testing.T) {
	hex64 := strings.Repeat("a", 64)
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"lowercase hex of 64 digits", "sha256:" + hex64, true},
		{"uppercase hex", "sha256:" + strings.ToUpper(hex64), false},
		{"63 digits", "sha256:" + hex64[1:], false},
		{"65 digits", "sha256:" + hex64 + "a", false},
		{"another algorithm", "sha512:" + hex64, false},
		{"no prefix", hex64, false},
		{"trailing newline", "sha256:" + hex64 + "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, IsDigest(tt.in))
		})
	}
}

func TestWrittenOrderJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"members keep their written order", `{"text":"x","role":"operator"}`, `{"text":"x","role":"operator"}`},
		{"whitespace goes", " { \"a\" : [ 1 , { } , [ ] ] } ", `{"a":[1,{},[]]}`},
		{"numbers stay as written", `{"n":[1.0,-0,1E21,4.50]}`, `{"n":[1.0,-0,1E21,4.50]}`},
		{"non-ASCII is escaped in lower case", `{"text":"é€"}`, `{"text":"\u00e9\u20ac"}`},
		{"astral code points become surrogate pairs", `{"😀":"😀"}`, `{"\ud83d\ude00":"\ud83d\ude00"}`},
		{"controls, quote and backslash are escaped", `["\u0007\n\"\\\/"]`, `["\u0007\n\"\\/"]`},
		{"the short escapes are kept for their controls", `["\b\f\r\t\u001F"]`, `["\b\f\r\t\u001f"]`},
		{"literals", `[null,true,false]`, `[null,true,false]`},
		{"nested objects in arrays", `[{"b":1,"a":2},{"c":[{"d":null}]}]`, `[{"b":1,"a":2},{"c":[{"d":null}]}]`},
		{"a scalar", `"é"`, `"\u00e9"`},
		{"a lone surrogate keeps its escape and the one after it", `{"\udc42\u0041":"\ud800"}`, `{"\udc42A":"\ud800"}`},
		{"a repeated key is written again", `{"a":1,"a":2}`, `{"a":1,"a":2}`},
		{"deeper than the fast readers", strings.Repeat("[", 150) + `"\ud800"` + strings.Repeat("]", 150), strings.Repeat("[", 150) + `"\ud800"` + strings.Repeat("]", 150)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := writtenOrderJSON([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestWrittenOrderDigestAgainstDigest(t *testing.T) {
	tests := []struct {
		name string
		in   string
		same bool
	}{
		{"sorted compact ASCII is the same in both", `{"text":"x"}`, true},
		{"whitespace alone does not tell them apart", `{ "text" : "x" }`, true},
		{"non-ASCII text tells them apart", `{"text":"é"}`, false},
		{"unsorted members tell them apart", `{"text":"x","role":"r"}`, false},
		{"a non-canonical number tells them apart", `{"n":1.0}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Digest([]byte(tt.in))
			require.NoError(t, err)
			b, err := writtenOrderDigest([]byte(tt.in))
			require.NoError(t, err)
			assert.True(t, IsDigest(b))
			assert.Equal(t, tt.same, a == b)
		})
	}
}

func TestWrittenOrderJSONErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"truncated", `{"a":`},
		{"two values", `{} {}`},
		{"empty", ``},
		{"a bad escape", `["\x"]`},
		{"a trailing comma", `[1,]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := writtenOrderJSON([]byte(tt.in))
			assert.Error(t, err)
		})
	}
}
