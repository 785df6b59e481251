package household

import "github.com/deskcheck/deskcheck/internal/fault"

// Fault is a deliberate boundary bug the model can be switched into, to
// measure which boundaries a suite of cases really pins. A model with no
// fault behaves as the reference; each fault changes one rule and nothing
// else.
type Fault uint64

// Faults is a set of faults. The zero value is the correct model.
type Faults = fault.Set[Fault]

// FaultInfo names and explains a fault.
type FaultInfo = fault.Info[Fault]

// The faults.
const (
	// FaultAttemptRecordedAfterAdmission: the boundary records an attempt
	// only once admit has authorised it, so denied attempts and attempts
	// whose arguments are not an object leave no trace.
	FaultAttemptRecordedAfterAdmission Fault = 1 << iota
	// FaultTraceNotCopied: the record holds the live arguments object
	// instead of a deep copy, so the trimmed scenario shows in the trace.
	FaultTraceNotCopied
	// FaultModelTraceKept: tool_calls and portfolio_writes written by the
	// model in its final object replace the recorded ones in the result.
	FaultModelTraceKept
	// FaultHouseholdCheckSkipped: admit does not enforce the household
	// allowlist.
	FaultHouseholdCheckSkipped
	// FaultSnapshotArgsUnchecked: concentration inputs are not compared
	// with the snapshot.
	FaultSnapshotArgsUnchecked
	// FaultSnapshotCompareNumeric: concentration inputs are compared as
	// numbers, not as Python str() text.
	FaultSnapshotCompareNumeric
	// FaultDeadlineAfterOnly: the deadline is not checked before a model
	// request, only after the response.
	FaultDeadlineAfterOnly
	// FaultLateResponseAccepted: the deadline is not checked after a
	// response, so a late response is processed.
	FaultLateResponseAccepted
	// FaultInternalErrorLeaked: a worker's error text becomes the policy
	// code of the unavailable result.
	FaultInternalErrorLeaked
	// FaultRuntimeOutcomeClaimable: a final decision may declare any of the
	// seven outcomes, runtime outcomes included.
	FaultRuntimeOutcomeClaimable
	// FaultStepLimitOffByOne: one decision more than maxDecisions is
	// processed.
	FaultStepLimitOffByOne
	// FaultDenyAll: blanket refusal. admit denies every attempt as not
	// available, so no tool ever runs.
	FaultDenyAll
)

// FaultList describes every fault, in declaration order. It is read-only.
var FaultList = []FaultInfo{
	{Fault: FaultAttemptRecordedAfterAdmission, Name: "attempt-recorded-after-admission", Bug: "the attempt is recorded only once admit has authorised it",
		Hint: `scenario household: a decision admit denies (a tool outside given.tools, or an unauthorised household), expecting attempts and toolCalls that include it`},
	{Fault: FaultTraceNotCopied, Name: "trace-not-copied", Bug: "the record aliases the live arguments (the trimmed scenario shows)",
		Hint: `scenario household: a valid future_value call whose scenario has surrounding spaces, expecting toolCalls with the untrimmed scenario`},
	{Fault: FaultModelTraceKept, Name: "model-trace-kept", Bug: "model-supplied tool_calls / portfolio_writes survive assembly",
		Hint: `scenario household: a final object carrying its own tool_calls or portfolio_writes, expecting result with the recorded tool_calls and portfolio_writes 0`},
	{Fault: FaultHouseholdCheckSkipped, Name: "household-check-skipped", Bug: "the household allowlist is not enforced",
		Hint: `scenario household: portfolio.read of a household outside given.households (hh-bose), expecting denied 1 and effects 0`},
	{Fault: FaultSnapshotArgsUnchecked, Name: "snapshot-args-unchecked", Bug: "concentration inputs are not compared with the snapshot",
		Hint: `scenario household: a read, then concentration with an input that differs from the snapshot, expecting statuses with invalid`},
	{Fault: FaultSnapshotCompareNumeric, Name: "snapshot-compare-numeric", Bug: `concentration inputs are compared as numbers (48000000.0 accepted, "48000000" refused)`,
		Hint: `scenario household: a read, then concentration with 48000000.0 or "48000000" as equity_inr, expecting statuses or observations`},
	{Fault: FaultDeadlineAfterOnly, Name: "deadline-after-only", Bug: "the deadline is not checked before a model request",
		Hint: `scenario household: latencies and toolSeconds that reach deadlineSeconds after a tool runs, expecting modelCalls without a further request`},
	{Fault: FaultLateResponseAccepted, Name: "late-response-accepted", Bug: "the deadline is not checked after a response",
		Hint: `scenario household: a latency that carries the clock to or past deadlineSeconds on a valid response, expecting outcome deadline_exceeded`},
	{Fault: FaultInternalErrorLeaked, Name: "internal-error-leaked", Bug: "the worker's error text becomes the policy code",
		Hint: `scenario household: given.timeouts naming a tool that is then called validly, expecting policyCode TOOL_UNAVAILABLE or resultExcludes "workers/"`},
	{Fault: FaultRuntimeOutcomeClaimable, Name: "runtime-outcome-claimable", Bug: "the model may declare unavailable, step_limit, deadline_exceeded or parser_failure",
		Hint: `scenario household: a final decision with outcome unavailable (or another runtime outcome), expecting outcome parser_failure`},
	{Fault: FaultStepLimitOffByOne, Name: "step-limit-off-by-one", Bug: "one decision more than maxDecisions is processed",
		Hint: `scenario household: more than maxDecisions responses without an earlier final one, expecting outcome step_limit and decisions equal to maxDecisions`},
	{Fault: FaultDenyAll, Name: "deny-all", Bug: "every attempt is denied: a host that refuses everything",
		Hint: `scenario household: a permitted tool call that runs, expecting effects 1 (or statuses with ok)`},
}
