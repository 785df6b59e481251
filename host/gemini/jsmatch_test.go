package gemini

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsExec runs the backtracking matcher on any valid pattern, as
// RegExp.prototype.exec does: the match's index and its captures (the
// whole match first; nil: not set), or index -1.
func jsExec(t *testing.T, pattern, subject string) (int, []any) {
	t.Helper()
	p, err := parseJS(pattern)
	require.NoError(t, err, pattern)
	in := utf16.Encode([]rune(subject))
	m := &jsMatcher{in: in, caps: make([]int, 2*p.groups+2), budget: jsMatchBudget}
	for start := 0; start <= len(in); start++ {
		for i := range m.caps {
			m.caps[i] = -1
		}
		end := -1
		if m.match(p.tree, start, true, func(pos int) bool { end = pos; return true }) {
			out := []any{string(utf16.Decode(in[start:end]))}
			for g := 1; g <= p.groups; g++ {
				if s, e := m.caps[2*g], m.caps[2*g+1]; s >= 0 {
					out = append(out, string(utf16.Decode(in[s:e])))
				} else {
					out = append(out, nil)
				}
			}
			return start, out
		}
		require.False(t, m.over(), "%q on %q: over the budget", pattern, subject)
	}
	return -1, nil
}

// The matcher finds the match and the captures ECMAScript's semantics
// give (node 20's exec agrees on each).
func TestJSMatchCaptures(t *testing.T) {
	for _, tt := range []struct {
		name, pattern, subject string
		index                  int
		caps                   []any
	}{
		{"a repetition clears its groups at each iteration", `(z)((a+)?(b+)?(c))*`, "zaacbbbcac", 0, []any{"zaacbbbcac", "z", "ac", "a", nil, "c"}},
		{"an alternative not taken leaves its group unset", `((a)|b)+`, "ab", 0, []any{"ab", "b", nil}},
		{"an empty iteration past the minimum is refused", `(a*)*`, "b", 0, []any{"", nil}},
		{"an empty iteration ends a greedy repetition", `^(a|)*\1$`, "aa", 0, []any{"aa", "a"}},
		{"an empty iteration within the minimum counts", `^(?:a|()){2}\1`, "a", 0, []any{"a", ""}},
		{"a back reference to an empty capture", `(a*)b\1+`, "baaaac", 0, []any{"b", ""}},
		{"a back reference to an unset group is empty", `(a)|\1b`, "b", 0, []any{"b", nil}},
		{"a named back reference to an unset group is empty", `(?:(?<x>a)|b)\k<x>`, "ba", 0, []any{"b", nil}},
		{"a forward reference is empty", `\1(a)`, "a", 0, []any{"a", "a"}},
		{"a reference inside its own group is empty", `^((a)\2)*$`, "aaaa", 0, []any{"aaaa", "aa", "a"}},
		{"greedy backtracks to the longest that fits", `^(a+)\1*,\1+$`, "aaaaaaaaaa,aaaaaaaaaaaaaaa", 0, []any{"aaaaaaaaaa,aaaaaaaaaaaaaaa", "aaaaa"}},
		{"alternatives in order", `(a|ab)(c|bcd)(d*)`, "abcd", 0, []any{"abcd", "a", "bcd", ""}},
		{"lazy", `^(?:a|ab)*?c`, "ababc", 0, []any{"ababc"}},
		{"a lookahead keeps its captures", `(?=(a+))`, "baaabac", 1, []any{"", "aaa"}},
		{"a lookahead is atomic", `(?=(a+))a*b\1`, "baaabac", 3, []any{"aba", "a"}},
		{"a negative lookahead discards its captures", `(.*?)a(?!(a+)b\2c)\2(.*)`, "baaabaac", 0, []any{"baaabaac", "ba", nil, "abaac"}},
		{"a repeated lookahead", `^(?:(?=(a))a)*$`, "aaa", 0, []any{"aaa", "a"}},
		{"a lazy repetition of a lookahead", `(?:(?=(a))a)+?\1`, "aa", 0, []any{"aa", "a"}},
		{"a lookbehind matches backwards: the last group is greedy first", `(?<=(\d+)(\d+))$`, "1053", 4, []any{"", "1", "053"}},
		{"a reference in a lookbehind sees the groups to its right", `(?<=\1d(o))r`, "hodor", 4, []any{"r", "o"}},
		{"a reference in a lookbehind before its group is set", `(?<=(o)d\1)r`, "hodor", -1, nil},
		{"a lookbehind keeps its captures", `(?<=(a))\1`, "aa", 1, []any{"a", "a"}},
		{"a reference before its group in a lookbehind", `(?<=\1(a))`, "aa", 2, []any{"", "a"}},
		{"a lookahead in a lookbehind runs forwards", `(?<=(a)(?=\1))`, "aa", 1, []any{"", "a"}},
		{"a negative lookbehind discards its captures", `(?<!(a))b\1`, "cb", 1, []any{"b", nil}},
		{"a lookahead in a lookbehind looks from where it stands", `(?<=a(?=b)b)c`, "abc", 2, []any{"c"}},
		{"a lookahead in a lookbehind fails", `(?<=(?=(a))b)`, "ab", -1, nil},
		{"a lookbehind in a lookbehind", `(?<=(?<=a)b)c`, "abc", 2, []any{"c"}},
		{"a negative lookbehind in a lookbehind", `(?<=(?<!a)b)c`, "abc", -1, nil},
		{"units, not characters", `(?<=\uD83D)(.)\1?`, "😀😀", 1, []any{"\uFFFD", "\uFFFD"}},
		{"a surrogate pair back reference", `(..)\1`, "😀😀", 0, []any{"😀😀", "😀"}},
		{"a lazy repetition of one unit, backwards", `(?<=(\d+?)(\d+?))$`, "1053", 4, []any{"", "5", "3"}},
		{"counted repetitions of one unit, backwards", `(?<=(\d{2,3})(\d{1,2}?))$`, "12345", 5, []any{"", "234", "5"}},
		{"a lazy count", `(a{2,3}?)\1`, "aaaaaa", 0, []any{"aaaa", "aa"}},
		{"a greedy count gives back", `(a{2,3})\1`, "aaaaa", 0, []any{"aaaa", "aa"}},
		{"a lazy count backwards to the start", `(?<=^a{0,2}?(b))`, "aab", 3, []any{"", "b"}},
		{"a lazy star and a reference", `^(\w*?)\1$`, "abab", 0, []any{"abab", "ab"}},
		{"a greedy star backwards", `(?<=(\w*))x`, "abx", 2, []any{"x", "ab"}},
		{"word boundaries in a lookbehind", `(?<=\b)a\B`, "xa ab", 3, []any{"a"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			index, caps := jsExec(t, tt.pattern, tt.subject)
			assert.Equal(t, tt.index, index)
			assert.Equal(t, tt.caps, caps)
		})
	}
}

