package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func reference(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// point writes itself through Appender, as encoding/json writes it.
type point struct{ X, Y int }

func (p point) AppendJSON(b []byte) []byte {
	b = append(b, `{"X":`...)
	b = append(b, json.Number(fmt.Sprint(p.X))...)
	b = append(b, `,"Y":`...)
	b = append(b, json.Number(fmt.Sprint(p.Y))...)
	return append(b, '}')
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	values := []any{
		nil, true, false, 0.0, 1.0, -2.5, 1e21, 1e20, 1e-7, 123456789.125, 5e-324, -0.000001,
		"", "plain", `quote " and back \ slash`, "tab\tnew\nline\rcr\b\f", "\x00\x01\x1f", "<html> & 'x'",
		"é ünïcødé 😀", "line\u2028sep\u2029", "bad \xff utf8", "\x7f",
		[]string{"a", "b"}, []any{1.0, "x", nil, []any{}}, map[string]any{"b": 1.0, "a": map[string]any{"z": true, "y": []any{"q"}}},
		map[string]any{}, []any{}, 3, struct{ A int }{A: 1}, json.RawMessage(`{"k":[1,2]}`),
		map[string]any{"m": 1.0, "c": 2.0, "x": 3.0, "a": 4.0, "k": 5.0, "b": 6.0, "z": 7.0, "e": 8.0, "d": 9.0, "y": 10.0, "f": 11.0, "": 12.0},
		map[string]any{"m": 1.0, "c": 2.0, "x": 3.0, "a": 4.0, "k": 5.0, "b": 6.0, "z": 7.0, "e": 8.0, "d": 9.0, "y": 10.0, "f": 11.0, "": 12.0, "g": 13.0},
		map[string]string{}, map[string]string(nil), map[string]string{"b": "<x>", "a": "\u2028", "": "\xff"}, point{X: 2, Y: -1},
	}
	for _, v := range values {
		assert.Equal(t, reference(v), string(Append(nil, v)), "%#v", v)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\xff\xfe", "\u2028", "😀\x00"} {
		f.Add(s)
	}
	f.Add("a\xed\xbd\x8db")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), referenceHost(s); got != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// referenceHost is s as encoding/json writes it, but for each unpaired
// surrogate a host's string holds (its three bytes of WTF-8, which
// encoding/json writes as three U+FFFD): its escape.
func referenceHost(s string) string {
	out := `"`
	seg := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 && i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			w := reference(s[seg:i])
			u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			out += w[1:len(w)-1] + fmt.Sprintf(`\u%04x`, u)
			i += 3
			seg = i
			continue
		}
		i += size
	}
	w := reference(s[seg:])
	return out + w[1:]
}

func TestCompact(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"nothing", ``, ``},
		{"an empty object", ` { } `, `{}`},
		{"white space between tokens", " { \"a\" : [ 1 , 2 ] ,\n\t\"b\" : null\r} ", `{"a":[1,2],"b":null}`},
		{"white space in strings is kept", `[ "  spaced  " , "\t tab" ]`, `["  spaced  ","\t tab"]`},
		{"escaped quotes do not end a string", `{ "b\" c" : "x y\\" , "d" : "\\\" e" }`, `{"b\" c":"x y\\","d":"\\\" e"}`},
		{"a long string is copied whole", `[ "` + strings.Repeat(`ab \"`, 20) + `" ]`, `["` + strings.Repeat(`ab \"`, 20) + `"]`},
		{"non-ASCII text", `{ "é" : "😀 \u2028" }`, `{"é":"😀 \u2028"}`},
		{"a number", ` -1.5e3 `, `-1.5e3`},
		{"an unterminated string runs to the end", `[ "a b`, `["a b`},
		{"a backslash at the end", `"a\`, `"a\`},
		{"text that is not JSON loses only its white space", `not json , really`, `notjson,really`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(Compact(nil, tt.src)), "string")
			assert.Equal(t, tt.want, string(Compact([]byte("x"), []byte(tt.src)))[1:], "bytes, after what dst holds")
			if json.Valid([]byte(tt.src)) {
				var want bytes.Buffer
				require.NoError(t, json.Compact(&want, []byte(tt.src)))
				assert.Equal(t, want.String(), tt.want, "as json.Compact")
			}
		})
	}
}

