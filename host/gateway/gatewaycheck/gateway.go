package gatewaycheck

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/host/gateway"
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
var Gateway = &scenario.Scenario{
	Name:        "gateway",
	Description: "scripted requests through a policy gateway: envelope, action, exact resource allowlist, role, argument schema and bound single-use approvals; dispatch on allow only, one audit event and one response per step",
	Unit:        "step",
	Schema:      gatewaySchema,
	Expected: scenario.Observables{
		{Key: "decisions", Comparer: Sequence},
		{Key: "reasons", Comparer: Sequence},
		{Key: "draftEffects", Comparer: scenario.Exact},
		{Key: "publicationEffects", Comparer: scenario.Exact},
		{Key: "results", Comparer: scenario.JSONEqual},
		{Key: "audit", Comparer: AuditSubsets},
		{Key: "approvals", Comparer: scenario.JSONEqual},
	},
	Limits: []scenario.Limit{
		{Name: LimitSteps, Pointer: "/given/steps", Count: true, Default: 1000, Help: "most steps in one gateway case"},
		{Name: LimitApprovals, Pointer: "/given/approvals", Count: true, Default: 1000, Help: "most approval registry entries in one gateway case"},
	},
	Lint:      lintGateway,
	Run:       runGateway,
	Script:    script,
	Suggest:   suggest,
	Template:  template,
	SourceKey: "gateway",
}

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

// givenBlock is the given block of a gateway case, decoded. Requests and
// approval arguments stay raw: the model digests them as written.
type givenBlock struct {
	Principal string                     `json:"principal"`
	Now       *string                    `json:"now"`
	Approvals []givenApproval            `json:"approvals"`
	Records   map[string]json.RawMessage `json:"records"`
	Steps     []givenStep                `json:"steps"`
}

type givenApproval struct {
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
	Request           json.RawMessage `json:"request"`
	ApprovalID        *string         `json:"approvalId"`
	Principal         *string         `json:"principal"`
	PolicyUnavailable bool            `json:"policyUnavailable"`
	Tamper            bool            `json:"tamper"`
}

func decodeGiven(raw []byte) (givenBlock, error) {
	var g givenBlock
	if err := json.Unmarshal(raw, &g); err != nil {
		return g, fmt.Errorf("given: %w", err)
	}
	return g, nil
}

// config turns a decoded given block into the model's fixture and steps.
func (g givenBlock) config(faults gateway.Faults) (gateway.Config, []gateway.Step, error) {
	cfg := gateway.Config{Principal: g.Principal, Records: g.Records, Faults: faults}
	if g.Now != nil {
		now, err := gateway.ParseTime(*g.Now)
		if err != nil {
			return cfg, nil, fmt.Errorf("given.now: %w", err)
		}
		cfg.Now = now
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

func runGateway(ctx context.Context, givenJSON []byte, env scenario.Env) (scenario.Observation, error) {
	if err := ctx.Err(); err != nil {
		return scenario.Observation{}, err
	}
	g, err := decodeGiven(givenJSON)
	if err != nil {
		return scenario.Observation{}, err
	}
	for _, l := range []struct {
		name string
		n    int
	}{{LimitSteps, len(g.Steps)}, {LimitApprovals, len(g.Approvals)}} {
		if bound, ok := env.Limits[l.name]; ok && l.n > bound {
			return scenario.Observation{}, fmt.Errorf("given.%s has %d entries, over the limit gateway.%s=%d", l.name, l.n, l.name, bound)
		}
	}
	cfg, steps, err := g.config(gateway.Faults(env.Faults))
	if err != nil {
		return scenario.Observation{}, err
	}
	res, err := gateway.Run(cfg, steps)
	if err != nil {
		return scenario.Observation{}, err
	}
	trace := env.Trace
	if trace == nil {
		trace = &scenario.Trace{}
	}
	narrate(trace, res)
	return scenario.Observation{
		Values:   observe(res),
		Boundary: boundary(g.Steps, readScript(env.Expected), res),
	}, nil
}

// observe reads every expected key from what the recorders saw.
func observe(res *gateway.Result) map[string]any {
	results := make([]any, len(res.Responses))
	for i, r := range res.Responses {
		results[i] = r.Result
	}
	audit := make([]any, len(res.Audit))
	for i, e := range res.Audit {
		audit[i] = e.Fields()
	}
	approvals := make(map[string]any, len(res.Approvals))
	for id, label := range res.Approvals {
		approvals[id] = label
	}
	return map[string]any{
		"decisions":          res.Decisions(),
		"reasons":            res.Reasons(),
		"draftEffects":       len(res.Drafts),
		"publicationEffects": len(res.Publications),
		"results":            results,
		"audit":              audit,
		"approvals":          approvals,
	}
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
		t.AddText(e.Kind, e.Kind+" "+e.Text)
	}
	t.Start(0)
	if len(res.Effects) == 0 {
		t.AddText("ledger", "ledger: no effect, no draft or publication was appended")
	} else {
		parts := make([]string, len(res.Effects))
		for i, e := range res.Effects {
			parts[i] = fmt.Sprintf("%s (step %d)", e.ID, e.Step)
		}
		t.Add("ledger", "ledger: %s; %s, %s", strings.Join(parts, ", "), plural(len(res.Drafts), "draft"), plural(len(res.Publications), "publication"))
	}
	t.Add("service", "service: %s reached the mock tools", plural(res.ServiceRequests, "request"))
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
	return fmt.Sprintf("%d %ss", n, word)
}

// suggest proposes the keys worth asserting: the four required ones, the
// audit (where digests, approval states and effect counts show), the
// results when some step returned one, and the approval labels when the
// case has a registry.
func suggest(givenJSON []byte, observed map[string]any) []string {
	keys := []string{"decisions", "reasons", "draftEffects", "publicationEffects"}
	if decisions, _ := observed["decisions"].([]any); containsValue(decisions, gateway.DecisionAllow) {
		keys = append(keys, "results")
	}
	keys = append(keys, "audit")
	var g struct {
		Approvals []json.RawMessage `json:"approvals"`
	}
	if json.Unmarshal(givenJSON, &g) == nil && len(g.Approvals) > 0 {
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