// Over the step budget the matcher stops and gives no answer, not even
// through a negative lookaround; under it, it answers.
func TestJSMatchBudget(t *testing.T) {
	exp := strings.Repeat("a", 30)
	for _, tt := range []struct {
		name, pattern, subject string
		budget                 int
		match                  bool
		over                   bool
	}{
		{"exponential", `(a*)*b\1`, exp, jsMatchBudget, false, true},
		{"exponential without a nested quantifier", `(a|a)*b\1`, exp, jsMatchBudget, false, true},
		{"exponential in a negative lookahead", `(?!(a*)*b)\1`, exp, jsMatchBudget, false, true},
		{"exponential in a negative lookbehind", `(?<!b(a*)*)$\1`, exp, jsMatchBudget, false, true},
		{"quadratic on a long subject", `(.)\1+\d`, strings.Repeat("x", 3000), jsMatchBudget, false, true},
		{"a long back reference counts its units", `^(x*)\1$`, strings.Repeat("x", 4000), 2000, false, true},
		{"a match found within the budget", `(a*)*\1`, exp, jsMatchBudget, true, false},
		{"no match, within the budget", `(a)\1b`, exp, jsMatchBudget, false, false},
		{"a budget of 10 steps", `(?=a)a`, "ba", 10, true, false},
		{"a budget of 3 steps", `(?=a)a`, "ba", 3, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseJS(tt.pattern)
			require.NoError(t, err)
			require.True(t, p.backtrack)
			got, err := jsBacktrack(p.tree, p.groups, utf16.Encode([]rune(tt.subject)), tt.budget)
			if tt.over {
				require.ErrorIs(t, err, ErrRegexOutsideModel)
				assert.Contains(t, err.Error(), fmt.Sprintf("the match takes more than %d steps", tt.budget))
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.match, got)
		})
	}
	// Nesting over jsMatchDepth is no answer either; a repetition of one
	// unit does not nest.
	deep, err := compileJSOnce(`^(?:(?!y).)*y`)
	require.NoError(t, err)
	ok, err := deep.Test(strings.Repeat("x", jsMatchDepth/2))
	assert.False(t, ok)
	require.ErrorIs(t, err, ErrRegexOutsideModel)
	assert.Contains(t, err.Error(), fmt.Sprintf("the match nests more than %d deep", jsMatchDepth))
	ok, err = deep.Test(strings.Repeat("x", 1000) + "y")
	assert.True(t, ok)
	assert.NoError(t, err)
	flat, err := compileJSOnce(`^(?=x)x*$`)
	require.NoError(t, err)
	ok, err = flat.Test(strings.Repeat("x", 3*jsMatchDepth))
	assert.True(t, ok)
	assert.NoError(t, err)

	// Test reports it; MatchString answers false.
	re, err := compileJSOnce(`(a*)*b\1`)
	require.NoError(t, err)
	ok, err = re.Test(exp)
	assert.False(t, ok)
	assert.ErrorIs(t, err, ErrRegexOutsideModel)
	assert.False(t, re.MatchString(exp))
	var recorded error
	assert.False(t, re.MatchOrRecord(exp, &recorded))
	assert.ErrorIs(t, recorded, ErrRegexOutsideModel)
	first := errors.New("first")
	recorded = first
	assert.False(t, re.MatchOrRecord(exp, &recorded))
	assert.Same(t, first, recorded)
	recorded = nil
	assert.True(t, re.MatchOrRecord("b", &recorded))
	assert.NoError(t, recorded)
}

