package gatewaycheck

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// checks are the rows of the decision table that deny, in order, with
// what each checks.
var checks = []struct{ id, text string }{
	{"0", "the policy service is unavailable"},
	{"1a", "the request is not a JSON object"},
	{"1b", "the request has a key beyond action, resource and arguments"},
	{"1c", "the request lacks action, resource or arguments"},
	{"1d", "action or resource is not a string, or arguments not an object"},
	{"2", "the action is not registered"},
	{"3", "the resource is not in the action's allowlist"},
	{"4", "the principal's role may not perform the action"},
	{"5r", "a read has arguments"},
	{"5a", "the arguments are not exactly {\"text\": string}"},
	{"5b", "the text is empty"},
	{"5c", "the text is longer than the limit"},
	{"6a", "the publication names no approval in the registry"},
	{"6b", "the approval is consumed"},
	{"6c", "the approval is not approved"},
	{"6d", "the approval has expired"},
	{"6e", "the approval binds another principal, action, resource or arguments"},
}

// Points are the gateway's boundary points.
var Points = func() []scenario.Point {
	var out []scenario.Point
	add := func(name, text string) {
		out = append(out, scenario.Point{Name: "gateway/" + name, Scenario: "gateway", Text: text})
	}
	for _, c := range checks {
		add("check-"+c.id, "check "+c.id+" denies: "+c.text)
	}
	for _, a := range []string{gateway.ActionRead, gateway.ActionCreateDraft, gateway.ActionPublishSummary} {
		add("allow-"+a, "a "+a+" passes every check and is dispatched")
	}
	for _, r := range gateway.Reasons() {
		add("reason-"+r, "a response carries the reason "+r)
	}
	for _, s := range []string{gateway.StateApproved, gateway.StatePending, gateway.StateRejected, gateway.LabelConsumed} {
		add("state-"+s, "a publication meets an approval labelled "+s)
	}
	add("expiry-at-now", "an approval expiring exactly at the trusted now is expired")
	add("expiry-before-now", "an approval that expired before the trusted now is expired")
	add("expiry-after-now", "an approval expiring after the trusted now authorizes")
	return out
}()

// observedPoints reads the points one run reached from the gateway's own
// record: the check each step's narration names, the responses' reasons,
// and from the audit each allowed action and the approval label each
// publication met.
func observedPoints(res *gateway.Result) []string {
	var out []string
	for _, e := range res.Events {
		if e.Kind != gateway.EventCheck {
			continue
		}
		id, rest, _ := strings.Cut(e.Text, " ")
		if id == "allow" {
			continue
		}
		out = append(out, "gateway/check-"+id)
		if id == "6d" {
			if exp, now, ok := expiryTimes(rest); ok && exp == now {
				out = append(out, "gateway/expiry-at-now")
			} else {
				out = append(out, "gateway/expiry-before-now")
			}
		}
	}
	for _, r := range res.Responses {
		out = append(out, "gateway/reason-"+r.Reason)
	}
	for _, a := range res.Audit {
		if a.Action == nil {
			continue
		}
		if a.Decision == gateway.DecisionAllow {
			out = append(out, "gateway/allow-"+*a.Action)
			if *a.Action == gateway.ActionPublishSummary {
				out = append(out, "gateway/expiry-after-now")
			}
		}
		if a.ApprovalStateBefore != nil && *a.Action == gateway.ActionPublishSummary {
			out = append(out, "gateway/state-"+*a.ApprovalStateBefore)
		}
	}
	return out
}

// expiryTimes reads "expiresAt X <= now Y" from a 6d narration.
func expiryTimes(text string) (exp, now string, ok bool) {
	_, after, found := strings.Cut(text, "expiresAt ")
	if !found {
		return "", "", false
	}
	f := strings.Fields(after)
	if len(f) < 4 {
		return "", "", false
	}
	return f[0], f[3], true
}

