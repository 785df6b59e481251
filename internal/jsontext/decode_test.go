package jsontext

import (
	"encoding/json"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

func TestReadEscape(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want rune
		end  int // -1: not a valid escape
	}{
		{"quote", `\"`, '"', 2},
		{"backslash", `\\`, '\\', 2},
		{"solidus", `\/`, '/', 2},
		{"backspace", `\b`, '\b', 2},
		{"form feed", `\f`, '\f', 2},
		{"newline", `\n`, '\n', 2},
		{"carriage return", `\r`, '\r', 2},
		{"tab", `\t`, '\t', 2},
		{"a code point", `\u00e9x`, 'é', 6},
		{"upper-case digits", `\u00E9`, 'é', 6},
		{"nul", `\u0000`, 0, 6},
		{"a surrogate pair", `\ud83d\ude00`, '😀', 12},
		{"a pair in upper case", `\uD83D\uDE00`, '😀', 12},
		{"a lone high surrogate", `\ud800x`, 0xD800, 6},
		{"a high surrogate at the end", `\ud800`, 0xD800, 6},
		{"a high surrogate before another high one", `\ud800\ud800`, 0xD800, 6},
		{"a high surrogate before a plain escape", `\ud800\u0041`, 0xD800, 6},
		{"a high surrogate before a cut escape", `\ud800\udc0`, 0xD800, 6},
		{"a lone low surrogate", `\udc00`, 0xDC00, 6},
		{"a low surrogate before a high one", `\udc00\ud800`, 0xDC00, 6},
		{"a backslash at the end", `\`, 0, -1},
		{"an unknown escape", `\x41`, 0, -1},
		{"a single-quote escape", `\'`, 0, -1},
		{"too few digits", `\u12`, 0, -1},
		{"not hexadecimal", `\u12g4`, 0, -1},
		{"a sign is not a digit", `\u+123`, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, end := ReadEscape(tt.in, 0)
			assert.Equal(t, tt.end, end)
			if tt.end >= 0 {
				assert.Equal(t, tt.want, r)
			}
			wantEnd := -1
			if end >= 0 {
				wantEnd = end + 2
			}
			rb, endb := ReadEscape([]byte("ab"+tt.in), 2)
			assert.Equal(t, wantEnd, endb, "the same at an offset, in bytes")
			assert.Equal(t, r, rb, "the same at an offset, in bytes")
		})
	}
}

