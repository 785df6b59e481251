package gatewaycheck

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

//go:embed gateway.schema.json
var gatewaySchema []byte

// The limits of the gateway scenario.
const (
	LimitSteps     = "steps"
	LimitApprovals = "approvals"
)

// Gateway is the scenario of scripted requests through the policy gateway.
var Gateway = scenario.Declare(&scenario.Scenario{
	Name:        "gateway",
	Description: "scripted requests through a policy gateway: envelope, action, exact resource allowlist, role, argument schema and bound single-use approvals; dispatch on allow only, one audit event and one response per step",
	Unit:        "step",
	Schema:      gatewaySchema,
	Expected: scenario.Observables{
		{Key: "decisions", Comparer: Sequence},
		{Key: "reasons", Comparer: Sequence},
		{Key: "draftEffects", Comparer: scenario.Exact, Count: true},
		{Key: "publicationEffects", Comparer: scenario.Exact, Count: true},
		{Key: "results", Comparer: scenario.JSONEqual},
		{Key: "audit", Comparer: AuditSubsets},
		{Key: "approvals", Comparer: scenario.JSONEqual},
	},
	Limits: []scenario.Limit{
		{Name: LimitSteps, Pointer: "/given/steps", Count: true, Default: 1000, Help: "most steps in one gateway case"},
		{Name: LimitApprovals, Pointer: "/given/approvals", Count: true, Default: 1000, Help: "most approval registry entries in one gateway case"},
		{Name: LimitCopyBytes, Pointer: "/given/steps", Measured: true, Default: 4 << 20, Help: "per step, the records a read returns, the deciding principal and the named approval, as written"},
	},
	Warnings: []scenario.Warning{
		{Name: "list-vs-steps", Help: "decisions or reasons whose length is not the number of steps"},
	},
	Template:  template,
	SourceKey: "gateway",
	Picture:   picture,
	Deciding:  []string{"check"},
}, scenario.Kind[givenBlock, caseScript, *gateway.Result]{
	Decode:   decodeGiven,
	Plan:     plan,
	Measure:  func(g givenBlock, _ string) int { return copyBytes(g) },
	Run:      runGateway,
	Boundary: boundary,
	Suggest:  suggest,
})

// template is the given block `deskcheck new gateway` prints: every given
// key, every step key and both ways of binding an approval. It allows a
// read, a publication and a draft and denies a pending approval and an
// unavailable policy, so the new case is a paired control on its own.
const template = `{
        "principal": "synthetic-operator",
        "now": "2026-06-01T12:00:00Z",
        "approvals": [
          {
            "id": "ap-summary",
            "principal": "synthetic-operator",
            "action": "publish_summary",
            "resource": "mock/review-board",
            "arguments": { "text": "Placeholder: the approved summary" },
            "state": "approved",
            "consumed": false,
            "expiresAt": "2026-06-01T13:00:00Z"
          },
          {
            "id": "ap-pending",
            "principal": "synthetic-operator",
            "action": "publish_summary",
            "resource": "mock/review-board",
            "argumentsDigest": "sha256:` + templatePendingDigest + `",
            "state": "pending",
            "expiresAt": "2026-06-01T13:00:00Z"
          }
        ],
        "records": {
          "ops/orders": [
            { "id": "order-1", "status": "open", "note": "Placeholder: an untrusted note, inert data" }
          ]
        },
        "steps": [
          { "request": { "action": "read", "resource": "ops/orders", "arguments": {} }, "tamper": true },
          { "request": { "action": "publish_summary", "resource": "mock/review-board", "arguments": { "text": "Placeholder: the approved summary" } }, "approvalId": "ap-summary" },
          { "request": { "action": "publish_summary", "resource": "mock/review-board", "arguments": { "text": "Placeholder: a summary awaiting review" } }, "approvalId": "ap-pending" },
          { "request": { "action": "create_draft", "resource": "ops/weekly-report", "arguments": { "text": "Placeholder: a draft" } }, "principal": "synthetic-analyst" },
          { "request": { "action": "read", "resource": "ops/tickets", "arguments": {} }, "policyUnavailable": true }
        ]
      }`

// templatePendingDigest is the hex digest of {"text": "Placeholder: a
// summary awaiting review"}, the arguments the template's pending approval
// binds (a test recomputes it).
const templatePendingDigest = "27a91dee8666dfb12c537491d904105cc1306b40f1fb1e39aab9b5e796bb7c2a"

