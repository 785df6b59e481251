package household

// MutationKind is a kind of generated mutation of the runtime. A Mutation
// is a fault made from one declared mutation point; the zero Mutation is
// the reference model.
type MutationKind int

// The mutation points.
const (
	MutNone MutationKind = iota
	// MutDecisionBudget moves the decision budget by Delta.
	MutDecisionBudget
	// MutDropToolCheck drops admit's check that the tool is available.
	MutDropToolCheck
	// MutDropHouseholdCheck drops admit's household check.
	MutDropHouseholdCheck
	// MutSwapAdmit checks the household before the tool's availability.
	MutSwapAdmit
	// MutDropPortfolioFields drops portfolio.read's field check.
	MutDropPortfolioFields
	// MutDropCalculatorFields drops future_value's field check.
	MutDropCalculatorFields
	// MutDropSnapshotArgs drops concentration's comparison with the
	// snapshot read.
	MutDropSnapshotArgs
	// MutDropTimeout drops the worker timeouts: the tool runs.
	MutDropTimeout
	// MutDropDeadlineBefore and MutDropDeadlineAfter drop the clock check
	// before a model request and after a response.
	MutDropDeadlineBefore
	MutDropDeadlineAfter
	// MutDropTimeoutDiagnostic drops the diagnostic of a timed-out
	// worker.
	MutDropTimeoutDiagnostic
	// MutDecisionBudgetInverted inverts the decision budget's comparison.
	MutDecisionBudgetInverted
	// MutDeadline moves the deadline by Delta seconds.
	MutDeadline
	// MutDeadlineInverted inverts the clock's comparison with the
	// deadline.
	MutDeadlineInverted
)

// Mutation is one generated mutant of the model.
type Mutation struct {
	Kind  MutationKind
	Delta int
}

func (m Mutation) is(k MutationKind) bool { return m.Kind == k }

func (r *run) mutDelta(k MutationKind) int {
	if r.cfg.Mutation.Kind == k {
		return r.cfg.Mutation.Delta
	}
	return 0
}

// pastDeadlineAt compares the clock with the deadline, as moved or
// inverted by the mutation.
func (r *run) pastDeadlineAt() bool {
	deadline := r.cfg.DeadlineSeconds + float64(r.mutDelta(MutDeadline))
	if r.cfg.Mutation.is(MutDeadlineInverted) {
		return r.elapsed < deadline
	}
	return r.elapsed >= deadline
}