func TestUnescape(t *testing.T) {
	tests := []struct {
		name        string
		content     string
		utf8Checked bool
		want        string
		ok          bool
	}{
		{"no escape", `plain`, true, "plain", true},
		{"every short escape", `\"\\\/\b\f\n\r\t`, true, "\"\\/\b\f\n\r\t", true},
		{"code points", `caf\u00e9 \u00E9`, true, "café é", true},
		{"control code points", `\u0000\u001f`, true, "\x00\x1f", true},
		{"a surrogate pair", `\ud83d\ude00`, true, "😀", true},
		{"a line separator", `\u2028`, true, "\u2028", true},
		{"a lone surrogate", `a\ud800b`, true, "a\xed\xa0\x80b", true},
		{"a lone low surrogate", `\udc00`, false, "\xed\xb0\x80", true},
		{"invalid UTF-8, checked", "\xff\\n", true, "", false},
		{"invalid UTF-8 kept unchecked", "\xff\\n", false, "\xff\n", true},
		{"an invalid escape", `a\x`, false, "", false},
		{"a cut escape", `a\u00`, false, "", false},
		{"a backslash at the end", `a\`, false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Unescape(tt.content, tt.utf8Checked)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
			got, ok = Unescape([]byte(tt.content), tt.utf8Checked)
			assert.Equal(t, tt.ok, ok, "bytes")
			assert.Equal(t, tt.want, got, "bytes")
		})
	}
}

// TestUnescapeMatchesTheLibraries: where Unescape answers, it gives what
// encoding/json (utf8Checked) or gjson (not) gives.
func TestUnescapeMatchesTheLibraries(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	pieces := []string{`a`, `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\u00E9`, `\u0000`, `\u001f`, `\ud83d\ude00`,
		`\ud800`, `\udc00`, `\ud800\u0041`, "\xff", "é", `\u2028`, "😀", " "}
	for range 5000 {
		var b strings.Builder
		for range rng.Intn(8) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		c := b.String()
		if got, ok := Unescape([]byte(c), false); ok && !strings.Contains(c, `\ud800`) && !strings.Contains(c, `\udc00`) {
			require.Equal(t, gjson.Parse(`"`+c+`"`).Str, got, "%q", c)
		}
		if got, ok := Unescape(c, true); ok {
			var want string
			require.NoError(t, json.Unmarshal([]byte(`"`+c+`"`), &want), "%q", c)
			require.Equal(t, want, fffd(got), "%q", c)
		}
	}
}

func TestStringToken(t *testing.T) {
	tests := []struct {
		name string
		tok  string
		want string
		ok   bool
	}{
		{"plain", `"abc"`, "abc", true},
		{"empty", `""`, "", true},
		{"escapes", `"a\"b\u00e9"`, "a\"bé", true},
		{"invalid UTF-8 becomes U+FFFD", "\"a\xffb\"", "a\ufffdb", true},
		{"a lone surrogate is kept", `"\ud800"`, "\xed\xa0\x80", true},
		{"trailing whitespace", "\"a\" \n", "a", true},
		{"leading whitespace", ` "a"`, "", false},
		{"null is not a string", `null`, "", false},
		{"a number", `5`, "", false},
		{"nothing", ``, "", false},
		{"two strings", `"a" "b"`, "", false},
		{"unterminated", `"abc`, "", false},
		{"a control byte", "\"a\nb\"", "", false},
		{"an invalid escape", `"\x"`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := StringToken([]byte(tt.tok))
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestInt(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want int
		ok   bool
	}{
		{"zero", `0`, 0, true},
		{"negative", `-12`, -12, true},
		{"negative zero", `-0`, 0, true},
		{"surrounding whitespace", " \t7\n ", 7, true},
		{"the largest int", `9223372036854775807`, 9223372036854775807, true},
		{"beyond an int", `9223372036854775808`, 0, false},
		{"a fraction", `1.0`, 0, false},
		{"an exponent", `1e2`, 0, false},
		{"a leading zero", `01`, 0, false},
		{"a plus sign", `+1`, 0, false},
		{"a string", `"3"`, 0, false},
		{"true", `true`, 0, false},
		{"two numbers", `1 2`, 0, false},
		{"nothing", ``, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Int([]byte(tt.raw))
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
			if ok {
				var want int
				require.NoError(t, json.Unmarshal([]byte(tt.raw), &want))
				assert.Equal(t, want, got, "as Unmarshal into an int")
			}
		})
	}
}

func TestWholeObject(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		stop string // a key whose value f refuses
		keys []string
		ok   bool
	}{
		{"empty", `{}`, "", nil, true},
		{"members in order", ` { "b" : 1 , "a" : [2] } `, "", []string{`"b"`, `"a"`}, true},
		{"an escaped key", `{"\u0061":1}`, "", []string{`"\u0061"`}, true},
		{"f stops", `{"a":1,"b":2}`, `"a"`, []string{`"a"`}, false},
		{"trailing text", `{"a":1} x`, "", []string{`"a"`}, false},
		{"an array", `[1]`, "", nil, false},
		{"unterminated", `{"a":1`, "", []string{`"a"`}, false},
		{"a trailing comma", `{"a":1,}`, "", []string{`"a"`}, false},
		{"nothing", ``, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := []byte(tt.raw)
			var keys []string
			ok := WholeObject(raw, func(keyTok []byte, _ bool, start int) int {
				keys = append(keys, string(keyTok))
				if string(keyTok) == tt.stop {
					return -1
				}
				return ScanValue(raw, start, 1)
			})
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.keys, keys)
		})
	}
}

func TestWholeArray(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		stop   string // an element f refuses
		values []string
		ok     bool
	}{
		{"empty", ` [ ] `, "", nil, true},
		{"elements in order", "[1, \"a\",\n{\"b\":[]}]", "", []string{`1`, `"a"`, `{"b":[]}`}, true},
		{"f stops", `[1,2,3]`, `2`, []string{`1`, `2`}, false},
		{"trailing text", `[1],`, "", []string{`1`}, false},
		{"an object", `{}`, "", nil, false},
		{"a missing comma", `[1 2]`, "", []string{`1`}, false},
		{"nothing", ``, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := []byte(tt.raw)
			var values []string
			ok := WholeArray(raw, func(start int) int {
				end := ScanValue(raw, start, 1)
				if end < 0 {
					return -1
				}
				values = append(values, string(raw[start:end]))
				if string(raw[start:end]) == tt.stop {
					return -1
				}
				return end
			})
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.values, values)
		})
	}
}

