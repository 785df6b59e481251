package gemini

import "github.com/deskcheck/deskcheck/internal/fault"

// Fault is a deliberate bug the model can be switched into; each changes
// one rule of the engine and nothing else.
type Fault uint64

// Faults is a set of faults. The zero value is the correct model.
type Faults = fault.Set[Fault]

// FaultInfo names and explains a fault.
type FaultInfo = fault.Info[Fault]

// The faults (spec §5.1).
const (
	FaultDenyBeatsAllow Fault = 1 << iota
	FaultTieLastWins
	FaultAdminTier4
	FaultExcludeUnbeatable
	FaultRememberedAboveUser
	FaultSavedAtSessionPriority
	FaultPlanOverridesUser
	FaultPrefixNoWordBoundary
	FaultRedirectionIgnored
	FaultChainNotSplit
	FaultWrapperNotUnwrapped
	FaultKnownSafeInSegments
	FaultKnownSafeOff
	FaultDangerousOff
	FaultHeuristicsOnPatternRules
	FaultYoloIgnoresDeny
	FaultMcpWildcardIgnoresServer
	FaultHeadlessAsks
	FaultHeadlessDefaultAsk
	FaultExtensionAllowKept
	FaultArgsPatternPathOnly
	FaultDenyMessageDropped
)

const hint = "scenario policy-check: "

// FaultList describes every fault, in declaration order.
var FaultList = []FaultInfo{
	{Fault: FaultDenyBeatsAllow, Name: "deny-beats-allow", Bug: "any matching deny rule wins over every allow, whatever the priorities", Hint: hint + "a deny that matches the call under an allow of higher priority"},
	{Fault: FaultTieLastWins, Name: "tie-last-wins", Bug: "on equal priority the later rule decides", Hint: hint + "two rules of one priority that both match, the earlier one deciding"},
	{Fault: FaultAdminTier4, Name: "admin-tier-4", Bug: "admin rules sit in tier 4 (the number the upstream documentation prints), level with user rules", Hint: hint + "an admin rule of low priority against a user rule of high priority"},
	{Fault: FaultExcludeUnbeatable, Name: "exclude-unbeatable", Bug: "tools.exclude denies the tool whatever else allows it", Hint: hint + "a user allow above 400 for a tool in tools.exclude"},
	{Fault: FaultRememberedAboveUser, Name: "remembered-above-user", Bug: "a session \"always allow\" sits at 4.95, above user rules", Hint: hint + "a session answer under a user ask rule"},
	{Fault: FaultSavedAtSessionPriority, Name: "saved-at-session-priority", Bug: "a saved \"always allow\" sits at 3.95, below user rules", Hint: hint + "a saved answer over a user ask rule"},
	{Fault: FaultPlanOverridesUser, Name: "plan-overrides-user", Bug: "plan mode's deny-all outranks every user rule", Hint: hint + "a user allow in plan mode"},
	{Fault: FaultPrefixNoWordBoundary, Name: "prefix-no-word-boundary", Bug: "commandPrefix matches any string prefix of the command", Hint: hint + "a prefix rule and a command that extends its last word (git and gitk)"},
	{Fault: FaultRedirectionIgnored, Name: "redirection-ignored", Bug: "a redirection never turns an allow into ask_user", Hint: hint + "an allowed command with a redirection, in default mode"},
	{Fault: FaultChainNotSplit, Name: "chain-not-split", Bug: "the shell command is checked as one part: chains, pipes and substitutions are not split", Hint: hint + "a chain whose second part is denied"},
	{Fault: FaultWrapperNotUnwrapped, Name: "wrapper-not-unwrapped", Bug: "the script of bash -c is not checked", Hint: hint + "bash -c wrapping a denied command"},
	{Fault: FaultKnownSafeInSegments, Name: "known-safe-in-segments", Bug: "the heuristics are applied to each part of a split command too", Hint: hint + "a pipe whose second part is a known-safe command no rule allows"},
	{Fault: FaultKnownSafeOff, Name: "known-safe-off", Bug: "no known-safe command is upgraded from ask_user to allow", Hint: hint + "a known-safe command (ls) with no rule, interactively"},
	{Fault: FaultDangerousOff, Name: "dangerous-off", Bug: "no command is treated as dangerous", Hint: hint + "rm -f under a bare shell allow"},
	{Fault: FaultHeuristicsOnPatternRules, Name: "heuristics-on-pattern-rules", Bug: "the heuristics also run after a prefix or pattern rule matched", Hint: hint + "a prefix allow for a dangerous command"},
	{Fault: FaultYoloIgnoresDeny, Name: "yolo-ignores-deny", Bug: "YOLO mode allows every call, denies included", Hint: hint + "a deny rule scoped to yolo"},
	{Fault: FaultMcpWildcardIgnoresServer, Name: "mcp-wildcard-ignores-server", Bug: "mcp_S_* matches any call whose name starts with mcp_S_, from any server", Hint: hint + "a tool named mcp_S_x from another server"},
	{Fault: FaultHeadlessAsks, Name: "headless-asks", Bug: "a headless ask_user opens a dialog instead of being refused", Hint: hint + "a user ask rule in a headless run"},
	{Fault: FaultHeadlessDefaultAsk, Name: "headless-default-ask", Bug: "headless, the default decision is ask_user and rules scoped to interactive=false never match", Hint: hint + "a headless call no user rule covers"},
	{Fault: FaultExtensionAllowKept, Name: "extension-allow-kept", Bug: "extension allow rules are loaded", Hint: hint + "an extension allow rule for a tool that would ask"},
	{Fault: FaultArgsPatternPathOnly, Name: "args-pattern-path-only", Bug: "an argsPattern is tested against the path argument only", Hint: hint + "an argsPattern that matches the content, not the path"},
	{Fault: FaultDenyMessageDropped, Name: "deny-message-dropped", Bug: "the deny message of the deciding rule is lost", Hint: hint + "a deny rule with deny_message, expected rule.denyMessage"},
}