// givenBlock is the given block of a gateway case, decoded once when the
// case is loaded and then shared by all its runs: nothing writes to it.
// Requests and approval arguments stay raw: the model digests them as
// written. The sizes are the lengths of values as written, which
// copyBytes counts.
type givenBlock struct {
	// principalSize is the length of the principal as written (0:
	// absent).
	principalSize int
	Principal     string                     `json:"principal"`
	Now           *string                    `json:"now"`
	Approvals     []givenApproval            `json:"approvals"`
	Records       map[string]json.RawMessage `json:"records"`
	Steps         []givenStep                `json:"steps"`
}

type givenApproval struct {
	// size is the length of the approval object as written.
	size            int
	ID              string          `json:"id"`
	Principal       string          `json:"principal"`
	Action          string          `json:"action"`
	Resource        string          `json:"resource"`
	Arguments       json.RawMessage `json:"arguments"`
	ArgumentsDigest *string         `json:"argumentsDigest"`
	State           string          `json:"state"`
	Consumed        bool            `json:"consumed"`
	ExpiresAt       string          `json:"expiresAt"`
}

type givenStep struct {
	// principalSize is the length of the step's principal as written
	// (0: absent).
	principalSize     int
	Request           json.RawMessage `json:"request"`
	ApprovalID        *string         `json:"approvalId"`
	Principal         *string         `json:"principal"`
	PolicyUnavailable bool            `json:"policyUnavailable"`
	Tamper            bool            `json:"tamper"`
}

func decodeGiven(raw []byte) (givenBlock, error) {
	if g, ok := readGivenFast(raw); ok {
		return g, nil
	}
	return decodeGivenPlain(raw)
}

// decodeGivenPlain is decodeGiven for any block, the reference: the block
// as the host's json.loads reads it (keys compared exactly, a repeated key
// keeping its last value, strings with their escapes decoded and an
// unpaired surrogate kept), with the Go field types deciding what each
// value may be. Like json.Unmarshal into givenBlock, it ignores unknown
// keys, reads null as a field's zero value, and refuses a value of the
// wrong type.
func decodeGivenPlain(raw []byte) (givenBlock, error) {
	var g givenBlock
	if isNull(raw) {
		return g, nil
	}
	top, err := objectAt(raw, "given")
	if err != nil {
		return g, err
	}
	for _, m := range top {
		v := m.Raw
		switch string(m.Key) {
		case "principal":
			g.principalSize = len(v)
			err = stringAt(v, "given.principal", &g.Principal)
		case "now":
			g.Now, err = stringPtrAt(v, "given.now")
		case "approvals":
			var list [][]byte
			if list, err = arrayAt(v, "given.approvals"); err == nil && list != nil {
				g.Approvals = make([]givenApproval, len(list))
				for i, a := range list {
					if err = g.Approvals[i].decode(a, "given.approvals["+strconv.Itoa(i)+"]"); err != nil {
						break
					}
				}
			}
		case "records":
			var ms jsontext.Members
			if ms, err = objectAt(v, "given.records"); err == nil && ms != nil {
				g.Records = make(map[string]json.RawMessage, len(ms))
				for _, r := range ms {
					g.Records[string(r.Key)] = r.Raw
				}
			}
		case "steps":
			var list [][]byte
			if list, err = arrayAt(v, "given.steps"); err == nil && list != nil {
				g.Steps = make([]givenStep, len(list))
				for i, st := range list {
					if err = g.Steps[i].decode(st, "given.steps["+strconv.Itoa(i)+"]"); err != nil {
						break
					}
				}
			}
		}
		if err != nil {
			return givenBlock{}, err
		}
	}
	return g, nil
}

func (a *givenApproval) decode(raw []byte, at string) error {
	a.size = len(raw)
	ms, err := objectAt(raw, at)
	for _, m := range ms {
		v, in := m.Raw, at+"."+string(m.Key)
		switch string(m.Key) {
		case "id":
			err = stringAt(v, in, &a.ID)
		case "principal":
			err = stringAt(v, in, &a.Principal)
		case "action":
			err = stringAt(v, in, &a.Action)
		case "resource":
			err = stringAt(v, in, &a.Resource)
		case "arguments":
			a.Arguments = v
		case "argumentsDigest":
			a.ArgumentsDigest, err = stringPtrAt(v, in)
		case "state":
			err = stringAt(v, in, &a.State)
		case "consumed":
			err = boolAt(v, in, &a.Consumed)
		case "expiresAt":
			err = stringAt(v, in, &a.ExpiresAt)
		}
		if err != nil {
			return err
		}
	}
	return err
}

