package omp

// Fault is a deliberate boundary bug the model can be switched into, to
// measure which boundaries a suite of cases really pins. A model with no
// fault behaves as the reference; each fault changes one rule and nothing
// else.
type Fault uint64

// Faults is a set of faults. The zero value is the correct model; checking
// a fault is one bit test.
type Faults uint64

// Has reports whether f is in the set.
func (s Faults) Has(f Fault) bool { return s&Faults(f) != 0 }

// With returns the set with f added.
func (s Faults) With(f Fault) Faults { return s | Faults(f) }

// The faults.
const (
	// FaultApprovalRemembered: after one approved dialog, later calls of the
	// same wrapper run without asking.
	FaultApprovalRemembered Fault = 1 << iota
	// FaultAutoApproveOverridesUserDeny: under autoApprove a user deny is
	// dropped.
	FaultAutoApproveOverridesUserDeny
	// FaultAutoApproveIgnored: autoApprove does not force yolo.
	FaultAutoApproveIgnored
	// FaultDismissApproves: a dismissed dialog (no answer) approves.
	FaultDismissApproves
	// FaultOnlyDenyDenies: any answer other than exactly "Deny" approves.
	FaultOnlyDenyDenies
	// FaultRPCCancelApproves: an RPC response with cancelled:true answers
	// "Approve".
	FaultRPCCancelApproves
	// FaultNoUIAllows: a required approval with no UI lets the call run.
	FaultNoUIAllows
	// FaultOriginalDenySkipped: the deny check on the original input is
	// skipped; only the (possibly revised) input is checked.
	FaultOriginalDenySkipped
	// FaultToolCallBeforeDeny: tool_call is emitted before the deny check
	// on the original input.
	FaultToolCallBeforeDeny
	// FaultAutoApproveIgnoresUserPolicies: under autoApprove the user's
	// tools.approval is not consulted at all.
	FaultAutoApproveIgnoresUserPolicies
	// FaultSafetyChecksAutoAcknowledged: pending provider safety checks are
	// acknowledged without a dialog in yolo mode or under an allow policy.
	FaultSafetyChecksAutoAcknowledged
	// FaultSafetyApprovalNotRecorded: an approved call with safety checks
	// never sets providerSafetyApproved.
	FaultSafetyApprovalNotRecorded
	// FaultSafetyLinesMissing: the dialog does not list the safety checks.
	FaultSafetyLinesMissing
	// FaultFallbackSucceedsWithoutHandlers: a failed write with no fallback
	// handler reports success.
	FaultFallbackSucceedsWithoutHandlers
	// FaultFallbackRetries: a failed write with no fallback handler is
	// tried once more before the error is returned.
	FaultFallbackRetries
	// FaultClassifierMessageFirst: the classifier reads the message before
	// the structured code.
	FaultClassifierMessageFirst
	// FaultClassifierIgnoresMessage: the classifier reads only the
	// structured code.
	FaultClassifierIgnoresMessage
	// FaultUserDenyToolText: a user deny is reported with the tool-policy
	// text.
	FaultUserDenyToolText
	// FaultRevisionIgnored: the executor runs the original input instead of
	// the tool_call handler's revision.
	FaultRevisionIgnored
	// FaultApproveCaseInsensitive: "approve" in any letter case approves.
	FaultApproveCaseInsensitive
	// FaultYoloUserAllowBeatsToolPrompt: in yolo a user allow beats a
	// tool's explicit prompt (the rule of a non-reference version).
	FaultYoloUserAllowBeatsToolPrompt
	// FaultDenyAll: a blanket refusal. Every resolution of the wrapper is
	// deny, so every call throws "Tool call blocked by policy" before
	// tool_call is emitted.
	FaultDenyAll
)

// FaultInfo names and explains a fault.
type FaultInfo struct {
	Fault Fault
	Name  string
	// Bug says what the faulty host does wrong.
	Bug string
	// Hint says what a case needs in order to catch the fault.
	Hint string
}

