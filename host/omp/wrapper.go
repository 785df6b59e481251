package omp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Settings are the host settings the wrapper reads.
type Settings struct {
	// ApprovalMode is tools.approvalMode; empty means unset, which is yolo.
	ApprovalMode string
	// Approval is tools.approval: the user's raw per-tool policies. Values
	// are not validated; presence of a key matters on its own.
	Approval map[string]any
}

// SafetyCheck is a provider safety check pending on a computer call.
type SafetyCheck struct {
	ID      string `json:"id,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// ComputerCall is the provider metadata of a computer call.
type ComputerCall struct {
	Actions             any
	PendingSafetyChecks []SafetyCheck
}

// CallContext is the per-call context the host hands the wrapper. A nil
// *CallContext is a call with no context: no settings, so yolo.
type CallContext struct {
	Settings    *Settings
	AutoApprove bool
	// Computer, when set, marks a computer call: approval resolves on
	// {actions}, revisions are ignored and safety checks must be answered.
	Computer *ComputerCall
	// XdevApproved is set by an xd:// device dispatch whose outer gate
	// already approved this input.
	XdevApproved bool
	// XdevTierResolved, when set, receives the tier of the full gate.
	XdevTierResolved func(Tier)
	// ProviderSafetyApproved is set by the wrapper when the user approved a
	// call carrying safety checks.
	ProviderSafetyApproved bool
}

// Executor runs the wrapped tool. The model only ever wires inert
// executors: nothing is run.
type Executor interface {
	Execute(ctx context.Context, toolCallID string, params any, call *CallContext) (any, error)
}

// Note is one step the wrapper took, for tracing. Resolution is set on the
// resolve steps.
type Note struct {
	Step       string // "resolve-original", "resolve", "approval-required", "no-ui", "select", "answer"
	Text       string
	Resolution *Resolution
}

// Wrapper models the extension tool wrapper around one tool.
type Wrapper struct {
	Tool   Tool
	Exec   Executor
	Runner *Runner
	// Observe, when set, receives a Note for each step.
	Observe func(Note)
}

// The dialog options the wrapper offers (session grants are not modelled).
var approvalOptions = []SelectItem{{Label: "Approve"}, {Label: "Deny"}}

const approveChoice = "Approve"

func (w *Wrapper) note(n Note) {
	if w.Observe != nil {
		w.Observe(n)
	}
}

func (c *CallContext) modeAndPolicies() (string, map[string]any) {
	mode := ModeYolo
	var user map[string]any
	if c != nil && c.Settings != nil {
		if c.Settings.ApprovalMode != "" {
			mode = c.Settings.ApprovalMode
		}
		user = c.Settings.Approval
	}
	if c != nil && c.AutoApprove {
		mode = ModeYolo
	}
	if user == nil {
		user = map[string]any{}
	}
	return mode, user
}

func (c *CallContext) computer() *ComputerCall {
	if c == nil {
		return nil
	}
	return c.Computer
}

func approvalArgs(params any, c *CallContext) any {
	if cc := c.computer(); cc != nil {
		return map[string]any{"actions": cc.Actions}
	}
	return params
}

func eventArgs(params any, c *CallContext) any {
	if cc := c.computer(); cc != nil {
		return map[string]any{"actions": cc.Actions, "pendingSafetyChecks": cc.PendingSafetyChecks}
	}
	return params
}

// Execute runs one call through the wrapper: deny on the original input,
// tool_call emission, the full gate on the effective input, the approval
// dialog when required, and then the executor.
func (w *Wrapper) Execute(ctx context.Context, toolCallID string, params any, call *CallContext) (any, error) {
	name := w.Tool.Name
	loopEmitted := w.Runner.ConsumeToolCallEmitted(toolCallID, name)
	mode, user := call.modeAndPolicies()

	pre, err := ResolveApproval(w.Tool, approvalArgs(params, call), mode, user)
	if err != nil {
		return nil, err
	}
	w.note(Note{Step: "resolve-original", Resolution: &pre})
	if pre.Policy == PolicyDeny {
		return nil, DenyError(pre, name)
	}

	effective, revised := params, false
	if !loopEmitted && w.Runner.hasToolCallHandlers() {
		res := w.Runner.EmitToolCall(ctx, ToolCallEvent{ToolName: name, ToolCallID: toolCallID, Input: eventArgs(params, call)})
		if res != nil && res.Block {
			reason := res.Reason
			if reason == "" {
				reason = "Tool execution was blocked by an extension"
			}
			return nil, errors.New(reason)
		}
		if res != nil && res.Input != nil && call.computer() == nil {
			effective, revised = res.Input, true
		}
	}

	resolvedArgs := approvalArgs(effective, call)
	resolved, err := ResolveApproval(w.Tool, resolvedArgs, mode, user)
	if err != nil {
		return nil, err
	}
	w.note(Note{Step: "resolve", Resolution: &resolved})
	if call != nil && call.XdevTierResolved != nil {
		call.XdevTierResolved(resolved.Tier)
	}
	if resolved.Policy == PolicyDeny {
		return nil, DenyError(resolved, name)
	}

	var checks []SafetyCheck
	if cc := call.computer(); cc != nil {
		checks = cc.PendingSafetyChecks
	}
	key := name
	if resolved.PolicyKey != "" {
		key = resolved.PolicyKey
	}
	_, ownKey := user[key]
	explicitPrompt := resolved.Override || ownKey
	xdevBypass := call != nil && call.XdevApproved && !revised
	policyPrompts := resolved.Policy == PolicyPrompt && (explicitPrompt || !xdevBypass)

	if len(checks) > 0 || policyPrompts {
		if err := w.approve(ctx, toolCallID, mode, resolved, resolvedArgs, checks); err != nil {
			return nil, err
		}
		if len(checks) > 0 {
			call.ProviderSafetyApproved = true
		}
	}
	return w.Exec.Execute(ctx, toolCallID, effective, call)
}

// approve asks for approval of one call and returns nil only when the
// answer is exactly "Approve".
func (w *Wrapper) approve(ctx context.Context, toolCallID, mode string, resolved Resolution, args any, checks []SafetyCheck) error {
	name := w.Tool.Name
	w.note(Note{Step: "approval-required", Text: resolved.Reason})
	handlers := w.Runner.approvalHandlers()
	emit := func(ev ApprovalEvent) {
		ev.ToolName, ev.ToolCallID = name, toolCallID
		for _, h := range handlers {
			h(ev)
		}
	}
	emit(ApprovalEvent{Type: "tool_approval_requested", Reason: resolved.Reason, ApprovalMode: mode})

	if !w.Runner.HasUI() {
		emit(ApprovalEvent{Type: "tool_approval_resolved", Reason: "no interactive UI available"})
		w.note(Note{Step: "no-ui"})
		if len(checks) > 0 {
			return fmt.Errorf("Tool \"%s\" has pending provider safety checks but no interactive UI is available.", name)
		}
		return errors.New(`Tool "` + name + `" requires approval but no interactive UI available.` + "\n" +
			"Options:\n" +
			"  1. Set tools.approvalMode: yolo in /settings\n" +
			"  2. Add tools.approval." + name + ": allow to config\n" +
			"  3. Use an interactive UI to approve the tool call")
	}

	title := FormatApprovalPrompt(w.Tool, args, resolved.Reason)
	if len(checks) > 0 {
		title += "\nProvider safety checks:\n" + strings.Join(SafetyCheckLines(checks), "\n")
	}
	w.note(Note{Step: "select", Text: title})
	choice, err := w.Runner.UI().Select(ctx, title, approvalOptions)
	if err != nil {
		emit(ApprovalEvent{Type: "tool_approval_resolved", Reason: err.Error()})
		return err
	}
	w.note(Note{Step: "answer", Text: fmt.Sprint(choice)})
	if s, ok := choice.(string); !ok || s != approveChoice {
		emit(ApprovalEvent{Type: "tool_approval_resolved", Reason: "denied by user"})
		return errors.New("Tool call denied by user: " + name)
	}
	emit(ApprovalEvent{Type: "tool_approval_resolved", Approved: true})
	return nil
}

// SafetyCheckLines renders pending safety checks as the numbered lines the
// approval dialog shows: the first non-empty of message, code and id,
// sanitised, truncated to 500 and escaped.
func SafetyCheckLines(checks []SafetyCheck) []string {
	lines := make([]string, len(checks))
	for i, c := range checks {
		v := c.Message
		if v == "" {
			v = c.Code
		}
		if v == "" {
			v = c.ID
		}
		lines[i] = fmt.Sprintf("%d. %s", i+1, approvalData(v))
	}
	return lines
}

var (
	ansiSequence  = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)
	lineBreakRuns = regexp.MustCompile(`[\r\n\t]+`)
	markdownChars = regexp.MustCompile("([\\\\`*_{}\\[\\]()<>#+\\-.!|])")
)

// sanitizeText drops ANSI escape sequences and every C0 and C1 control
// character except TAB and LF.
func sanitizeText(s string) string {
	s = ansiSequence.ReplaceAllString(s, "")
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return r
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return -1
		}
		return r
	}, s)
}

func approvalData(s string) string {
	s = strings.TrimSpace(lineBreakRuns.ReplaceAllString(sanitizeText(s), " "))
	return markdownChars.ReplaceAllString(TruncateForPrompt(s, 500), `\$1`)
}
