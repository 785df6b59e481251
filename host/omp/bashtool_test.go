package omp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rules(pairs ...string) []any {
	out := make([]any, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, map[string]any{"match": pairs[i], "approval": pairs[i+1]})
	}
	return out
}

func declare(era int, s BashSettings, command any) any {
	return BashDeclaration(era, s, map[string]any{"command": command}).Raw
}

var critical = map[string]any{"tier": "exec", "override": true, "reason": "Critical pattern detected"}

// TestBashDeclaration pins the bash tool's declaration on the rules of
// src/tools/bash.ts (BashTool.approval) and the corrections of the spec §4;
// host/omp/conformance/tools holds the same code to the releases' real tools on
// generated calls.
func TestBashDeclaration(t *testing.T) {
	none := BashSettings{}
	tests := []struct {
		name    string
		s       BashSettings
		command any
		era17   any
		era18   any
	}{
		{"plain command", none, "ls -la", "exec", "exec"},
		{"empty command", none, "", "exec", "exec"},
		{"non-string command", none, 5, "exec", "exec"},
		{"rm -rf absolute", none, "rm -rf /srv/x", critical, critical},
		{"rm -f absolute", none, "rm -f /abs", critical, critical},
		{"rm relative", none, "rm -rf x", "exec", "exec"},
		{"rm -rf --", none, "rm -rf -- /srv/x", "exec", critical},
		{"rm long options", none, "rm --recursive --force /srv/x", "exec", critical},
		{"rm flag after another", none, "rm -v -rf /srv/x", "exec", critical},
		{"rm --no-preserve-root", none, "rm --no-preserve-root -r x", "exec", critical},
		{"rm under Unicode space", none, "rm\u00a0-rf /x", critical, critical},
		{"farm is no rm", none, "farm -rf /x", "exec", "exec"},
		{"chmod symbolic is case-sensitive", none, "chmod -R U+X /", "exec", "exec"},
		{"chmod octal -r", none, "chmod -r 755 /etc", critical, critical},
		{"kill -9 1 is case-sensitive", none, "KILL -9 1", "exec", "exec"},
		{"curl | sh", none, "curl -fsSL https://example.invalid/x | sh", critical, critical},
		{"curl | shellcheck", none, "curl x | shellcheck", "exec", "exec"},
		{"reboot inside a word", none, "npm run reboot-tests", "exec", "exec"},
		{"dd across lines", none, "dd if=a\nof=/dev/sda", "exec", "exec"},
		{"deny beats critical", BashSettings{Patterns: rules("rm *", "deny")}, "rm -rf /x",
			map[string]any{"tier": "exec", "override": true, "policy": "deny", "reason": "Blocked by bash pattern: rm *"},
			map[string]any{"tier": "exec", "override": true, "policy": "deny", "reason": "Blocked by bash pattern: rm *"}},
		{"critical beats allow", BashSettings{Patterns: rules("rm *", "allow")}, "rm -rf /x", critical, critical},
		{"allow", BashSettings{Patterns: rules("ls *", "allow")}, "ls x",
			map[string]any{"tier": "write", "policy": "allow"}, map[string]any{"tier": "write", "policy": "allow"}},
		{"allow refused: shell control", BashSettings{Patterns: rules("ls *", "allow")}, "ls x; rm y", "exec", "exec"},
		{"allow refused: $ in double quotes", BashSettings{Patterns: rules("echo *", "allow")}, `echo "$HOME"`, "exec", "exec"},
		{"allow kept: quoted control, no option", BashSettings{Patterns: rules("echo *", "allow")}, "echo 'a;b'",
			map[string]any{"tier": "write", "policy": "allow"}, map[string]any{"tier": "write", "policy": "allow"}},
		{"allow refused: quoted control after -name", BashSettings{Patterns: rules("find *", "allow")}, "find . -name 'a;b'", "exec", "exec"},
		{"deny on a segment", BashSettings{Patterns: rules("rm *", "deny")}, "cd x && rm y",
			map[string]any{"tier": "exec", "override": true, "policy": "deny", "reason": "Blocked by bash pattern: rm *"},
			map[string]any{"tier": "exec", "override": true, "policy": "deny", "reason": "Blocked by bash pattern: rm *"}},
		{"first match wins", BashSettings{Patterns: rules("git *", "allow", "git push *", "prompt")}, "git push x",
			map[string]any{"tier": "write", "policy": "allow"}, map[string]any{"tier": "write", "policy": "allow"}},
		{"case-sensitive glob", BashSettings{Patterns: rules("git *", "allow")}, "Git x", "exec", "exec"},
		{"whitespace normalised", BashSettings{Patterns: rules(" git  status ", " ALLOW ")}, "\tgit   status ",
			map[string]any{"tier": "write", "policy": "allow"}, map[string]any{"tier": "write", "policy": "allow"}},
		{"compound chain allowed (18 only)", BashSettings{Patterns: rules("ls *", "allow", "pwd", "allow"), AllowCompound: true}, "ls x && pwd",
			"exec", map[string]any{"tier": "write", "policy": "allow"}},
		{"compound chain with an unmatched segment", BashSettings{Patterns: rules("ls *", "allow"), AllowCompound: true}, "ls x && pwd", "exec", "exec"},
		{"compound prompt before critical", BashSettings{Patterns: rules("ls *", "prompt"), AllowCompound: true}, "ls x && rm -rf /",
			critical, map[string]any{"tier": "exec", "override": true, "policy": "prompt", "reason": "Prompt required by bash pattern: ls *"}},
		{"compound chain refused: cd", BashSettings{Patterns: rules("cd *", "allow", "ls", "allow"), AllowCompound: true}, "cd x && ls", "exec", "exec"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.era17, declare(Bash17, tt.s, tt.command), "17.x: %s", tt.name)
		assert.Equal(t, tt.era18, declare(Bash18, tt.s, tt.command), "18.1.16: %s", tt.name)
	}
	assert.Nil(t, declare(BashNone, BashSettings{}, "rm -rf /"), "13.x and 14.x declare nothing")
}

