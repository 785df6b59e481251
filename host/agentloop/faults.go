package agentloop

import "github.com/deskcheck/deskcheck/internal/fault"

// Fault is a deliberate boundary bug the runner model can be switched
// into, to measure which rules a suite of cases really pins. A model with
// no fault behaves as specified; each fault changes one rule and nothing
// else.
type Fault uint64

// Faults is a set of faults. The zero value is the correct model.
type Faults = fault.Set[Fault]

// FaultInfo names and explains a fault.
type FaultInfo = fault.Info[Fault]

// The faults.
const (
	// FaultBudgetSkipsFailures: an attempt is counted only when the tool
	// succeeds, so a failing tool spends nothing.
	FaultBudgetSkipsFailures Fault = 1 << iota
	// FaultBudgetCountsBlocked: a request refused by the known-tool,
	// grant, argument-name or short-string check also spends the budget.
	FaultBudgetCountsBlocked
	// FaultBudgetOffByOne: the budget check is attempts <= maxCalls, so
	// one attempt more runs.
	FaultBudgetOffByOne
	// FaultBudgetCheckedFirst: the budget check runs before the argument
	// checks (after the known-tool and grant checks).
	FaultBudgetCheckedFirst
	// FaultWriteGrantedByDefault: save_draft runs without writeGranted.
	FaultWriteGrantedByDefault
	// FaultArgsSubset: extra argument names are tolerated as long as the
	// tool's own argument is there.
	FaultArgsSubset
	// FaultStringLengthUnchecked: argument strings of any length pass (a
	// non-string value is still refused).
	FaultStringLengthUnchecked
	// FaultCalcAllowsPow: the calculator accepts and evaluates "**",
	// without bounding its result.
	FaultCalcAllowsPow
	// FaultCalcIntDivision: exact int/int division yields an int (50, not
	// 50.0).
	FaultCalcIntDivision
	// FaultCalcUnbounded: calculator values beyond ±10^12 are accepted.
	FaultCalcUnbounded
	// FaultCalcNodeLimitUnchecked: the calculator has no node limit.
	FaultCalcNodeLimitUnchecked
	// FaultStepLimitOffByOne: the runner stops only when step > maxSteps,
	// taking one decision more.
	FaultStepLimitOffByOne
	// FaultFinalNotCounted: the final answer does not advance the step
	// counter; its row repeats the previous step number.
	FaultFinalNotCounted
	// FaultDenyAll: blanket refusal. Every known tool is refused at the
	// grant check, so nothing ever runs.
	FaultDenyAll
)

// FaultList describes every fault, in declaration order.
var FaultList = []FaultInfo{
	{Fault: FaultBudgetSkipsFailures, Name: "budget-skips-failures", Bug: "an attempt is counted only when the tool succeeds",
		Hint: `scenario runner: a validated request whose tool fails (calc "1/0", lookup_user "u-999"), expecting effects or validatedSeries that count it (bundled: seed-invalid, runtime-failure-spends-budget)`},
	{Fault: FaultBudgetCountsBlocked, Name: "budget-counts-blocked", Bug: "refused requests also spend the budget",
		Hint: `scenario runner: requests refused before execution (unknown tool, ungranted save_draft, wrong argument names), expecting effects 0 or a validatedSeries that stays flat, or later valid requests that still run (bundled: seed-permissions, blocked-requests-spend-nothing)`},
	{Fault: FaultBudgetOffByOne, Name: "budget-off-by-one", Bug: "attempts <= maxCalls allows one attempt more",
		Hint: `scenario runner: maxCalls + 1 valid requests, expecting the last row blocked with "Tool-call budget exhausted" and effects equal to maxCalls (bundled: seed-budget)`},
	{Fault: FaultBudgetCheckedFirst, Name: "budget-checked-first", Bug: "the budget check runs before the argument checks",
		Hint: `scenario runner: a request with wrong argument names or a non-string value once no attempt is left (maxCalls 0), expecting "Exact argument names required" or "Arguments must be short strings" in its row (bundled: zero-budget)`},
	{Fault: FaultWriteGrantedByDefault, Name: "write-granted-by-default", Bug: "save_draft runs without writeGranted",
		Hint: `scenario runner: save_draft without writeGranted, expecting its row blocked with "Write capability not granted" and effects 0 (bundled: seed-permissions)`},
	{Fault: FaultArgsSubset, Name: "args-subset", Bug: "extra argument names are tolerated",
		Hint: `scenario runner: a request with its argument plus an extra one (calc {expression, precision}), expecting "Exact argument names required" (bundled: blocked-requests-spend-nothing)`},
	{Fault: FaultStringLengthUnchecked, Name: "string-length-unchecked", Bug: "over-long argument strings pass validation",
		Hint: `scenario runner: an argument string of more than 200 characters, expecting "Arguments must be short strings" and no attempt spent (bundled: short-string-arguments)`},
	{Fault: FaultCalcAllowsPow, Name: "calc-allows-pow", Bug: "the calculator evaluates **",
		Hint: `scenario runner: calc with "**" (e.g. "2**1000"), expecting "Only finite arithmetic with + - * / is supported" (bundled: seed-invalid)`},
	{Fault: FaultCalcIntDivision, Name: "calc-int-division", Bug: "exact int/int division yields an int",
		Hint: `scenario runner: calc "100/2" or another exact int/int division, expecting the row "{'result': 50.0}" (bundled: seed-normal, calc-float-rendering)`},
	{Fault: FaultCalcUnbounded, Name: "calc-unbounded", Bug: "values beyond ±10^12 are accepted",
		Hint: `scenario runner: calc with a literal or result beyond 10^12 (e.g. "1000000*1000000+1"), expecting "Only finite arithmetic with + - * / is supported" (bundled: calc-bounded-values)`},
	{Fault: FaultCalcNodeLimitUnchecked, Name: "calc-node-limit-unchecked", Bug: "the calculator has no node limit",
		Hint: `scenario runner: calc with 41 nodes within 120 characters (21 ones joined by "+"), expecting "Expression too complex" (bundled: calc-node-limit)`},
	{Fault: FaultStepLimitOffByOne, Name: "step-limit-off-by-one", Bug: "one decision more than maxSteps is taken",
		Hint: `scenario runner: a script longer than maxSteps, expecting outcome step_limit with steps equal to maxSteps and those rows only (bundled: seed-budget)`},
	{Fault: FaultFinalNotCounted, Name: "final-not-counted", Bug: "the final answer is not counted as a step",
		Hint: `scenario runner: a script ending in a final answer, expecting steps including it or its row numbered after the previous step (bundled: seed-normal and every answered case with rows or steps)`},
	{Fault: FaultDenyAll, Name: "deny-all", Bug: "every tool is refused as not granted: a host that refuses everything",
		Hint: `scenario runner: a granted, well-formed request that runs, expecting effects 1 or an executed row (bundled: seed-normal)`},
}
