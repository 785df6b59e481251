package gemini

import (
	"errors"
	"strings"
	"testing"
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

// Valid patterns the model does not run: reported, never guessed.
func TestJSRegexOutsideTheModel(t *testing.T) {
	for _, p := range []string{
		`(?=a)`, `(?!a)`, `(?<=a)b`, `(?<!a)b`, `(?=a)*`, `(a)\1`, `\1(a)`, `(?<a>x)\k<a>`, `\k<a>(?<a>x)`,
		`x{9000}`, `x{0,99999}`, `(x{1000}){2}`, strings.Repeat("(", 1001) + strings.Repeat(")", 1001),
	} {
		_, err := compileJSOnce(p)
		assert.ErrorIs(t, err, ErrRegexOutsideModel, "%.40q", p)
	}
	// Without groups a decimal escape is an octal escape, and \k a k.
	for _, p := range []string{`\1`, `\k<a>`, `\12`} {
		_, err := compileJSOnce(p)
		assert.NoError(t, err, p)
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
// model) and never panics; what it translates, Go compiles.
func FuzzJSRegex(f *testing.F) {
	for _, s := range append(append([]string{}, regexPieces...), regexEdges...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !utf8.ValidString(p) || len(p) > 4096 {
			return
		}
		goSrc, err := translateJS(p)
		var syn *jsRegexSyntaxError
		switch {
		case err == nil:
			_, err := compileJSOnce(p)
			if err != nil && !errors.Is(err, ErrRegexOutsideModel) {
				t.Fatalf("%q: translated to %q, then %v", p, goSrc, err)
			}
		case errors.As(err, &syn), errors.Is(err, ErrRegexOutsideModel):
		default:
			t.Fatalf("%q: %v", p, err)
		}
	})
}