// Subjects of any shape: invalid UTF-8 is U+FFFD per bad byte, as on Go's
// engine; empty and long subjects are tested without trouble.
func TestJSMatchSubjects(t *testing.T) {
	for _, tt := range []struct {
		name, pattern, subject string
		match                  bool
	}{
		{"empty subject, lookahead", `^(?!a)$`, "", true},
		{"empty subject, reference", `^(a?)\1$`, "", true},
		{"empty subject, lookbehind", `(?<=a)`, "", false},
		{"a bad byte is one unit", `^(.)\1$`, "\xff\xfe", true},
		{"a truncated sequence is a unit per byte", `^(?=\uFFFD)..$`, "\xe2\x82", true},
		{"U+FFFD itself", `(?<=\uFFFD)x`, "\xffx", true},
		{"a NUL", `(?<=\0)(a)\1`, "\x00aa", true},
		{"a long subject, greedy to the end", `(?=x)x*$`, strings.Repeat("x", 200000), true},
		{"a long subject, lazy to the end", `(?<=a)x*?y`, "a" + strings.Repeat("x", 300000) + "y", true},
		{"a long subject, lazy, no end", `(?<=a)x*?y`, "a" + strings.Repeat("x", 100000), false},
		{"a long subject, a reference at the end", `(?<=(x))y\1`, strings.Repeat("x", 100000) + "yx", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			re, err := compileJSOnce(tt.pattern)
			require.NoError(t, err)
			require.True(t, re.Backtracks())
			got, err := re.Test(tt.subject)
			require.NoError(t, err)
			assert.Equal(t, tt.match, got)
		})
	}
	// Both engines read a bad byte alike.
	for _, s := range []string{"\xff", "\xe2\x82", "a\x80b", "😀\xf0"} {
		lin, err := compileJSOnce(`^(?:.)+$`)
		require.NoError(t, err)
		bt, err := compileJSOnce(`^(?:(?=.).)+$`)
		require.NoError(t, err)
		for _, n := range []int{1, 2, 3, 4} {
			pl, err := compileJSOnce(fmt.Sprintf(`^.{%d}$`, n))
			require.NoError(t, err)
			pb, err := compileJSOnce(fmt.Sprintf(`^(?=.).{%d}$`, n))
			require.NoError(t, err)
			assert.Equal(t, pl.MatchString(s), pb.MatchString(s), "%q, %d units", s, n)
		}
		assert.Equal(t, lin.MatchString(s), bt.MatchString(s), "%q", s)
	}
}