func (st *givenStep) decode(raw []byte, at string) error {
	ms, err := objectAt(raw, at)
	for _, m := range ms {
		v, in := m.Raw, at+"."+string(m.Key)
		switch string(m.Key) {
		case "request":
			st.Request = v
		case "approvalId":
			st.ApprovalID, err = stringPtrAt(v, in)
		case "principal":
			st.principalSize = len(v)
			st.Principal, err = stringPtrAt(v, in)
		case "policyUnavailable":
			err = boolAt(v, in, &st.PolicyUnavailable)
		case "tamper":
			err = boolAt(v, in, &st.Tamper)
		}
		if err != nil {
			return err
		}
	}
	return err
}

// objectAt reads raw, the value at the path at, as an object's members;
// null is no member.
func objectAt(raw []byte, at string) (jsontext.Members, error) {
	if isNull(raw) {
		return nil, nil
	}
	if ms, ok := jsontext.ReadHostMembers(raw, nil); ok {
		return ms, nil
	}
	return nil, typeError(raw, at, "an object")
}

// arrayAt reads raw as an array's elements; null is none.
func arrayAt(raw []byte, at string) ([][]byte, error) {
	if isNull(raw) {
		return nil, nil
	}
	if list, ok := jsontext.HostElements(raw); ok {
		return list, nil
	}
	return nil, typeError(raw, at, "an array")
}

// stringAt reads raw as a string into dst, as json.loads reads it; null
// leaves dst as it is.
func stringAt(raw []byte, at string, dst *string) error {
	if isNull(raw) {
		return nil
	}
	s, ok := jsontext.HostString(raw)
	if !ok {
		return typeError(raw, at, "a string")
	}
	*dst = s
	return nil
}

