package gemini

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLoaderNotesOnceRead: what the loader says of a user file's rules is
// the same on the first engine that reads the file and on the next, which
// finds the file already read.
func TestLoaderNotesOnceRead(t *testing.T) {
	text := `
[[rule]]
toolName = "read_file"
commandPrefix = "git"
decision = "allow"
priority = 10

[[rule]]
toolName = ["glob", ""]
decision = "deny"
priority = 20

[[rule]]
toolName = ["read_fil", "mcp__srv__x", "nothing_like_a_tool_at_all"]
decision = "allow"
priority = 30
`
	var first []string
	for round := 0; round < 2; round++ {
		e := &Engine{}
		var got []string
		for _, p := range e.loadFile("mine.toml", text, TierUser).problems {
			got = append(got, fmt.Sprintf("%v %s", p.Warning, p.Text))
		}
		if round == 0 {
			first = got
			continue
		}
		assert.Equal(t, first, got)
	}
	// The release's words (policy/toml-loader.js), as problems-desk.json
	// holds them on every release's own code.
	assert.Equal(t, []string{
		"false [USER] Policy file error in mine.toml:\n  Invalid shell command syntax\nRule #1: commandPrefix and commandRegex can only be used with toolName = \"run_shell_command\"\n  Found: toolName = \"read_file\"\n  Fix: Set toolName = \"run_shell_command\" (not an array)",
		"false [USER] Policy file error in mine.toml:\n  Invalid policy rule: toolName cannot be empty string\nRule #2 contains an empty toolName string. Use \"*\" to match all tools.",
		"true [USER] Policy file warning in mine.toml:\n  Unrecognized tool name\nRule #3: Unrecognized tool name \"read_fil\". Did you mean one of: \"read_file\", \"write_file\", \"replace\"?",
		"true [USER] Policy file warning in mine.toml:\n  Unrecognized tool name\nRule #3: The \"__\" syntax for MCP tools is strictly deprecated. Please use the 'mcpName = \"...\"' property or the 'mcp_server_tool' format instead.",
	}, first)
}

// TestShellSyntaxToolNames: the shell-syntax error names the rule's
// toolName as JSON.stringify writes it, a list whatever its length (an
// empty one as []), as problems-desk.json holds on every release.
func TestShellSyntaxToolNames(t *testing.T) {
	for _, tt := range []struct{ toolName, found string }{
		{`[]`, `[]`},
		{`["run_shell_command"]`, `["run_shell_command"]`},
		{`["a", "b\"c"]`, `["a","b\"c"]`},
		{`"glob"`, `"glob"`},
	} {
		text := "[[rule]]\ntoolName = " + tt.toolName + "\ncommandPrefix = \"git\"\ndecision = \"allow\"\npriority = 10\n"
		var got []string
		for _, p := range (&Engine{}).loadFile("mine.toml", text, TierUser).problems {
			got = append(got, p.Text)
		}
		if assert.Len(t, got, 1, tt.toolName) {
			assert.Contains(t, got[0], "Rule #1: commandPrefix and commandRegex can only be used with toolName = \"run_shell_command\"\n  Found: toolName = "+tt.found+"\n", tt.toolName)
		}
	}
}
