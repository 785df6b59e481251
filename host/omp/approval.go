package omp

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"errors"
	"fmt"
	"strings"
)

// Tier is a tool's capability tier.
type Tier string

// The tiers, in rank order.
const (
	TierRead  Tier = "read"
	TierWrite Tier = "write"
	TierExec  Tier = "exec"
)

var tierRank = map[Tier]int{TierRead: 0, TierWrite: 1, TierExec: 2}

// Policy is an approval policy. The empty Policy means "unset".
type Policy string

// The policies.
const (
	PolicyAllow  Policy = "allow"
	PolicyDeny   Policy = "deny"
	PolicyPrompt Policy = "prompt"
)

// Source says which input decided a resolution.
type Source string

// The sources of a resolution.
const (
	SourceTool Source = "tool"
	SourceUser Source = "user"
	SourceMode Source = "mode"
)

// The approval modes the host knows. Any other string is accepted and behaves
// as a mode that auto-approves no tier.
const (
	ModeAlwaysAsk = "always-ask"
	ModeWrite     = "write"
	ModeYolo      = "yolo"
)

var modeMaxTier = map[string]Tier{ModeAlwaysAsk: TierRead, ModeWrite: TierWrite, ModeYolo: TierExec}

// Decision is a normalised tool approval declaration.
type Decision struct {
	Tier      Tier
	Policy    Policy // empty when the declaration sets none
	Reason    string
	Override  bool
	PolicyKey string
}

// ApprovalFunc is an argument-dependent approval declaration. It returns a
// raw declaration (see NormalizeDecision). An error it returns propagates out
// of ResolveApproval unchanged.
type ApprovalFunc func(args any) (any, error)

// Tool is what the approval code knows of a tool.
type Tool struct {
	Name string
	// Approval is the raw declaration: nil when the tool declares none, an
	// ApprovalFunc, or a value as decoded from JSON (a tier string or an
	// object with tier, policy, reason, override and policyKey).
	Approval any
	// FormatApprovalDetails, when set, returns extra prompt lines.
	FormatApprovalDetails func(args any) []string
}

// Resolution is the outcome of ResolveApproval.
type Resolution struct {
	Policy    Policy
	Tier      Tier
	Source    Source
	Override  bool
	Reason    string
	PolicyKey string
	// Row is the row of the decision order that matched (1 to 9).
	Row int
}

// NormalizePolicy converts a user-supplied value to a policy: strings are
// trimmed as ECMAScript trims (U+FEFF goes, U+0085 stays) and lower-cased;
// anything that is then not allow, deny or prompt (and every non-string) is
// unset.
func NormalizePolicy(v any) Policy {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	switch p := Policy(strings.ToLower(JSTrim(s))); p {
	case PolicyAllow, PolicyDeny, PolicyPrompt:
		return p
	}
	return ""
}

func asTier(v any) (Tier, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	_, known := tierRank[Tier(s)]
	return Tier(s), known
}

// NormalizeDecision converts a raw declaration to a Decision. An exact tier
// string is that tier; an object takes its fields where they are valid and
// falls back to exec; anything else is exec. Tiers are matched exactly, with
// no case folding or trimming.
func NormalizeDecision(v any) Decision {
	if t, ok := asTier(v); ok {
		return Decision{Tier: t}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Decision{Tier: TierExec}
	}
	d := Decision{Tier: TierExec, Policy: NormalizePolicy(obj["policy"])}
	if t, ok := asTier(obj["tier"]); ok {
		d.Tier = t
	}
	d.Override, _ = obj["override"].(bool)
	d.Reason, _ = obj["reason"].(string)
	d.PolicyKey, _ = obj["policyKey"].(string)
	return d
}

func toolDecision(t Tool, args any) (Decision, error) {
	if f, ok := t.Approval.(ApprovalFunc); ok {
		raw, err := f(args)
		if err != nil {
			return Decision{}, err
		}
		return NormalizeDecision(raw), nil
	}
	return NormalizeDecision(t.Approval), nil
}

// ResolveApproval resolves the approval policy of one call of t with args in
// mode, given the user's raw tools.approval map. The first matching row of
// the decision order wins; Resolution.Row names it.
func ResolveApproval(t Tool, args any, mode string, user map[string]any) (Resolution, error) {
	return resolveApproval(t, args, mode, policies{obj: user, kind: 'o'}, Faults{})
}