// stringPtrAt reads raw as a string; null is nil.
func stringPtrAt(raw []byte, at string) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var s string
	if err := stringAt(raw, at, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// boolAt reads raw as true or false into dst; null leaves dst as it is.
func boolAt(raw []byte, at string, dst *bool) error {
	switch string(raw) {
	case "true", "false":
		*dst = string(raw) == "true"
	case "null":
	default:
		return typeError(raw, at, "true or false")
	}
	return nil
}

// typeError says that the value raw at the path at is not what it must
// be, or not JSON at all.
func typeError(raw []byte, at, want string) error {
	if !jsontext.WholeHostValue(raw) {
		return fmt.Errorf("%s: not one valid JSON value", at)
	}
	return fmt.Errorf("%s: a JSON %s where %s is expected", at, kindName(raw), want)
}

// kindName names the JSON type of a valid value.
func kindName(raw []byte) string {
	switch raw[jsontext.SkipSpace(raw, 0)] {
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

// Bits of readGivenFast's record of the keys it has seen in one object.
const (
	seenPrincipal = 1 << iota
	seenNow
	seenApprovals
	seenRecords
	seenSteps
	seenID
	seenAction
	seenResource
	seenArguments
	seenArgumentsDigest
	seenState
	seenConsumed
	seenExpiresAt
	seenRequest
	seenApprovalID
	seenPolicyUnavailable
	seenTamper
)

// readGivenFast decodes a given block as decodeGivenPlain does when the
// block is what the case schema describes (every key written plainly and
// present once, no null but a request or arguments value): strings as the
// host's json.loads reads them, a lone surrogate escape kept. Requests,
// arguments and records stay slices of raw, as written. ok is false for
// any other block; decodeGiven then leaves it to decodeGivenPlain.
func readGivenFast(raw []byte) (g givenBlock, ok bool) {
	var seen uint32
	// once records key k of the current object, false when repeated.
	once := func(seen *uint32, k uint32) bool {
		if *seen&k != 0 {
			return false
		}
		*seen |= k
		return true
	}
	// Strings are read as json.loads reads them: escapes decoded, an
	// unpaired surrogate kept (in WTF-8 form).
	str := func(v []byte, dst *string) bool {
		s, ok := jsontext.HostString(v)
		*dst = s
		return ok
	}
	strPtr := func(v []byte, dst **string) bool {
		s, ok := jsontext.HostString(v)
		*dst = &s
		return ok
	}
	boolean := func(v []byte, dst *bool) bool {
		*dst = string(v) == "true"
		return *dst || string(v) == "false"
	}
	// value reads the value at v[start] with read, which reports whether
	// it was what it wanted; the walkers want its end.
	value := func(v []byte, start, depth int, read func([]byte) bool) int {
		end := jsontext.ScanValue(v, start, depth)
		if end < 0 || !read(v[start:end:end]) {
			return -1
		}
		return end
	}
	ok = jsontext.WholeObject(raw, func(key []byte, plain bool, start int) int {
		switch string(key) {
		case `"principal"`:
			return value(raw, start, 1, func(v []byte) bool {
				g.principalSize = len(v)
				return once(&seen, seenPrincipal) && str(v, &g.Principal)
			})
		case `"now"`:
			return value(raw, start, 1, func(v []byte) bool { return once(&seen, seenNow) && strPtr(v, &g.Now) })
		case `"approvals"`:
			if !once(&seen, seenApprovals) {
				return -1
			}
			g.Approvals = []givenApproval{}
			return jsontext.EachElement(raw, start, func(start int) int {
				var a givenApproval
				var seen uint32
				end := jsontext.EachMember(raw, start, func(key []byte, _ bool, start int) int {
					switch string(key) {
					case `"id"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenID) && str(f, &a.ID) })
					case `"principal"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenPrincipal) && str(f, &a.Principal) })
					case `"action"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenAction) && str(f, &a.Action) })
					case `"resource"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenResource) && str(f, &a.Resource) })
					case `"arguments"`:
						return value(raw, start, 3, func(f []byte) bool { a.Arguments = f; return once(&seen, seenArguments) })
					case `"argumentsDigest"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenArgumentsDigest) && strPtr(f, &a.ArgumentsDigest) })
					case `"state"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenState) && str(f, &a.State) })
					case `"consumed"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenConsumed) && boolean(f, &a.Consumed) })
					case `"expiresAt"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenExpiresAt) && str(f, &a.ExpiresAt) })
					}
					return -1
				})
				a.size = end - start
				g.Approvals = append(g.Approvals, a)
				return end
			})
		case `"records"`:
			if !once(&seen, seenRecords) {
				return -1
			}
			g.Records = map[string]json.RawMessage{}
			return jsontext.EachMember(raw, start, func(key []byte, plain bool, start int) int {
				name := jsontext.StringValue(key, plain)
				if _, dup := g.Records[name]; dup {
					return -1
				}
				return value(raw, start, 2, func(f []byte) bool { g.Records[name] = f; return true })
			})
		case `"steps"`:
			if !once(&seen, seenSteps) {
				return -1
			}
			g.Steps = make([]givenStep, 0, 8)
			return jsontext.EachElement(raw, start, func(start int) int {
				var st givenStep
				var seen uint32
				end := jsontext.EachMember(raw, start, func(key []byte, _ bool, start int) int {
					switch string(key) {
					case `"request"`:
						return value(raw, start, 3, func(f []byte) bool { st.Request = f; return once(&seen, seenRequest) })
					case `"approvalId"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenApprovalID) && strPtr(f, &st.ApprovalID) })
					case `"principal"`:
						return value(raw, start, 3, func(f []byte) bool {
							st.principalSize = len(f)
							return once(&seen, seenPrincipal) && strPtr(f, &st.Principal)
						})
					case `"policyUnavailable"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenPolicyUnavailable) && boolean(f, &st.PolicyUnavailable) })
					case `"tamper"`:
						return value(raw, start, 3, func(f []byte) bool { return once(&seen, seenTamper) && boolean(f, &st.Tamper) })
					}
					return -1
				})
				g.Steps = append(g.Steps, st)
				return end
			})
		}
		return -1
	})
	return g, ok
}

// config turns a decoded given block into the model's fixture and steps.
func (g givenBlock) config(faults gateway.Faults) (gateway.Config, []gateway.Step, error) {
	cfg := gateway.Config{Principal: g.Principal, Records: g.Records, Faults: faults}
	if g.Now != nil {
		now, err := gateway.ParseTime(*g.Now)
		if err != nil {
			return cfg, nil, fmt.Errorf("given.now: %w", err)
		}
		cfg.Now, cfg.NowSet = now, true
	}
	cfg.Approvals = make([]gateway.Approval, len(g.Approvals))
	for i, a := range g.Approvals {
		exp, err := gateway.ParseTime(a.ExpiresAt)
		if err != nil {
			return cfg, nil, fmt.Errorf("given.approvals[%d].expiresAt: %w", i, err)
		}
		cfg.Approvals[i] = gateway.Approval{
			ID: a.ID, Principal: a.Principal, Action: a.Action, Resource: a.Resource,
			Arguments: a.Arguments, State: a.State, Consumed: a.Consumed, ExpiresAt: exp,
		}
		if a.ArgumentsDigest != nil {
			cfg.Approvals[i].ArgumentsDigest = *a.ArgumentsDigest
		}
	}
	steps := make([]gateway.Step, len(g.Steps))
	for i, s := range g.Steps {
		steps[i] = gateway.Step{Request: s.Request, ApprovalID: s.ApprovalID, Principal: s.Principal, PolicyUnavailable: s.PolicyUnavailable, Tamper: s.Tamper}
	}
	return cfg, steps, nil
}

