package omp

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalizeDecision(t *testing.T) {
	tests := []struct {
		reason string
		in     any
		want   Decision
	}{
		{"a bare tier is that tier", "read", Decision{Tier: TierRead}},
		{"tiers are not case-folded", "Exec", Decision{Tier: TierExec}},
		{"an unknown bare string is exec", "none", Decision{Tier: TierExec}},
		{"no declaration is exec", nil, Decision{Tier: TierExec}},
		{"an array is exec", []any{"read"}, Decision{Tier: TierExec}},
		{"a number is exec", 1.0, Decision{Tier: TierExec}},
		{"an object takes its fields", map[string]any{"tier": "write", "policy": " DENY ", "reason": "r", "override": true, "policyKey": "k"},
			Decision{Tier: TierWrite, Policy: PolicyDeny, Reason: "r", Override: true, PolicyKey: "k"}},
		{"an object with a bad tier falls back to exec", map[string]any{"tier": "Write"}, Decision{Tier: TierExec}},
		{"override must be boolean true", map[string]any{"tier": "read", "override": "true"}, Decision{Tier: TierRead}},
		{"an invalid policy is unset", map[string]any{"tier": "read", "policy": "yes"}, Decision{Tier: TierRead}},
		{"a non-string reason and policyKey are dropped", map[string]any{"reason": 3.0, "policyKey": true}, Decision{Tier: TierExec}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			assert.Equal(t, tt.want, NormalizeDecision(tt.in), tt.reason)
		})
	}
}

func TestNormalizePolicy(t *testing.T) {
	tests := []struct {
		reason string
		in     any
		want   Policy
	}{
		{"trimmed and lower-cased", " DENY ", PolicyDeny},
		{"prompt", "Prompt", PolicyPrompt},
		{"allow", "allow", PolicyAllow},
		{"an unknown word is unset", "yes", ""},
		{"a number is unset", 1.0, ""},
		{"a boolean is unset", true, ""},
		{"nil is unset", nil, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, NormalizePolicy(tt.in), tt.reason)
	}
}

func TestResolveApprovalDecisionOrder(t *testing.T) {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		reason   string
		approval any
		mode     string
		user     map[string]any
		want     Resolution
	}{
		{"row 1: tool deny beats everything, even user allow in yolo",
			obj("tier", "read", "policy", "deny", "reason", "no", "override", true), ModeYolo, obj("t", "allow"),
			Resolution{Policy: PolicyDeny, Tier: TierRead, Source: SourceTool, Override: true, Reason: "no", Row: 1}},
		{"row 1 keeps the decision's policyKey",
			obj("policy", "deny", "policyKey", "dev"), ModeAlwaysAsk, nil,
			Resolution{Policy: PolicyDeny, Tier: TierExec, Source: SourceTool, PolicyKey: "dev", Row: 1}},
		{"row 2: user deny beats a tool allow",
			obj("tier", "read", "policy", "allow"), ModeYolo, obj("t", "deny"),
			Resolution{Policy: PolicyDeny, Tier: TierRead, Source: SourceUser, PolicyKey: "t", Row: 2}},
		{"row 2 carries the tool override",
			obj("override", true), ModeWrite, obj("t", " Deny"),
			Resolution{Policy: PolicyDeny, Tier: TierExec, Source: SourceUser, Override: true, PolicyKey: "t", Row: 2}},
		{"row 3: in yolo an explicit tool prompt beats a user allow",
			obj("tier", "exec", "policy", "prompt", "reason", "why"), ModeYolo, obj("t", "allow"),
			Resolution{Policy: PolicyPrompt, Tier: TierExec, Source: SourceTool, Reason: "why", Row: 3}},
		{"row 3: a tool allow in yolo drops the override",
			obj("policy", "allow", "override", true), ModeYolo, nil,
			Resolution{Policy: PolicyAllow, Tier: TierExec, Source: SourceTool, Row: 3}},
		{"row 4: in yolo a bare override is ignored",
			obj("override", true, "reason", "Critical pattern detected"), ModeYolo, nil,
			Resolution{Policy: PolicyAllow, Tier: TierExec, Source: SourceMode, Row: 4}},
		{"row 4: in yolo a user prompt applies",
			"exec", ModeYolo, obj("t", "prompt"),
			Resolution{Policy: PolicyPrompt, Tier: TierExec, Source: SourceUser, PolicyKey: "t", Row: 4}},
		{"row 5: outside yolo a tool override prompts even against user allow",
			obj("tier", "read", "override", true), ModeWrite, obj("t", "allow"),
			Resolution{Policy: PolicyPrompt, Tier: TierRead, Source: SourceTool, Override: true, Row: 5}},
		{"row 5: override with a tool allow allows",
			obj("override", true, "policy", "allow"), ModeAlwaysAsk, nil,
			Resolution{Policy: PolicyAllow, Tier: TierExec, Source: SourceTool, Override: true, Row: 5}},
		{"row 6: a tool allow beats a user prompt",
			obj("policy", "allow"), ModeAlwaysAsk, obj("t", "prompt"),
			Resolution{Policy: PolicyAllow, Tier: TierExec, Source: SourceTool, Row: 6}},
		{"row 7: a user allow applies when the tool says nothing",
			"exec", ModeAlwaysAsk, obj("t", "allow"),
			Resolution{Policy: PolicyAllow, Tier: TierExec, Source: SourceUser, PolicyKey: "t", Row: 7}},
		{"row 7: the policyKey entry is read first",
			obj("tier", "write", "policyKey", "dev"), ModeAlwaysAsk, obj("dev", "prompt", "t", "allow"),
			Resolution{Policy: PolicyPrompt, Tier: TierWrite, Source: SourceUser, PolicyKey: "dev", Row: 7}},
		{"row 7: falls back to the tool name when the policyKey entry is invalid",
			obj("tier", "write", "policyKey", "dev"), ModeAlwaysAsk, obj("dev", "yes", "t", "allow"),
			Resolution{Policy: PolicyAllow, Tier: TierWrite, Source: SourceUser, PolicyKey: "t", Row: 7}},
		{"row 8: write mode auto-approves write",
			"write", ModeWrite, nil,
			Resolution{Policy: PolicyAllow, Tier: TierWrite, Source: SourceMode, Row: 8}},
		{"row 8: always-ask auto-approves read",
			"read", ModeAlwaysAsk, obj("t", "nonsense"),
			Resolution{Policy: PolicyAllow, Tier: TierRead, Source: SourceMode, Row: 8}},
		{"row 9: always-ask prompts for exec and keeps the reason",
			obj("reason", "because"), ModeAlwaysAsk, nil,
			Resolution{Policy: PolicyPrompt, Tier: TierExec, Source: SourceMode, Reason: "because", Row: 9}},
		{"row 9: an unknown mode approves no tier",
			"read", "sometimes", nil,
			Resolution{Policy: PolicyPrompt, Tier: TierRead, Source: SourceMode, Row: 9}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := ResolveApproval(Tool{Name: "t", Approval: tt.approval}, nil, tt.mode, tt.user)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got, tt.reason)
		})
	}
}

