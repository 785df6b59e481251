package verifier

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// Suggestion is one key of an expected block suggested from an observation.
type Suggestion struct {
	Key   string
	Value any
}

// suggestionValue turns an observed value into the value an author writes:
// promptIncludes takes the first dialog title.
func suggestionValue(key string, v any) any {
	if key == "promptIncludes" {
		if titles, ok := v.([]any); ok && len(titles) > 0 {
			return titles[0]
		}
		if titles, ok := v.([]string); ok && len(titles) > 0 {
			return titles[0]
		}
		return ""
	}
	return v
}

// SuggestExpected returns the expected block the host model produced for a
// case of the scenario with the given block: the keys worth asserting, in
// canonical order, with the observed values.
func SuggestExpected(scenario string, given []byte, observed map[string]any) ([]Suggestion, error) {
	sc, ok := LookupScenario(scenario)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q", scenario)
	}
	var out []Suggestion
	for _, k := range sc.Suggest(gjson.ParseBytes(given), observed) {
		out = append(out, Suggestion{Key: k, Value: suggestionValue(k, observed[k])})
	}
	return out, nil
}

// FormatExpected renders suggestions as a JSON object, one key per line,
// each line after the first prefixed with indent.
func FormatExpected(s []Suggestion, indent string) string {
	var b strings.Builder
	b.WriteString("{")
	for i, x := range s {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n%s  %s: %s", indent, jsonValue(x.Key), jsonValue(x.Value))
	}
	b.WriteString("\n" + indent + "}")
	return b.String()
}

func jsonValue(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// templates are the given blocks of a new case, one per scenario, with
// every key present and a placeholder value that means something.
var templates = map[string]string{
	"wrapper": `{
        "tool": "seed_note",
        "approval": { "tier": "exec", "reason": "Placeholder: why this tool asks" },
        "args": { "action": "publish" },
        "mode": "always-ask",
        "autoApprove": false,
        "userPolicies": { "seed_note": "prompt" },
        "ui": "rpc",
        "choices": ["Approve", "Deny"],
        "repeat": 2,
        "revise": { "action": "inspect" },
        "safetyCheck": false
      }`,
	"fallback": `{
        "code": "ENOENT",
        "message": "Placeholder: no such fictional folder",
        "retryError": { "code": "EACCES", "message": "Placeholder: retry denied" },
        "mkdirError": { "code": "EACCES", "message": "Placeholder: parent folder denied" },
        "handlers": ["decline", "fail"]
      }`,
	"classify-error": `{
        "code": "EACCES",
        "message": "EACCES: placeholder refusal",
        "kind": "error"
      }`,
}

// NewDesk returns a complete desk holding one case of the scenario, every
// given and expected key present. The expected block is what the host
// model observes for the given block, so the desk validates and verifies
// as printed.
func NewDesk(ctx context.Context, scenario string) ([]byte, error) {
	sc, ok := LookupScenario(scenario)
	given, ok2 := templates[scenario]
	if !ok || !ok2 {
		return nil, fmt.Errorf("unknown scenario %q (known: %s)", scenario, strings.Join(ScenarioNames(), ", "))
	}
	c := &Case{Desk: &Desk{ID: "new-desk"}, ID: "new-case", Scenario: scenario, Given: gjson.Parse(given)}
	obs, err := sc.Run(ctx, c, 0)
	if err != nil {
		return nil, err
	}
	var expected []Suggestion
	for _, k := range sc.Expected.Keys() {
		expected = append(expected, Suggestion{Key: k, Value: suggestionValue(k, normalize(obs.Values[k]))})
	}
	source := map[string]string{"wrapper": "wrapper", "fallback": "fallback", "classify-error": "fallback"}[scenario]
	return []byte(fmt.Sprintf(`{
  "schemaVersion": 1,
  "id": "new-desk",
  "title": "Placeholder: the boundary this desk teaches",
  "label": "TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "domain": "Placeholder: the fictional setting of the cases",
  "executionPolicy": "Inert cases: nothing in this file is executed.",
  "sources": {
    %[1]s: "Placeholder: path/to/source.ts:lines"
  },
  "cases": [
    {
      "id": "new-%[2]s-case",
      "title": "Placeholder: one line saying what this case shows",
      "scenario": %[3]s,
      "given": %[4]s,
      "expected": %[5]s,
      "why": "Placeholder: what this case teaches",
      "sourceRefs": [%[1]s]
    }
  ],
  "sourceOnly": []
}
`, jsonValue(source), scenario, jsonValue(scenario), given, FormatExpected(expected, "      "))), nil
}