// FaultList describes every fault, in declaration order.
var FaultList = []FaultInfo{
	{FaultApprovalRemembered, "approval-remembered", "an approval is remembered for later calls",
		`scenario wrapper: given.repeat ≥ 2 with an approving first choice, expecting prompts equal to repeat`},
	{FaultAutoApproveOverridesUserDeny, "auto-approve-overrides-user-deny", "autoApprove overrides a user deny",
		`scenario wrapper: given.autoApprove true and userPolicies {"<tool>": "deny"}, expecting outcome throw and errorIncludes "blocked by user policy"`},
	{FaultAutoApproveIgnored, "auto-approve-ignored", "autoApprove does not force yolo",
		`scenario wrapper: given.autoApprove true, mode always-ask, ui false, expecting outcome return and effects 1`},
	{FaultDismissApproves, "dismiss-approves", "a dismissed dialog approves",
		`scenario wrapper: given.choices [null] in always-ask, expecting outcome throw and effects 0`},
	{FaultOnlyDenyDenies, "only-deny-denies", "any answer other than Deny approves",
		`scenario wrapper: given.choices with an answer that is neither Approve nor Deny (null, or another word), expecting outcome throw`},
	{FaultRPCCancelApproves, "rpc-cancel-approves", "an RPC cancel approves",
		`scenario wrapper: given.ui "rpc" and choices [null], expecting outcome throw and effects 0`},
	{FaultNoUIAllows, "no-ui-allows", "a required prompt without a UI is allowed",
		`scenario wrapper: given.ui false with a call that needs approval, expecting outcome throw and errorIncludes "requires approval"`},
	{FaultOriginalDenySkipped, "original-deny-skipped", "the deny check on the original input is skipped",
		`scenario wrapper: a tool deny (approval {"policy": "deny"}) with a revise block, expecting toolCalls 0`},
	{FaultToolCallBeforeDeny, "tool-call-before-deny", "tool_call is emitted before the deny check",
		`scenario wrapper: a deny (tool or user policy), expecting toolCalls 0`},
	{FaultAutoApproveIgnoresUserPolicies, "auto-approve-ignores-user-policies", "user policies are ignored under autoApprove",
		`scenario wrapper: given.autoApprove true with userPolicies deny or prompt, expecting the call refused`},
	{FaultSafetyChecksAutoAcknowledged, "safety-checks-auto-acknowledged", "provider safety checks are acknowledged by yolo or an allow policy",
		`scenario wrapper: given.safetyCheck in yolo or under an allow policy with ui false, expecting outcome throw and errorIncludes "pending provider safety checks"`},
	{FaultSafetyApprovalNotRecorded, "safety-approval-not-recorded", "providerSafetyApproved is never set",
		`scenario wrapper: given.safetyCheck and choices ["Approve"], expecting providerSafetyApproved true`},
	{FaultSafetyLinesMissing, "safety-lines-missing", "safety-check lines are missing from the prompt",
		`scenario wrapper: given.safetyCheck with a message and a UI, expecting promptIncludes that message`},
	{FaultFallbackSucceedsWithoutHandlers, "fallback-succeeds-without-handlers", "a fallback without handlers reports success",
		`scenario fallback: a failing write with no handlers, expecting outcome throw-same-error`},
	{FaultFallbackRetries, "fallback-retries", "the fallback retries the writer",
		`scenario fallback: a failing write with no handlers, expecting primitiveAttempts 1`},
	{FaultClassifierMessageFirst, "classifier-message-first", "the classifier reads the message before the code",
		`scenario classify-error: a non-permission code (ENOENT) with EACCES in the message, expecting permissionDenied false`},
	{FaultClassifierIgnoresMessage, "classifier-ignores-message", "the classifier ignores the message",
		`scenario classify-error: no code and "EACCES: …" as the message, expecting permissionDenied true`},
	{FaultUserDenyToolText, "user-deny-tool-text", "the tool-policy deny text is used for user denies",
		`scenario wrapper: a user deny, expecting errorIncludes "blocked by user policy"`},
	{FaultRevisionIgnored, "revision-ignored", "the executor runs the original input, not the revision",
		`scenario wrapper: given.revise on a call that runs, expecting input equal to the revised object`},
	{FaultApproveCaseInsensitive, "approve-case-insensitive", `"approve" in any letter case approves`,
		`scenario wrapper: given.choices ["approve"] (lower case), expecting outcome throw and effects 0`},
	{FaultYoloUserAllowBeatsToolPrompt, "yolo-user-allow-beats-tool-prompt", "in yolo a user allow beats a tool's explicit prompt",
		`scenario wrapper: mode yolo, approval {"policy": "prompt"}, userPolicies {"<tool>": "allow"}, ui false, expecting outcome throw`},
	{FaultDenyAll, "deny-all", "every call is refused as blocked by policy",
		`scenario wrapper: any call the host lets run (mode yolo, say), expecting outcome return and effects 1`},
}