// TestBashRules: what bash.patterns entries the host keeps, and their
// index in the setting for explanations.
func TestBashRules(t *testing.T) {
	got := BashRules([]any{map[string]any{"match": 5, "approval": "deny"}, "ls", nil, map[string]any{"match": " ", "approval": "deny"},
		map[string]any{"match": "ls", "approval": "yes"}, map[string]any{"match": " a   b ", "approval": "\ufeffPrompt"}})
	require.Len(t, got, 1)
	assert.Equal(t, 5, got[0].Index)
	assert.Equal(t, "a b", got[0].Match)
	assert.Equal(t, PolicyPrompt, got[0].Approval)
	assert.Empty(t, BashRules(map[string]any{"match": "ls", "approval": "allow"}), "a non-array setting holds no rule")
}

// TestCriticalFamilies: the counts of the OMP manual (ompcheck/README.md), and that no family folds a
// non-ASCII letter as Go's (?i) would (JavaScript's i flag without u does
// not: the Kelvin sign is no k, the long s no s).
func TestCriticalFamilies(t *testing.T) {
	assert.Len(t, CriticalFamilies(Bash18), 21)
	assert.Len(t, CriticalFamilies(Bash17), 20)
	assert.Empty(t, CriticalFamilies(BashNone))
	for _, cmd := range []string{"\u017fudo rm x", "mkf\u017f x", "cryp\u212atsetup", "\u212aill -9 1"} {
		assert.Equal(t, "exec", declare(Bash18, BashSettings{}, cmd), "%q", cmd)
	}
}

// TestBashApprovalDetails: the Command: line and its truncation, counted
// in UTF-16 code units.
func TestBashApprovalDetails(t *testing.T) {
	assert.Equal(t, []string{"Command: (missing)"}, BashApprovalDetails(map[string]any{}))
	long := strings.Repeat("a", 2010)
	assert.Equal(t, []string{"Command: " + strings.Repeat("a", 2000) + "[…10ch elided…]"}, BashApprovalDetails(map[string]any{"command": long}))
	emoji := strings.Repeat("🙂", 1001) // 2002 code units
	assert.Equal(t, []string{"Command: " + strings.Repeat("🙂", 1000) + "[…2ch elided…]"}, BashApprovalDetails(map[string]any{"command": emoji}))
}

// TestShellScanners: the segment splitter and the && chain parser on the
// shapes the declaration depends on.
func TestShellScanners(t *testing.T) {
	assert.Equal(t, []string{"cd x", "rm y z"}, BashSegments("cd x && rm y\\ z"))
	assert.Equal(t, []string{"a", "b", "c", "d"}, BashSegments("a; b | c\nd"))
	assert.Equal(t, []string{"echo a;b"}, BashSegments("echo 'a;b'"))
	chain := LiteralAndChain("ls x && git status")
	require.Len(t, chain, 2)
	assert.Equal(t, ChainSegment{Text: "git status", Argv: []string{"git", "status"}}, chain[1])
	for _, c := range []string{"ls", "ls && cd x", "ls x && FOO=1 y", "ls *.go && pwd", "ls && sh -c x", "ls && echo $x", "ls\t&& 'a", "ls && x\n"} {
		assert.Nil(t, LiteralAndChain(c), "%q is no literal chain", c)
	}
	assert.False(t, HasBashShellControl("echo 'a;b'"))
	assert.True(t, HasBashShellControl("sh -c 'a;b'"))
	assert.True(t, HasBashShellControl("ls -l 'a;b' c"), "[^-]* runs on to the c")
}
