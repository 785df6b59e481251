package agentloop

// MutationKind is a kind of generated mutation of the runner. A Mutation
// is a fault made from one declared mutation point; the zero Mutation is
// the reference model.
type MutationKind int

// The mutation points.
const (
	MutNone MutationKind = iota
	// MutStepLimit moves the step limit by Delta.
	MutStepLimit
	// MutBudget moves the tool budget by Delta.
	MutBudget
	// MutArgChars moves the short-string limit by Delta.
	MutArgChars
	// MutBudgetInverted inverts the budget comparison.
	MutBudgetInverted
	// MutDropGrant drops the write-capability check.
	MutDropGrant
	// MutDropBudget drops the budget check.
	MutDropBudget
	// MutDropLength drops the short-string length check.
	MutDropLength
	// MutBudgetFirst swaps the budget check before the argument checks.
	MutBudgetFirst
	// MutDropDraftRecord drops the record of a saved draft.
	MutDropDraftRecord
	// MutDropBlockedCount drops the count of a blocked request.
	MutDropBlockedCount
	// MutStepLimitInverted inverts the step limit's comparison.
	MutStepLimitInverted
)

// Mutation is one generated mutant of the model.
type Mutation struct {
	Kind  MutationKind
	Delta int
}

func (m Mutation) delta(k MutationKind) int {
	if m.Kind == k {
		return m.Delta
	}
	return 0
}
