package gemini

// MutationKind is a kind of generated mutation of the engine: each changes
// one named constant or branch of the model. The zero Mutation is the
// reference model.
type MutationKind int

// The mutation points (spec §5.2).
const (
	MutNone MutationKind = iota
	// MutTierAdmin, MutTierUser, MutTierDefault, MutTierExtension move a
	// tier's base by Delta.
	MutTierAdmin
	MutTierUser
	MutTierDefault
	MutTierExtension
	// MutExcludeOffset puts tools.exclude at 4.3 instead of 4.4.
	MutExcludeOffset
	// MutAlwaysAllowFraction makes the always-allow fraction 50, not 950.
	MutAlwaysAllowFraction
	// MutYoloAllowAll puts yolo.toml's allow-all at priority 5, not 998.
	MutYoloAllowAll
	// MutDefaultDecisionSwap swaps the interactive and headless default
	// decisions.
	MutDefaultDecisionSwap
	// MutSortAscending sorts the rules by ascending priority.
	MutSortAscending
	// MutReverseTies lets the later of two rules of equal priority decide.
	MutReverseTies
	// MutSkipHeuristics skips the heuristics at the top level.
	MutSkipHeuristics
	// MutSkipParts skips the check of each part of a split command.
	MutSkipParts
	// MutPrefixBoundary drops the boundary class after a command prefix.
	MutPrefixBoundary
	// MutNarrowingOffset puts tools.allowed's narrowing deny at 4.3, level
	// with its allows.
	MutNarrowingOffset
	// MutNoFraming drops the NUL framing of the argument string.
	MutNoFraming
)

// Mutation is one generated mutant of the model.
type Mutation struct {
	Kind  MutationKind
	Delta int
}

func (m Mutation) is(k MutationKind) bool { return m.Kind == k }

func (m Mutation) delta(k MutationKind) int {
	if m.Kind == k {
		return m.Delta
	}
	return 0
}
