package gemini

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// TestZodRefusesWhatTheModelRefuses: zod's issues decide whether a file
// loads (readFile), and the model's reading of the rules (validateFile)
// refuses no file zod takes, so the host's words are always zod's: every
// policy file of the bundled and the family's desks, and files with each
// field of the wrong type. A safety checker zod refuses (no checker, a
// fractional priority) keeps the whole file from loading.
func TestZodRefusesWhatTheModelRefuses(t *testing.T) {
	texts := []string{
		"", "[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 1\n",
		"rule = 5\n", "[[rule]]\n", "[[safety_checker]]\ntoolName = \"x\"\n",
		"[[safety_checker]]\ntoolName = \"x\"\n[safety_checker.checker]\ntype = \"external\"\nname = \"n\"\nrequired_context = [\"a\"]\n",
		"[[safety_checker]]\ntoolName = \"x\"\npriority = 1.5\n[safety_checker.checker]\ntype = \"in-process\"\nname = \"conseca\"\n",
		"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = nan\n",
		"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = inf\n",
		"[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 999\nmodes = []\n",
	}
	for _, field := range []string{"subagent", "mcpName", "argsPattern", "commandPrefix", "commandRegex", "modes", "interactive", "toolAnnotations", "allowRedirection", "allow_redirection", "denyMessage", "deny_message", "decision", "toolName"} {
		for _, v := range []string{"1", "true", "\"s\"", "[1]", "[\"s\"]", "{a = 1}"} {
			texts = append(texts, "[[rule]]\ntoolName = \"x\"\ndecision = \"allow\"\npriority = 10\n"+field+" = "+v+"\n")
		}
	}
	desks, err := filepath.Glob("../../cases/*.json")
	require.NoError(t, err)
	own, err := filepath.Glob("geminicheck/testdata/*.json")
	require.NoError(t, err)
	for _, p := range append(desks, own...) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		gjson.GetBytes(data, "cases.#.given.policies.#.toml").ForEach(func(_, list gjson.Result) bool {
			for _, s := range list.Array() {
				texts = append(texts, s.String())
			}
			return true
		})
	}
	refused := 0
	for _, text := range texts {
		doc, err := parseTOML(text)
		if err != nil {
			continue
		}
		issues := zodIssues(doc)
		if issues == "" {
			_, err := validateFile(doc)
			assert.NoError(t, err, "%q: zod takes it", text)
			continue
		}
		refused++
		read := readFile(text)
		assert.Error(t, read.schemaErr, "%q", text)
		assert.Equal(t, issues, read.schemaText, "%q", text)
		assert.Nil(t, read.raws, "%q: no rule loads", text)
	}
	assert.Greater(t, refused, 50)
}
