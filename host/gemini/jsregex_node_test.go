package gemini

import (
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// regexScript compiles each pattern of a JSON array read from standard
// input with new RegExp (no flags) and tests it on each subject: the
// answers, or the SyntaxError's message, or the message of what a test
// threw (V8's own backtracking runs out of stack on some patterns).
const regexScript = `
let input = ''; process.stdin.setEncoding('utf8');
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const {patterns, subjects} = JSON.parse(input);
  process.stdout.write(JSON.stringify(patterns.map(p => {
    let re;
    try { re = new RegExp(p); } catch (e) { return {err: e.message}; }
    try { return {m: subjects.map(s => re.test(s))}; } catch (e) { return {threw: e.message}; }
  })));
});
`

// regexPieces are what the generated patterns are made of: the corners
// where V8's reading of a pattern without flags differs from Go's.
var regexPieces = []string{
	"a", "b", "k", "u", "8", ".", `\.`, `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\b`, `\B`, "^", "$",
	"[a-c]", "[^a]", "[]", "[^]", `[\s-x]`, `[\d-z]`, `[a-\d]`, `[\w-]`, `[-a]`, `[a-]`, `[c-a]`, `[\S]`, `[^\S\n]`,
	`[\c1]`, `[\c_]`, `[\c*]`, `\c1`, `\cA`, `\cz`, `[\cA]`, `\x41`, `\x4`, `\u0041`, `\u00`, `\uD83D`, `\uDE00`,
	`\uD83D\uDE00`, "😀", "[😀]", "[^😀]", `[\uD800-\uDBFF]`, `[^\uD800-\uDFFF]`, `\0`, `\01`, `\08`, `\1`, `\2`, `\12`, `\8`,
	`[\1]`, `[\8]`, `[\b]`, `[\B]`, `[\-]`, `\k<a>`, `\k`, `\k<`, "(", "(?:", "(?<a>", "(?<b>", "(?<$x>", "(?<1>", "(?<a", "(?<é>",
	`(?<\u0061>`, "(?x", ")", "|", "*", "+", "?", "{", "}", "{2}", "{1,}", "{1,3}", "{3,1}", "{01}", "{0,}", "{1001}",
	"{2,1001}", "{999999999999}", "]", `\`, `\-`, "-", "[", `\u2028`, "\u2028", "\r", "\n", "(?=a)", "(?!a)", "(?<=a)",
	"(?<!a)", "*?", "??", "a{", "x{1,2", `\p{L}`, `\u{41}`, "é", "İ", "\u00a0", "\ufeff", `\/`, "/", `\t`, `\v`,
	`[\s\S]`, `[^\d\s]`, `\c`, `[\c]`, `[\uD83D-\uDE00]`, `[^\uDE00]`, `[\W\d]`, `[\x00-\uFFFF]`, `[\uE000-\uFFFF]`,
	`{2}?`, `+?`, `[a-\uD83D]`, `[\uDBFF-\uDC00]`, `\uDE00\uD83D`, `(?<a>)`, `(?<a>x)`, `[\D]`, `[^\W]`, `[\t-\r]`, `\xZ1`,
	// Lookaround and back references, on the backtracking matcher.
	"(?=a)", "(?!a)", "(?<=a)", "(?<!b)", `(a)\1`, `\1(a)`, `(?<n>a)\k<n>`, `\k<n>`, "(a*)+", `(?:(a)|b)\1`, `(?=(a))\1`,
	"(?<=(a)b)", `(?<=\1(a))`, `(?<=(a)\1)`, `(?!(a))\1`, "(?<=", "(?<!", "(?=", "(?!", "(?<=.)", "(?<!^)", `(?<=\b)`, "(?=$)",
	`(\w)\1`, `(.)\1+`, `(?:(a)|(b))+\2`, `\2`, "(a|ab)", `(?=(\w+))`, `(?<=(\S)\1)`, `(?<=\uDE00)`, `(?<=x{2})`,
	"(?:a|)*?", "(b?)*", `(?:(a)|b)*?\1`,
}

// regexSubjects are the texts every generated pattern is tested on.
var regexSubjects = []string{
	"", "a", "b", "abc", "aaaa", "😀", "x😀y", "a\nb", "\u2028", "\r", "A1_", " ", "\u00a0", "\ufeff", "\v", "\t",
	"x{1,2", strings.Repeat("u", 41), `\c1`, "\x11", "\x01", "\x00", "\x008", "8", "k<a>", "k", "-", "{", "}", "]", "/",
	strings.Repeat("x", 1001), "p{L}", "é", "İ", "ab-cd", "\b", "A", "\x1a", "*", "ca", `\`,
}

func regexCorpus(n int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	out := make([]string, 0, n)
	for range n {
		var b strings.Builder
		for range 1 + r.Intn(5) {
			b.WriteString(regexPieces[r.Intn(len(regexPieces))])
		}
		out = append(out, b.String())
	}
	return out
}

// regexEdges are patterns the corpus may not make.
var regexEdges = []string{
	"(?<a>x)|(?<a>q)", "(?<a>x)\\k<b>", "(?<a>x)\\k<a>", "\\k<a>(?<a>x)", "(x{1000}){2}", "x{1001}", "x{2000,2002}", "x{0,5000}",
	"a{1,2}{3}", "a**", "^*", "\\b+", "(?<=a)*", "(?=a)*", "(?<$a>x)", "(?<a\\u0062>x)\\k<ab>", "(?<😀>x)",
	strings.Repeat("(", 999) + "a" + strings.Repeat(")", 999), "((a)", "(a))", "[a", "a\\", "\\c", "[\\c]",
	"\\1(a)", "(a)\\1", "(a)\\2", "\\10(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)", "\\377", "\\400", "[\\377\\400]",
	"\\uD83D.", "^.$", "^..$", "^[^a]$", "^[^a][^a]$", "^\\S$", "^\\W\\W$", "^[\\s\\S]{2}$",
	"^(?:(a)|b)+\\1$", "(?<=(a)b)c\\1", "^(a*)+\\1$", "(?<=\\1(a))b", "(?<=(a)\\1)b", "^(?=(a+?))\\1*$", "(?<=^(x+))\\1$",
	"(?<!(?=(a))a)\\1", "(?=(?<=(a)))a\\1", "^(?:a(?=(b))|a(?=(c)))*\\1\\2", "(x{1000})\\1{2}(?=)", "(?<=x{1001})x",
	"(?<=(\\S)(?!\\1)\\S)\\1", "^(\\uD83D)\\uDE00(?=y)", "(?<=😀)y",
}

// The model reads and runs every generated pattern as node's V8 does: the
// same SyntaxError message, or the same answer on every subject. A valid
// pattern the model does not run (a count Go cannot repeat, groups nested
// too deep, or a match over the step budget) is counted, not guessed, and
// must stay a tiny share.
func TestRegexAgreesWithNode(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is missing, and CI runs this test")
		}
		t.Skip("node is missing: the differential against V8's regular expressions needs it")
	}
	n := 6000 // REGEX_CORPUS and REGEX_SEED make another corpus
	if s := os.Getenv("REGEX_CORPUS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := int64(7)
	if s := os.Getenv("REGEX_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	patterns := append(regexCorpus(n, seed), regexEdges...)
	var results []struct {
		Err   *string `json:"err"`
		M     []bool  `json:"m"`
		Threw *string `json:"threw"`
	}
	runNode(t, regexScript, nil, map[string]any{"patterns": patterns, "subjects": regexSubjects}, &results)
	require.Len(t, results, len(patterns))
	failures, outside, invalid, valid, backtracked, threw := 0, 0, 0, 0, 0, 0
	for i, p := range patterns {
		want := results[i]
		re, err := compileJSOnce(p)
		switch {
		case want.Err != nil:
			invalid++
			var syn *jsRegexSyntaxError
			if !errors.As(err, &syn) || !assert.Equal(t, *want.Err, err.Error(), "%q", p) {
				t.Errorf("%q: V8 says %q, the model %v", p, *want.Err, err)
				failures++
			}
		case errors.Is(err, ErrRegexOutsideModel):
			outside++
		case want.Threw != nil:
			// V8 has no answer; the model must not give one either.
			threw++
			for _, s := range regexSubjects {
				if _, err = re.Test(s); err != nil {
					break
				}
			}
			if !errors.Is(err, ErrRegexOutsideModel) {
				t.Errorf("%q: V8 throws %q, the model answers", p, *want.Threw)
				failures++
			}
		case err != nil:
			t.Errorf("%q: V8 compiles it, the model says %v", p, err)
			failures++
		default:
			answers := make([]bool, len(regexSubjects))
			for j, s := range regexSubjects {
				if answers[j], err = re.Test(s); err != nil {
					break
				}
			}
			if err != nil {
				require.ErrorIs(t, err, ErrRegexOutsideModel, "%q", p)
				outside++
				break
			}
			valid++
			if re.Backtracks() {
				backtracked++
			}
			for j, s := range regexSubjects {
				if answers[j] != want.M[j] {
					t.Errorf("%q on %q: V8 %v, the model %v", p, s, want.M[j], answers[j])
					failures++
					break
				}
			}
		}
		if failures > 20 {
			t.Fatal("too many")
		}
	}
	t.Logf("%d patterns: %d valid and run (%d of them backtracking), %d refused with V8's message, %d outside the model, %d on which V8 throws",
		len(patterns), valid, backtracked, invalid, outside, threw)
	assert.Less(t, outside*50, len(patterns), "outside the model")
	assert.Positive(t, invalid)
	assert.Positive(t, valid)
	assert.Positive(t, backtracked)
}