// decodeTexts are the fixed texts the decoders are held to encoding/json
// on, the valid and the invalid.
var decodeTexts = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.50`, `1e2`, `-1E-2`, `123456789012345678901234567890`, `""`, `"x"`,
	`[1,1.50,-0,1e2,"<a&b>",{"z":[true,false,null],"a":"\u2028\u00e9\ud83d\ude00\ud800"}]`,
	`{"a":1,"a":2}`, `{"a":{"b":1},"a":[2]}`, `[1e400]`, `-1e400`, "\"\xff\"", "\"\xff\\n\"", `"\"quoted\" \\ \/ \t"`,
	`[[[]]]`, `{}`, `[]`, ` {"x" : [ ] } `, "\t\n[\r1 ]\n", `{"\u0061":"\u0062"}`, `{"":""}`,
	``, ` `, `{`, `[1,]`, `{"a":}`, `{"a"}`, `{,}`, `01`, `1.`, `.5`, `+1`, `"\x"`, `"\u12"`, "\"a\nb\"", `[1] 2`, `nul`, `tru`, `nulls`,
	`{"a":1}}`, `[`, `]`, `"`, `'a'`, `NaN`, `Infinity`, `[1 2]`, `{"a" 1}`, `{1:2}`,
	strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	`{"text":"` + strings.Repeat("é", 300) + `"}`,
}

// randomJSON writes a random valid JSON value with random whitespace.
func randomJSON(rng *rand.Rand, depth int) string {
	space := func() string { return []string{"", "", " ", "\n\t"}[rng.Intn(4)] }
	strs := []string{`""`, `"a"`, `"<b>&"`, `"\u00e9\n"`, `"\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"\"\\"`, `"é😀"`}
	nums := []string{`0`, `-0`, `12`, `1.50`, `-3e-2`, `1E+2`, `99999999999999999999`, `1e400`}
	k := rng.Intn(8)
	if depth > 3 {
		k = rng.Intn(4)
	}
	switch k {
	case 0:
		return strs[rng.Intn(len(strs))]
	case 1:
		return nums[rng.Intn(len(nums))]
	case 2:
		return []string{"true", "false", "null"}[rng.Intn(3)]
	case 3, 4:
		var b strings.Builder
		b.WriteString("[" + space())
		for i := range rng.Intn(4) {
			if i > 0 {
				b.WriteString("," + space())
			}
			b.WriteString(randomJSON(rng, depth+1) + space())
		}
		return b.String() + "]"
	default:
		var b strings.Builder
		b.WriteString("{" + space())
		for i := range rng.Intn(4) {
			if i > 0 {
				b.WriteString("," + space())
			}
			b.WriteString(strs[rng.Intn(len(strs))] + space() + ":" + space() + randomJSON(rng, depth+1) + space())
		}
		return b.String() + "}"
	}
}

func decodeTextsAndRandom() []string {
	rng := rand.New(rand.NewSource(13))
	texts := append([]string{}, decodeTexts...)
	for range 3000 {
		texts = append(texts, randomJSON(rng, 0))
	}
	return texts
}

// TestDecodeMatchesUnmarshal: where Decode answers, json.Unmarshal into an
// any gives the same value; it answers for every valid text but those
// with a number beyond a float64 or nested deeper than MaxDepth.
func TestDecodeMatchesUnmarshal(t *testing.T) {
	for _, s := range decodeTextsAndRandom() {
		got, ok := Decode([]byte(s))
		var want any
		err := json.Unmarshal([]byte(s), &want)
		if ok {
			require.NoError(t, err, "%q", s)
			if lib := asLibrary(got); !hasCollision(lib) {
				require.Equal(t, want, lib, "%q", s)
			}
		} else if err == nil {
			require.True(t, strings.Contains(s, "e400") || strings.Contains(s, strings.Repeat("[", MaxDepth+1)), "Decode refuses %q", s)
		}
	}
}

// useNumberFast is DecodeUseNumber's reader alone, without its fallback.
func useNumberFast(raw []byte) (any, bool) {
	d := decoder{b: raw, literals: true}
	return d.whole()
}

// TestDecodeUseNumberMatchesDecoder: where the fast reader of
// DecodeUseNumber answers, a json.Decoder with UseNumber gives the same
// value; it answers for every valid text but those nested deeper than
// MaxDepth. DecodeUseNumber gives the decoder's value or error on every
// text.
func TestDecodeUseNumberMatchesDecoder(t *testing.T) {
	for _, s := range decodeTextsAndRandom() {
		want, err := decodeUseNumberJSON([]byte(s))
		if got, ok := useNumberFast([]byte(s)); ok {
			require.NoError(t, err, "%q", s)
			if lib := asLibrary(got); !hasCollision(lib) {
				require.Equal(t, want, lib, "%q", s)
			}
		} else if err == nil {
			require.Contains(t, s, strings.Repeat("[", MaxDepth+1), "the fast reader refuses %q", s)
		}
		got, gotErr := DecodeUseNumber([]byte(s))
		if lib := asLibrary(got); !hasCollision(lib) {
			require.Equal(t, want, lib, "%q", s)
		}
		require.Equal(t, err, gotErr, "%q", s)
	}
}

func TestDecodeUseNumberErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{"nothing", ``, "EOF"},
		{"two values", `[1] [2]`, "trailing data after the JSON value"},
		{"a trailing comma", `[1,]`, "invalid character ']' looking for beginning of value"},
		{"not JSON", `{a}`, "invalid character 'a' looking for beginning of object key string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeUseNumber([]byte(tt.raw))
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestDecodeValues(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		plain    any
		literals any
	}{
		{"a number", ` 1.50 `, 1.5, json.Number("1.50")},
		{"an empty array is not nil", `[]`, []any{}, []any{}},
		{"an empty object", `{}`, map[string]any{}, map[string]any{}},
		{"a repeated key keeps its last value", `{"a":1,"a":"x"}`, map[string]any{"a": "x"}, map[string]any{"a": "x"}},
		{"an escaped key", `{"\u0061":[-0]}`, map[string]any{"a": []any{math.Copysign(0, -1)}}, map[string]any{"a": []any{json.Number("-0")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := Decode([]byte(tt.raw))
			require.True(t, ok)
			assert.Equal(t, tt.plain, v)
			v, err := DecodeUseNumber([]byte(tt.raw))
			require.NoError(t, err)
			assert.Equal(t, tt.literals, v)
		})
	}
}

// TestDecodeRefuses: Decode answers ok=false, for encoding/json to decide,
// on what it does not take.
func TestDecodeRefuses(t *testing.T) {
	tests := []struct {
		name string
		raw  string
	}{
		{"nothing", ``},
		{"two values", `1 2`},
		{"a number beyond a float64", `[1e400]`},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)},
		{"an unterminated object", `{"a":1`},
		{"an invalid literal", `[tru]`},
		{"a control byte in a string", "[\"a\x01\"]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := Decode([]byte(tt.raw))
			assert.False(t, ok)
		})
	}
}

// TestDecodedStringsShareOneCopy: the strings of a text are substrings of
// one copy of it, so decoding costs one allocation for all of them.
func TestDecodedStringsShareOneCopy(t *testing.T) {
	raw := []byte(`["alpha","beta","gamma","delta"]`)
	allocs := testing.AllocsPerRun(100, func() {
		v, ok := Decode(raw)
		if !ok || len(v.([]any)) != 4 {
			t.Fatal("not decoded")
		}
	})
	// The text, the list (made at its length, its elements gathered on a
	// stack kept for the next text) and its interface value, and the four
	// strings' interface values: no string of its own. Under the race
	// detector the pool that keeps the stack drops some of what is put
	// back, so the stack is made again now and then.
	most := float64(1 + 1 + 1 + 4)
	if raceEnabled {
		most++
	}
	assert.LessOrEqual(t, allocs, most)
	v, _ := Decode(raw)
	raw[2] = 'A'
	assert.Equal(t, "alpha", v.([]any)[0], "the strings do not alias raw")

	// A member more costs its value's interface value only: its key is a
	// substring too.
	two := []byte(`{"alpha":"a","beta":"b"}`)
	three := []byte(`{"alpha":"a","beta":"b","gamma":"c"}`)
	decode := func(raw []byte) func() {
		return func() {
			if _, ok := Decode(raw); !ok {
				t.Fatal("not decoded")
			}
		}
	}
	assert.Equal(t, testing.AllocsPerRun(100, decode(two))+1, testing.AllocsPerRun(100, decode(three)))
}

func FuzzDecode(f *testing.F) {
	for _, s := range decodeTexts {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, ok := Decode(raw); ok {
			var want any
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("Decode(%q) = %v, Unmarshal fails: %v", raw, got, err)
			}
			if lib := asLibrary(got); !hasCollision(lib) && !assert.ObjectsAreEqual(want, lib) {
				t.Fatalf("Decode(%q) = %#v, Unmarshal gives %#v", raw, got, want)
			}
		}
		if got, ok := useNumberFast(raw); ok {
			want, err := decodeUseNumberJSON(raw)
			if lib := asLibrary(got); err != nil || !hasCollision(lib) && !assert.ObjectsAreEqual(want, lib) {
				t.Fatalf("DecodeUseNumber(%q) = %#v, the decoder gives %#v, %v", raw, got, want, err)
			}
		}
	})
}

func TestStringValue(t *testing.T) {
	tests := []struct {
		name  string
		tok   string
		plain bool
		want  string
	}{
		{"plain", `"abc"`, true, "abc"},
		{"escapes", `"a\tb\u00e9"`, false, "a\tbé"},
		{"invalid UTF-8", "\"\xff\"", false, "\ufffd"},
		{"a lone surrogate", `"\udc00x"`, false, "\xed\xb0\x80x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, StringValue([]byte(tt.tok), tt.plain))
			var want string
			require.NoError(t, json.Unmarshal([]byte(tt.tok), &want))
			assert.Equal(t, want, fffd(StringValue([]byte(tt.tok), tt.plain)), "as Unmarshal, but for the surrogates")
		})
	}
}
