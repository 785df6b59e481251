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
	// MutSwapChecks tries the approval check after Check ("6b", "6c" or
	// "6d") before it.
	MutSwapChecks
)

// SwappableChecks are the approval checks a mutation may swap with the
// next one.
var SwappableChecks = []string{"6b", "6c", "6d"}

// approvalSwapped runs checks 6b to 6e as a table in which the check
// named by the mutation and the next one are swapped. It is used only by
// that mutant; its narration of a binding mismatch is shorter than
// decide's, and it reads no fault.
func (g *gateway) approvalSwapped(v verdict, a *approval, principal, action, resource, argDigest string) verdict {
	exp, now := formatTime(a.ExpiresAt), formatTime(g.now)
	type check struct {
		id   string
		deny func() (verdict, bool)
	}
	checks := []check{
		{"6b", func() (verdict, bool) {
			return v.deny("6b", ReasonApprovalConsumed, "approval "+a.ID+" is consumed"), a.Consumed
		}},
		{"6c", func() (verdict, bool) {
			return v.deny("6c", ReasonApprovalNotApproved, "approval "+a.ID+" has state "+a.State), a.State != StateApproved
		}},
		{"6d", func() (verdict, bool) {
			return v.deny("6d", ReasonApprovalExpired, "expiresAt "+exp+" <= now "+now), !a.ExpiresAt.After(g.now)
		}},
		{"6e", func() (verdict, bool) {
			mismatch := a.Principal != principal || a.Action != action || a.Resource != resource || a.binding != argDigest
			return v.deny("6e", ReasonApprovalBindingMismatch, "approval "+a.ID+" binds another principal, action, resource or arguments"), mismatch
		}},
	}
	for i := 0; i+1 < len(checks); i++ {
		if checks[i].id == g.mutation.Check {
			checks[i], checks[i+1] = checks[i+1], checks[i]
			break
		}
	}
	for _, c := range checks {
		if d, denied := c.deny(); denied {
			return d
		}
	}
	return v.pass("passed 0, 1a–1d, 2, 3, 4, 5a–5c, 6a–6e: approval " + a.ID + " approved, expiresAt " + exp + " > now " + now + ", binds " + a.binding)
}

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
