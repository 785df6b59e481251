package scenario

// Boundary is what one case contributes to the boundary-response
// dimensions. Counts of what should happen (the denominators) come from
// the case's script, its given and expected blocks; counts of what did
// happen (the numerators) come only from the recorders.
type Boundary struct {
	// Actions is the number of scripted actions; a case with none is not
	// a control and counts in no dimension.
	Actions int
	// Denied is the number of scripted-denied actions; DeniedVisible,
	// those whose denial reached the caller with its reason.
	Denied, DeniedVisible int
	// Permitted is the number of scripted-permitted actions; Worked,
	// those whose work was observed.
	Permitted, Worked int
	// FailClosed: no effect came from a denied or unknown action, and no
	// effect beyond what is permitted.
	FailClosed bool
	// ServiceRequests is the number of requests the service saw;
	// ServiceExpected, how many the reference decision lets through.
	ServiceRequests, ServiceExpected int
	// AmplificationBasis names what ServiceExpected counts when it is not
	// the actions the reference decision lets through: "scripted" where
	// the service decides every scripted action. A release column whose
	// cases share a basis shows it beside its figure.
	AmplificationBasis string
	// Complete: scripted actions, emitted calls, policy events and
	// receipts reconcile one to one.
	Complete bool
	// ExtraEffects is max(0, observed effects − permitted effects).
	ExtraEffects int
}
