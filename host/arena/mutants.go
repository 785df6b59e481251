package arena

import "github.com/deskcheck/deskcheck/recorders"

// MutationKind is what a generated mutant changes in the fixture's policy.
type MutationKind int

// The mutation kinds.
const (
	// MutNone is the correct policy.
	MutNone MutationKind = iota
	// MutInvertRow inverts the decision of one row of the table.
	MutInvertRow
	// MutIgnoreUnavailable decides an unavailable call by its label.
	MutIgnoreUnavailable
	// MutUnknownAllows turns the unknown default to allow.
	MutUnknownAllows
)

// Mutation is one generated mutant of the policy.
type Mutation struct {
	Kind MutationKind
	// Label is the row MutInvertRow inverts.
	Label string
}

// decider is the fixture's policy under the mutation.
func (m Mutation) decider() recorders.Decider {
	if m.Kind == MutNone {
		return recorders.ContractV1
	}
	return func(scripted recorders.Action, requested string) (string, string, int) {
		if scripted.Unavailable && m.Kind != MutIgnoreUnavailable {
			return "deny", recorders.ReasonPolicyUnavailable, 503
		}
		decision, reason, listed := recorders.Policy(requested)
		switch {
		case m.Kind == MutInvertRow && requested == m.Label && decision == "allow":
			return "deny", recorders.ReasonUnknownAction, 200
		case m.Kind == MutInvertRow && requested == m.Label:
			return "allow", recorders.ReasonAllowed, 200
		case m.Kind == MutUnknownAllows && !listed:
			return "allow", recorders.ReasonAllowed, 200
		}
		return decision, reason, 200
	}
}
