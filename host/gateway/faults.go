package gateway

import "github.com/deskcheck/deskcheck/internal/fault"

// Fault is one deliberate boundary bug of the gateway. The zero set is the
// reference model; each fault changes exactly one rule.
type Fault uint64

// Faults is a set of faults. The zero value is the correct model.
type Faults = fault.Set[Fault]

// FaultInfo names and explains a fault.
type FaultInfo = fault.Info[Fault]

// The faults.
const (
	// FaultExpiryExclusive: an approval is expired only when expiresAt is
	// strictly before now, so expiry at exactly now passes.
	FaultExpiryExclusive Fault = 1 << iota
	// FaultBindingIgnoresArguments: the binding compares principal, action
	// and resource but not the argument digest.
	FaultBindingIgnoresArguments
	// FaultApprovalNotConsumed: a successful publication leaves its approval
	// unconsumed, so it can be replayed.
	FaultApprovalNotConsumed
	// FaultConsumeOnDeny: a publication denied at checks 6b to 6e still
	// consumes the approval.
	FaultConsumeOnDeny
	// FaultApprovalStateUnchecked: check 6c is skipped, so pending and
	// rejected approvals authorize.
	FaultApprovalStateUnchecked
	// FaultPrincipalFromRequest: a string member "principal" of the request
	// is removed before the envelope check and used as the principal (role,
	// binding and audit).
	FaultPrincipalFromRequest
	// FaultApprovalIDFromRequest: a string member "approvalId" of the
	// request is removed before the envelope check and used instead of the
	// trusted approval id.
	FaultApprovalIDFromRequest
	// FaultEffectOnDeny: a create_draft or publish_summary denied at checks
	// 5a to 6e still appends its draft or publication; the decision, the
	// reason and the approval are unchanged.
	FaultEffectOnDeny
	// FaultAuditBeforeDispatch: the audit event is written before dispatch,
	// so approvalStateAfter repeats the state before and effectCount misses
	// this step's effect.
	FaultAuditBeforeDispatch
	// FaultReadByReference: read returns the stored list itself, so a
	// caller's edits change later reads.
	FaultReadByReference
	// FaultTextLengthBytes: text length is counted in UTF-8 bytes.
	FaultTextLengthBytes
	// FaultDenyAll: every request is denied with policy_unavailable.
	FaultDenyAll
	// FaultDigestNotCanonical: digests are taken over compact JSON with
	// members in written order and non-ASCII escaped as \uXXXX instead of
	// RFC 8785.
	FaultDigestNotCanonical
	// FaultResourcePrefixMatch: a resource passes the allowlist when it
	// starts with an allowed entry, and read serves that entry.
	FaultResourcePrefixMatch
)

// FaultList describes every fault, in declaration order. The model never
// reads it.
var FaultList = []FaultInfo{
	{Fault: FaultExpiryExclusive, Name: "expiry-exclusive", Bug: "an approval expiring exactly at now still authorizes",
		Hint: `scenario gateway: a publication whose approval has expiresAt equal to the trusted now, expecting deny approval_expired`},
	{Fault: FaultBindingIgnoresArguments, Name: "binding-ignores-arguments", Bug: "the approval binding ignores the argument digest",
		Hint: `scenario gateway: a publication whose text differs from the approved arguments (one character is enough), expecting deny approval_binding_mismatch`},
	{Fault: FaultApprovalNotConsumed, Name: "approval-not-consumed", Bug: "a successful publication does not consume its approval",
		Hint: `scenario gateway: the same approved publication twice, expecting allow then deny approval_consumed (or approvals {"<id>": "consumed"})`},
	{Fault: FaultConsumeOnDeny, Name: "consume-on-deny", Bug: "a publication denied at checks 6b-6e consumes its approval",
		Hint: `scenario gateway: a publication denied for binding, state or expiry, expecting the approval's label unchanged in approvals or audit approvalStateAfter`},
	{Fault: FaultApprovalStateUnchecked, Name: "approval-state-unchecked", Bug: "pending and rejected approvals authorize",
		Hint: `scenario gateway: an otherwise valid publication with a pending or rejected approval, expecting deny approval_not_approved`},
	{Fault: FaultPrincipalFromRequest, Name: "principal-from-request", Bug: "a principal member of the request is taken as the principal",
		Hint: `scenario gateway: a request with a top-level "principal" naming a more powerful principal, expecting deny envelope_extra_key and no effect`},
	{Fault: FaultApprovalIDFromRequest, Name: "approval-id-from-request", Bug: "an approvalId member of the request replaces the trusted approval id",
		Hint: `scenario gateway: a publication whose request carries a top-level "approvalId" of a valid approval and no trusted one, expecting deny envelope_extra_key`},
	{Fault: FaultEffectOnDeny, Name: "effect-on-deny", Bug: "a draft or publication denied at checks 5a-6e is still appended",
		Hint: `scenario gateway: a create_draft or publish_summary denied at the argument or approval checks, expecting draftEffects or publicationEffects 0`},
	{Fault: FaultAuditBeforeDispatch, Name: "audit-before-dispatch", Bug: "the audit event is written before dispatch",
		Hint: `scenario gateway: an allowed draft or publication, expecting audit effectCount including it (or approvalStateAfter "consumed")`},
	{Fault: FaultReadByReference, Name: "read-by-reference", Bug: "read returns the stored records, not a copy",
		Hint: `scenario gateway: a read with tamper true followed by another read, expecting results with the original notes`},
	{Fault: FaultTextLengthBytes, Name: "text-length-bytes", Bug: "text length is counted in UTF-8 bytes",
		Hint: `scenario gateway: a text of at most 2000 code points but more than 2000 bytes (for example 1001 × "é"), expecting allow`},
	{Fault: FaultDenyAll, Name: "deny-all", Bug: "every request is denied with policy_unavailable",
		Hint: `scenario gateway: any request the policy permits, expecting allow (an allowed control)`},
	{Fault: FaultDigestNotCanonical, Name: "digest-not-canonical", Bug: "digests are not taken over RFC 8785 canonical JSON",
		Hint: `scenario gateway: arguments with non-ASCII text, unsorted keys or non-canonical numbers, expecting audit argumentDigest (or a binding) by the canonical digest`},
	{Fault: FaultResourcePrefixMatch, Name: "resource-prefix-match", Bug: "the resource allowlist matches by prefix",
		Hint: `scenario gateway: a read of a resource that extends an allowed one (for example "ops/orders/" or "ops/orders-archive"), expecting deny resource_not_allowed`},
}