// TestCompactMatchesEncodingJSON: on random valid texts, Compact gives
// what json.Compact gives, whatever the strings hold.
func TestCompactMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	pieces := []string{`a`, ` `, `\"`, `\\`, `\\\"`, `\n`, `\u00e9`, `é`, `"`, `abcdefghijkl`, "\t"}
	space := func() string { return []string{"", " ", "\n\t ", "\r\n"}[rng.Intn(4)] }
	for range 5000 {
		var b strings.Builder
		b.WriteString(space() + "[" + space())
		for i := range rng.Intn(5) {
			if i > 0 {
				b.WriteString("," + space())
			}
			b.WriteString(`{` + space() + `"k"` + space() + ":" + space() + `"`)
			for range rng.Intn(12) {
				p := pieces[rng.Intn(len(pieces))]
				if p == `"` || p == "\t" {
					p = `\` + map[string]string{`"`: `"`, "\t": "t"}[p]
				}
				b.WriteString(p)
			}
			b.WriteString(`"` + space() + "}" + space())
		}
		b.WriteString("]" + space())
		src := b.String()
		require.True(t, json.Valid([]byte(src)), "%q", src)
		var want bytes.Buffer
		require.NoError(t, json.Compact(&want, []byte(src)))
		require.Equal(t, want.String(), string(Compact(nil, src)), "%q", src)
	}
}

func TestAppendEscape(t *testing.T) {
	tests := []struct {
		name string
		c    byte
		want string
	}{
		{"quote", '"', `\"`},
		{"backslash", '\\', `\\`},
		{"backspace", '\b', `\b`},
		{"form feed", '\f', `\f`},
		{"newline", '\n', `\n`},
		{"carriage return", '\r', `\r`},
		{"tab", '\t', `\t`},
		{"nul", 0x00, `\u0000`},
		{"unit separator", 0x1f, `\u001f`},
		{"escape", 0x1b, `\u001b`},
		{"less-than, where HTML is escaped", '<', `\u003c`},
		{"ampersand, where HTML is escaped", '&', `\u0026`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, "x"+tt.want, string(AppendEscape([]byte("x"), tt.c)))
		})
	}
	// Every byte a JSON string must escape is escaped as encoding/json
	// escapes it.
	for c := range byte(0x20) {
		want, err := json.Marshal(string(rune(c)))
		require.NoError(t, err)
		assert.Equal(t, string(want[1:len(want)-1]), string(AppendEscape(nil, c)), "%#x", c)
	}
}

