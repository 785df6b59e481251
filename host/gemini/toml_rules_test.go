package gemini

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rules of @iarna/toml 2.2.5 (lib/toml-parser.js) the reader follows,
// each as a text and the value of its key v, or the error's first line.
func TestTOMLReadsAsIarna(t *testing.T) {
	tests := []struct {
		name, text string
		want       any    // v's value when the text reads
		err        string // the error's first line otherwise
	}{
		// recordInlineListValue: one TOML type per array.
		{"integer and string", `v = [1, "a"]`, nil, "Inline lists must be a single type, not a mix of integer and string at row 1, col 13, pos 12"},
		{"integer and float", `v = [1, 2.0]`, nil, "Inline lists must be a single type, not a mix of integer and float at row 1, col 13, pos 12"},
		{"float and inf", `v = [1.5, inf]`, nil, "Inline lists must be a single type, not a mix of float and number at row 1, col 15, pos 14"},
		{"inf and nan are one type", `v = [inf, -inf]`, []any{math.Inf(1), math.Inf(-1)}, ""},
		{"arrays of any contents", `v = [[1], ["a"], []]`, []any{[]any{1.0}, []any{"a"}, []any{}}, ""},
		{"BigInt and number are integers", `v = [1, 9007199254740992]`, []any{1.0, jsBigInt(1 << 53)}, ""},
		// parseLiteralString and the other strings: no control characters.
		{"control in literal", "v = 'a\x01b'", nil, `Control characters (codes < 0x1f and 0x7f) are not allowed in strings, use \u0001 instead at row 1, col 8, pos 7`},
		{"DEL in literal", "v = 'a\x7fb'", nil, `Control characters (codes < 0x1f and 0x7f) are not allowed in strings, use \u007f instead at row 1, col 8, pos 7`},
		{"CR ends a literal", "v = 'a\rb'", nil, "Unterminated string at row 1, col 8, pos 7"},
		{"CR ends a basic string", "v = \"a\rb\"", nil, "Unterminated string at row 1, col 8, pos 7"},
		{"tab in literal", "v = 'a\tb'", "a\tb", ""},
		// parseLiteralMultiEnd2, parseMultiEnd2: the first three quotes close.
		{"four quotes", "v = '''a''''", nil, "Unexpected character, expected only whitespace or comments till end of line at row 1, col 13, pos 12"},
		{"four double quotes", `v = """a""""`, nil, "Unexpected character, expected only whitespace or comments till end of line at row 1, col 13, pos 12"},
		{"two quotes kept", "v = '''a''b'''", "a''b", ""},
		// parseMultiString: every CR, then one LF, after the opening quotes.
		{"CRs after the quotes", "v = \"\"\"\r\r\nab\"\"\"", "ab", ""},
		{"CR kept in content", "v = '''a\r\nb'''", "a\r\nb", ""},
		{"backslash and blanks trim", "v = \"\"\"a\\  \n   b\"\"\"", "ab", ""},
		{"backslash before blank and text", "v = \"\"\"a\\ b\"\"\"", nil, "Can't escape whitespace at row 1, col 12, pos 11"},
		// parseEscape, parseUnicodeReturn.
		{"surrogate escape", `v = "\uD800"`, nil, "Invalid unicode, character in range 0xD800 - 0xDFFF is reserved at row 1, col 13, pos 12"},
		{"escape beyond Unicode", `v = "\U00110000"`, nil, "Invalid code point 1114112 at row 1, col 17, pos 16"},
		{"unknown escape", `v = "\x41"`, nil, "Unknown escape character: 120 at row 1, col 8, pos 7"},
		{"astral escape", `v = "\U0001F600"`, "😀", ""},
		// parseNumberBaseOrDateTime, parseNoUnder, parseNumberExponentSign.
		{"0e1", "v = 0e1", nil, "Unexpected character, expected only whitespace or comments till end of line at row 1, col 7, pos 6"},
		{"+0e1", "v = +0e1", 0.0, ""},
		{"0x_1", "v = 0x_1", nil, "Unexpected character, expected digit at row 1, col 8, pos 7"},
		{"0x before a comma", "v = [0x, 1]", nil, "Invalid number at row 1, col 9, pos 8"},
		{"sign alone", "v = [+, 1]", nil, "Invalid number at row 1, col 8, pos 7"},
		{"underscore before a comma", "v = [1_, 2]", []any{1.0, 2.0}, ""},
		{"point before a comma", "v = [1., 2.5]", []any{1.0, 2.5}, ""},
		{"exponent sign before a comma", "v = [1e+, 2.5]", []any{math.NaN(), 2.5}, ""},
		{"point at the end", "v = 1.", nil, "Incomplete number at row 1, col 8, pos 7"},
		{"double underscore", "v = 1__2", nil, "Unexpected character, expected digit at row 1, col 8, pos 7"},
		{"capital X", "v = 0X1", nil, "Unexpected character, expected only whitespace or comments till end of line at row 1, col 7, pos 6"},
		// Integer: a safe integer is a number, else BigInt.asIntN(64, n).
		{"2^53-1", "v = 9007199254740991", 9007199254740991.0, ""},
		{"2^53", "v = 9007199254740992", jsBigInt(1 << 53), ""},
		{"-2^53", "v = -9007199254740992", jsBigInt(-(1 << 53)), ""},
		{"2^63 wraps", "v = 9223372036854775808", jsBigInt(math.MinInt64), ""},
		{"all ones", "v = 0xFFFFFFFFFFFFFFFF", jsBigInt(-1), ""},
		{"-0 integer", "v = -0", 0.0, ""},
		// Dates, as V8's Date reads what the parser hands it.
		{"date", "v = 1979-05-27", tomlDate{"date", "1979-05-27"}, ""},
		{"date-time", "v = 1979-05-27T07:32:00.5-07:00", tomlDate{"datetime", "1979-05-27T07:32:00.5-07:00"}, ""},
		{"local date-time", "v = 1979-05-27 07:32:00", tomlDate{"local-datetime", "1979-05-27T07:32:00Z"}, ""},
		{"time", "v = 07:32:00", tomlDate{"time", "0000-01-01T07:32:00Z"}, ""},
		{"24:00", "v = 24:00:00", tomlDate{"time", "0000-01-01T24:00:00Z"}, ""},
		{"Feb 30", "v = 1979-02-30", tomlDate{"date", "1979-02-30"}, ""},
		{"legacy month first", "v = 0005-13-01", tomlDate{"date", "0005-13-01"}, ""},
		{"legacy one-digit day", "v = 1979-05-2", tomlDate{"date", "1979-05-2"}, ""},
		{"month 13", "v = 1979-13-01", nil, "Invalid Datetime"},
		{"legacy year too far", "v = 0009-14-275760", nil, "Invalid Datetime"},
		{"25 o'clock", "v = 1979-05-27T25:00:00Z", nil, "Invalid Datetime"},
		{"date before a comma", "v = [1979-05-27, 1979-05-28]", nil, "Incomplete datetime at row 1, col 17, pos 16"},
		{"date before a blank and a bracket", "v = [1979-05-27 ]", nil, "Incomplete datetime at row 1, col 18, pos 17"},
		{"date before a tab", "v = [1979-05-27\t]", []any{tomlDate{"date", "1979-05-27"}}, ""},
		{"time swallows a character", "v = 12:34:56x", tomlDate{"time", "0000-01-01T12:34:56Z"}, ""},
		{"time swallows the newline", "v = 12:34:56\nw = 1", nil, "Unexpected character, expected only whitespace or comments till end of line at row 2, col 1, pos 14"},
		{"short year", "v = 123-01-01", nil, "Years less than 1000 must be zero padded to four characters at row 1, col 9, pos 8"},
		// parseInlineTable, recordInlineTableValue.
		{"inline trailing comma", "v = {a = 1,}", map[string]any{"a": 1.0}, ""},
		{"inline lone comma", "v = {,}", nil, "Empty bare keys are not allowed at row 1, col 7, pos 6"},
		{"inline over lines", "v = {a = 1,\nb = 2}", nil, "Unterminated inline array at row 1, col 13, pos 12"},
		{"inline dotted keys", "v = {a.b = 1, a.c = 2}", map[string]any{"a": map[string]any{"b": 1.0, "c": 2.0}}, ""},
		{"inline table not extended by a dotted key", "v = {a = {}, a.b = 1}", nil, "Can't redefine existing key at row 1, col 22, pos 21"},
		// Tables: parseTableMore, parseListMore, recordAssignStatement.
		{"inline table extended by a header", "v = {a = 1}\n[v.b]", nil, "Can't redefine existing key at row 2, col 3, pos 15"},
		{"inline table extended by a dotted key", "v = {}\nv.b = 1", nil, "Can't redefine existing key at row 2, col 8, pos 15"},
		{"array of tables then table", "[[v]]\n[v]", nil, "Can't redefine existing key at row 2, col 3, pos 9"},
		{"table then array of tables", "[v]\n[[v]]", nil, "Can't redefine an existing key at row 2, col 4, pos 8"},
		{"inline array then array of tables", "v = [{a = 1}]\n[[v]]", nil, "Can't extend an inline array at row 2, col 4, pos 18"},
		{"header through an inline array", "v = [{a = 1}]\n[v.b]", nil, "Can't redefine existing key at row 2, col 3, pos 17"},
		{"split closing brackets", "[[v] ]", nil, "Unexpected character, expected whitespace, . or ] at row 1, col 6, pos 5"},
		{"blanks in a header", "[[ v . w ]]\nx = 1", []any{map[string]any{"x": 1.0}}, ""},
		// Where the error is: the first line's columns start at 2; the
		// end of a loop over characters is one further.
		{"key at the end", "a = 1\nbc", nil, "Key ended without value at row 2, col 4, pos 10"},
		{"comment in an open array", "v = [#c", nil, "Unterminated inline array at row 1, col 10, pos 9"},
		{"byte-order mark", "\ufeffv = 1", nil, `Unknown character "65279" at row 1, col 2, pos 1`},
		{"astral in a key", "😀 = 1", nil, `Unknown character "128512" at row 1, col 2, pos 1`},
		{"position counts UTF-16 units", "v = '😀' x", nil, "Unexpected character, expected only whitespace or comments till end of line at row 1, col 11, pos 10"},
		// Blanks: a carriage return anywhere a blank may be.
		{"lone CR", "v = 1\r\r\n\r", 1.0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseTOML(tt.text)
			if tt.err != "" {
				require.Error(t, err)
				first, _, _ := strings.Cut(err.Error(), ":\n")
				assert.Equal(t, tt.err, first)
				return
			}
			require.NoError(t, err)
			got := doc["v"]
			if tt.name == "blanks in a header" {
				got = doc["v"].(map[string]any)["w"]
			}
			if f, ok := tt.want.([]any); ok && len(f) > 0 {
				if n, isNum := f[0].(float64); isNum && math.IsNaN(n) {
					require.Len(t, got, len(f))
					assert.True(t, math.IsNaN(got.([]any)[0].(float64)))
					assert.Equal(t, f[1:], got.([]any)[1:])
					return
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// The whole message is @iarna/toml's after parse-pretty-error.js: the
// words, the position, then the lines around it with a caret.
func TestTOMLErrorText(t *testing.T) {
	_, err := parseTOML("[[rule]]\ntoolName = \"t\"\ntags = [1, \"a\"]\npriority = 1\n")
	require.Error(t, err)
	assert.Equal(t, "Inline lists must be a single type, not a mix of integer and string at row 3, col 15, pos 39:\n"+
		"2: toolName = \"t\"\n"+
		"3> tags = [1, \"a\"]\n"+
		"                 ^\n"+
		"4: priority = 1\n\n", err.Error())
	var te *tomlError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "Inline lists must be a single type, not a mix of integer and string", te.msg)
}

// The host reports a policy file the reader refuses in @iarna/toml's
// words, and loads no rule of it; a BigInt or a date is no number to the
// schema and never equal to an annotation of the call.
func TestTOMLValuesInTheEngine(t *testing.T) {
	load := func(text string) *Engine {
		t.Helper()
		e, err := NewEngine(Config{Release: Newest(), Mode: ModeDefault, Interactive: true, Trusted: true,
			Policies: []PolicyInput{{Tier: TierUser, Name: "user.toml", Text: text}}})
		require.NoError(t, err)
		return e
	}
	rule := "[[rule]]\ntoolName = \"my_tool\"\ndecision = \"allow\"\n"
	e := load(rule + "priority = 100\nw = [1, 2.0]\n")
	require.Len(t, e.Problems, 1)
	assert.Contains(t, e.Problems[0].Text, "TOML parsing failed\nInline lists must be a single type, not a mix of integer and float at row 5, col 12, pos 76:")
	e = load(rule + "priority = 9007199254740993\n")
	require.Len(t, e.Problems, 1)
	assert.Contains(t, e.Problems[0].Text, `Field "rule.0.priority": priority must be a number`)
	e = load(rule + "priority = 1979-05-27\n")
	require.Len(t, e.Problems, 1)
	assert.Contains(t, e.Problems[0].Text, `Field "rule.0.priority": priority must be a number`)
	e = load(rule + "priority = 100\nsince = 1979-05-27\n")
	assert.Empty(t, e.Problems)
	assert.False(t, strictEqual(jsBigInt(1<<53), float64(1<<53)))
	assert.False(t, strictEqual(tomlDate{"date", "1979-05-27"}, "1979-05-27"))
}

// Hostile texts: each reads or is refused with @iarna/toml's placed
// error, never a panic, and quickly.
func TestTOMLHostileInput(t *testing.T) {
	texts := []string{
		"", "\x00", "v = \x00", "\xff\xfe", "v = '\xff'", "v = \"\\", "v = \"\\u", "v = \"\\U0000", "v = '''", "v = \"\"\"\\",
		"v = \"\"\"\\ ", "[", "[[", "[]", "[[]]", "[a", "[[a]", "v", "v =", "v = [", "v = {", "v = {a", "v = {a =", "v = [1,",
		"v = -", "v = +i", "v = n", "v = t", "v = 0x", "v = 0b2", "v = 1e", "v = 1e_", "v = 1979-", "v = 1979-05",
		"v = 1979-05-27T", "v = 1979-05-27T07", "v = 1979-05-27T07:32:00+", "v = 1979-05-27T07:32:00+07:", "v = 12:", "v = 12:34:5",
		"v = 12:34:56.", "v = 9999999999999999999999999999999999999999", "v = 0x" + strings.Repeat("F", 200),
		"v = 1e99999", "v = -1e-99999", "v = 0001-01-" + strings.Repeat("9", 400),
		strings.Repeat("[", 100000), "v = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		"v = " + strings.Repeat("{a = ", 20000), strings.Repeat("a.", 50000) + "b = 1",
		"v = \"" + strings.Repeat("x", 1<<20) + "\"", strings.Repeat("[[a]]\n", 10000), strings.Repeat("#", 1<<20),
		"\ud7ff = 1", "v = '\u2028'", "v = \"\\uDFFF\\uD800\"",
	}
	placed := regexp.MustCompile(`^[A-Z][^\n]* at row \d+, col \d+, pos \d+:\n`)
	for _, text := range texts {
		start := time.Now()
		var err error
		assert.NotPanics(t, func() { _, err = parseTOML(text) }, "%.40q", text)
		if err != nil && err.Error() != "Invalid Datetime" {
			assert.Regexp(t, placed, err.Error(), "%.40q", text)
		}
		_, _ = RuleTables(text)
		assert.Less(t, time.Since(start), 5*time.Second, "%.40q", text)
	}
}

// FuzzParseTOML: no text makes the reader panic.
func FuzzParseTOML(f *testing.F) {
	for _, s := range []string{"[[rule]]\ntoolName = \"a\"\npriority = 1\n", "v = [1979-05-27 ]", "v = {a.b = 1,}", "v = '''a'''"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		doc, err := parseTOML(text)
		if err == nil {
			assert.NotNil(t, doc)
		}
	})
}

// TestRuleTablesAreTheEnginesRead: lint's tables are the parse the
// engine keeps (the same maps, not a second parse), as written, for a
// text of at most tablesKeptText bytes; a longer text's are parsed again,
// not kept; and a text that does not parse gives the parser's error.
func TestRuleTablesAreTheEnginesRead(t *testing.T) {
	emptyPolicyCaches()
	for _, tc := range []struct {
		name, text string
		tables     int
		err        string
	}{
		{"two rules", "[[rule]]\ntoolName = \"a\"\npriority = 1\ndecision = \"allow\"\n[[rule]]\ntoolName = \"b\"\npriority = 2\ndecision = \"deny\"\n", 2, ""},
		{"schema refuses, tables as written", "[[rule]]\ntoolName = \"a\"\npriority = 1000\n", 1, ""},
		{"no rules", "x = 1\n", 0, ""},
		{"not TOML", "[[rule]\n", 0, "at row"},
		{"longer than the kept tables", strings.Repeat("[[rule]]\ntoolName = \"a\"\npriority = 1\ndecision = \"allow\"\n", 100), 100, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RuleTables(tc.text)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, got, tc.tables)
			doc, err := parseTOML(tc.text)
			require.NoError(t, err)
			assert.Equal(t, ruleTables(doc), got)
			again, _ := RuleTables(tc.text)
			kept := readFile(tc.text).tables
			if len(tc.text) > tablesKeptText {
				assert.Nil(t, kept, "a long text's tables are not kept")
				assert.NotSame(t, &got[0], &again[0], "a long text is parsed again")
			} else if len(got) > 0 {
				assert.Same(t, &got[0], &again[0], "a second read is the kept one")
				assert.Same(t, &kept[0], &got[0])
			}
		})
	}
}
