package gemini

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// V8's refusals, word for word, as node 20 gives them for new RegExp(p).
func TestJSRegexRefusals(t *testing.T) {
	for _, tt := range []struct{ pattern, msg string }{
		{`(?<a>x)|(?<a>q)`, "Duplicate capture group name"},
		{`(?<a>x)(?<a>y)(`, "Duplicate capture group name"},
		{`(?<a>(?<a>x`, "Unterminated group"},
		{`a**`, "Nothing to repeat"},
		{`^*`, "Nothing to repeat"},
		{`\b{3,1}`, "Nothing to repeat"},
		{`a{1,2}{3}`, "Nothing to repeat"},
		{`{1}`, "Nothing to repeat"},
		{`x{2,1}`, "numbers out of order in {} quantifier"},
		{`(?<=a){3,1}`, "numbers out of order in {} quantifier"},
		{`(?<=a)*`, "Invalid quantifier"},
		{`[b-a]`, "Range out of order in character class"},
		{`(`, "Unterminated group"},
		{`a)`, "Unmatched ')'"},
		{`[a`, "Unterminated character class"},
		{`\`, `\ at end of pattern`},
		{`(?<1a>x)`, "Invalid capture group name"},
		{`(?<a\u00[>x)`, "Invalid Unicode escape"},
		{`(?<a>x)\k<b>`, "Invalid named capture referenced"},
		{`(?<a>x)\k`, "Invalid named reference"},
		{`(?<b>\k<`, "Invalid capture group name"},
		{`(?<a>x)[\k<a>]`, "Invalid escape"},
		{`(?x)`, "Invalid group"},
	} {
		_, err := compileJSOnce(tt.pattern)
		var syn *jsRegexSyntaxError
		require.True(t, errors.As(err, &syn), "%q: %v", tt.pattern, err)
		assert.Equal(t, "Invalid regular expression: /"+tt.pattern+"/: "+tt.msg, err.Error())
	}
}

// What V8 reads otherwise than Go would: UTF-16 units and Annex B.
func TestJSRegexMatches(t *testing.T) {
	for _, tt := range []struct {
		pattern, subject string
		match            bool
	}{
		{`^.$`, "😀", false},
		{`^..$`, "😀", true},
		{`^\uD83D\uDE00$`, "😀", true},
		{`\uD83D`, "😀", true},
		{`^[^a]$`, "😀", false},
		{`^[😀]$`, "😀", false},
		{`^[😀][😀]$`, "😀", true},
		{`^[\uD800-\uDBFF][\uDC00-\uDFFF]$`, "😀", true},
		{`^\S\S$`, "😀", true},
		{`[\s-x]`, "-", true},
		{`[a-\d]`, "-", true},
		{`[\c1]`, "\x11", true},
		{`\c1`, `\c1`, true},
		{`[\c*]`, `\`, true},
		{`^a{01}$`, "a", true},
		{`^x{1001}$`, strings.Repeat("x", 1001), true},
		{`^x{1001}$`, strings.Repeat("x", 1000), false},
		{`^x{2,2500}$`, strings.Repeat("x", 2500), true},
		{`^x{2,2500}$`, strings.Repeat("x", 2501), false},
		{`^x{1500,}$`, strings.Repeat("x", 3000), true},
		{`(?<$a>q)`, "q", true},
		{`^\101$`, "A", true},
		{`^\8$`, "8", true},
		{`^\u{2}$`, "uu", true},
		{`^a{$`, "a{", true},
		{`^a{,2}$`, "a{,2}", true},
		{`^]}$`, "]}", true},
		{`.`, "\u2028", false},
		{`\s`, "\ufeff", true},
		{`[]`, "a", false},
		{`^[^]$`, "\n", true},
		{`^\0$`, "\x00", true},
		{`^\08$`, "\x008", true},
		{`\b`, "😀", false},
		{`a$`, "a\n", false},
	} {
		re, err := compileJSOnce(tt.pattern)
		require.NoError(t, err, tt.pattern)
		assert.Equal(t, tt.match, re.MatchString(tt.subject), "%q on %q", tt.pattern, tt.subject)
	}
}

// Lookaround and back references run on the backtracking matcher, with
// V8's answers (node 20).
func TestJSRegexBacktracks(t *testing.T) {
	for _, tt := range []struct {
		pattern, subject string
		match            bool
	}{
		{`(?=a)`, "a", true},
		{`(?=a)`, "b", false},
		{`(?!a)`, "a", true},
		{`^(?!a)`, "a", false},
		{`(?<=a)b`, "ab", true},
		{`(?<=a)b`, "cb", false},
		{`(?<!a)b`, "ab", false},
		{`(?<!a)b`, "cb", true},
		{`^(?=a)*a$`, "a", true},
		{`(a)\1`, "aa", true},
		{`(a)\1`, "ab", false},
		{`\1(a)`, "a", true},
		{`(?<a>x)\k<a>`, "xx", true},
		{`(?<a>x)\k<a>`, "x", false},
		{`\k<a>(?<a>x)`, "x", true},
		{`^(?:(a)|b)+\1$`, "abb", true},
		{`^(?:(a)|b)+\1$`, "aba", false},
		{`^(?:(a)|b)\1$`, "b", true},
		{`(?=(a))\1`, "a", true},
		{`(?=(a))a\1`, "a", false},
		{`(?!(a))\1b`, "b", true},
		{`(?<=(a)b)\1`, "ab", false},
		{`(?<=(a)b)c\1`, "abca", true},
		{`(?<=\1(a))b`, "aab", true},
		{`(?<=\1(a))b`, "ab", false},
		{`(?<=(a)\1)b`, "aab", true},
		{`^(a*)+\1$`, "aa", true},
		{`^(?:a|ab)(?=c)`, "abc", true},
		{`^\uD83D(?=\uDE00)`, "😀", true},
		{`^.(?=$)`, "😀", false},
		{`(?<=😀)x`, "😀x", true},
		{`^x{1001}(?=$)`, strings.Repeat("x", 1001), true},
	} {
		re, err := compileJSOnce(tt.pattern)
		require.NoError(t, err, tt.pattern)
		assert.True(t, re.Backtracks(), tt.pattern)
		got, err := re.Test(tt.subject)
		require.NoError(t, err, "%q on %q", tt.pattern, tt.subject)
		assert.Equal(t, tt.match, got, "%q on %q", tt.pattern, tt.subject)
		assert.Equal(t, tt.match, re.MatchString(tt.subject), "%q on %q", tt.pattern, tt.subject)
	}
}

// Valid patterns the model does not run: reported, never guessed.
func TestJSRegexOutsideTheModel(t *testing.T) {
	for _, p := range []string{
		`x{9000}`, `x{0,99999}`, `(x{1000}){2}`, strings.Repeat("(", 1001) + strings.Repeat(")", 1001),
		`(a)\1{9000}`, `(?=x{0,99999})`, strings.Repeat("(", 1001) + `(?=a)` + strings.Repeat(")", 1001),
	} {
		_, err := compileJSOnce(p)
		assert.ErrorIs(t, err, ErrRegexOutsideModel, "%.40q", p)
	}
	// Without groups a decimal escape is an octal escape, and \k a k: Go's
	// engine runs them.
	for _, p := range []string{`\1`, `\k<a>`, `\12`} {
		re, err := compileJSOnce(p)
		require.NoError(t, err, p)
		assert.False(t, re.Backtracks(), p)
	}
}

// A subject without characters beyond U+FFFF is matched as it is.
func TestJSUnits(t *testing.T) {
	s := `{"q":"a é"}`
	assert.Equal(t, s, jsUnits(s))
	u := jsUnits("x😀")
	assert.Equal(t, []rune{'x', jsSurrogateBase + 0xD83D - 0xD800, jsSurrogateBase + 0xDE00 - 0xD800}, []rune(u))
}

// Any text: the reader answers (a pattern, V8's refusal, or outside the
// model) and never panics, and neither does the pattern on a few
// subjects. A pattern outside the model is one Go's engine cannot hold
// or that nests too deep, never an error of the reader.
func FuzzJSRegex(f *testing.F) {
	for _, s := range append(append([]string{}, regexPieces...), regexEdges...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !utf8.ValidString(p) || len(p) > 4096 {
			return
		}
		re, err := compileJSOnce(p)
		var syn *jsRegexSyntaxError
		switch {
		case err == nil:
			for _, s := range []string{"", "aab", "x😀y"} {
				if re.Backtracks() {
					_, _ = jsBacktrack(re.tree, re.groups, utf16.Encode([]rune(s)), 20000)
				} else {
					_, _ = re.Test(s)
				}
			}
		case errors.As(err, &syn), errors.Is(err, ErrRegexOutsideModel):
		default:
			t.Fatalf("%q: %v", p, err)
		}
	})
}

// Counts over 1,000 nested in one another double the Go pattern at each
// level: the reader stops at jsMaxGoPattern bytes instead of growing
// without bound.
func TestJSRegexNestedChainsAreBounded(t *testing.T) {
	p := strings.Repeat("(", 60) + "a" + strings.Repeat("{1001})", 60)
	parsed, err := parseJS(p)
	assert.ErrorIs(t, err, ErrRegexOutsideModel)
	assert.Nil(t, parsed)
	_, err = compileJSOnce(`(ab){1001}c{2000}`)
	assert.NoError(t, err, "chains side by side still run")
}
