package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

func TestGenerateIsReproducible(t *testing.T) {
	a, b := Generate(7, 300), Generate(7, 300)
	assert.Equal(t, a, b, "same seed, same bytes")
	assert.NotEqual(t, a, Generate(8, 300), "another seed, another desk")
}

// TestGeneratedDeskCoversEveryGivenKey: every given key of every scenario,
// and the Unicode edge cases, appear in the generated set, and deskcheck
// loads and runs all of it.
func TestGeneratedDeskCoversEveryGivenKey(t *testing.T) {
	data := Generate(generatedSeed, generatedCases)
	used := map[string]map[string]bool{}
	gjson.GetBytes(data, "cases").ForEach(func(_, c gjson.Result) bool {
		sc := c.Get("scenario").String()
		if used[sc] == nil {
			used[sc] = map[string]bool{}
		}
		c.Get("given").ForEach(func(k, _ gjson.Result) bool {
			used[sc][k.String()] = true
			return true
		})
		return true
	})
	for _, sc := range []string{"wrapper", "fallback", "classify-error"} {
		keys := givenKeys(sc)
		require.NotEmpty(t, keys, sc)
		for _, k := range keys {
			if sc == "wrapper" && k == "settings" {
				// Read only by the real bash tool, which host/omp/conformance/tools drives.
				continue
			}
			assert.True(t, used[sc][k], "scenario %s: given key %s is generated", sc, k)
		}
	}
	for _, edge := range []string{`\ufeff`, `\u0085`, `\ud8`, `\u007f`, `\u009b`, `\u001b[`, `\u001b]`, `"message":""`, `"id":""`, `"ui":"rpc"`, `"revise":{}`, `"repeat":3`, `"userPolicies":"deny"`, `"userPolicies":[`, `"userPolicies":null`} {
		assert.True(t, bytes.Contains(data, []byte(edge)), "the generated set holds %s", edge)
	}
	model, ids := goObserve(t, "generated.json", data, "", "")
	assert.Len(t, ids, generatedCases)
	assert.Len(t, model, generatedCases)
}

func TestDisagreementDeskLoads(t *testing.T) {
	d := Disagreement{
		ID: "gen-00001", Scenario: "wrapper",
		Given:   `{"approval":"exec","mode":"always-ask","choices":["Approve"],"safetyCheck":[{"message":"\ud800x"}]}`,
		Release: map[string]any{"outcome": "return", "effects": 1.0, "prompts": 1.0, "toolCalls": 1.0, "successfulCalls": 1.0, "input": map[string]any{"b": 2.5, "a": "x"}, "errorIncludes": nil, "promptIncludes": []any{"Allow tool: seed_note"}, "rpcRequests": 0.0, "providerSafetyApproved": true},
		Keys:    []string{"promptIncludes"},
	}
	desk := DisagreementDesk(d, "18.1.16")
	require.True(t, json.Valid(desk), "%s", desk)
	assert.Contains(t, string(desk), `\ud800x`, "the given block is kept as written")
	assert.Contains(t, string(desk), `"input":{"a":"x","b":2.5}`)
	model, ids := goObserve(t, "disagreement.json", desk, "", "")
	require.Equal(t, []string{"gen-00001"}, ids)
	assert.Equal(t, "return", model["gen-00001"].Observed["outcome"])
}

// TestGeneratedStringsHoldLoneSurrogates: the generated set puts unpaired
// surrogates followed by other escapes into the string keys of given, not
// only into safety-check text, so the differential covers how the model
// reads them everywhere.
func TestGeneratedStringsHoldLoneSurrogates(t *testing.T) {
	data := Generate(generatedSeed, generatedCases)
	lone := regexp.MustCompile(`\\ud[89ab][0-9a-f]{2}(\\u[0-9a-f]{4}|\\[tn])|\\ud[c-f][0-9a-f]{2}(\\u[0-9a-f]{4}|\\[tn])`)
	perKey := map[string]int{}
	cases := 0
	gjson.GetBytes(data, "cases").ForEach(func(_, c gjson.Result) bool {
		found := false
		c.Get("given").ForEach(func(k, v gjson.Result) bool {
			if k.Str != "safetyCheck" && lone.MatchString(v.Raw) {
				perKey[k.Str]++
				found = true
			}
			return true
		})
		if found {
			cases++
		}
		return true
	})
	for _, k := range []string{"tool", "approval", "args", "mode", "userPolicies", "choices", "revise", "code", "message"} {
		assert.Positive(t, perKey[k], "no lone surrogate in given.%s", k)
	}
	assert.Equal(t, generatedSurrogateCases, cases, "generated cases with a lone surrogate outside safety-check text")
}

// TestReadmesStateTheSurrogateCount: both READMEs give the figure the
// generator makes.
func TestReadmesStateTheSurrogateCount(t *testing.T) {
	figure := fmt.Sprintf("%d,%03d of", generatedSurrogateCases/1000, generatedSurrogateCases%1000)
	for _, path := range []string{"README.md", "../../../docs/values.md"} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Regexp(t, regexp.QuoteMeta(figure)+` (its|the) `+thousands(generatedCases), string(data), path)
	}
}

// TestEdgeSetReachesTheEdges: the edge set is reproducible and holds every
// member-like tool name, tools with no approval, user policies as arrays,
// strings and array values, reasons past 2,000 characters, and more than
// three calls and answers.
func TestEdgeSetReachesTheEdges(t *testing.T) {
	assert.Equal(t, GenerateEdges(7, 100), GenerateEdges(7, 100))
	data := edges()
	tools := map[string]bool{}
	var noApproval, policyArrays, policyStrings, arrayValues, longReasons, manyCalls, manyAnswers int
	gjson.GetBytes(data, "cases").ForEach(func(_, c gjson.Result) bool {
		g := c.Get("given")
		tools[g.Get("tool").String()] = true
		if !g.Get("approval").Exists() {
			noApproval++
		}
		switch u := g.Get("userPolicies"); {
		case u.IsArray():
			policyArrays++
		case u.Type == gjson.String:
			policyStrings++
		case u.IsObject():
			u.ForEach(func(_, v gjson.Result) bool {
				if v.IsArray() {
					arrayValues++
				}
				return true
			})
		}
		if len(g.Get("approval.reason").String()) > 2000 {
			longReasons++
		}
		if g.Get("repeat").Int() > 3 {
			manyCalls++
		}
		if len(g.Get("choices").Array()) > 3 {
			manyAnswers++
		}
		return true
	})
	for _, n := range memberNames {
		assert.True(t, tools[n.(string)], "no tool named %q", n)
	}
	for what, n := range map[string]int{"no approval": noApproval, "policies as an array": policyArrays, "policies as a string": policyStrings,
		"an array as a policy": arrayValues, "a reason past 2,000 characters": longReasons} {
		assert.Greater(t, n, 20, what)
	}
	assert.Equal(t, edgeCases, manyCalls)
	assert.Equal(t, edgeCases, manyAnswers)
}
