package gateway

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// Result is everything a run leaves behind that can be observed: what the
// caller received, the audit, the effect ledger, the service requests and
// the final approval labels, plus a narration.
type Result struct {
	// Responses has one entry per step, in step order.
	Responses []Response
	// Audit has one event per step, in the order written.
	Audit []AuditEvent
	// Drafts and Publications are the lists the mock tools appended to.
	Drafts       []Draft
	Publications []Publication
	// Effects is the effect ledger: every draft and publication, in the
	// order appended, with the step that appended it.
	Effects []Effect
	// ServiceRequests counts mock-tool dispatches (reads included).
	ServiceRequests int
	// Approvals maps every registry id to its label after the last step.
	Approvals map[string]string
	// Events narrates the run, one line per event.
	Events []Event
}

// Response is what the caller received for one step. Result is a snapshot
// taken when the response was sent; later changes by the caller do not
// reach it.
type Response struct {
	Step     int
	Decision string
	// Reason is the decision's reason; the caller sees it only on deny.
	Reason string
	// Result is R on allow and the JSON null on deny.
	Result json.RawMessage
}

// Body returns the response as the caller received it:
// {"decision":"allow","result":R} or {"decision":"deny","reason":REASON}.
func (r Response) Body() json.RawMessage {
	var b []byte
	if r.Decision == DecisionAllow {
		b = fmt.Appendf(nil, `{"decision":"allow","result":%s}`, r.Result)
	} else {
		reason, _ := json.Marshal(r.Reason)
		b = fmt.Appendf(nil, `{"decision":"deny","reason":%s}`, reason)
	}
	return b
}

// AuditEvent is one audit record. It marshals to exactly the keys of
// AuditKeys, with null for the absent values.
type AuditEvent struct {
	Sequence            int     `json:"sequence"`
	Principal           string  `json:"principal"`
	Action              *string `json:"action"`
	Resource            *string `json:"resource"`
	ApprovalID          *string `json:"approvalId"`
	ApprovalStateBefore *string `json:"approvalStateBefore"`
	ApprovalStateAfter  *string `json:"approvalStateAfter"`
	Decision            string  `json:"decision"`
	Reason              string  `json:"reason"`
	ArgumentDigest      *string `json:"argumentDigest"`
	EffectCount         int     `json:"effectCount"`
}

// appendJSON appends the event as json.Marshal encodes it: its keys in
// AuditKeys order, null for an absent value, and <, > and & escaped in
// strings. The narration writes one per step, and Marshal's reflection
// cost more than the rest of the line.
func (e AuditEvent) appendJSON(b []byte) []byte {
	opt := func(b []byte, key string, p *string) []byte {
		b = append(b, key...)
		if p == nil {
			return append(b, "null"...)
		}
		return jsonx.AppendStringHTML(b, *p)
	}
	b = append(b, `{"sequence":`...)
	b = strconv.AppendInt(b, int64(e.Sequence), 10)
	b = append(b, `,"principal":`...)
	b = jsonx.AppendStringHTML(b, e.Principal)
	b = opt(b, `,"action":`, e.Action)
	b = opt(b, `,"resource":`, e.Resource)
	b = opt(b, `,"approvalId":`, e.ApprovalID)
	b = opt(b, `,"approvalStateBefore":`, e.ApprovalStateBefore)
	b = opt(b, `,"approvalStateAfter":`, e.ApprovalStateAfter)
	b = append(b, `,"decision":`...)
	b = jsonx.AppendStringHTML(b, e.Decision)
	b = append(b, `,"reason":`...)
	b = jsonx.AppendStringHTML(b, e.Reason)
	b = opt(b, `,"argumentDigest":`, e.ArgumentDigest)
	b = append(b, `,"effectCount":`...)
	b = strconv.AppendInt(b, int64(e.EffectCount), 10)
	return append(b, '}')
}

// Fields returns the event as a map from audit key to a JSON-ready value:
// a string, an int or nil.
func (e AuditEvent) Fields() map[string]any {
	opt := func(p *string) any {
		if p == nil {
			return nil
		}
		return *p
	}
	return map[string]any{
		"sequence":            e.Sequence,
		"principal":           e.Principal,
		"action":              opt(e.Action),
		"resource":            opt(e.Resource),
		"approvalId":          opt(e.ApprovalID),
		"approvalStateBefore": opt(e.ApprovalStateBefore),
		"approvalStateAfter":  opt(e.ApprovalStateAfter),
		"decision":            e.Decision,
		"reason":              e.Reason,
		"argumentDigest":      opt(e.ArgumentDigest),
		"effectCount":         e.EffectCount,
	}
}

// Draft is one entry of the draft list.
type Draft struct {
	Step      int    `json:"step"`
	Principal string `json:"principal"`
	Text      string `json:"text"`
}

// Publication is one entry of the publication list. ApprovalID is empty
// only when the effect-on-deny fault appended a publication that named no
// approval.
type Publication struct {
	Step       int    `json:"step"`
	Principal  string `json:"principal"`
	Text       string `json:"text"`
	ApprovalID string `json:"approvalId"`
}

// Effect is one entry of the effect ledger.
type Effect struct {
	// Step is the 1-based step that appended the effect.
	Step int `json:"step"`
	// Kind is EffectDraft or EffectPublication.
	Kind string `json:"kind"`
	// ID is "draft-N" or "publication-N".
	ID string `json:"id"`
}

// Event kinds, in the order they occur within a step.
const (
	EventRequest  = "request"
	EventFault    = "fault"
	EventCheck    = "check"
	EventDispatch = "dispatch"
	EventAudit    = "audit"
	EventResponse = "response"
	EventCaller   = "caller"
)

// Event is one line of narration.
type Event struct {
	Step int
	Kind string
	Text string
	// line is Kind, a space and Text as one string, Text being its tail,
	// when the model wrote the event: narrating a run then copies no text.
	line string
}

// String renders the event as one trace line: "[step N] kind text".
func (e Event) String() string { return fmt.Sprintf("[step %d] %s %s", e.Step, e.Kind, e.Text) }

// Line returns the event as "kind text".
func (e Event) Line() string {
	if n := len(e.Kind); len(e.line) == n+1+len(e.Text) && e.line[:n] == e.Kind && e.line[n+1:] == e.Text {
		return e.line
	}
	return e.Kind + " " + e.Text
}

// Decisions returns the decision of every step.
func (r *Result) Decisions() []string {
	out := make([]string, len(r.Responses))
	for i, s := range r.Responses {
		out[i] = s.Decision
	}
	return out
}

// Reasons returns the reason of every step.
func (r *Result) Reasons() []string {
	out := make([]string, len(r.Responses))
	for i, s := range r.Responses {
		out[i] = s.Reason
	}
	return out
}

// Results returns the snapshot result of every step, null when denied.
func (r *Result) Results() []json.RawMessage {
	out := make([]json.RawMessage, len(r.Responses))
	for i, s := range r.Responses {
		out[i] = s.Result
	}
	return out
}

// Trace returns the narration as lines.
func (r *Result) Trace() []string {
	out := make([]string, len(r.Events))
	for i, e := range r.Events {
		out[i] = e.String()
	}
	return out
}