func resolveApproval(t Tool, args any, mode string, user policies, faults Faults) (Resolution, error) {
	d, err := toolDecision(t, args)
	if err != nil {
		return Resolution{}, err
	}
	if faults.Has(FaultDenyAll) {
		return Resolution{Policy: PolicyDeny, Tier: d.Tier, Source: SourceTool, Row: 1}, nil
	}
	key := t.Name
	if d.PolicyKey != "" {
		key = d.PolicyKey
	}
	var userPolicy, fallback Policy
	if v, own := user.get(key); own {
		userPolicy = NormalizePolicy(v)
	}
	if v, own := user.get(t.Name); own && key != t.Name && userPolicy == "" {
		fallback = NormalizePolicy(v)
	}
	effective := userPolicy
	if effective == "" {
		effective = fallback
	}
	userKey := t.Name
	if userPolicy != "" {
		userKey = key
	}

	fromTool := func(row int, p Policy, override bool) Resolution {
		return Resolution{Policy: p, Tier: d.Tier, Source: SourceTool, Override: override, Reason: d.Reason, PolicyKey: d.PolicyKey, Row: row}
	}
	fromUser := func(row int, p Policy, override bool) Resolution {
		return Resolution{Policy: p, Tier: d.Tier, Source: SourceUser, Override: override, PolicyKey: userKey, Row: row}
	}

	switch {
	case d.Policy == PolicyDeny:
		return fromTool(1, PolicyDeny, d.Override), nil
	case effective == PolicyDeny:
		return fromUser(2, PolicyDeny, d.Override), nil
	case mode == ModeYolo && d.Policy == PolicyPrompt && effective == PolicyAllow && faults.Has(FaultYoloUserAllowBeatsToolPrompt):
		return fromUser(4, effective, false), nil
	case mode == ModeYolo && d.Policy != "":
		return fromTool(3, d.Policy, false), nil
	case mode == ModeYolo && effective != "":
		return fromUser(4, effective, false), nil
	case mode == ModeYolo:
		return Resolution{Policy: PolicyAllow, Tier: d.Tier, Source: SourceMode, Row: 4}, nil
	case d.Override:
		p := PolicyPrompt
		if d.Policy == PolicyAllow {
			p = PolicyAllow
		}
		return fromTool(5, p, true), nil
	case d.Policy != "":
		return fromTool(6, d.Policy, false), nil
	case effective != "":
		return fromUser(7, effective, false), nil
	}
	if max, known := modeMaxTier[mode]; known && tierRank[d.Tier] <= tierRank[max] {
		return Resolution{Policy: PolicyAllow, Tier: d.Tier, Source: SourceMode, Row: 8}, nil
	}
	return Resolution{Policy: PolicyPrompt, Tier: d.Tier, Source: SourceMode, Reason: d.Reason, Row: 9}, nil
}

// ErrBlockedByPolicy is the refusal of a host with the deny-all fault.
var ErrBlockedByPolicy = errors.New("Tool call blocked by policy")

// DenyError is the error a deny resolution raises.
func DenyError(r Resolution, toolName string) error {
	if r.Source == SourceTool {
		msg := `Tool "` + toolName + `" is blocked by tool policy.`
		if r.Reason != "" {
			msg += "\nReason: " + r.Reason
		}
		return errors.New(msg)
	}
	key := toolName
	if r.PolicyKey != "" {
		key = r.PolicyKey
	}
	return errors.New(`Tool "` + key + `" is blocked by user policy.` + "\n" +
		`To allow: remove "tools.approval.` + key + `: deny" from config.`)
}

// PromptTruncateChars is the default limit of TruncateForPrompt.
const PromptTruncateChars = 2000

// TruncateForPrompt keeps the first n UTF-16 code units of s and appends an
// elision marker counting what was cut. Lengths are counted as the host
// counts them, in UTF-16 code units.
func TruncateForPrompt(s string, n int) string {
	units := jsontext.UTF16(s)
	if len(units) <= n {
		return s
	}
	return fmt.Sprintf("%s[…%dch elided…]", jsontext.FromUTF16(units[:n]), len(units)-n)
}

// FormatApprovalPrompt builds the body of the approval dialog's title.
func FormatApprovalPrompt(t Tool, args any, reason string) string {
	lines := []string{"Allow tool: " + t.Name}
	if strings.HasPrefix(t.Name, "mcp__") && t.Approval == nil {
		lines = append(lines, "Origin: MCP server tool")
	}
	if reason != "" {
		lines = append(lines, "Reason: "+reason)
	}
	if t.FormatApprovalDetails != nil {
		for _, d := range t.FormatApprovalDetails(args) {
			if d != "" {
				lines = append(lines, d)
			}
		}
	}
	return strings.Join(lines, "\n")
}