func runGateway(ctx context.Context, g givenBlock, env scenario.Env) (scenario.Observation, *gateway.Result, error) {
	if err := ctx.Err(); err != nil {
		return scenario.Observation{}, nil, err
	}
	cfg, steps, err := g.config(adapter.FaultSet[gateway.Fault](env))
	if err != nil {
		return scenario.Observation{}, nil, err
	}
	cfg.Mutation = adapter.Mutation(mutants, env.Mutant)
	res, err := gateway.Run(cfg, steps)
	if err != nil {
		return scenario.Observation{}, nil, err
	}
	trace := env.Trace
	if trace == nil {
		trace = &scenario.Trace{}
	}
	narrate(trace, res)
	return scenario.Observation{
		Values: observe(res),
		Points: observedPoints(res),
	}, res, nil
}

// observe reads every expected key from what the recorders saw. Values are
// built in the plain JSON form the engine compares (float64 numbers,
// []any, map[string]any), which it then takes as they are: converting
// them afterwards meant a JSON round trip of every result and a copy of
// every audit event.
func observe(res *gateway.Result) map[string]any {
	decisions := make([]any, len(res.Responses))
	reasons := make([]any, len(res.Responses))
	results := make([]any, len(res.Responses))
	for i, r := range res.Responses {
		decisions[i] = word(r.Decision)
		reasons[i] = word(r.Reason)
		// A result that jsontext.Decode cannot decode (a number beyond
		// a float64) stays text, which the engine decodes as it always
		// has.
		// The host is a Python program: an integer of a record stays
		// exact (9007199254740993 is not 9007199254740992).
		if v, ok := jsontext.DecodePy(r.Result); ok {
			results[i] = v
		} else {
			results[i] = r.Result
		}
	}
	audit := make([]any, len(res.Audit))
	for i, e := range res.Audit {
		audit[i] = auditFields(e)
	}
	approvals := make(map[string]any, len(res.Approvals))
	for id, label := range res.Approvals {
		approvals[id] = word(label)
	}
	return map[string]any{
		"decisions":          decisions,
		"reasons":            reasons,
		"draftEffects":       scenario.Count(len(res.Drafts)),
		"publicationEffects": scenario.Count(len(res.Publications)),
		"results":            results,
		"audit":              audit,
		"approvals":          approvals,
	}
}

// auditFields is AuditEvent.Fields in plain JSON form: the two counts as
// float64.
func auditFields(e gateway.AuditEvent) map[string]any {
	opt := func(p *string) any {
		if p == nil {
			return nil
		}
		return word(*p)
	}
	return map[string]any{
		"sequence":            scenario.Count(e.Sequence),
		"principal":           word(e.Principal),
		"action":              opt(e.Action),
		"resource":            opt(e.Resource),
		"approvalId":          opt(e.ApprovalID),
		"approvalStateBefore": opt(e.ApprovalStateBefore),
		"approvalStateAfter":  opt(e.ApprovalStateAfter),
		"decision":            word(e.Decision),
		"reason":              word(e.Reason),
		"argumentDigest":      opt(e.ArgumentDigest),
		"effectCount":         scenario.Count(e.EffectCount),
	}
}