var mutants = func() []adapter.Mutant[gateway.Mutation] {
	var out []adapter.Mutant[gateway.Mutation]
	add := func(name, text string, m gateway.Mutation) {
		out = append(out, adapter.Mutant[gateway.Mutation]{Name: name, Text: text, Mutation: m})
	}
	for _, c := range gateway.DroppableChecks {
		what := c
		for _, x := range checks {
			if x.id == c {
				what = c + " (" + x.text + ")"
			}
		}
		if id, part, ok := strings.Cut(c, "-"); ok {
			what = id + "'s comparison of the " + part
		}
		add("check/"+c+"/drop", "check "+what+" is skipped", gateway.Mutation{Kind: gateway.MutDropCheck, Check: c})
	}
	for _, c := range gateway.SwappableChecks {
		next := map[string]string{"6b": "6c", "6c": "6d", "6d": "6e"}[c]
		add("check/"+c+"/swap", "check "+next+" is tried before check "+c, gateway.Mutation{Kind: gateway.MutSwapChecks, Check: c})
	}
	add("limit/text/raise", "the text limit is "+strconv.Itoa(gateway.MaxTextLength+1)+" code points, one more", gateway.Mutation{Kind: gateway.MutTextLimit, Delta: 1})
	add("limit/text/lower", "the text limit is "+strconv.Itoa(gateway.MaxTextLength-1)+" code points, one fewer", gateway.Mutation{Kind: gateway.MutTextLimit, Delta: -1})
	add("check/5c/inverted", "check 5c's comparison is inverted: texts within the limit are too long", gateway.Mutation{Kind: gateway.MutTextLimitInverted})
	add("check/6d/strict", "check 6d compares strictly: an approval expiring exactly now authorizes", gateway.Mutation{Kind: gateway.MutExpiryStrict})
	add("check/6d/inverted", "check 6d's comparison is inverted: approvals expiring after now are expired", gateway.Mutation{Kind: gateway.MutExpiryInverted})
	add("event/audit/drop", "the audit event of every step is dropped", gateway.Mutation{Kind: gateway.MutDropAudit})
	add("event/consume/drop", "a publication does not consume its approval", gateway.Mutation{Kind: gateway.MutDropConsume})
	return out
}()

// Mutants are the gateway's generated mutants as the engine registers
// them.
var Mutants = adapter.Mutants(mutants)

// Generate is generate, made once: the inputs are a fixed table, which
// every search only reads.
var Generate = sync.OnceValue(generate)

