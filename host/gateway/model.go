package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// Config is the trusted fixture of one run.
type Config struct {
	// Principal is the trusted principal of every step that names none
	// itself. It must not be empty.
	Principal string
	// Now is the trusted clock when NowSet is true or Now is not the
	// zero time; otherwise the clock is DefaultNow. Every instant is a
	// clock, 0001-01-01T00:00:00Z included: NowSet says it was given.
	Now    time.Time
	NowSet bool
	// Approvals is the approval registry, in fixture order.
	Approvals []Approval
	// Records replaces the default records of ops/orders and/or
	// ops/tickets; each value is a JSON array of any values.
	Records map[string]json.RawMessage
	// Faults switches the model into deliberate bugs; zero is the
	// reference.
	Faults Faults
	// Mutation switches it into one generated mutant; zero is the
	// reference.
	Mutation Mutation
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
	State    string
	Consumed bool
	// ExpiresAt is the instant the approval expires. It has no default
	// and no "unset" value: the zero time is 0001-01-01T00:00:00Z, long
	// past for any clock a case can give.
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

// recordList is the records of one resource. They are decoded on the
// first read: most runs read a resource seldom or never, and decoding is
// the costliest part of building a gateway.
type recordList struct {
	// raw is the fixture's text, already checked; nil means the default
	// records.
	raw    []byte
	list   []any
	loaded bool
}

// gateway is the state of one run. It is built fresh by Run.
type gateway struct {
	principal string
	now       time.Time
	faults    Faults
	mutation  Mutation
	// records holds the records of ops/orders and ops/tickets, in the
	// order of RecordResources.
	records [2]recordList
	// registry is filled before the first step and never grows after, so
	// pointers into it stay valid.
	registry []approval
	res      *Result
	// scratch and line are reused within the run, for canonical forms and
	// snapshots, and for narration lines; what is kept is copied out.
	scratch, line []byte
	// envelope and arguments hold the members of the request and of its
	// arguments during a step.
	envelope, arguments members
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
	// Every step writes one response, one audit event and a handful of
	// narration lines; sizing the lists once saves their regrowth.
	g.res.Responses = make([]Response, 0, len(steps))
	g.res.Audit = make([]AuditEvent, 0, len(steps))
	g.res.Events = make([]Event, 0, 6*len(steps))
	for i, s := range steps {
		if err := g.step(i+1, s); err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	g.res.Approvals = make(map[string]string, len(g.registry))
	for i := range g.registry {
		a := &g.registry[i]
		g.res.Approvals[a.ID] = a.label()
	}
	return g.res, nil
}

// recordIndex is the position of a resource in RecordResources.
func recordIndex(resource string) (int, bool) {
	switch resource {
	case ResourceOrders:
		return 0, true
	case ResourceTickets:
		return 1, true
	}
	return 0, false
}

func newGateway(cfg Config) (*gateway, error) {
	if cfg.Principal == "" {
		return nil, errors.New("principal is empty")
	}
	g := &gateway{
		principal: cfg.Principal,
		now:       cfg.Now,
		faults:    cfg.Faults,
		mutation:  cfg.Mutation,
		res:       &Result{},
		scratch:   make([]byte, 0, 512),
		line:      make([]byte, 0, 512),
	}
	if !cfg.NowSet && g.now.IsZero() {
		g.now = DefaultNow()
	}
	for res, raw := range cfg.Records {
		i, known := recordIndex(res)
		if !known {
			return nil, fmt.Errorf("records: unknown resource %q (want one of %s)", res, strings.Join(RecordResources(), ", "))
		}
		if kindOf(raw) == "array" && jsontext.WholeValue(raw) {
			g.records[i] = recordList{raw: raw}
			continue
		}
		list, err := decodeArray(raw)
		if err != nil {
			return nil, fmt.Errorf("records %s: %w", res, err)
		}
		g.records[i] = recordList{list: list, loaded: true}
	}
	// A large registry is checked for duplicate ids through a set; a small
	// one is searched, which costs less than building the set.
	var seen map[string]bool
	if len(cfg.Approvals) > 16 {
		seen = make(map[string]bool, len(cfg.Approvals))
	}
	g.registry = make([]approval, 0, len(cfg.Approvals))
	for i, a := range cfg.Approvals {
		if a.ID == "" {
			return nil, fmt.Errorf("approvals[%d]: empty id", i)
		}
		if seen != nil && seen[a.ID] || seen == nil && g.lookupID(a.ID) != nil {
			return nil, fmt.Errorf("approvals[%d]: duplicate id %q", i, a.ID)
		}
		if seen != nil {
			seen[a.ID] = true
		}
		if !isApprovalState(a.State) {
			return nil, fmt.Errorf("approval %s: state %q is not one of %s", a.ID, a.State, strings.Join(ApprovalStates(), ", "))
		}
		// The arguments are read only here, to compute the binding, so
		// the live entry needs no copy of them.
		live := approval{Approval: a}
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

// isApprovalState reports whether s is one of ApprovalStates.
func isApprovalState(s string) bool {
	return s == StateApproved || s == StatePending || s == StateRejected
}

// recordsOf returns the stored records of a readable resource, decoding
// them on first use.
func (g *gateway) recordsOf(resource string) []any {
	i, ok := recordIndex(resource)
	if !ok {
		return nil
	}
	r := &g.records[i]
	if !r.loaded {
		raw := r.raw
		if raw == nil {
			raw = []byte(defaultRecordsText(resource))
		}
		// The text was checked when the run was built (or is the
		// default), so it decodes.
		r.list, _ = decodeArray(raw)
		r.loaded = true
	}
	return r.list
}

// digest is Digest, or the written-order digest under FaultDigestNotCanonical.
func (g *gateway) digest(raw []byte) (string, error) {
	if g.faults.Has(FaultDigestNotCanonical) {
		return writtenOrderDigest(raw)
	}
	d, scratch, err := digestWith(g.scratch, raw)
	g.scratch = scratch
	return d, err
}

func (g *gateway) lookupID(id string) *approval {
	for i := range g.registry {
		if g.registry[i].ID == id {
			return &g.registry[i]
		}
	}
	return nil
}

func (g *gateway) lookup(id *string) *approval {
	if id == nil {
		return nil
	}
	return g.lookupID(*id)
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

// emit appends one narration line, its text the parts joined. Lines are
// built from parts rather than with fmt, whose reflection was a large
// share of a step's cost, and as one string with the kind (see
// Event.Line).
func (g *gateway) emit(step int, kind string, parts ...string) {
	b := g.startLine(kind)
	for _, p := range parts {
		b = append(b, p...)
	}
	g.endLine(step, kind, b)
}

// startLine starts a narration line in the line buffer: the kind and a
// space.
func (g *gateway) startLine(kind string) []byte {
	return append(append(g.line[:0], kind...), ' ')
}

// endLine appends the event whose line startLine began and b completes.
func (g *gateway) endLine(step int, kind string, b []byte) {
	g.line = b
	line := string(b)
	g.res.Events = append(g.res.Events, Event{Step: step, Kind: kind, Text: line[len(kind)+1:], line: line})
}

func (g *gateway) effectCount() int { return len(g.res.Drafts) + len(g.res.Publications) }

// tamperNoteQuoted is CallerTamperNote as %q writes it (it has nothing to
// escape).
const tamperNoteQuoted = `"` + CallerTamperNote + `"`

// step runs the algorithm for step n.
func (g *gateway) step(n int, s Step) error {
	env, err := g.readRequest(s.Request)
	if err != nil {
		return err
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
	g.scratch = jsonx.Compact(g.scratch[:0], s.Request)
	g.endLine(n, EventRequest, appendClipped(g.startLine(EventRequest), g.scratch, 160))

	if env.members != nil && g.faults.Has(FaultPrincipalFromRequest) {
		if v, ok := stringMember(env.members, "principal"); ok {
			env.members = env.members.Without("principal")
			principal = v
			g.emit(n, EventFault, "principal-from-request: principal ", clipQuote(v), " taken from the request")
		}
	}
	if env.members != nil && g.faults.Has(FaultApprovalIDFromRequest) {
		if v, ok := stringMember(env.members, "approvalId"); ok {
			env.members = env.members.Without("approvalId")
			apid = &v
			g.emit(n, EventFault, "approval-id-from-request: approval id ", clipQuote(v), " taken from the request")
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
		if raw, ok := env.members.Get("arguments"); ok && kindOf(raw) == "object" {
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
		g.emit(n, EventCheck, "allow ", ReasonAllowed, " — ", v.detail)
	} else {
		g.emit(n, EventCheck, v.check, " deny ", v.reason, " — ", v.detail)
	}
	if !v.allow() && g.faults.Has(FaultConsumeOnDeny) && v.approval != nil && (v.check == "6b" || v.check == "6c" || v.check == "6d" || v.check == "6e") {
		v.approval.Consumed = true
		g.emit(n, EventFault, "consume-on-deny: approval ", v.approval.ID, " consumed by a denied publication")
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
		if g.mutation.Kind == MutDropAudit {
			return
		}
		g.res.Audit = append(g.res.Audit, ev)
		b := strconv.AppendInt(append(g.startLine(EventAudit), '#'), int64(n), 10)
		g.endLine(n, EventAudit, ev.appendJSON(append(b, ' ')))
	}
	if g.faults.Has(FaultAuditBeforeDispatch) {
		writeAudit()
	}

	// 4. Dispatch, only on allow.
	var result any
	var shared bool
	if v.allow() {
		result, shared, err = g.dispatch(n, principal, apid, v)
		if err != nil {
			return err
		}
	} else if g.faults.Has(FaultEffectOnDeny) && (v.check == "5a" || v.check == "5b" || v.check == "5c" || v.check == "6a" || v.check == "6b" || v.check == "6c" || v.check == "6d" || v.check == "6e") {
		id := g.appendEffect(n, principal, apid, v)
		g.emit(n, EventFault, "effect-on-deny: ", v.action, " appended ", id, " although the request was denied")
	}

	// 5. Audit after dispatch.
	if !g.faults.Has(FaultAuditBeforeDispatch) {
		writeAudit()
	}

	// 6. Respond, snapshotting R.
	resp := Response{Step: n, Decision: v.decision(), Reason: v.reason, Result: json.RawMessage("null")}
	if v.allow() {
		var snap []byte
		var ok bool
		if g.scratch, ok = appendValue(g.scratch[:0], result); ok {
			snap = append(make([]byte, 0, len(g.scratch)), g.scratch...)
		} else if snap, err = marshal(result); err != nil {
			return fmt.Errorf("result: %w", err)
		}
		resp.Result = snap
		g.endLine(n, EventResponse, appendClipped(append(g.startLine(EventResponse), "allow "...), snap, 160))
	} else {
		g.emit(n, EventResponse, "deny ", v.reason)
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
				if shared {
					obj["note"] = CallerTamperNote
				}
				changed++
			}
		}
		g.emit(n, EventCaller, "tamper: note set to ", tamperNoteQuoted, " on ", strconv.Itoa(changed), " object(s) of the result it holds")
	}
	return nil
}

// dispatch runs the mock tool of an allowed request and returns R, and
// whether R is shared with what the model keeps (so that what the caller
// does to it reaches the model).
func (g *gateway) dispatch(n int, principal string, apid *string, v verdict) (any, bool, error) {
	switch v.action {
	case ActionRead:
		g.res.ServiceRequests++
		stored := g.recordsOf(v.served)
		if g.faults.Has(FaultReadByReference) {
			g.emit(n, EventDispatch, "read ", v.served, " → ", strconv.Itoa(len(stored)), " record(s), the stored list itself")
			return stored, true, nil
		}
		// The caller receives a deep copy. Nothing observes the copy
		// except through the caller's edits, which step applies only to
		// shared results, so the stored list stands in for it.
		g.emit(n, EventDispatch, "read ", v.served, " → ", strconv.Itoa(len(stored)), " record(s), a deep copy")
		return stored, false, nil
	case ActionCreateDraft:
		id := g.appendEffect(n, principal, apid, v)
		g.emit(n, EventDispatch, "create_draft → ", id)
		return map[string]any{"draftId": id}, false, nil
	case ActionPublishSummary:
		if g.faults.Has(FaultApprovalNotConsumed) || g.mutation.Kind == MutDropConsume {
			g.emit(n, EventFault, "approval-not-consumed: approval ", v.approval.ID, " left ", v.approval.label())
		} else {
			v.approval.Consumed = true
		}
		id := g.appendEffect(n, principal, apid, v)
		g.emit(n, EventDispatch, "publish_summary → ", id, " (approval ", v.approval.ID, " now ", v.approval.label(), ")")
		return map[string]any{"publicationId": id}, false, nil
	}
	return nil, false, fmt.Errorf("dispatch of unregistered action %q", v.action)
}

// appendEffect appends the draft or publication of v and returns its id.
// Reaching the list counts as one service request.
func (g *gateway) appendEffect(n int, principal string, apid *string, v verdict) string {
	g.res.ServiceRequests++
	if v.action == ActionCreateDraft {
		g.res.Drafts = append(g.res.Drafts, Draft{Step: n, Principal: principal, Text: v.text})
		id := "draft-" + strconv.Itoa(len(g.res.Drafts))
		g.res.Effects = append(g.res.Effects, Effect{Step: n, Kind: EffectDraft, ID: id})
		return id
	}
	pub := Publication{Step: n, Principal: principal, Text: v.text}
	if apid != nil {
		pub.ApprovalID = *apid
	}
	g.res.Publications = append(g.res.Publications, pub)
	id := "publication-" + strconv.Itoa(len(g.res.Publications))
	g.res.Effects = append(g.res.Effects, Effect{Step: n, Kind: EffectPublication, ID: id})
	return id
}

// envelope is a request as far as the gateway reads it.
type envelope struct {
	kind    string
	members members // nil unless kind is "object"
}

// readRequest checks that a request is one valid JSON value and reads it
// as the gateway's json.loads does (see internal/jsontext). Reading an
// object's members checks it on the way, so the common request is scanned
// once.
func (g *gateway) readRequest(raw json.RawMessage) (envelope, error) {
	env := envelope{kind: kindOf(raw)}
	if env.kind == "object" {
		if m, ok := jsontext.ReadHostMembers(raw, g.envelope); ok {
			g.envelope, env.members = m, m
			return env, nil
		}
	} else if jsontext.WholeHostValue(raw) {
		return env, nil
	}
	return env, errors.New("request is not a single valid JSON value")
}

// readObject reads a JSON object's members as json.loads reads them into
// a dict: keys compared exactly, a repeated key keeping its last value
// (into buf).
func readObject(raw []byte, buf members) (members, error) {
	if m, ok := jsontext.ReadHostMembers(raw, buf); ok {
		return m, nil
	}
	return nil, errors.New("not one valid JSON object")
}

// kindOf names the JSON type of a valid raw value.
func kindOf(raw []byte) string {
	i := jsontext.SkipSpace(raw, 0)
	if i == len(raw) {
		return "nothing"
	}
	switch raw[i] {
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

// stringMember returns the member key when it is a JSON string.
func stringMember(m members, key string) (string, bool) {
	raw, ok := m.Get(key)
	if !ok || kindOf(raw) != "string" {
		return "", false
	}
	return jsontext.StringToken(raw[jsontext.SkipSpace(raw, 0):])
}

// decodeArray decodes a JSON array with numbers kept as written and
// strings as json.loads reads them.
func decodeArray(raw []byte) ([]any, error) {
	if kindOf(raw) != "array" {
		return nil, errors.New("not a JSON array")
	}
	v, ok := jsontext.DecodeHostLiterals(raw)
	if !ok {
		return nil, errors.New("not one valid JSON array")
	}
	return v.([]any), nil
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

// appendClipped appends clip(string(b), n) to dst without converting b.
func appendClipped(dst, b []byte, n int) []byte {
	runes, valid := 0, true
	for i := 0; i < len(b); runes++ {
		if runes == n {
			if !valid {
				// clip turns invalid bytes into U+FFFD when it cuts.
				return append(dst, clip(string(b), n)...)
			}
			return append(append(dst, b[:i]...), "…"...)
		}
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		valid = valid && !(r == utf8.RuneError && size == 1)
		i += size
	}
	return append(dst, b...)
}

// clip shortens s to at most n code points (a lone surrogate one of
// them), marking the cut with "…"; a byte that is not UTF-8 becomes
// U+FFFD where it cuts.
func clip(s string, n int) string {
	if jsontext.CodePoints(s) <= n {
		return s
	}
	out := make([]byte, 0, len(s))
	for i, k := 0, 0; k < n; k++ {
		size := jsontext.NextChar(s, i)
		if r, _ := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, r)
		} else {
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return string(out) + "…"
}

// clipQuote is clip(s, 80) as %q writes it, a lone surrogate as its \u
// escape.
func clipQuote(s string) string { return jsontext.Quote(clip(s, 80)) }
