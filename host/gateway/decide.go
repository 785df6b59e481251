package gateway

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"sort"
	"strconv"
	"strings"
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

// deny ends the table at check with reason; detail says what was
// compared.
func (v verdict) deny(check, reason, detail string) verdict {
	v.check, v.reason, v.detail = check, reason, detail
	return v
}

func (v verdict) pass(detail string) verdict {
	v.check, v.reason, v.detail = "", ReasonAllowed, detail
	return v
}

// isEnvelopeKey reports whether k is one of the only members a request may
// have: action, resource, arguments.
func isEnvelopeKey(k string) bool { return k == "action" || k == "resource" || k == "arguments" }

// decide runs the decision table in order; the first matching row wins.
// Its narration is built by concatenation, the numbers with strconv: fmt's
// reflection was a large share of a step.
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
		return v.deny("1a", ReasonEnvelopeNotObject, "the request is a JSON "+env.kind+", not an object")
	}
	var extra, missing []string
	for _, m := range env.members {
		if !isEnvelopeKey(string(m.Key)) {
			extra = append(extra, string(m.Key))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return v.deny("1b", ReasonEnvelopeExtraKey, "the request has key(s) "+quoteList(extra)+" beyond action, resource, arguments")
	}
	for _, k := range [...]string{"action", "resource", "arguments"} {
		if !env.members.Has(k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return v.deny("1c", ReasonEnvelopeMissingKey, "the request lacks "+quoteList(missing))
	}
	action, ok := stringMember(env.members, "action")
	if !ok {
		raw, _ := env.members.Get("action")
		return v.deny("1d", ReasonEnvelopeType, "action is a JSON "+kindOf(raw)+", want a string")
	}
	resource, ok := stringMember(env.members, "resource")
	if !ok {
		raw, _ := env.members.Get("resource")
		return v.deny("1d", ReasonEnvelopeType, "resource is a JSON "+kindOf(raw)+", want a string")
	}
	rawArgs, _ := env.members.Get("arguments")
	if kindOf(rawArgs) != "object" {
		return v.deny("1d", ReasonEnvelopeType, "arguments is a JSON "+kindOf(rawArgs)+", want an object")
	}
	args, err := readObject(rawArgs, g.arguments)
	if err != nil {
		return v.deny("1d", ReasonEnvelopeType, "arguments cannot be read as an object: "+err.Error())
	}
	g.arguments = args
	v.action, v.resource = action, resource

	// 2: registered action.
	spec, ok := actionSpec(action)
	if !ok {
		return v.deny("2", ReasonUnknownAction, clipQuote(action)+" is not "+ActionRead+", "+ActionCreateDraft+" or "+ActionPublishSummary)
	}

	// 3: the action's exact resource allowlist.
	served, ok := g.allowlisted(spec.resources(), resource)
	if !ok {
		return v.deny("3", ReasonResourceNotAllowed, clipQuote(resource)+" is not in the "+action+" allowlist "+spec.resourcesText())
	}
	v.served = served

	// 4: the principal's role.
	role, hasRole := RoleOf(principal)
	if !hasRole {
		return v.deny("4", ReasonRoleNotPermitted, "principal "+clipQuote(principal)+" has no role; "+action+" needs "+spec.rolesText())
	}
	if !spec.permits(role) {
		return v.deny("4", ReasonRoleNotPermitted, "principal "+clipQuote(principal)+" has role "+role+"; "+action+" needs "+spec.rolesText())
	}

	// 5r, 5a–5c: the argument schema.
	if action == ActionRead {
		if len(args) > 0 {
			return v.deny("5r", ReasonArgumentsNotEmpty, "read arguments have member(s) "+quoteList(args.SortedKeys())+", want none")
		}
		return v.pass("passed 0, 1a–1d, 2, 3, 4, 5r: " + clipQuote(principal) + " may read " + served)
	}
	text, textOK := stringMember(args, "text")
	if textOK {
		v.text = text
	}
	if len(args) != 1 || !args.Has("text") {
		return v.deny("5a", ReasonArgumentsShape, "arguments have key(s) "+quoteList(args.SortedKeys())+", want exactly [\"text\"]")
	}
	if !textOK {
		raw, _ := args.Get("text")
		return v.deny("5a", ReasonArgumentsShape, "text is a JSON "+kindOf(raw)+", want a string")
	}
	if text == "" {
		return v.deny("5b", ReasonTextEmpty, `text is ""`)
	}
	length, unit := jsontext.CodePoints(text), "code points"
	if g.faults.Has(FaultTextLengthBytes) {
		length, unit = len(text), "bytes (fault text-length-bytes)"
	}
	if length > MaxTextLength {
		return v.deny("5c", ReasonTextTooLong, "text is "+strconv.Itoa(length)+" "+unit+", limit "+strconv.Itoa(MaxTextLength))
	}
	if action == ActionCreateDraft {
		return v.pass("passed 0, 1a–1d, 2, 3, 4, 5a–5c: text of " + strconv.Itoa(length) + " " + unit)
	}

	// 6a–6e: the approval of a publication.
	a := g.lookup(apid)
	if a == nil {
		if apid == nil {
			return v.deny("6a", ReasonApprovalMissing, "the step names no approval")
		}
		return v.deny("6a", ReasonApprovalMissing, "approval "+clipQuote(*apid)+" is not in the registry")
	}
	v.approval = a
	if a.Consumed {
		return v.deny("6b", ReasonApprovalConsumed, "approval "+a.ID+" is consumed")
	}
	if g.faults.Has(FaultApprovalStateUnchecked) {
		// check 6c skipped
	} else if a.State != StateApproved {
		return v.deny("6c", ReasonApprovalNotApproved, "approval "+a.ID+" has state "+a.State)
	}
	exp, now := formatTime(a.ExpiresAt), formatTime(g.now)
	if g.faults.Has(FaultExpiryExclusive) {
		if a.ExpiresAt.Before(g.now) {
			return v.deny("6d", ReasonApprovalExpired, "expiresAt "+exp+" < now "+now+" (fault expiry-exclusive)")
		}
	} else if !a.ExpiresAt.After(g.now) {
		return v.deny("6d", ReasonApprovalExpired, "expiresAt "+exp+" <= now "+now)
	}
	switch {
	case a.Principal != principal:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval "+a.ID+" binds principal "+clipQuote(a.Principal)+", the principal is "+clipQuote(principal))
	case a.Action != action:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval "+a.ID+" binds action "+clipQuote(a.Action)+", the request has "+clipQuote(action))
	case a.Resource != resource:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval "+a.ID+" binds resource "+clipQuote(a.Resource)+", the request has "+clipQuote(resource))
	case !g.faults.Has(FaultBindingIgnoresArguments) && a.binding != *argDigest:
		return v.deny("6e", ReasonApprovalBindingMismatch, "approval "+a.ID+" binds "+a.binding+", arguments are "+*argDigest)
	}
	return v.pass("passed 0, 1a–1d, 2, 3, 4, 5a–5c, 6a–6e: approval " + a.ID + " approved, expiresAt " + exp + " > now " + now + ", binds " + a.binding)
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

// quoteList renders strings as a JSON-like list, keeping it short.
func quoteList(items []string) string {
	const most = 5
	parts := make([]string, 0, most+1)
	for i, s := range items {
		if i == most {
			parts = append(parts, "… "+strconv.Itoa(len(items)-most)+" more")
			break
		}
		parts = append(parts, clipQuote(s))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
