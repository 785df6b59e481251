package omp

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	omptools "github.com/deskcheck/deskcheck/host/omp/conformance/tools"
)

// allFamilies is every critical family of every era, once per pattern.
func allFamilies() []CriticalFamily {
	var out []CriticalFamily
	out = append(out, criticalRm17...)
	out = append(out, criticalRm18...)
	return append(out, criticalRest...)
}

func TestNewPrefilter(t *testing.T) {
	tests := []struct {
		pattern string
		want    prefilter
	}{
		{`[rR][mM]`, prefilter{{"rm"}}},
		{`\b[rR][mM]\b`, prefilter{{"rm"}}},
		{`rm|RM`, prefilter{{"rm"}}},
		{`(?:[cC][uU][rR][lL]|wget)\b`, prefilter{{"curl", "wget"}}},
		{`ab|cd|e*`, nil},
		{`x*`, nil},
		{`(?:rm)+`, prefilter{{"rm"}}},
		{`(?:rm){0,2}x`, prefilter{{"x"}}},
		{`(?:rm){2}`, prefilter{{"rm"}}}, // once is enough to require
		{`mkfs(?:\.|\b)`, prefilter{{"mkfs"}}},
		{`tee\s+(?:-a\s+)?/etc`, prefilter{{"/etc"}, {"tee"}, {"\t", "\n", "\f", "\r", " "}}},
		// Go's (?i) folds k with the Kelvin sign and s with ſ: those
		// letters are left out.
		{`(?i)kill`, prefilter{{"ill"}}},
		{`(?i)sudo`, prefilter{{"udo"}}},
		{`(?i)k`, nil},
		{`(?i)rm`, prefilter{{"rm"}}},
		{`(?i)dd`, prefilter{{"dd"}}},
		// Only ASCII enters a string.
		{`é/x`, prefilter{{"/x"}}},
		{`[a\x{212a}]b`, prefilter{{"b"}}},
		{`[^a]b`, prefilter{{"b"}}},
		// Too many alternatives: the wide class is left out.
		{`[a-z]q`, prefilter{{"q"}}},
		{`(`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			assert.Equal(t, tt.want, newPrefilter(tt.pattern))
		})
	}
}

// TestEveryFamilyHasAPrefilter: every family's pattern yields a condition
// with a string of at least two letters, so that the prefilter turns away
// almost every command before the pattern runs.
func TestEveryFamilyHasAPrefilter(t *testing.T) {
	for _, f := range allFamilies() {
		require.NotEmpty(t, f.p.compiled().pre, f.Name)
		assert.GreaterOrEqual(t, score(f.p.compiled().pre[0]), 1.0, "%s: %q", f.Name, f.p.compiled().pre)
	}
}

func TestASCIILower(t *testing.T) {
	for in, want := range map[string]string{
		"":            "",
		"rm -rf /":    "rm -rf /",
		"RM -Rf /X":   "rm -rf /x",
		"ſudo \u212a": "ſudo \u212a",
		"ÀB\xffC":     "Àb\xffc",
	} {
		assert.Equal(t, want, asciiLower(in), "%q", in)
	}
}

// corpus gathers commands: every string of every JSON file in the
// repository's desks and test data, the generated calls of the tools'
// conformance test, and every string literal of this package's tests.
func corpus(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && len(s) < 4096 {
			seen[s] = true
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			add(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				add(k)
				walk(e)
			}
		}
	}
	root := filepath.Join("..", "..")
	for _, dir := range []string{"cases", "host", "verifier", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".json") {
				return nil
			}
			if info, err := d.Info(); err != nil || info.Size() > 4<<20 {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			var v any
			if json.Unmarshal(data, &v) == nil {
				walk(v)
			}
			return nil
		})
		require.NoError(t, err)
	}
	for _, c := range omptools.Generate(1, 3600) {
		if s, ok := c.Args["command"].(string); ok {
			add(s)
		}
	}
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					add(s)
				}
			}
			return true
		})
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	return out
}

// generate writes a random text that the pattern's syntax tree spells
// (zero-width assertions are not enforced: the text may not match).
func generate(r *rand.Rand, re *syntax.Regexp, b *strings.Builder) {
	repeat := func(lo, hi int) {
		if hi < 0 || hi > lo+3 {
			hi = lo + 3
		}
		for n := lo + r.IntN(hi-lo+1); n > 0; n-- {
			generate(r, re.Sub[0], b)
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		i := 2 * r.IntN(len(re.Rune)/2)
		lo, hi := re.Rune[i], re.Rune[i+1]
		if hi-lo > 200 && r.IntN(2) == 0 {
			hi = lo + 200 // mostly the class's start, often ASCII
		}
		c := lo + rune(r.Int64N(int64(hi-lo)+1))
		if !utf8.ValidRune(c) {
			c = lo
		}
		b.WriteRune(c)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte("ab /-|;&"[r.IntN(8)])
	case syntax.OpCapture:
		generate(r, re.Sub[0], b)
	case syntax.OpStar:
		repeat(0, -1)
	case syntax.OpPlus:
		repeat(1, -1)
	case syntax.OpQuest:
		repeat(0, 1)
	case syntax.OpRepeat:
		repeat(re.Min, re.Max)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			generate(r, s, b)
		}
	case syntax.OpAlternate:
		generate(r, re.Sub[r.IntN(len(re.Sub))], b)
	}
}

