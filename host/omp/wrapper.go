package omp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
)

// Settings are the host settings the wrapper reads.
type Settings struct {
	// ApprovalMode is tools.approvalMode; empty means unset, which is yolo.
	ApprovalMode string
	// Approval is tools.approval as decoded from JSON: the user's raw
	// per-tool policies. Values are not validated; presence of a key
	// matters on its own. Any JSON value is accepted and read as the
	// release reads it (see Group.PoliciesMustBeObject).
	Approval any
}

// SafetyCheck is a provider safety check pending on a computer call. Empty
// Code and Message stand for absent ones (the host reads them by
// truthiness); an empty ID is absent unless HasID is set. See Text.
type SafetyCheck struct {
	ID      string `json:"id,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// HasID says the check carries an id even when ID is empty. A check
	// whose message, code and id are all absent or empty makes the approval
	// dialog fail with ErrSafetyCheckWithoutText, unless it carries an
	// empty id, which is then shown as empty text.
	HasID bool `json:"-"`
}

// MarshalJSON writes the check's fields as the host holds them: an empty
// id is written when the check carries one.
func (c SafetyCheck) MarshalJSON() ([]byte, error) {
	type plain SafetyCheck
	b, err := json.Marshal(plain(c))
	if err != nil || !c.HasID || c.ID != "" {
		return b, err
	}
	if string(b) == "{}" {
		return []byte(`{"id":""}`), nil
	}
	return append([]byte(`{"id":"",`), b[1:]...), nil
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
	Step       string // "resolve-original", "resolve", "approval-required", "no-ui", "ungated"
	Text       string
	Resolution *Resolution
	// Mode is the effective approval mode of the call (resolve steps).
	// On the ungated step Text is the release.
	Mode string
}

// Wrapper models the extension tool wrapper around one tool.
type Wrapper struct {
	Tool   Tool
	Exec   Executor
	Runner *Runner
	// Observe, when set, receives a Note for each step.
	Observe func(Note)
	// Faults switches the wrapper into deliberate bugs; zero is correct.
	Faults Faults
	// Release is the release whose behaviour the wrapper follows (its
	// Group); the zero Version is Reference. A release that is not
	// modelled behaves as Reference.
	Release Version

	// remembered is set once a dialog approved a call; only the
	// approval-remembered fault reads it.
	remembered atomic.Bool
}

// The dialog options the wrapper offers (session grants are not modelled).
var approvalOptions = []SelectItem{{Label: "Approve"}, {Label: "Deny"}}

const approveChoice = "Approve"

func (w *Wrapper) note(n Note) {
	if w.Observe != nil {
		w.Observe(n)
	}
}

// group is the behaviour group of the wrapper's release.
func (w *Wrapper) group() Group {
	if g, ok := GroupOf(w.Release); ok {
		return g
	}
	g, _ := GroupOf(Reference)
	return g
}

// modeAndPolicies reads the effective approval mode and the user policies
// of a call as group g does.
func (c *CallContext) modeAndPolicies(faults Faults, g Group) (string, policies) {
	mode := ModeYolo
	var raw any
	if c != nil && c.Settings != nil {
		if c.Settings.ApprovalMode != "" {
			mode = c.Settings.ApprovalMode
		}
		raw = c.Settings.Approval
	}
	if g.UnknownModeIsYolo() {
		if _, known := modeMaxTier[mode]; !known {
			mode = ModeYolo
		}
	}
	if g.MissingContextFailsClosed() && (c == nil || c.Settings == nil) {
		mode = ModeAlwaysAsk
	}
	user := readPolicies(raw, g)
	if c != nil && c.AutoApprove {
		if !faults.Has(FaultAutoApproveIgnored) {
			mode = ModeYolo
		}
		switch {
		case faults.Has(FaultAutoApproveIgnoresUserPolicies):
			user = policies{}
		case faults.Has(FaultAutoApproveOverridesUserDeny):
			user = user.without(func(v any) bool { return NormalizePolicy(v) == PolicyDeny })
		}
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
	g := w.group()
	if !g.HasApprovalGate() {
		return w.executeUngated(ctx, toolCallID, params, call)
	}
	name := w.Tool.Name
	loopEmitted := w.Runner.ConsumeToolCallEmitted(toolCallID, name)
	mode, user := call.modeAndPolicies(w.Faults, g)

	effective, revised := params, false
	if w.Faults.Has(FaultToolCallBeforeDeny) {
		var err error
		if effective, revised, err = w.emitToolCall(ctx, toolCallID, params, call, loopEmitted); err != nil {
			return nil, err
		}
	}
	if !w.Faults.Has(FaultOriginalDenySkipped) {
		pre, err := resolveApproval(w.Tool, approvalArgs(params, call), mode, user, w.Faults)
		if err != nil {
			return nil, err
		}
		w.note(Note{Step: "resolve-original", Resolution: &pre, Mode: mode})
		if pre.Policy == PolicyDeny {
			return nil, w.denyError(pre)
		}
	}
	if !w.Faults.Has(FaultToolCallBeforeDeny) {
		var err error
		if effective, revised, err = w.emitToolCall(ctx, toolCallID, params, call, loopEmitted); err != nil {
			return nil, err
		}
	}

	resolvedArgs := approvalArgs(effective, call)
	resolved, err := resolveApproval(w.Tool, resolvedArgs, mode, user, w.Faults)
	if err != nil {
		return nil, err
	}
	w.note(Note{Step: "resolve", Resolution: &resolved, Mode: mode})
	if call != nil && call.XdevTierResolved != nil {
		call.XdevTierResolved(resolved.Tier)
	}
	if resolved.Policy == PolicyDeny {
		return nil, w.denyError(resolved)
	}

	var checks []SafetyCheck
	if cc := call.computer(); cc != nil {
		checks = cc.PendingSafetyChecks
	}
	if len(checks) > 0 && w.Faults.Has(FaultSafetyChecksAutoAcknowledged) && (mode == ModeYolo || resolved.Policy == PolicyAllow) {
		checks = nil
	}
	key := name
	if resolved.PolicyKey != "" {
		key = resolved.PolicyKey
	}
	_, ownKey := user.get(key)
	explicitPrompt := resolved.Override || ownKey
	xdevBypass := call != nil && call.XdevApproved && !revised
	policyPrompts := resolved.Policy == PolicyPrompt && (explicitPrompt || !xdevBypass)

	if len(checks) > 0 || policyPrompts {
		if err := w.approve(ctx, toolCallID, mode, resolved, resolvedArgs, checks); err != nil {
			return nil, err
		}
		if len(checks) > 0 && !w.Faults.Has(FaultSafetyApprovalNotRecorded) {
			call.ProviderSafetyApproved = true
		}
	}
	if w.Faults.Has(FaultRevisionIgnored) {
		effective = params
	}
	return w.Exec.Execute(ctx, toolCallID, effective, call)
}

// executeUngated is the wrapper of the releases without an approval gate
// (G0): tool_call is emitted with the call's input whenever a handler is
// registered, a block refuses the call, and the original input runs; a
// revision is ignored and nothing asks for approval.
func (w *Wrapper) executeUngated(ctx context.Context, toolCallID string, params any, call *CallContext) (any, error) {
	rel := w.Release
	if rel.IsZero() {
		rel = Reference
	}
	w.note(Note{Step: "ungated", Text: rel.String()})
	if w.Runner.hasToolCallHandlers() {
		res := w.Runner.EmitToolCall(ctx, ToolCallEvent{ToolName: w.Tool.Name, ToolCallID: toolCallID, Input: params})
		if res != nil && res.Block {
			reason := res.Reason
			if reason == "" {
				reason = "Tool execution was blocked by an extension"
			}
			return nil, errors.New(reason)
		}
	}
	return w.Exec.Execute(ctx, toolCallID, params, call)
}

// emitToolCall emits tool_call unless the agent loop already did, and
// returns the input the call runs with and whether a handler revised it.
func (w *Wrapper) emitToolCall(ctx context.Context, toolCallID string, params any, call *CallContext, loopEmitted bool) (any, bool, error) {
	if loopEmitted || !w.Runner.hasToolCallHandlers() {
		return params, false, nil
	}
	res := w.Runner.EmitToolCall(ctx, ToolCallEvent{ToolName: w.Tool.Name, ToolCallID: toolCallID, Input: eventArgs(params, call)})
	if res != nil && res.Block {
		reason := res.Reason
		if reason == "" {
			reason = "Tool execution was blocked by an extension"
		}
		return nil, false, errors.New(reason)
	}
	if res != nil && res.Input != nil && call.computer() == nil {
		return res.Input, true, nil
	}
	return params, false, nil
}

func (w *Wrapper) denyError(r Resolution) error {
	if w.Faults.Has(FaultDenyAll) {
		return ErrBlockedByPolicy
	}
	if r.Source != SourceTool && w.Faults.Has(FaultUserDenyToolText) {
		r = Resolution{Source: SourceTool}
	} else if !w.group().ToolDenyText() {
		// Before 18.1.16 the wrapper throws the user-policy text for every
		// deny, naming the resolution's policyKey or the tool.
		r.Source = SourceUser
	}
	return DenyError(r, w.Tool.Name)
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
	if w.Faults.Has(FaultApprovalRemembered) && w.remembered.Load() {
		return nil
	}
	emit(ApprovalEvent{Type: "tool_approval_requested", Reason: resolved.Reason, ApprovalMode: mode})

	if !w.Runner.HasUI() {
		if w.Faults.Has(FaultNoUIAllows) {
			return nil
		}
		emit(ApprovalEvent{Type: "tool_approval_resolved", Reason: "no interactive UI available"})
		w.note(Note{Step: "no-ui"})
		if len(checks) > 0 {
			//lint:ignore ST1005 the host's own text, byte for byte
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
		lines, err := SafetyCheckLines(checks)
		if err != nil {
			return err
		}
		if !w.Faults.Has(FaultSafetyLinesMissing) {
			title += "\nProvider safety checks:\n" + strings.Join(lines, "\n")
		}
	}
	choice, err := w.Runner.UI().Select(ctx, title, approvalOptions)
	if err != nil {
		emit(ApprovalEvent{Type: "tool_approval_resolved", Reason: err.Error()})
		return err
	}
	if !w.approves(choice) {
		emit(ApprovalEvent{Type: "tool_approval_resolved", Reason: "denied by user"})
		return errors.New("Tool call denied by user: " + name)
	}
	emit(ApprovalEvent{Type: "tool_approval_resolved", Approved: true})
	w.remembered.Store(true)
	return nil
}

// approves reports whether a dialog answer approves the call: only the
// exact string "Approve" does.
func (w *Wrapper) approves(choice any) bool {
	s, isString := choice.(string)
	switch {
	case isString && s == approveChoice:
		return true
	case choice == nil && w.Faults.Has(FaultDismissApproves):
		return true
	case s != "Deny" && w.Faults.Has(FaultOnlyDenyDenies):
		return true
	case isString && strings.EqualFold(s, approveChoice) && w.Faults.Has(FaultApproveCaseInsensitive):
		return true
	}
	return false
}

// SafetyCheckLines renders pending safety checks as the numbered lines the
// approval dialog shows: each check's Text, sanitised, truncated to 500
// code units and escaped. A check without text makes it fail with
// ErrSafetyCheckWithoutText, as the host does.
//
// Sanitising follows the host: text that is not well-formed loses every
// U+FFFD first; then ANSI escape sequences go (when there is an ESC), then
// C0 controls except TAB and LF, DEL and C1 controls; runs of CR, LF and
// TAB become one space; the result is trimmed as ECMAScript trims.
func SafetyCheckLines(checks []SafetyCheck) ([]string, error) {
	lines := make([]string, len(checks))
	for i, c := range checks {
		text, ok := c.Text()
		if !ok {
			return nil, ErrSafetyCheckWithoutText
		}
		lines[i] = fmt.Sprintf("%d. %s", i+1, approvalData(text))
	}
	return lines, nil
}
