package gateway

// MutationKind is a kind of generated mutation of the gateway's decision
// table. A Mutation is a fault made from one declared mutation point; the
// zero Mutation is the reference model.
type MutationKind int

// The mutation points.
const (
	MutNone MutationKind = iota
	// MutDropCheck skips the check Check ("0", "1b", "4", "5r", "5a",
	// "5b", "5c", "6b", "6c", "6d", or "6e-principal", "6e-action",
	// "6e-resource", "6e-arguments" for one comparison of the binding).
	MutDropCheck
	// MutTextLimit moves the text length limit of check 5c by Delta.
	MutTextLimit
	// MutTextLimitInverted inverts check 5c's comparison.
	MutTextLimitInverted
	// MutExpiryStrict makes check 6d strict: an approval expiring exactly
	// now still authorizes.
	MutExpiryStrict
	// MutExpiryInverted inverts check 6d's comparison.
	MutExpiryInverted
	// MutDropAudit drops the audit event of every step.
	MutDropAudit
	// MutDropConsume drops the consumption of a used approval.
	MutDropConsume
)

// Mutation is one generated mutant of the model.
type Mutation struct {
	Kind  MutationKind
	Check string
	Delta int
}

// DroppableChecks are the checks a mutation may skip: those after which
// the decision table still has what it reads.
var DroppableChecks = []string{"0", "1b", "4", "5r", "5a", "5b", "5c", "6b", "6c", "6d", "6e-principal", "6e-action", "6e-resource", "6e-arguments"}

// drops reports whether m skips check.
func (m Mutation) drops(check string) bool { return m.Kind == MutDropCheck && m.Check == check }

// textLimit is the limit check 5c compares with under m.
func (m Mutation) textLimit() int {
	if m.Kind == MutTextLimit {
		return MaxTextLength + m.Delta
	}
	return MaxTextLength
}
