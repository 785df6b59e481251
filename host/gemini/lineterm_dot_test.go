package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lineTermCases are the four code points JavaScript's `.` leaves out,
// named for the sub-tests.
var lineTermCases = []struct {
	name string
	ch   string
}{
	{"LF", "\n"},
	{"CR", "\r"},
	{"U+2028", "\u2028"},
	{"U+2029", "\u2029"},
}

func TestContainsLineTerm(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want bool
	}{
		{"empty", "", false},
		{"plain", "npm test", false},
		{"LF", "a\nb", true},
		{"CR", "a\rb", true},
		{"U+2028", "a\u2028b", true},
		{"U+2029", "a\u2029b", true},
		{"CR LF at the end", "ab\r\n", true},
		{"terminator alone", "\u2029", true},
		{"NEL is no terminator", "a\u0085b", false},
		{"U+2027 is no terminator", "a\u2027b", false},
		{"U+202A is no terminator", "a\u202ab", false},
		{"vertical tab and form feed are white space only", "a\v\fb", false},
		{"a byte that is not UTF-8", "a\xffb", false},
		{"a lone surrogate as WTF-8", "a\xed\xa0\x80b", false},
		{"a cut-off U+2028", "a\xe2\x80", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, containsLineTerm(tt.s))
		})
	}
}

// TestParseMcpServerLineTerminators: the server is read up to the first
// underscore whatever it holds; the tool after it must have no line
// terminator.
func TestParseMcpServerLineTerminators(t *testing.T) {
	tests := []struct {
		name, tool, want string
	}{
		{"plain", "mcp_srv_x", "srv"},
		{"tool with underscores", "mcp_srv_x_y", "srv"},
		{"tool of one underscore", "mcp_srv__", "srv"},
		{"LF in the tool", "mcp_srv_x\ny", ""},
		{"CR in the tool", "mcp_srv_x\ry", ""},
		{"U+2028 in the tool", "mcp_srv_x\u2028y", ""},
		{"U+2029 in the tool", "mcp_srv_x\u2029y", ""},
		{"tool that is a terminator", "mcp_srv_\n", ""},
		{"terminator at the tool's end", "mcp_srv_x\r", ""},
		{"terminator after a later underscore", "mcp_srv_x_\u2028", ""},
		{"LF in the server", "mcp_s\nrv_x", "s\nrv"},
		{"server that is a terminator", "mcp_\u2029_x", "\u2029"},
		{"NEL in the tool", "mcp_srv_x\u0085y", "srv"},
		{"byte that is not UTF-8 in the tool", "mcp_srv_x\xffy", "srv"},
		{"empty", "", ""},
		{"prefix alone", "mcp_", ""},
		{"no tool", "mcp_srv", ""},
		{"empty tool", "mcp_srv_", ""},
		{"empty server", "mcp__x", ""},
		{"prefix in capitals", "MCP_srv_x", ""},
		{"terminator before the prefix", "\nmcp_srv_x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, parseMcpServer(tt.tool))
		})
	}
}

func TestCutToolCallLineTerminators(t *testing.T) {
	tests := []struct {
		name, entry string
		ok          bool
		tool, args  string
	}{
		{"call", "run_shell_command(npm test)", true, "run_shell_command", "npm test"},
		{"empty arguments", "read_file()", true, "read_file", ""},
		{"parentheses inside", "a(b)c)", true, "a", "b)c"},
		{"open parenthesis inside", "a((b)", true, "a", "(b"},
		{"NEL in the arguments", "a(x\u0085y)", true, "a", "x\u0085y"},
		{"byte that is not UTF-8 in the arguments", "a(x\xffy)", true, "a", "x\xffy"},
		{"LF in the arguments", "run_shell_command(npm\ntest)", false, "", ""},
		{"CR in the arguments", "run_shell_command(npm\rtest)", false, "", ""},
		{"U+2028 in the arguments", "run_shell_command(npm\u2028test)", false, "", ""},
		{"U+2029 in the arguments", "run_shell_command(npm\u2029test)", false, "", ""},
		{"arguments that are a terminator", "a(\r)", false, "", ""},
		{"terminator after the closing parenthesis", "a(x)\n", false, "", ""},
		{"terminator in the name", "re\u2028ad(x)", false, "", ""},
		{"terminator before the name", "\ra(x)", false, "", ""},
		{"no name", "(x)", false, "", ""},
		{"no closing parenthesis", "a(x", false, "", ""},
		{"space in the name", "a b(x)", false, "", ""},
		{"letter outside ASCII in the name", "é(x)", false, "", ""},
		{"empty", "", false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, args, ok := cutToolCall(tt.entry)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.tool, tool)
			assert.Equal(t, tt.args, args)
		})
	}
}