// mutate changes s a little: letters' case, letters Go's (?i) would fold
// with an ASCII letter, Unicode spaces, a character dropped or added,
// invalid UTF-8, another command around it.
func mutate(r *rand.Rand, s string, others []string) string {
	runes := []rune(s)
	pos := func() int { return r.IntN(len(runes) + 1) }
	insert := func(c ...rune) {
		i := pos()
		runes = append(runes[:i], append(c, runes[i:]...)...)
	}
	for n := 1 + r.IntN(3); n > 0; n-- {
		switch r.IntN(9) {
		case 0, 1: // case
			for i, c := range runes {
				if r.IntN(3) == 0 {
					switch {
					case 'a' <= c && c <= 'z':
						runes[i] = c - 'a' + 'A'
					case 'A' <= c && c <= 'Z':
						runes[i] = c - 'A' + 'a'
					}
				}
			}
		case 2: // folds that are no ASCII letter
			for i, c := range runes {
				switch c {
				case 's', 'S':
					runes[i] = 'ſ'
				case 'k', 'K':
					runes[i] = '\u212a'
				case 'i', 'I':
					runes[i] = []rune{'ı', 'İ'}[r.IntN(2)]
				}
			}
		case 3: // spaces
			for i, c := range runes {
				if c == ' ' && r.IntN(2) == 0 {
					runes[i] = []rune{'\u00a0', '\u2003', '\u3000', '\ufeff', '\t', '\n', '\v'}[r.IntN(7)]
				}
			}
		case 4:
			if len(runes) > 0 {
				i := r.IntN(len(runes))
				runes = append(runes[:i], runes[i+1:]...)
			}
		case 5:
			insert([]rune("aZ /-|;&(<>$`'\"0195é\u00a0ſ")[r.IntN(22)])
		case 6:
			insert(utf8.RuneError)
		case 7:
			o := []rune(pick(r, others))
			if r.IntN(2) == 0 {
				runes = append(append(o, ' '), runes...)
			} else {
				runes = append(append(runes, []rune("; ")...), o...)
			}
		case 8:
			if len(runes) > 1 {
				i := r.IntN(len(runes) - 1)
				runes[i], runes[i+1] = runes[i+1], runes[i]
			}
		}
	}
	out := string(runes)
	if r.IntN(10) == 0 { // a stray invalid byte
		i := r.IntN(len(out) + 1)
		out = out[:i] + "\xff" + out[i:]
	}
	return out
}

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

// knockout removes from s, case-insensitively, every occurrence of every
// string of set, until none is left.
func knockout(s string, set []string) string {
	for {
		lower := asciiLower(s)
		changed := false
		for _, w := range set {
			if i := strings.Index(lower, w); i >= 0 {
				s = s[:i] + "#" + s[i+len(w):]
				changed = true
				break
			}
		}
		if !changed {
			return s
		}
	}
}

// TestPrefilterIsNecessary: for every family, on the corpus, on texts
// generated from every family's pattern and on mutations of both, a
// command the prefilter turns away never matches the pattern; and a
// matching text with one of the prefilter's sets knocked out of it no
// longer matches.
func TestPrefilterIsNecessary(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	families := allFamilies()
	base := corpus(t)
	require.Greater(t, len(base), 1000, "the corpus is too small to show anything")

	generated := map[string][]string{} // family → generated texts that match it
	var texts []string
	for _, f := range families {
		re, err := syntax.Parse(f.p.compiled().re.String(), syntax.Perl)
		require.NoError(t, err)
		for range 400 {
			var b strings.Builder
			generate(r, re, &b)
			s := b.String()
			texts = append(texts, s)
			if f.p.compiled().re.MatchString(s) {
				generated[f.Name] = append(generated[f.Name], s)
			}
		}
	}
	for _, f := range families {
		assert.GreaterOrEqual(t, len(generated[f.Name]), 50, "%s: too few generated texts match", f.Name)
	}
	all := append(base, texts...)
	for range 20000 {
		all = append(all, mutate(r, pick(r, all), base))
	}

	matched := map[string]int{}
	for _, s := range all {
		lower := asciiLower(s)
		for _, f := range families {
			if !f.p.compiled().pre.pass(lower) {
				if !assert.False(t, f.p.compiled().re.MatchString(s), "%s: prefilter %q turns away %q, which matches", f.Name, f.p.compiled().pre, s) {
					return
				}
			} else if f.p.compiled().re.MatchString(s) {
				matched[f.Name]++
			}
		}
	}
	for _, f := range families {
		// Matches beyond the generated texts: the mutations and the corpus
		// reached the pattern too.
		assert.Greater(t, matched[f.Name], len(generated[f.Name]), f.Name)
	}

	knocked := 0
	for _, f := range families {
		for _, s := range generated[f.Name] {
			for _, set := range f.p.compiled().pre {
				k := knockout(s, set)
				require.False(t, f.p.compiled().re.MatchString(k), "%s: %q still matches with %q knocked out: %q", f.Name, s, set, k)
				knocked++
			}
		}
	}
	assert.Greater(t, knocked, 1000)
}

// TestPrefilterKeepsDeclarations: the bash declaration of every corpus
// command is what the patterns alone decide, in every era.
func TestPrefilterKeepsDeclarations(t *testing.T) {
	for _, command := range corpus(t) {
		for _, era := range []int{Bash17, Bash18} {
			var want, got string
			for _, f := range CriticalFamilies(era) {
				if want == "" && f.p.compiled().re.MatchString(command) {
					want = f.Name
				}
			}
			e := newBashEval(era, BashSettings{}, Faults{})
			if f, ok := e.critical(command); ok {
				got = f.Name
			}
			require.Equal(t, want, got, "%q", command)
		}
	}
}
