package omp

// MutationKind is a kind of generated mutation of the wrapper's decision
// logic. A Mutation is a fault made from one declared mutation point; the
// zero Mutation is the correct model.
type MutationKind int

// The mutation points.
const (
	MutNone MutationKind = iota
	// MutCap moves Mode's tier cap (decision row 8) by Delta tiers: -1 for
	// always-ask makes it auto-approve no tier.
	MutCap
	// MutDropRow skips decision row Row.
	MutDropRow
	// MutSwapRows tries decision row Row+1 before row Row.
	MutSwapRows
	// MutCapStrict makes row 8's comparison strict: a tier must be below
	// the cap, not at it.
	MutCapStrict
	// MutCapInverted inverts row 8's comparison: tiers above the cap are
	// auto-approved, those at or below it are not.
	MutCapInverted
	// MutApproveInverted inverts the dialog's check: every answer but
	// "Approve" approves.
	MutApproveInverted
	// MutDropToolCall drops the tool_call event: the wrapper never emits
	// it, so no handler can block or revise the call.
	MutDropToolCall
	// MutDropSafetyRecord drops the record of an approved safety check:
	// providerSafetyApproved is never set.
	MutDropSafetyRecord
	// MutDropOriginalDeny drops the deny check on the original input.
	MutDropOriginalDeny
	// MutDropNoUIRefusal lets a required approval without a UI run.
	MutDropNoUIRefusal
	// MutDropSafetyChecks ignores pending safety checks.
	MutDropSafetyChecks
	// MutClassifyDropCode removes Code from the permission codes.
	MutClassifyDropCode
	// MutClassifyDropMessage drops the classifier's message rule.
	MutClassifyDropMessage
	// MutClassifyCodeInverted inverts the classifier's code rule.
	MutClassifyCodeInverted
	// MutFallbackDropMkdir skips creating the parent on ENOENT.
	MutFallbackDropMkdir
	// MutFallbackExtraAttempt moves the retry bound by one: a second
	// ENOENT also creates the parent and retries.
	MutFallbackExtraAttempt
	// MutFallbackDropCauseCheck sends every failure with handlers to them,
	// permission denied or not.
	MutFallbackDropCauseCheck
	// MutFallbackContinueAfterComplete asks the next handler even after
	// one completed, and reports failure when the last declines.
	MutFallbackIgnoreComplete
)

// Mutation is one generated mutant of the model.
type Mutation struct {
	Kind MutationKind
	// Mode and Delta steer MutCap; Row steers MutDropRow and MutSwapRows;
	// Code steers MutClassifyDropCode.
	Mode  string
	Delta int
	Row   int
	Code  string
}

// Active reports whether m changes the model.
func (m Mutation) Active() bool { return m.Kind != MutNone }

// Has reports whether m is of kind k.
func (m Mutation) Has(k MutationKind) bool { return m.Kind == k }

// DecisionRows is the number of rows of the decision order.
const DecisionRows = 9

// Modes lists the modes the host knows, in cap order.
var Modes = []string{ModeAlwaysAsk, ModeWrite, ModeYolo}

// Cap returns the rank of the highest tier mode auto-approves at row 8,
// and false when it auto-approves none.
func Cap(mode string) (int, bool) {
	t, ok := modeMaxTier[mode]
	return tierRank[t], ok
}

// resolveMutated is the decision order written as a table of rows, so
// that a mutation can drop or reorder one. With no mutation it returns
// what resolveApproval returns (a test holds it to that on every input).
func resolveMutated(t Tool, args any, mode string, user policies, m Mutation) (Resolution, error) {
	d, err := toolDecision(t, args)
	if err != nil {
		return Resolution{}, err
	}
	key := t.Name
	if d.PolicyKey != "" {
		key = d.PolicyKey
	}
	var userPolicy, fallback Policy
	if v, own := user.get(key); own {
		userPolicy = NormalizePolicy(v)
	}
	if v, own := user.get(t.Name); own && key != t.Name && userPolicy == "" {
		fallback = NormalizePolicy(v)
	}
	effective := userPolicy
	if effective == "" {
		effective = fallback
	}
	userKey := t.Name
	if userPolicy != "" {
		userKey = key
	}
	fromTool := func(row int, p Policy, override bool) Resolution {
		return Resolution{Policy: p, Tier: d.Tier, Source: SourceTool, Override: override, Reason: d.Reason, PolicyKey: d.PolicyKey, Row: row}
	}
	fromUser := func(row int, p Policy, override bool) Resolution {
		return Resolution{Policy: p, Tier: d.Tier, Source: SourceUser, Override: override, PolicyKey: userKey, Row: row}
	}
	capRank, capped := Cap(mode)
	if m.Kind == MutCap && m.Mode == mode {
		if !capped {
			capRank = -1
		}
		capRank += m.Delta
		capped = capRank >= 0
	}
	row := func(n int) (Resolution, bool) {
		switch n {
		case 1:
			return fromTool(1, PolicyDeny, d.Override), d.Policy == PolicyDeny
		case 2:
			return fromUser(2, PolicyDeny, d.Override), effective == PolicyDeny
		case 3:
			return fromTool(3, d.Policy, false), mode == ModeYolo && d.Policy != ""
		case 4:
			if effective != "" {
				return fromUser(4, effective, false), mode == ModeYolo
			}
			return Resolution{Policy: PolicyAllow, Tier: d.Tier, Source: SourceMode, Row: 4}, mode == ModeYolo
		case 5:
			p := PolicyPrompt
			if d.Policy == PolicyAllow {
				p = PolicyAllow
			}
			return fromTool(5, p, true), d.Override
		case 6:
			return fromTool(6, d.Policy, false), d.Policy != ""
		case 7:
			return fromUser(7, effective, false), effective != ""
		case 8:
			rank := tierRank[d.Tier]
			ok := rank <= capRank
			switch m.Kind {
			case MutCapStrict:
				ok = rank < capRank
			case MutCapInverted:
				ok = rank > capRank
			}
			return Resolution{Policy: PolicyAllow, Tier: d.Tier, Source: SourceMode, Row: 8}, capped && ok
		}
		return Resolution{Policy: PolicyPrompt, Tier: d.Tier, Source: SourceMode, Reason: d.Reason, Row: 9}, true
	}
	order := make([]int, 0, DecisionRows)
	for n := 1; n <= DecisionRows; n++ {
		if m.Kind == MutDropRow && m.Row == n {
			continue
		}
		order = append(order, n)
	}
	if m.Kind == MutSwapRows {
		for i := 0; i+1 < len(order); i++ {
			if order[i] == m.Row {
				order[i], order[i+1] = order[i+1], order[i]
				break
			}
		}
	}
	for _, n := range order {
		if r, ok := row(n); ok {
			return r, nil
		}
	}
	// Row 9 was dropped and nothing matched: the call is allowed, as a
	// decision order without its default would leave it.
	return Resolution{Policy: PolicyAllow, Tier: d.Tier, Source: SourceMode, Row: 0}, nil
}
