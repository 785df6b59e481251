package scenario

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the known word that word is most likely a misspelling
// of: ignoring case, at most two edits away, or one edit in five for longer
// words (ties go to the first in sorted order). It returns "" when none is
// that close.
func Closest(word string, known []string) string {
	best, bestDist := "", max(2, utf8.RuneCountInString(word)/5)+1
	lower := strings.ToLower(word)
	for _, k := range known {
		if d := EditDistance(lower, strings.ToLower(k)); d < bestDist || (d == bestDist && k < best) {
			best, bestDist = k, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