func TestSafeRegExpLineTerminators(t *testing.T) {
	tests := []struct {
		name, pattern string
		safe          bool
	}{
		{"nested on one line", `x"|(a+)c(b)+`, false},
		{"LF between", "x\"|(a+)\n(b)+", true},
		{"CR between", "x\"|(a+)\r(b)+", true},
		{"U+2028 between", "x\"|(a+)\u2028(b)+", true},
		{"U+2029 between", "x\"|(a+)\u2029(b)+", true},
		{"NEL between", "x\"|(a+)\u0085(b)+", false},
		{"byte that is not UTF-8 between", "(a+)\xff(b)+", false},
		{"terminator inside the group, before its quantifier", "(\r+)+", false},
		{"terminator inside the group, after its quantifier", "(a+\u2028)+", true},
		{"a later line nests", "(a+)\r(b+)+", false},
		{"terminator before the group", "\u2029(a+)+", false},
		{"no group", "a+\nb+", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.safe, isSafeRegExp(tt.pattern))
		})
	}
}

// TestSettingsEntriesWithLineTerminators: an entry of tools.allowed or
// tools.core with a line terminator in its parentheses is a plain tool
// name, so it narrows nothing and lets no tool through the allowlist.
func TestSettingsEntriesWithLineTerminators(t *testing.T) {
	for _, rel := range Releases() {
		for _, lt := range lineTermCases {
			t.Run(rel.Version+"/"+lt.name, func(t *testing.T) {
				allowed, err := NewEngine(Config{Release: rel, Mode: ModeDefault, Interactive: true, Settings: Settings{ToolsAllowed: []string{"run_shell_command(npm" + lt.ch + "test)"}}})
				require.NoError(t, err)
				for _, r := range allowed.Rules() {
					assert.NotContains(t, r.Source, "Narrowing Enforcement")
				}
				res, err := allowed.Check(Call{Name: "run_shell_command", Args: map[string]any{"command": "ls"}, HasArgs: true})
				require.NoError(t, err)
				assert.Equal(t, Allow, res.Decision)

				core, err := NewEngine(Config{Release: rel, Mode: ModeDefault, Interactive: true, Settings: Settings{ToolsCore: []string{"read_file(a" + lt.ch + "b)"}}})
				require.NoError(t, err)
				res, err = core.Check(Call{Name: "read_file", Args: map[string]any{"file_path": "a.txt"}, HasArgs: true})
				require.NoError(t, err)
				assert.Equal(t, Deny, res.Decision)
				require.NotNil(t, res.Rule)
				assert.Equal(t, "Settings (Core Tools Allowlist Enforcement)", res.Rule.Source)
			})
		}
	}
}

// TestMcpWildcardWithLineTerminators: a call whose tool part holds a line
// terminator has no server, so mcp_srv_* and mcp_* pass it by; with the
// terminator in the server part the server keeps it.
func TestMcpWildcardWithLineTerminators(t *testing.T) {
	policy := func(tool string) []PolicyInput {
		return []PolicyInput{{Tier: TierUser, Name: "user.toml", Text: "[[rule]]\ntoolName = " + JSONString(tool) + "\ndecision = \"allow\"\npriority = 100\n"}}
	}
	check := func(t *testing.T, rel Release, rule, tool string) *Result {
		e, err := NewEngine(Config{Release: rel, Mode: ModeDefault, Interactive: true, Policies: policy(rule)})
		require.NoError(t, err)
		res, err := e.Check(Call{Name: tool, Args: map[string]any{"q": 1.0}, HasArgs: true})
		require.NoError(t, err)
		return res
	}
	for _, rel := range Releases() {
		t.Run(rel.Version+"/control", func(t *testing.T) {
			res := check(t, rel, "mcp_srv_*", "mcp_srv_x_y")
			assert.Equal(t, Allow, res.Decision)
			require.NotNil(t, res.Rule)
			assert.Equal(t, "mcp_srv_*", res.Rule.ToolName)
		})
		for _, lt := range lineTermCases {
			t.Run(rel.Version+"/"+lt.name, func(t *testing.T) {
				for _, rule := range []string{"mcp_srv_*", "mcp_*"} {
					res := check(t, rel, rule, "mcp_srv_x"+lt.ch+"y")
					assert.Equal(t, AskUser, res.Decision, rule)
					assert.Nil(t, res.Rule, rule)
				}
				res := check(t, rel, "mcp_s"+lt.ch+"rv_*", "mcp_s"+lt.ch+"rv_x")
				assert.Equal(t, Allow, res.Decision)
			})
		}
	}
}