func TestAppendObject(t *testing.T) {
	number := func(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
	tests := []struct {
		name string
		m    map[string]int
		want string
	}{
		{"nil is an empty object", nil, `{}`},
		{"empty", map[string]int{}, `{}`},
		{"one member", map[string]int{"a": 1}, `{"a":1}`},
		{"keys in byte order", map[string]int{"b": 1, "a": 2, "B": 3, "": 4, "é": 5, "aa": 6}, `{"":4,"B":3,"a":2,"aa":6,"b":1,"é":5}`},
		{"keys escaped", map[string]int{"<q\"\n>": 1}, `{"<q\"\n>":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendObject([]byte("x"), tt.m, number)
			assert.Equal(t, "x"+tt.want, string(got))
			want, err := json.Marshal(tt.m)
			require.NoError(t, err)
			if tt.m != nil && !strings.ContainsAny(tt.want, "<>&") {
				assert.Equal(t, string(want), tt.want, "as encoding/json")
			}
		})
	}
	small := map[string]int{"a": 1, "b": 2}
	dst := make([]byte, 0, 64)
	assert.Zero(t, testing.AllocsPerRun(100, func() { AppendObject(dst[:0], small, number) }), "the keys of a small object stay on the stack")
}

func TestAppendKey(t *testing.T) {
	tests := []struct {
		name string
		i    int
		key  string
		want string
	}{
		{"the first member", 0, "a", `{"a":`},
		{"a later member", 3, "b", `{,"b":`},
		{"a key that needs escapes", 0, "q\"<\n", `{"q\"<\n":`},
		{"an empty key", 1, "", `{,"":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(AppendKey([]byte("{"), tt.i, tt.key)))
		})
	}
}

func FuzzCompact(f *testing.F) {
	for _, s := range []string{`{}`, ` [ "a \" b" , 1 ] `, `"\\\\"`, "{\"k\":\n\"v\\u00e9\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !json.Valid(src) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, src); err != nil {
			t.Fatal(err)
		}
		if got := Compact(nil, src); string(got) != want.String() {
			t.Fatalf("Compact(%q) = %q, want %q", src, got, want.String())
		}
	})
}

// TestCompactTypes: every kind of text gives the same result, and a text
// of the common kinds costs no allocation beyond dst.
func TestCompactTypes(t *testing.T) {
	type text string
	type raw []byte
	const src = ` { "a" : [ 1 , "b c" ] } `
	const want = `{"a":[1,"b c"]}`
	b, m := []byte(src), json.RawMessage(src)
	dst := make([]byte, 0, 64)
	tests := []struct {
		name    string
		compact func() []byte
	}{
		{"string", func() []byte { return Compact(dst[:0], src) }},
		{"bytes", func() []byte { return Compact(dst[:0], b) }},
		{"json.RawMessage", func() []byte { return Compact(dst[:0], m) }},
		{"a named string type", func() []byte { return Compact(dst[:0], text(src)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, want, string(tt.compact()))
			assert.Zero(t, testing.AllocsPerRun(100, func() { tt.compact() }))
		})
	}
	assert.Equal(t, want, string(Compact(nil, raw(src))), "a named byte type")
}

// BenchmarkCompact compacts a gateway request as each kind of text, and
// one whose string is long, which IndexByte crosses many bytes at a time,
// and a given block indented as a desk's are.
func BenchmarkCompact(b *testing.B) {
	request := ` {"action": "publish_summary", "resource": "mock/review-board", "arguments": {"text": "Q2 summary: 41 orders shipped."}} `
	long := `{"action": "create_draft", "arguments": {"text": "` + strings.Repeat("é", 1001) + `"}}`
	indented := "{\n" + strings.Repeat("        \"turns\": [\n          [\n            {\n              \"action\": \"file.read.workspace\"\n            }\n          ]\n        ],\n", 4) + "        \"ui\": false\n      }"
	bytesRequest, rawRequest := []byte(request), json.RawMessage(request)
	tests := []struct {
		name    string
		compact func(dst []byte) []byte
	}{
		{"string", func(dst []byte) []byte { return Compact(dst, request) }},
		{"bytes", func(dst []byte) []byte { return Compact(dst, bytesRequest) }},
		{"json.RawMessage", func(dst []byte) []byte { return Compact(dst, rawRequest) }},
		{"long string", func(dst []byte) []byte { return Compact(dst, long) }},
		{"indented as a desk is", func(dst []byte) []byte { return Compact(dst, indented) }},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			dst := make([]byte, 0, 4096)
			for b.Loop() {
				dst = tt.compact(dst[:0])
			}
		})
	}
}

// BenchmarkAppendString writes strings as a report line holds them: a
// trace's short texts, a long title, and text with escapes and
// non-ASCII letters.
func BenchmarkAppendString(b *testing.B) {
	tests := []struct{ name, s string }{
		{"trace text", "call-1-2 emitted perform_action {\"action\":\"file.read.workspace\",\"ticket\":\"t-1-2-1\"}"},
		{"plain", "A workspace file is read: the allowed control of the protected-file pair"},
		{"long", strings.Repeat("the adapter returns the fixture's denial as the tool result; ", 40)},
		{"accented", strings.Repeat("déjà vu — naïve café ", 8)},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			dst := make([]byte, 0, 8192)
			b.SetBytes(int64(len(tt.s)))
			for b.Loop() {
				dst = AppendString(dst[:0], tt.s)
			}
		})
	}
}