// generate returns the gateway's generated inputs: one request per check
// and state, the limits and the expiry at and around the trusted now.
func generate() []scenario.Candidate {
	const now = "2026-06-01T12:00:00Z"
	text := "Q2 summary: 41 orders shipped."
	approval := func(mod func(map[string]any)) map[string]any {
		a := map[string]any{"id": "ap-1", "principal": gateway.PrincipalOperator, "action": gateway.ActionPublishSummary,
			"resource": gateway.ResourceReviewBoard, "arguments": map[string]any{"text": text}, "state": "approved", "expiresAt": "2026-06-01T12:00:01Z"}
		if mod != nil {
			mod(a)
		}
		return a
	}
	req := func(action, resource string, args any) map[string]any {
		return map[string]any{"action": action, "resource": resource, "arguments": args}
	}
	publish := map[string]any{"request": req(gateway.ActionPublishSummary, gateway.ResourceReviewBoard, map[string]any{"text": text}), "approvalId": "ap-1"}
	var out []scenario.Candidate
	add := func(title string, aims []string, principal string, approvals []any, steps ...any) {
		g := map[string]any{"principal": principal, "now": now, "steps": steps}
		if approvals != nil {
			g["approvals"] = approvals
		}
		b, _ := json.Marshal(g)
		full := make([]string, len(aims))
		for i, a := range aims {
			full[i] = "gateway/" + a
		}
		out = append(out, scenario.Candidate{Scenario: "gateway", Given: string(b), Aims: full, Title: title})
	}
	op, an := gateway.PrincipalOperator, gateway.PrincipalAnalyst
	read := map[string]any{"request": req(gateway.ActionRead, gateway.ResourceOrders, map[string]any{})}
	draft := func(t string) map[string]any {
		return map[string]any{"request": req(gateway.ActionCreateDraft, gateway.ResourceWeeklyReport, map[string]any{"text": t})}
	}
	add("a read", []string{"allow-read", "reason-allowed"}, an, nil, read)
	add("a draft", []string{"allow-create_draft"}, an, nil, draft(text))
	add("an approved publication", []string{"allow-publish_summary", "expiry-after-now", "state-approved"}, op, []any{approval(nil)}, publish)
	add("the policy service unavailable", []string{"check-0", "reason-policy_unavailable"}, an, nil, map[string]any{"request": read["request"], "policyUnavailable": true})
	add("a request that is an array", []string{"check-1a", "reason-envelope_not_object"}, an, nil, map[string]any{"request": []any{1}})
	add("a request with an extra key", []string{"check-1b", "reason-envelope_extra_key"}, an, nil,
		map[string]any{"request": map[string]any{"action": "read", "resource": gateway.ResourceOrders, "arguments": map[string]any{}, "principal": op}})
	add("a request without arguments", []string{"check-1c", "reason-envelope_missing_key"}, an, nil,
		map[string]any{"request": map[string]any{"action": "read", "resource": gateway.ResourceOrders}})
	add("a request whose action is a number", []string{"check-1d", "reason-envelope_type"}, an, nil,
		map[string]any{"request": map[string]any{"action": 1, "resource": gateway.ResourceOrders, "arguments": map[string]any{}}})
	add("an unknown action", []string{"check-2", "reason-unknown_action"}, an, nil, map[string]any{"request": req("fetch_url", gateway.ResourceOrders, map[string]any{})})
	add("a resource off the allowlist", []string{"check-3", "reason-resource_not_allowed"}, an, nil, map[string]any{"request": req("read", "ops/payroll", map[string]any{})})
	add("a principal with no role", []string{"check-4", "reason-role_not_permitted"}, "synthetic-visitor", nil, read)
	add("an analyst publishing", []string{"check-4", "reason-role_not_permitted"}, an, []any{approval(nil)}, publish)
	add("a read with arguments", []string{"check-5r", "reason-arguments_not_empty"}, an, nil, map[string]any{"request": req("read", gateway.ResourceOrders, map[string]any{"limit": 1})})
	add("a draft with an extra argument", []string{"check-5a", "reason-arguments_shape"}, an, nil,
		map[string]any{"request": req(gateway.ActionCreateDraft, gateway.ResourceWeeklyReport, map[string]any{"text": text, "tone": "calm"})})
	add("a draft whose text is a number", []string{"check-5a", "reason-arguments_shape"}, an, nil,
		map[string]any{"request": req(gateway.ActionCreateDraft, gateway.ResourceWeeklyReport, map[string]any{"text": 7})})
	add("an empty draft", []string{"check-5b", "reason-text_empty"}, an, nil, draft(""))
	add("a draft one code point over the limit", []string{"check-5c", "reason-text_too_long"}, an, nil, draft(strings.Repeat("é", gateway.MaxTextLength+1)))
	add("a draft exactly at the limit", []string{"allow-create_draft"}, an, nil, draft(strings.Repeat("é", gateway.MaxTextLength)))
	add("a publication naming no approval", []string{"check-6a", "reason-approval_missing"}, op, []any{approval(nil)},
		map[string]any{"request": publish["request"]})
	add("the same publication twice", []string{"check-6b", "reason-approval_consumed", "state-consumed"}, op, []any{approval(nil)}, publish, publish)
	add("a pending approval", []string{"check-6c", "reason-approval_not_approved", "state-pending"}, op, []any{approval(func(a map[string]any) { a["state"] = "pending" })}, publish)
	add("a rejected approval", []string{"check-6c", "state-rejected"}, op, []any{approval(func(a map[string]any) { a["state"] = "rejected" })}, publish)
	add("an approval expiring exactly now", []string{"check-6d", "reason-approval_expired", "expiry-at-now"}, op, []any{approval(func(a map[string]any) { a["expiresAt"] = now })}, publish)
	add("an approval that expired a second ago", []string{"check-6d", "expiry-before-now"}, op, []any{approval(func(a map[string]any) { a["expiresAt"] = "2026-06-01T11:59:59Z" })}, publish)
	add("a consumed approval that is also pending", []string{"check-6b", "state-consumed"}, op, []any{approval(func(a map[string]any) { a["consumed"] = true; a["state"] = "pending" })}, publish)
	add("a pending approval that has also expired", []string{"check-6c", "state-pending"}, op, []any{approval(func(a map[string]any) { a["state"] = "pending"; a["expiresAt"] = now })}, publish)
	add("an expired approval bound to other arguments", []string{"check-6d", "expiry-at-now"}, op, []any{approval(func(a map[string]any) {
		a["expiresAt"] = now
		a["arguments"] = map[string]any{"text": text + "!"}
	})}, publish)
	add("an approval bound to another principal", []string{"check-6e", "reason-approval_binding_mismatch"}, op, []any{approval(func(a map[string]any) { a["principal"] = "synthetic-other-operator" })}, publish)
	add("an approval bound to another action", []string{"check-6e"}, op, []any{approval(func(a map[string]any) { a["action"] = gateway.ActionCreateDraft })}, publish)
	add("an approval bound to another resource", []string{"check-6e"}, op, []any{approval(func(a map[string]any) { a["resource"] = "mock/other-board" })}, publish)
	add("an approval bound to other arguments", []string{"check-6e"}, op, []any{approval(func(a map[string]any) { a["arguments"] = map[string]any{"text": text + "!"} })}, publish)
	return out
}