// word returns s as an interface value. Putting a string into an interface
// allocates, except for a constant: the gateway's own words (decisions,
// reasons, labels, principals, actions, resources) come back as constants.
func word(s string) any {
	switch s {
	case gateway.DecisionAllow:
		return gateway.DecisionAllow
	case gateway.DecisionDeny:
		return gateway.DecisionDeny
	case gateway.ReasonAllowed:
		return gateway.ReasonAllowed
	case gateway.ReasonPolicyUnavailable:
		return gateway.ReasonPolicyUnavailable
	case gateway.ReasonEnvelopeNotObject:
		return gateway.ReasonEnvelopeNotObject
	case gateway.ReasonEnvelopeExtraKey:
		return gateway.ReasonEnvelopeExtraKey
	case gateway.ReasonEnvelopeMissingKey:
		return gateway.ReasonEnvelopeMissingKey
	case gateway.ReasonEnvelopeType:
		return gateway.ReasonEnvelopeType
	case gateway.ReasonUnknownAction:
		return gateway.ReasonUnknownAction
	case gateway.ReasonResourceNotAllowed:
		return gateway.ReasonResourceNotAllowed
	case gateway.ReasonRoleNotPermitted:
		return gateway.ReasonRoleNotPermitted
	case gateway.ReasonArgumentsNotEmpty:
		return gateway.ReasonArgumentsNotEmpty
	case gateway.ReasonArgumentsShape:
		return gateway.ReasonArgumentsShape
	case gateway.ReasonTextEmpty:
		return gateway.ReasonTextEmpty
	case gateway.ReasonTextTooLong:
		return gateway.ReasonTextTooLong
	case gateway.ReasonApprovalMissing:
		return gateway.ReasonApprovalMissing
	case gateway.ReasonApprovalConsumed:
		return gateway.ReasonApprovalConsumed
	case gateway.ReasonApprovalNotApproved:
		return gateway.ReasonApprovalNotApproved
	case gateway.ReasonApprovalExpired:
		return gateway.ReasonApprovalExpired
	case gateway.ReasonApprovalBindingMismatch:
		return gateway.ReasonApprovalBindingMismatch
	case gateway.StateApproved:
		return gateway.StateApproved
	case gateway.StatePending:
		return gateway.StatePending
	case gateway.StateRejected:
		return gateway.StateRejected
	case gateway.LabelConsumed:
		return gateway.LabelConsumed
	case gateway.PrincipalAnalyst:
		return gateway.PrincipalAnalyst
	case gateway.PrincipalOperator:
		return gateway.PrincipalOperator
	case gateway.ActionRead:
		return gateway.ActionRead
	case gateway.ActionCreateDraft:
		return gateway.ActionCreateDraft
	case gateway.ActionPublishSummary:
		return gateway.ActionPublishSummary
	case gateway.ResourceOrders:
		return gateway.ResourceOrders
	case gateway.ResourceTickets:
		return gateway.ResourceTickets
	case gateway.ResourceWeeklyReport:
		return gateway.ResourceWeeklyReport
	case gateway.ResourceReviewBoard:
		return gateway.ResourceReviewBoard
	}
	return s
}

// narrate writes the model's events to the trace, step by step, each line
// led by its kind (request, check, dispatch, audit, response, caller,
// fault), and then what the recorders hold at the end: the effect ledger,
// the service requests and the approval labels.
func narrate(t *scenario.Trace, res *gateway.Result) {
	cur := -1
	for _, e := range res.Events {
		if e.Step != cur {
			t.Start(e.Step)
			cur = e.Step
		}
		t.AddText(e.Kind, e.Line())
	}
	t.Start(0)
	if len(res.Effects) == 0 {
		t.AddText("ledger", "ledger: no effect, no draft or publication was appended")
	} else {
		var b strings.Builder
		b.WriteString("ledger: ")
		for i, e := range res.Effects {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(e.ID + " (step " + strconv.Itoa(e.Step) + ")")
		}
		b.WriteString("; " + plural(len(res.Drafts), "draft") + ", " + plural(len(res.Publications), "publication"))
		t.AddText("ledger", b.String())
	}
	t.AddText("service", "service: "+plural(res.ServiceRequests, "request")+" reached the mock tools")
	if len(res.Approvals) > 0 {
		ids := make([]string, 0, len(res.Approvals))
		for id := range res.Approvals {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = id + " " + res.Approvals[id]
		}
		t.AddText("approvals", "approvals after the last step: "+strings.Join(parts, ", "))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// suggest proposes the keys worth asserting: the four required ones, the
// audit (where digests, approval states and effect counts show), the
// results when some step returned one, and the approval labels when the
// case has a registry.
func suggest(g givenBlock, observed map[string]any) []string {
	// Room for every key the function may add: growing the list cost an
	// allocation per case.
	keys := make([]string, 0, 7)
	keys = append(keys, "decisions", "reasons", "draftEffects", "publicationEffects")
	if decisions, _ := observed["decisions"].([]any); containsValue(decisions, gateway.DecisionAllow) {
		keys = append(keys, "results")
	}
	keys = append(keys, "audit")
	if len(g.Approvals) > 0 {
		keys = append(keys, "approvals")
	}
	return keys
}

func containsValue(list []any, v any) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}
