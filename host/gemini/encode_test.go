package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStableStringify(t *testing.T) {
	args := map[string]any{"file_path": "a", "content": "x\n\"y\"", "n": 1e21, "list": []any{1.5, nil, true}}
	assert.Equal(t, "{\x00\"content\":\"x\\n\\\"y\\\"\"\x00,\x00\"file_path\":\"a\"\x00,\x00\"list\":[1.5,null,true]\x00,\x00\"n\":1e+21\x00}", StableStringify(args, true))
	assert.Equal(t, `{"a":{"b":1}}`, StableStringify(map[string]any{"a": map[string]any{"b": 1.0}}, false))
}

func TestJSNumber(t *testing.T) {
	for in, want := range map[float64]string{4.1: "4.1", 5.001: "5.001", 9007199254740991: "9007199254740991", 1e21: "1e+21", 1e-7: "1e-7", 0.000001: "0.000001", -2.5: "-2.5"} {
		assert.Equal(t, want, JSNumber(in))
	}
}

func TestCompileJS(t *testing.T) {
	tests := []struct {
		pattern, subject string
		match            bool
	}{
		{`\.env`, "remember .env", true},
		{`\x00"file_path":"a\.txt"\x00`, "{\x00\"file_path\":\"a.txt\"\x00}", true},
		{`\\0"file_path"`, "{\x00\"file_path\"", false},
		{prefixPattern("git", true), `"command":"git push"`, true},
		{prefixPattern("git", true), `"command":"gitk"`, false},
		{prefixPattern("git push", true), `"command":"git\tpush"`, false},
		{`a.b`, "a\nb", false},
		{`a\sb`, "a\u00a0b", true},
		{`[\w-]+\.md`, "my-plan.md", true},
	}
	for _, tt := range tests {
		re, err := compileJS(tt.pattern)
		require.NoError(t, err, tt.pattern)
		assert.Equal(t, tt.match, re.MatchString(tt.subject), "%s on %q", tt.pattern, tt.subject)
	}
	_, err := compileJS(`x{9000}`)
	assert.ErrorIs(t, err, ErrRegexOutsideModel)
	_, err = compileJS(`(a`)
	assert.Error(t, err)
}

func TestParseTOML(t *testing.T) {
	doc, err := parseTOML("# c\n[[rule]]\ntoolName = [\n  \"a\", # x\n  'b',\n]\npriority = 1_0\nt = { readOnlyHint = true }\n[rule.sub]\nx = \"\\u00e9\"\n[[rule]]\ntoolName = \"c\"\n")
	require.NoError(t, err)
	rules := doc["rule"].([]any)
	require.Len(t, rules, 2)
	first := rules[0].(map[string]any)
	assert.Equal(t, []any{"a", "b"}, first["toolName"])
	assert.Equal(t, 10.0, first["priority"])
	assert.Equal(t, map[string]any{"readOnlyHint": true}, first["t"])
	assert.Equal(t, "é", first["sub"].(map[string]any)["x"])
	for _, bad := range []string{"a = ", "a = \"x", "[a]\n[a]", "a = 1\na = 2", "a = 01", "a = 1979-13-45"} {
		_, err := parseTOML(bad)
		assert.Error(t, err, bad)
	}
}

// Every group's default policies load with no problem.
func TestDefaultPoliciesLoad(t *testing.T) {
	for _, r := range Releases() {
		e, err := NewEngine(Config{Release: r, Mode: ModeDefault, Interactive: true, Trusted: true})
		require.NoError(t, err)
		assert.Empty(t, e.Problems, r.Version)
		assert.NotEmpty(t, e.Rules(), r.Version)
	}
}

func TestEmptyToolNameRefused(t *testing.T) {
	_, err := NewEngine(Config{Release: Newest(), Mode: ModeDefault, Interactive: true, Policies: []PolicyInput{{Tier: TierUser, Name: "user.toml", Text: "[[rule]]\ntoolName = \"\"\ndecision = \"allow\"\npriority = 1\n"}}})
	assert.ErrorContains(t, err, "refuses to build")
}

// The settings priorities are sums and differences in floating point.
func TestSettingsPriorities(t *testing.T) {
	e, err := NewEngine(Config{Release: Newest(), Mode: ModeDefault, Interactive: true, Settings: Settings{ToolsAllowed: []string{"run_shell_command(git status)"}, ToolsCore: []string{}}})
	require.NoError(t, err)
	var got []string
	for _, r := range e.Rules() {
		if r.Settings != "" {
			got = append(got, JSNumber(r.Priority))
		}
	}
	four := 4.0
	assert.Equal(t, []string{JSNumber(four + 0.3), JSNumber(four + 0.3 - 0.01), JSNumber(four + 0.25 - 0.01)}, got)
}
