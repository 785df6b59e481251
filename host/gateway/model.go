package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Config is the trusted fixture of one run.
type Config struct {
	// Principal is the trusted principal of every step that names none
	// itself. It must not be empty.
	Principal string
	// Now is the trusted clock. The zero time means DefaultNow.
	Now time.Time
	// Approvals is the approval registry, in fixture order.
	Approvals []Approval
	// Records replaces the default records of ops/orders and/or
	// ops/tickets; each value is a JSON array of any values.
	Records map[string]json.RawMessage
	// Faults switches the model into deliberate bugs; zero is the
	// reference.
	Faults Faults
}

// Approval is one registry entry. Exactly one of Arguments and
// ArgumentsDigest is set.
type Approval struct {
	ID        string
	Principal string
	Action    string
	Resource  string
	// Arguments is the approved arguments object, as written.
	Arguments json.RawMessage
	// ArgumentsDigest is a precomputed "sha256:<hex>" digest of the
	// approved arguments.
	ArgumentsDigest string
	// State is StateApproved, StatePending or StateRejected.
	State     string
	Consumed  bool
	ExpiresAt time.Time
}

// Step is one scripted request and the trusted data that goes with it.
type Step struct {
	// Request is the untrusted envelope, any JSON value, as written.
	Request json.RawMessage
	// ApprovalID is the trusted approval id of this step, or nil.
	ApprovalID *string
	// Principal overrides Config.Principal for this step when not nil.
	Principal *string
	// PolicyUnavailable marks the policy service unavailable (check 0).
	PolicyUnavailable bool
	// Tamper makes the caller overwrite the note of every object in an
	// array result it receives.
	Tamper bool
}

// approval is the live registry entry during a run.
type approval struct {
	Approval
	// binding is the digest the request's arguments must match.
	binding string
}

func (a *approval) label() string {
	if a.Consumed {
		return LabelConsumed
	}
	return a.State
}

// gateway is the state of one run. It is built fresh by Run.
type gateway struct {
	principal string
	now       time.Time
	faults    Faults
	records   map[string][]any
	registry  []*approval
	res       *Result
}

