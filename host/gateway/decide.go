package gateway

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// verdict is the outcome of the decision table for one request, with what
// the checks learnt on the way.
type verdict struct {
	// check is the row that denied ("0", "1a", …, "6e"), empty on allow.
	check  string
	reason string
	// detail says what was compared, for the narration.
	detail string

	action   string
	resource string
	// served is the record list a read returns.
	served string
	// text is the text argument when it is a string.
	text     string
	approval *approval
}

func (v verdict) allow() bool { return v.reason == ReasonAllowed }

func (v verdict) decision() string {
	if v.allow() {
		return DecisionAllow
	}
	return DecisionDeny
}

func (v verdict) deny(check, reason, format string, args ...any) verdict {
	v.check, v.reason, v.detail = check, reason, fmt.Sprintf(format, args...)
	return v
}

// envelopeKeys returns the only members a request may have.
func envelopeKeys() []string { return []string{"action", "resource", "arguments"} }

// decide runs the decision table in order; the first matching row wins.
func (g *gateway) decide(principal string, apid *string, env envelope, argDigest *string, policyUnavailable bool) verdict {
	var v verdict

	// 0: policy availability.
	if g.faults.Has(FaultDenyAll) {
		return v.deny("0", ReasonPolicyUnavailable, "blanket refusal (fault deny-all)")
	}
	if policyUnavailable {
		return v.deny("0", ReasonPolicyUnavailable, "the step marks the policy service unavailable")
	}

	// 1a–1d: the envelope.
	if env.kind != "object" {
		return v.deny("1a", ReasonEnvelopeNotObject, "the request is a JSON %s, not an object", env.kind)
	}
	var extra, missing []string
	for k := range env.members {
		if !slices.Contains(envelopeKeys(), k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return v.deny("1b", ReasonEnvelopeExtraKey, "the request has key(s) %s beyond action, resource, arguments", quoteList(extra))
	}
	for _, k := range envelopeKeys() {
		if _, ok := env.members[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return v.deny("1c", ReasonEnvelopeMissingKey, "the request lacks %s", quoteList(missing))
	}
	action, ok := stringMember(env.members, "action")
	if !ok {
		return v.deny("1d", ReasonEnvelopeType, "action is a JSON %s, want a string", kindOf(env.members["action"]))
	}
	resource, ok := stringMember(env.members, "resource")
	if !ok {
		return v.deny("1d", ReasonEnvelopeType, "resource is a JSON %s, want a string", kindOf(env.members["resource"]))
	}
	rawArgs := env.members["arguments"]
	if kindOf(rawArgs) != "object" {
		return v.deny("1d", ReasonEnvelopeType, "arguments is a JSON %s, want an object", kindOf(rawArgs))
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(rawArgs, &args); err != nil {
		return v.deny("1d", ReasonEnvelopeType, "arguments cannot be read as an object: %v", err)
	}
	v.action, v.resource = action, resource

	// 2: registered action.
	spec, ok := lookupAction(action)
	if !ok {
		return v.deny("2", ReasonUnknownAction, "%s is not %s, %s or %s", clipQuote(action), ActionRead, ActionCreateDraft, ActionPublishSummary)
	}

	// 3: the action's exact resource allowlist.
	served, ok := g.allowlisted(spec.Resources, resource)
	if !ok {
		return v.deny("3", ReasonResourceNotAllowed, "%s is not in the %s allowlist %s", clipQuote(resource), action, quoteList(spec.Resources))
	}
	v.served = served

	// 4: the principal's role.
	role, hasRole := RoleOf(principal)
	if !hasRole {
		return v.deny("4", ReasonRoleNotPermitted, "principal %s has no role; %s needs %s", clipQuote(principal), action, strings.Join(spec.Roles, " or "))
	}
	if !slices.Contains(spec.Roles, role) {
		return v.deny("4", ReasonRoleNotPermitted, "principal %s has role %s; %s needs %s", clipQuote(principal), role, action, strings.Join(spec.Roles, " or "))
	}

	// 5r, 5a–5c: the argument schema.
	if action == ActionRead {
		if len(args) > 0 {
			return v.deny("5r", ReasonArgumentsNotEmpty, "read arguments have member(s) %s, want none", quoteList(sortedKeys(args)))
		}
		return v.pass("passed 0, 1a–1d, 2, 3, 4, 5r: %s may read %s", clipQuote(principal), served)
	}
	text, textOK := stringMember(args, "text")
	if textOK {
		v.text = text
	}
	if len(args) != 1 || !hasKey(args, "text") {
		return v.deny("5a", ReasonArgumentsShape, "arguments have key(s) %s, want exactly [\"text\"]", quoteList(sortedKeys(args)))
	}
	if !textOK {
		return v.deny("5a", ReasonArgumentsShape, "text is a JSON %s, want a string", kindOf(args["text"]))
	}
	if text == "" {
		return v.deny("5b", ReasonTextEmpty, `text is ""`)
	}
	length, unit := utf8.RuneCountInString(text), "code points"
	if g.faults.Has(FaultTextLengthBytes) {
		length, unit = len(text), "bytes (fault text-length-bytes)"
	}
	if length > MaxTextLength {
		return v.deny("5c", ReasonTextTooLong, "text is %d %s, limit %d", length, unit, MaxTextLength)
	}
	if action == ActionCreateDraft {
		return v.pass("passed 0, 1a–1d, 2, 3, 4, 5a–5c: text of %d %s", length, unit)
	}

	// 6a–6e: the approval of a publication.
	a := g.lookup(apid)
	if a == nil {
		if apid == nil {
			return v.deny("6a", ReasonApprovalMissing, "the step names no approval")
		}
		return v.deny("6a", ReasonApprovalMissing, "approval %s is not in the registry", clipQuote(*apid))
	}
	v.approval = a
	if a.Consumed {
		return v.deny("6b", ReasonApprovalConsumed, "approval %s is consumed", a.ID)
	}
	if g.faults.Has(FaultApprovalStateUnchecked) {
		// check 6c skipped
	} else if a.State != StateApproved {
		return v.deny("6c", ReasonApprovalNotApproved, "approval %s has state %s", a.ID, a.State)
	}
	exp, now := formatTime(a.ExpiresAt), formatTime(g.now)
	if g.faults.Has(FaultExpiryExclusive) {
		if a.ExpiresAt.Before(g.now) {
			return v.deny("6d", ReasonApprovalExpired, "expiresAt %s < now %s (fault expiry-exclusive)", exp, now)
		}
	} else if !a.ExpiresAt.After(g.now) {
		return v.deny("6d", ReasonApprovalExpired, "expiresAt %s <= now %s", exp, now)
	}
	switch {
	case a.Principal != principal:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval %s binds principal %s, the principal is %s", a.ID, clipQuote(a.Principal), clipQuote(principal))
	case a.Action != action:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval %s binds action %s, the request has %s", a.ID, clipQuote(a.Action), clipQuote(action))
	case a.Resource != resource:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval %s binds resource %s, the request has %s", a.ID, clipQuote(a.Resource), clipQuote(resource))
	case !g.faults.Has(FaultBindingIgnoresArguments) && a.binding != *argDigest:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval %s binds %s, arguments are %s", a.ID, a.binding, *argDigest)
	}
	return v.pass("passed 0, 1a–1d, 2, 3, 4, 5a–5c, 6a–6e: approval %s approved, expiresAt %s > now %s, binds %s", a.ID, exp, now, a.binding)
}

func (v verdict) pass(format string, args ...any) verdict {
	v.check, v.reason, v.detail = "", ReasonAllowed, fmt.Sprintf(format, args...)
	return v
}

// allowlisted matches resource against an allowlist and returns the entry
// it matched: exactly, or by prefix under FaultResourcePrefixMatch.
func (g *gateway) allowlisted(list []string, resource string) (string, bool) {
	for _, r := range list {
		if r == resource {
			return r, true
		}
	}
	if g.faults.Has(FaultResourcePrefixMatch) {
		for _, r := range list {
			if strings.HasPrefix(resource, r) {
				return r, true
			}
		}
	}
	return "", false
}

func hasKey(m map[string]json.RawMessage, k string) bool {
	_, ok := m[k]
	return ok
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// quoteList renders strings as a JSON-like list, keeping it short.
func quoteList(items []string) string {
	const most = 5
	parts := make([]string, 0, most+1)
	for i, s := range items {
		if i == most {
			parts = append(parts, fmt.Sprintf("… %d more", len(items)-most))
			break
		}
		parts = append(parts, clipQuote(s))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
