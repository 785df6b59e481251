package omp

import (
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"
)

// A prefilter is a necessary condition of a critical pattern, checked
// before the pattern runs: Go's regexp finds no literal prefix in the
// patterns' [rR][mM] spellings and backtracks from every position of every
// command, while almost no command contains the words a family needs.
//
// The condition is derived from the pattern's syntax tree, so it cannot
// drift from the pattern: it is a list of sets of strings, and a command
// passes when, for every set, its ASCII-lowercased text contains one of the
// set's strings. Each string is a piece of text every match must contain
// (ASCII-lowercased): the pattern's literal runs, with [rR]-style classes
// read as their lowercase letter. Only ASCII enters a string, so neither
// Go's Unicode case folding nor invalid UTF-8 can make a match whose text
// lacks it.
type prefilter [][]string

// maxAlternatives bounds the strings of one set (and the cross product of
// a literal run's classes).
const maxAlternatives = 16

// newPrefilter derives the prefilter of a pattern. A pattern it cannot
// read yields the empty prefilter, which passes every command.
func newPrefilter(pattern string) prefilter {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	sets := required(re)
	for i, set := range sets {
		sets[i] = minimal(set)
	}
	// The most selective set first: longest shortest string.
	sort.SliceStable(sets, func(i, j int) bool { return score(sets[i]) > score(sets[j]) })
	return sets
}

// pass reports whether the ASCII-lowercased command lower may match.
func (p prefilter) pass(lower string) bool {
	for _, set := range p {
		found := false
		for _, s := range set {
			if strings.Contains(lower, s) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// asciiLower lowercases the ASCII letters of s only (JavaScript's i flag
// without u, the prefilter's strings, and all a JavaScript toLowerCase can
// change in the write tool's prefixes); it returns s itself when there is
// nothing to change.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

// score ranks a set: the length of its shortest string, fewer strings
// breaking ties (as a fraction).
func score(set []string) float64 {
	if len(set) == 0 {
		return 0
	}
	shortest := len(set[0])
	for _, s := range set[1:] {
		shortest = min(shortest, len(s))
	}
	return float64(shortest) - float64(len(set))/(maxAlternatives+1)
}

// exact returns the set of ASCII-lowercased texts re can match, when re
// matches only ASCII text and the set is small; ok is false otherwise.
// Zero-width assertions match "" (they consume nothing, so the texts on
// either side of them are contiguous).
func exact(re *syntax.Regexp) (set []string, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			if r >= unicode.MaxASCII {
				return nil, false
			}
			if re.Flags&syntax.FoldCase != 0 {
				// Go's (?i): every rune the letter folds with must be ASCII
				// too ('k' folds with the Kelvin sign, 's' with 'ſ').
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					if f >= unicode.MaxASCII {
						return nil, false
					}
				}
			}
			b.WriteRune(unicode.ToLower(r))
		}
		return []string{b.String()}, true
	case syntax.OpCharClass:
		seen := map[string]bool{}
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= unicode.MaxASCII || hi-lo >= maxAlternatives {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				seen[string(unicode.ToLower(r))] = true
				if len(seen) > maxAlternatives {
					return nil, false
				}
			}
		}
		if len(seen) == 0 {
			return nil, false
		}
		return sortedKeys(seen), true
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := exact(re.Sub[0])
		if !ok {
			return nil, false
		}
		return union([]string{""}, sub)
	case syntax.OpConcat:
		set = []string{""}
		for _, sub := range re.Sub {
			s, ok := exact(sub)
			if !ok {
				return nil, false
			}
			if set, ok = product(set, s); !ok {
				return nil, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			s, ok := exact(sub)
			if !ok {
				return nil, false
			}
			if set, ok = union(set, s); !ok {
				return nil, false
			}
		}
		return set, true
	}
	return nil, false
}

// required returns sets of which every match of re contains, for each
// set, one of its strings (ASCII-lowercased). Sets holding "" say nothing
// and are left out.
func required(re *syntax.Regexp) [][]string {
	if set, ok := exact(re); ok {
		return useful(set)
	}
	switch re.Op {
	case syntax.OpLiteral:
		// Some rune is not ASCII: the runs of those that are.
		if len(re.Rune) < 2 {
			return nil
		}
		concat := &syntax.Regexp{Op: syntax.OpConcat}
		for _, r := range re.Rune {
			concat.Sub = append(concat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Flags: re.Flags, Rune: []rune{r}})
		}
		return required(concat)
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		// Each run of exact pieces is contiguous text of every match; a
		// run grows while its cross product stays small.
		var sets [][]string
		run := []string{""}
		flush := func() {
			sets = append(sets, useful(run)...)
			run = []string{""}
		}
		for _, sub := range re.Sub {
			s, ok := exact(sub)
			if !ok {
				flush()
				sets = append(sets, required(sub)...)
				continue
			}
			next, ok := product(run, s)
			if !ok {
				flush()
				if next, ok = product(run, s); !ok {
					continue // one piece too wide on its own
				}
			}
			run = next
		}
		flush()
		return sets
	case syntax.OpAlternate:
		// A match is a match of one branch: it contains a string of that
		// branch's best set.
		var set []string
		for _, sub := range re.Sub {
			sets := required(sub)
			if len(sets) == 0 {
				return nil
			}
			best := sets[0]
			for _, s := range sets[1:] {
				if score(s) > score(best) {
					best = s
				}
			}
			var ok bool
			if set, ok = union(set, best); !ok {
				return nil
			}
		}
		return useful(set)
	}
	return nil
}

// useful returns set as the only set of a list, or nothing when it holds
// "" (which every text contains).
func useful(set []string) [][]string {
	for _, s := range set {
		if s == "" {
			return nil
		}
	}
	if len(set) == 0 {
		return nil
	}
	return [][]string{set}
}

// minimal drops from an any-of set each string that contains another of
// its strings: finding the shorter one is enough.
func minimal(set []string) []string {
	var out []string
	for _, s := range set {
		redundant := false
		for _, t := range set {
			if t != s && strings.Contains(s, t) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, s)
		}
	}
	return out
}

func product(a, b []string) ([]string, bool) {
	if len(a)*len(b) > maxAlternatives {
		return nil, false
	}
	seen := map[string]bool{}
	for _, x := range a {
		for _, y := range b {
			seen[x+y] = true
		}
	}
	return sortedKeys(seen), true
}

func union(a, b []string) ([]string, bool) {
	seen := map[string]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, y := range b {
		seen[y] = true
	}
	if len(seen) > maxAlternatives {
		return nil, false
	}
	return sortedKeys(seen), true
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