// Run plays the steps against a fresh gateway built from cfg and returns
// what was observed. An error means the fixture or a step is not valid
// input (it is never a policy decision: every policy outcome is a deny in
// the Result).
func Run(cfg Config, steps []Step) (*Result, error) {
	g, err := newGateway(cfg)
	if err != nil {
		return nil, err
	}
	if len(steps) == 0 {
		return nil, errors.New("no steps")
	}
	for i, s := range steps {
		if err := g.step(i+1, s); err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	g.res.Approvals = make(map[string]string, len(g.registry))
	for _, a := range g.registry {
		g.res.Approvals[a.ID] = a.label()
	}
	return g.res, nil
}

func newGateway(cfg Config) (*gateway, error) {
	if cfg.Principal == "" {
		return nil, errors.New("principal is empty")
	}
	g := &gateway{
		principal: cfg.Principal,
		now:       cfg.Now,
		faults:    cfg.Faults,
		records:   map[string][]any{},
		res:       &Result{},
	}
	if g.now.IsZero() {
		g.now = DefaultNow()
	}
	for res, raw := range DefaultRecords() {
		list, err := decodeArray(raw)
		if err != nil {
			return nil, fmt.Errorf("default records %s: %w", res, err)
		}
		g.records[res] = list
	}
	for res, raw := range cfg.Records {
		if !slices.Contains(RecordResources(), res) {
			return nil, fmt.Errorf("records: unknown resource %q (want one of %s)", res, strings.Join(RecordResources(), ", "))
		}
		list, err := decodeArray(raw)
		if err != nil {
			return nil, fmt.Errorf("records %s: %w", res, err)
		}
		g.records[res] = list
	}
	seen := map[string]bool{}
	for i, a := range cfg.Approvals {
		if a.ID == "" {
			return nil, fmt.Errorf("approvals[%d]: empty id", i)
		}
		if seen[a.ID] {
			return nil, fmt.Errorf("approvals[%d]: duplicate id %q", i, a.ID)
		}
		seen[a.ID] = true
		if !slices.Contains(ApprovalStates(), a.State) {
			return nil, fmt.Errorf("approval %s: state %q is not one of %s", a.ID, a.State, strings.Join(ApprovalStates(), ", "))
		}
		if a.ExpiresAt.IsZero() {
			return nil, fmt.Errorf("approval %s: expiresAt is missing", a.ID)
		}
		live := &approval{Approval: a}
		live.Arguments = slices.Clone(a.Arguments)
		switch {
		case a.Arguments != nil && a.ArgumentsDigest != "":
			return nil, fmt.Errorf("approval %s: both arguments and argumentsDigest", a.ID)
		case a.ArgumentsDigest != "":
			if !IsDigest(a.ArgumentsDigest) {
				return nil, fmt.Errorf("approval %s: argumentsDigest %q does not match ^sha256:[0-9a-f]{64}$", a.ID, a.ArgumentsDigest)
			}
			live.binding = a.ArgumentsDigest
		case a.Arguments != nil:
			if kindOf(a.Arguments) != "object" {
				return nil, fmt.Errorf("approval %s: arguments is not a JSON object", a.ID)
			}
			d, err := g.digest(a.Arguments)
			if err != nil {
				return nil, fmt.Errorf("approval %s: arguments: %w", a.ID, err)
			}
			live.binding = d
		default:
			return nil, fmt.Errorf("approval %s: neither arguments nor argumentsDigest", a.ID)
		}
		g.registry = append(g.registry, live)
	}
	return g, nil
}

// digest is Digest, or the written-order digest under FaultDigestNotCanonical.
func (g *gateway) digest(raw []byte) (string, error) {
	if g.faults.Has(FaultDigestNotCanonical) {
		return writtenOrderDigest(raw)
	}
	return Digest(raw)
}

func (g *gateway) lookup(id *string) *approval {
	if id == nil {
		return nil
	}
	for _, a := range g.registry {
		if a.ID == *id {
			return a
		}
	}
	return nil
}

// label is the state label of the approval named id, or nil.
func (g *gateway) label(id *string) *string {
	a := g.lookup(id)
	if a == nil {
		return nil
	}
	l := a.label()
	return &l
}

func (g *gateway) emit(step int, kind, format string, args ...any) {
	g.res.Events = append(g.res.Events, Event{Step: step, Kind: kind, Text: fmt.Sprintf(format, args...)})
}

func (g *gateway) effectCount() int { return len(g.res.Drafts) + len(g.res.Publications) }

// step runs the algorithm for step n.
func (g *gateway) step(n int, s Step) error {
	if !json.Valid(s.Request) {
		return errors.New("request is not a single valid JSON value")
	}
	principal := g.principal
	if s.Principal != nil {
		principal = *s.Principal
	}
	var apid *string
	if s.ApprovalID != nil {
		id := *s.ApprovalID
		apid = &id
	}
	g.emit(n, EventRequest, "%s", preview(s.Request))

	env, err := readEnvelope(s.Request)
	if err != nil {
		return err
	}
	if env.members != nil && g.faults.Has(FaultPrincipalFromRequest) {
		if v, ok := stringMember(env.members, "principal"); ok {
			delete(env.members, "principal")
			principal = v
			g.emit(n, EventFault, "principal-from-request: principal %s taken from the request", clipQuote(v))
		}
	}
	if env.members != nil && g.faults.Has(FaultApprovalIDFromRequest) {
		if v, ok := stringMember(env.members, "approvalId"); ok {
			delete(env.members, "approvalId")
			apid = &v
			g.emit(n, EventFault, "approval-id-from-request: approval id %s taken from the request", clipQuote(v))
		}
	}

	// 1. Pre-state.
	before := g.label(apid)

	// 2. Audit inputs.
	var action, resource, argDigest *string
	if env.members != nil {
		if v, ok := stringMember(env.members, "action"); ok {
			action = &v
		}
		if v, ok := stringMember(env.members, "resource"); ok {
			resource = &v
		}
		if raw, ok := env.members["arguments"]; ok && kindOf(raw) == "object" {
			d, err := g.digest(raw)
			if err != nil {
				return fmt.Errorf("request arguments: %w", err)
			}
			argDigest = &d
		}
	}

	// 3. Decide.
	v := g.decide(principal, apid, env, argDigest, s.PolicyUnavailable)
	if v.allow() {
		g.emit(n, EventCheck, "allow %s — %s", ReasonAllowed, v.detail)
	} else {
		g.emit(n, EventCheck, "%s deny %s — %s", v.check, v.reason, v.detail)
	}
	if !v.allow() && g.faults.Has(FaultConsumeOnDeny) && v.approval != nil && slices.Contains([]string{"6b", "6c", "6d", "6e"}, v.check) {
		v.approval.Consumed = true
		g.emit(n, EventFault, "consume-on-deny: approval %s consumed by a denied publication", v.approval.ID)
	}

	writeAudit := func() {
		ev := AuditEvent{
			Sequence:            n,
			Principal:           principal,
			Action:              action,
			Resource:            resource,
			ApprovalID:          apid,
			ApprovalStateBefore: before,
			ApprovalStateAfter:  g.label(apid),
			Decision:            v.decision(),
			Reason:              v.reason,
			ArgumentDigest:      argDigest,
			EffectCount:         g.effectCount(),
		}
		g.res.Audit = append(g.res.Audit, ev)
		body, _ := json.Marshal(ev)
		g.emit(n, EventAudit, "#%d %s", n, body)
	}
	if g.faults.Has(FaultAuditBeforeDispatch) {
		writeAudit()
	}

	// 4. Dispatch, only on allow.
	var result any
	if v.allow() {
		result, err = g.dispatch(n, principal, apid, v)
		if err != nil {
			return err
		}
	} else if g.faults.Has(FaultEffectOnDeny) && slices.Contains([]string{"5a", "5b", "5c", "6a", "6b", "6c", "6d", "6e"}, v.check) {
		id := g.appendEffect(n, principal, apid, v)
		g.emit(n, EventFault, "effect-on-deny: %s appended %s although the request was denied", v.action, id)
	}

	// 5. Audit after dispatch.
	if !g.faults.Has(FaultAuditBeforeDispatch) {
		writeAudit()
	}

	// 6. Respond, snapshotting R.
	resp := Response{Step: n, Decision: v.decision(), Reason: v.reason, Result: json.RawMessage("null")}
	if v.allow() {
		snap, err := marshal(result)
		if err != nil {
			return fmt.Errorf("result: %w", err)
		}
		resp.Result = snap
		g.emit(n, EventResponse, "allow %s", clip(string(snap), 160))
	} else {
		g.emit(n, EventResponse, "deny %s", v.reason)
	}
	g.res.Responses = append(g.res.Responses, resp)

	// 7. The caller acts on what it holds.
	if s.Tamper {
		list, ok := result.([]any)
		if !ok {
			g.emit(n, EventCaller, "tamper: the result is not an array, nothing to change")
			return nil
		}
		changed := 0
		for _, e := range list {
			if obj, ok := e.(map[string]any); ok {
				obj["note"] = CallerTamperNote
				changed++
			}
		}
		g.emit(n, EventCaller, "tamper: note set to %q on %d object(s) of the result it holds", CallerTamperNote, changed)
	}
	return nil
}

// dispatch runs the mock tool of an allowed request and returns R.
func (g *gateway) dispatch(n int, principal string, apid *string, v verdict) (any, error) {
	switch v.action {
	case ActionRead:
		g.res.ServiceRequests++
		stored := g.records[v.served]
		if g.faults.Has(FaultReadByReference) {
			g.emit(n, EventDispatch, "read %s → %d record(s), the stored list itself", v.served, len(stored))
			return stored, nil
		}
		cp, err := deepCopy(stored)
		if err != nil {
			return nil, fmt.Errorf("copying records: %w", err)
		}
		g.emit(n, EventDispatch, "read %s → %d record(s), a deep copy", v.served, len(stored))
		return cp, nil
	case ActionCreateDraft:
		id := g.appendEffect(n, principal, apid, v)
		g.emit(n, EventDispatch, "create_draft → %s", id)
		return map[string]any{"draftId": id}, nil
	case ActionPublishSummary:
		if g.faults.Has(FaultApprovalNotConsumed) {
			g.emit(n, EventFault, "approval-not-consumed: approval %s left %s", v.approval.ID, v.approval.label())
		} else {
			v.approval.Consumed = true
		}
		id := g.appendEffect(n, principal, apid, v)
		g.emit(n, EventDispatch, "publish_summary → %s (approval %s now %s)", id, v.approval.ID, v.approval.label())
		return map[string]any{"publicationId": id}, nil
	}
	return nil, fmt.Errorf("dispatch of unregistered action %q", v.action)
}

// appendEffect appends the draft or publication of v and returns its id.
// Reaching the list counts as one service request.
func (g *gateway) appendEffect(n int, principal string, apid *string, v verdict) string {
	g.res.ServiceRequests++
	if v.action == ActionCreateDraft {
		g.res.Drafts = append(g.res.Drafts, Draft{Step: n, Principal: principal, Text: v.text})
		id := fmt.Sprintf("draft-%d", len(g.res.Drafts))
		g.res.Effects = append(g.res.Effects, Effect{Step: n, Kind: EffectDraft, ID: id})
		return id
	}
	pub := Publication{Step: n, Principal: principal, Text: v.text}
	if apid != nil {
		pub.ApprovalID = *apid
	}
	g.res.Publications = append(g.res.Publications, pub)
	id := fmt.Sprintf("publication-%d", len(g.res.Publications))
	g.res.Effects = append(g.res.Effects, Effect{Step: n, Kind: EffectPublication, ID: id})
	return id
}

// envelope is a request as far as the gateway reads it.
type envelope struct {
	kind    string
	members map[string]json.RawMessage // nil unless kind is "object"
}

func readEnvelope(raw json.RawMessage) (envelope, error) {
	env := envelope{kind: kindOf(raw)}
	if env.kind == "object" {
		if err := json.Unmarshal(raw, &env.members); err != nil {
			return env, fmt.Errorf("request: %w", err)
		}
	}
	return env, nil
}

// kindOf names the JSON type of a valid raw value.
func kindOf(raw []byte) string {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// stringMember returns members[key] when it is a JSON string.
func stringMember(members map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := members[key]
	if !ok || kindOf(raw) != "string" {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// decodeArray decodes a JSON array with numbers kept as written.
func decodeArray(raw []byte) ([]any, error) {
	if kindOf(raw) != "array" {
		return nil, errors.New("not a JSON array")
	}
	v, err := decodeValue(raw)
	if err != nil {
		return nil, err
	}
	return v.([]any), nil
}

func decodeValue(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// deepCopy returns a copy of a decoded JSON value that shares nothing with
// it.
func deepCopy(v any) (any, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeValue(b)
}

// marshal encodes v as compact JSON without HTML escaping.
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// preview renders a raw request compactly, cut to a readable length.
func preview(raw []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return clip(string(raw), 160)
	}
	return clip(buf.String(), 160)
}

// clip shortens s to at most n code points, marking the cut with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func clipQuote(s string) string { return fmt.Sprintf("%q", clip(s, 80)) }
