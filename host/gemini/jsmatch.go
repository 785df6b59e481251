package gemini

import (
	"fmt"
	"slices"
	"sort"
)

// A pattern with lookaround or back references runs on this backtracking
// matcher, which follows ECMAScript's pattern semantics (section 22.2.2
// of the specification, without flags) on the subject's UTF-16 code
// units:
//
//   - Every node is a matcher that takes a position and a continuation,
//     the rest of the match, and succeeds when some way of matching the
//     node makes the continuation succeed.
//   - A repetition tries the atom (greedy: before the continuation; lazy:
//     after it), clears the captures of the atom's groups at each
//     iteration, and refuses an iteration that matches the empty string
//     once its minimum is reached.
//   - Lookaround is atomic: its body is matched once, with a
//     continuation that always succeeds. A positive one keeps the
//     captures its body set, a negative one keeps none. A lookbehind's
//     body matches backwards, from its end: a sequence from its last term
//     to its first, each character and back reference ending where the
//     position is.
//   - A back reference to a group not (or no longer) set matches the
//     empty string; otherwise it matches the same units the group did.
//
// Captures live in one slice that a node sets and, when its continuation
// fails, sets back, so a failed path leaves them as it found them.
//
// The work is bounded: every node visited, every unit a repetition of
// one unit counts and every place it tries, and every unit a back
// reference compares, is a step, and a test of one subject (every start
// position) takes at most jsMatchBudget steps. Node matchers nest at most
// jsMatchDepth deep (a repetition of one unit tries its counts one after
// another, anything else repeated nests once per iteration). Beyond
// either bound the matcher stops and gives no answer.

// jsMatchBudget is the most steps a test of one subject may take.
const jsMatchBudget = 1_000_000

type jsOp uint8

const (
	jsOpChar         jsOp = iota // one unit in set
	jsOpSeq                      // kids one after another
	jsOpAlt                      // one of kids, tried in order
	jsOpGroup                    // capturing group n around kids[0]
	jsOpRepeat                   // kids[0] repeated min to max times
	jsOpLook                     // lookahead or lookbehind (behind), negative (neg) or not
	jsOpBackref                  // back reference to group n (name, before it is resolved)
	jsOpStart                    // ^
	jsOpEnd                      // $
	jsOpWordBoundary             // \b, or \B (neg)
)

// jsNode is a node of a pattern's tree.
type jsNode struct {
	op   jsOp
	kids []*jsNode
	// set is the sorted, disjoint units a jsOpChar matches.
	set []jsRange
	// n is a group's number (jsOpGroup, jsOpBackref).
	n    int
	name string
	// neg and behind qualify jsOpLook and jsOpWordBoundary.
	neg, behind bool
	// min, max (jsInfinity: no bound) and greedy qualify jsOpRepeat;
	// the groups capFrom+1 to capFrom+capCount are the repeated atom's.
	min, max          int
	greedy            bool
	capFrom, capCount int
}

// jsCont is the rest of a match, from a position.
type jsCont func(pos int) bool

type jsMatcher struct {
	in []uint16
	// caps holds the start and end of group n at 2n and 2n+1 (-1: not
	// set).
	caps          []int
	steps, budget int
	// depth is the number of nodes being matched, one inside another's
	// continuation; deep says it went over jsMatchDepth.
	depth int
	deep  bool
}

// jsMatchDepth bounds how deep node matchers nest: each one's rest of the
// match runs inside it, so a repetition of anything but one unit nests
// once per iteration.
const jsMatchDepth = 100_000

func (m *jsMatcher) over() bool { return m.steps > m.budget || m.deep }

// jsBacktrack tests tree, which has groups capturing groups, on in at
// every start position in turn, within budget steps; beyond them it is an
// error wrapping ErrRegexOutsideModel.
func jsBacktrack(tree *jsNode, groups int, in []uint16, budget int) (bool, error) {
	m := &jsMatcher{in: in, caps: make([]int, 2*groups+2), budget: budget}
	accept := func(int) bool { return true }
	for start := 0; start <= len(in); start++ {
		for i := range m.caps {
			m.caps[i] = -1
		}
		if m.match(tree, start, true, accept) {
			return true, nil
		}
		if m.deep {
			return false, fmt.Errorf("%w: the match nests more than %d deep", ErrRegexOutsideModel, jsMatchDepth)
		}
		if m.over() {
			return false, fmt.Errorf("%w: the match takes more than %d steps", ErrRegexOutsideModel, budget)
		}
	}
	return false, nil
}

// match matches n at pos, forwards (fwd) or backwards, then k.
func (m *jsMatcher) match(n *jsNode, pos int, fwd bool, k jsCont) bool {
	m.steps++
	if m.over() {
		return false
	}
	if m.depth == jsMatchDepth {
		m.deep = true
		return false
	}
	m.depth++
	ok := m.node(n, pos, fwd, k)
	m.depth--
	return ok
}