func TestResolveApprovalFunction(t *testing.T) {
	tool := Tool{Name: "t", Approval: ApprovalFunc(func(args any) (any, error) {
		if args.(map[string]any)["danger"] == true {
			return map[string]any{"policy": "deny", "reason": "danger"}, nil
		}
		return "read", nil
	})}
	r, err := ResolveApproval(tool, map[string]any{"danger": true}, ModeYolo, nil)
	require.NoError(t, err)
	assert.Equal(t, PolicyDeny, r.Policy)
	r, err = ResolveApproval(tool, map[string]any{}, ModeAlwaysAsk, nil)
	require.NoError(t, err)
	assert.Equal(t, PolicyAllow, r.Policy)

	boom := errors.New("boom")
	_, err = ResolveApproval(Tool{Name: "t", Approval: ApprovalFunc(func(any) (any, error) { return nil, boom })}, nil, ModeYolo, nil)
	assert.Same(t, boom, err, "a failing approval function propagates its own error")
}

func TestDenyError(t *testing.T) {
	tests := []struct {
		reason string
		res    Resolution
		want   string
	}{
		{"tool deny without reason", Resolution{Source: SourceTool, PolicyKey: "dev"}, `Tool "seed_note" is blocked by tool policy.`},
		{"tool deny with reason", Resolution{Source: SourceTool, Reason: "shelf locked"}, "Tool \"seed_note\" is blocked by tool policy.\nReason: shelf locked"},
		{"user deny names the policy key", Resolution{Source: SourceUser, PolicyKey: "dev"}, "Tool \"dev\" is blocked by user policy.\nTo allow: remove \"tools.approval.dev: deny\" from config."},
		{"user deny falls back to the tool name", Resolution{Source: SourceUser}, "Tool \"seed_note\" is blocked by user policy.\nTo allow: remove \"tools.approval.seed_note: deny\" from config."},
	}
	for _, tt := range tests {
		assert.EqualError(t, DenyError(tt.res, "seed_note"), tt.want, tt.reason)
	}
}

func TestTruncateForPrompt(t *testing.T) {
	assert.Equal(t, "abc", TruncateForPrompt("abc", 3))
	assert.Equal(t, "ab[…1ch elided…]", TruncateForPrompt("abc", 2))
	long := strings.Repeat("x", 2005)
	assert.Equal(t, strings.Repeat("x", 2000)+"[…5ch elided…]", TruncateForPrompt(long, PromptTruncateChars))
	// Lengths count UTF-16 code units: an astral rune is two.
	assert.Equal(t, "😀", TruncateForPrompt("😀", 2))
	assert.Equal(t, "a[…2ch elided…]", TruncateForPrompt("a😀", 1))
}

func TestFormatApprovalPrompt(t *testing.T) {
	details := func(any) []string { return []string{"Command: ls", "", "Cwd: /"} }
	tests := []struct {
		reason string
		tool   Tool
		why    string
		want   string
	}{
		{"plain tool", Tool{Name: "seed_note", Approval: "exec"}, "", "Allow tool: seed_note"},
		{"reason and details, empty details skipped", Tool{Name: "bash", FormatApprovalDetails: details}, "Critical", "Allow tool: bash\nReason: Critical\nCommand: ls\nCwd: /"},
		{"MCP origin only without a declaration", Tool{Name: "mcp__x"}, "", "Allow tool: mcp__x\nOrigin: MCP server tool"},
		{"MCP origin hidden with a declaration", Tool{Name: "mcp__x", Approval: "read"}, "", "Allow tool: mcp__x"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, FormatApprovalPrompt(tt.tool, nil, tt.why), tt.reason)
	}
}
