package omp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWriteDeclarationEras pins the write tool's declaration per era on the
// targets whose meaning changes between releases. host/omp/conformance/tools also
// holds every era to the releases' real tools (18.3.4 on the nearest
// published dependencies); the 18.3.4 rows follow its source: src/tools/write.ts (approval calls
// InternalUrlRouter.writeTier on the unwrapped path),
// src/internal-urls/router.ts (normalize, #registered, writeTier: a
// registered scheme without spec.write is denied as read-only), the
// handlers' spec.write.tier in src/internal-urls/*-protocol.ts, and
// xd-protocol.ts (deviceWriteTier).
func TestWriteDeclarationEras(t *testing.T) {
	deny := func(scheme string) any {
		return map[string]any{"tier": "write", "policy": "deny", "reason": scheme + ":// URLs are read-only"}
	}
	tests := []struct {
		path           string
		w17, w18, w184 any
	}{
		{"notes/card.txt", "write", "write", "write"},
		{"notes/ssh://h/x", "exec", "exec", "write"},
		{"ssh://h/x", "exec", "exec", "exec"},
		{"SSH://h/x", "exec", "exec", "exec"},
		{" ssh://h/x", "exec", "exec", "write"},
		{"[ssh://h/x#ABCD]", "exec", "exec", "exec"},
		{" xd://resolve", "read", "read", "write"},
		{"xd://resolve ", "read", "read", "read"},
		{"XD://reject", "read", "read", "read"},
		{"xd://report_issue", "write", "write", "write"},
		{"xd://a/b", "write", "write", "exec"},
		{"xd://mounted_device", "exec", "exec", "exec"},
		{"xd://", "exec", "exec", "exec"},
		{"local://x", "read", "read", "read"},
		{"local:/x", "read", "read", "read"},
		{"Local:/x", "write", "write", "read"},
		{"agent://x", "read", "read", "read"},
		{"@agent://x", "read", "read", "write"},
		{"skill://s", "read", "read", deny("skill")},
		{"artifact://3", "read", "read", deny("artifact")},
		{"rule://r", "read", "read", deny("rule")},
		{"mcp://m", "read", "read", deny("mcp")},
		{"security://s", "read", "read", deny("security")},
		{"SKILL://s", "write", "write", deny("skill")},
		{"memory://m", "write", "write", deny("memory")},
		{"history://h", "write", "write", deny("history")},
		{"omp://o", "write", "write", deny("omp")},
		{"issue://1", "write", "write", deny("issue")},
		{"pr://2", "write", "write", deny("pr")},
		{"attachment://a", "write", "write", deny("attachment")},
		{"proc://p", "write", "write", "exec"},
		{"vault://v", "write", "write", "write"},
		{"cfg://c", "write", "write", "write"},
		{"conflict://c", "write", "write", "write"},
		{"file:///x", "write", "write", "write"},
		{"https://example.invalid/x", "write", "write", "write"},
		{"~/x", "write", "write", "write"},
		{"[agent://x]", "read", "read", "read"},
		{"[agent://x#12AB]", "read", "read", "read"},
		{"[agent://x#12A]", "write", "write", "write"},
		{"[a#b#12AB]", "write", "write", "write"},
	}
	for _, tt := range tests {
		args := map[string]any{"path": tt.path, "content": "x"}
		assert.Equal(t, tt.w17, WriteDeclaration(Write17, args).Raw, "17.x %q", tt.path)
		assert.Equal(t, tt.w18, WriteDeclaration(Write18, args).Raw, "18.1.16 %q", tt.path)
		assert.Equal(t, tt.w184, WriteDeclaration(Write1834, args).Raw, "18.3.4 %q", tt.path)
	}
	for _, era := range []int{Write17, Write18, Write1834} {
		assert.Equal(t, "write", WriteDeclaration(era, map[string]any{"path": 5}).Raw, "a non-string path")
		assert.Nil(t, WriteDeclaration(WriteNone, map[string]any{"path": "x"}).Raw, "13.x and 14.x declare nothing")
	}
	assert.Equal(t, []string{"Path: (missing)", "Content:\n"}, WriteApprovalDetails(map[string]any{"content": 3}))
}

// TestToolEraFor: each published release's tools era.
func TestToolEraFor(t *testing.T) {
	for v, want := range map[string]ToolEra{
		"13.19.0": {BashNone, WriteNone}, "14.9.9": {BashNone, WriteNone},
		"17.2.15": {Bash17, Write17}, "17.3.5": {Bash17, Write17},
		"18.1.16": {Bash18, Write18}, "18.2.0": {Bash18, Write18}, "18.2.9": {Bash18, Write18},
		"18.3.4": {Bash18, Write1834},
	} {
		assert.Equal(t, want, ToolEraFor(v), v)
	}
}