func (m *jsMatcher) node(n *jsNode, pos int, fwd bool, k jsCont) bool {
	switch n.op {
	case jsOpChar:
		if fwd {
			return pos < len(m.in) && jsInSet(n.set, m.in[pos]) && k(pos+1)
		}
		return pos > 0 && jsInSet(n.set, m.in[pos-1]) && k(pos-1)
	case jsOpSeq:
		return m.seq(n.kids, 0, pos, fwd, k)
	case jsOpAlt:
		for _, alt := range n.kids {
			if m.match(alt, pos, fwd, k) {
				return true
			}
		}
		return false
	case jsOpGroup:
		return m.match(n.kids[0], pos, fwd, func(end int) bool {
			i := 2 * n.n
			s, e := m.caps[i], m.caps[i+1]
			m.caps[i], m.caps[i+1] = min(pos, end), max(pos, end)
			if k(end) {
				return true
			}
			m.caps[i], m.caps[i+1] = s, e
			return false
		})
	case jsOpBackref:
		s, e := m.caps[2*n.n], m.caps[2*n.n+1]
		if s < 0 || e < 0 {
			return k(pos)
		}
		l := e - s
		m.steps += l
		if fwd {
			return pos+l <= len(m.in) && slices.Equal(m.in[s:e], m.in[pos:pos+l]) && k(pos+l)
		}
		return pos-l >= 0 && slices.Equal(m.in[s:e], m.in[pos-l:pos]) && k(pos-l)
	case jsOpStart:
		return pos == 0 && k(pos)
	case jsOpEnd:
		return pos == len(m.in) && k(pos)
	case jsOpWordBoundary:
		before := pos > 0 && jsInSet(jsWord, m.in[pos-1])
		after := pos < len(m.in) && jsInSet(jsWord, m.in[pos])
		return (before != after) != n.neg && k(pos)
	case jsOpLook:
		saved := slices.Clone(m.caps)
		matched := m.match(n.kids[0], pos, !n.behind, func(int) bool { return true })
		if m.over() {
			return false
		}
		if matched == n.neg {
			copy(m.caps, saved)
			return false
		}
		if k(pos) {
			return true
		}
		copy(m.caps, saved)
		return false
	case jsOpRepeat:
		if n.kids[0].op == jsOpChar {
			return m.repeatUnit(n, pos, fwd, k)
		}
		return m.repeat(n, n.min, n.max, pos, fwd, k)
	}
	panic(fmt.Sprintf("jsMatcher: node kind %d", n.op))
}

// seq matches kids[i:] (backwards: kids[:len(kids)-i], last first), then
// k.
func (m *jsMatcher) seq(kids []*jsNode, i, pos int, fwd bool, k jsCont) bool {
	if i == len(kids) {
		return k(pos)
	}
	kid := kids[i]
	if !fwd {
		kid = kids[len(kids)-1-i]
	}
	return m.match(kid, pos, fwd, func(next int) bool { return m.seq(kids, i+1, next, fwd, k) })
}

// repeat matches n's atom at least lo and at most hi times (jsInfinity:
// no bound), then k.
func (m *jsMatcher) repeat(n *jsNode, lo, hi, pos int, fwd bool, k jsCont) bool {
	if hi == 0 {
		return k(pos)
	}
	again := func(next int) bool {
		if lo == 0 && next == pos {
			// An iteration past the minimum that matches nothing.
			return false
		}
		nextHi := hi
		if hi != jsInfinity {
			nextHi--
		}
		return m.repeat(n, max(lo-1, 0), nextHi, next, fwd, k)
	}
	from, to := 2*(n.capFrom+1), 2*(n.capFrom+n.capCount+1)
	atom := func() bool {
		var saved []int
		if from < to {
			saved = slices.Clone(m.caps[from:to])
			for i := from; i < to; i++ {
				m.caps[i] = -1
			}
		}
		if m.match(n.kids[0], pos, fwd, again) {
			return true
		}
		copy(m.caps[from:to], saved)
		return false
	}
	switch {
	case lo > 0:
		return atom()
	case n.greedy:
		return atom() || !m.over() && k(pos)
	}
	return k(pos) || !m.over() && atom()
}

// repeatUnit is repeat for an atom of one unit, which every iteration
// consumes: k is tried at each place a count within the bounds ends, one
// after another instead of one inside another. Greedy, the units are
// counted first and the most tried first; lazy, the fewest first, taking
// one more unit each time.
func (m *jsMatcher) repeatUnit(n *jsNode, pos int, fwd bool, k jsCont) bool {
	set, step := n.kids[0].set, 1
	if !fwd {
		step = -1
	}
	// unit reports whether the unit an iteration takes after c others
	// matches.
	unit := func(c int) bool {
		m.steps++
		i := pos + c
		if !fwd {
			i = pos - c - 1
		}
		return i >= 0 && i < len(m.in) && jsInSet(set, m.in[i])
	}
	count := 0
	for count < n.min {
		if m.over() || !unit(count) {
			return false
		}
		count++
	}
	if !n.greedy {
		for {
			m.steps++
			if m.over() {
				return false
			}
			if k(pos + step*count) {
				return true
			}
			if count == n.max || !unit(count) {
				return false
			}
			count++
		}
	}
	for count < n.max && !m.over() && unit(count) {
		count++
	}
	for ; count >= n.min; count-- {
		m.steps++
		if m.over() {
			return false
		}
		if k(pos + step*count) {
			return true
		}
	}
	return false
}

// jsInSet reports whether u is in the sorted, disjoint ranges set.
func jsInSet(set []jsRange, u uint16) bool {
	i := sort.Search(len(set), func(i int) bool { return set[i].hi >= u })
	return i < len(set) && set[i].lo <= u
}
