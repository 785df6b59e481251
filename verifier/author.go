package verifier

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/scenario"
)

// Suggestion is one key of an expected block suggested from an observation.
type Suggestion struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
	// Shaped says Value differs from the observed value of Key (the first
	// dialog title of a list of titles, say); a report writes the value
	// only then, and a reader takes the observed value otherwise.
	Shaped bool `json:"-"`
}

// MarshalJSON writes the value only when it is shaped: otherwise it is the
// observed value, which the report holds already.
func (s Suggestion) MarshalJSON() ([]byte, error) {
	if !s.Shaped {
		return json.Marshal(struct {
			Key string `json:"key"`
		}{s.Key})
	}
	return json.Marshal(struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	}{s.Key, s.Value})
}

// Suggestions is the expected block worth asserting for the result's
// case, from what was observed, in canonical order; nil when the case did
// not run. It is computed on each call, only where it is shown.
func (r *Result) Suggestions() []Suggestion {
	if r.Case == nil || r.Case.compiled == nil || r.Observed == nil {
		return nil
	}
	return suggestions(r.Case.sc, r.Case.compiled, r.Observed)
}

// SuggestionsFrom is the expected block the case's scenario suggests from
// observed values of another host (the real code, say), shaped as
// observe writes it, without the keys that host did not observe.
func SuggestionsFrom(c *Case, observed map[string]any) []Suggestion {
	if c.compiled == nil {
		return nil
	}
	var out []Suggestion
	for _, s := range suggestions(c.sc, c.compiled, observed) {
		if _, ok := observed[s.Key]; ok {
			out = append(out, s)
		}
	}
	return out
}

// suggestions shapes the keys the scenario suggests from observed values.
func suggestions(sc *scenario.Scenario, c *scenario.Compiled, observed map[string]any) []Suggestion {
	keys := c.Suggest(observed)
	out := make([]Suggestion, 0, len(keys))
	for _, k := range keys {
		obs := observed[k]
		if v, ok := shape(sc, k, obs); ok {
			out = append(out, Suggestion{Key: k, Value: v, Shaped: sc.Shape != nil && !scenario.Equal(v, obs)})
		}
	}
	return out
}

func shape(sc *scenario.Scenario, key string, v any) (any, bool) {
	if sc.Shape == nil {
		return v, true
	}
	return sc.Shape(key, v)
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

// jsonValue writes v as compact JSON, as json.Encoder does without HTML
// escaping, but keeping what a host's value holds and encoding/json would
// lose: an unpaired surrogate as its escape, an exact integer as its
// digits.
func jsonValue(v any) string { return string(jsonx.Append(nil, v)) }

// NewDesk returns a complete desk holding one case of the scenario, every
// given and expected key present. The expected block is what the host
// model observes for the given block, so the desk validates and verifies
// as printed.
func NewDesk(ctx context.Context, reg *scenario.Registry, name string) ([]byte, error) {
	sc, fam, ok := reg.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q (known: %s)%s", name, strings.Join(reg.Names(), ", "), suggest(name, reg.Names()))
	}
	expected, err := everyKey(ctx, sc, fam, []byte(sc.Template))
	if err != nil {
		return nil, err
	}
	desk := placeholderDesk(sc, fam, sc.Template, expected)
	if len(sc.Examples) == 0 {
		return desk, nil
	}
	// The scenario's examples follow the template's case, each a case of
	// its own.
	var extra strings.Builder
	for _, ex := range sc.Examples {
		exp, err := everyKey(ctx, sc, fam, []byte(ex.Given))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&extra, `,
    {
      "id": "new-%[1]s-%[2]s-case",
      "title": "Placeholder: one line saying what this case shows",
      "scenario": %[3]s,
      "given": %[4]s,
      "expected": %[5]s,
      "why": "Placeholder: what this case teaches",
      "sourceRefs": [%[6]s]
    }`, sc.Name, ex.Name, jsonValue(sc.Name), ex.Given, FormatExpected(exp, "      "), jsonValue(sc.SourceKey))
	}
	end := []byte("\n  ],\n  \"sourceOnly\"")
	i := bytes.LastIndex(desk, end)
	if i < 0 {
		return nil, fmt.Errorf("new: the desk of scenario %s has no case list", sc.Name)
	}
	return append(append(append([]byte{}, desk[:i]...), extra.String()...), desk[i:]...), nil
}

// everyKey runs a given block of sc on the newest release of its host
// (fam) and returns every expected key with the value observed, as an
// author writes it.
func everyKey(ctx context.Context, sc *scenario.Scenario, fam *scenario.Family, given []byte) ([]Suggestion, error) {
	release := ""
	if r, ok := fam.Host.Newest(); ok {
		release = r.Version
	}
	compiled := sc.Compile(given, nil)
	obs, err := compiled.Run(ctx, scenario.Env{Trace: &scenario.Trace{}, Release: release})
	if err != nil {
		return nil, err
	}
	var expected []Suggestion
	for _, k := range sc.Expected.Keys() {
		if v, ok := shape(sc, k, scenario.Normalize(obs.Values[k])); ok {
			expected = append(expected, Suggestion{Key: k, Value: v})
		}
	}
	return expected, nil
}

// placeholderDesk is the desk of `deskcheck new` around one case of sc
// with the given block as written and the expected block, observed on the
// newest release of its host (fam), which its hosts key names; a host of
// named releases gets no hosts key (its cases are judged on every one).
func placeholderDesk(sc *scenario.Scenario, fam *scenario.Family, given string, expected []Suggestion) []byte {
	scenarioName, source := sc.Name, sc.SourceKey
	hosts := ""
	if r, ok := fam.Host.Newest(); ok && !fam.Host.Named() {
		hosts = fmt.Sprintf("\n  \"hosts\": {%s: %s},", jsonValue(fam.Host.Name), jsonValue(r.Version))
	}
	return []byte(fmt.Sprintf(`{
  "schemaVersion": 1,
  "id": "new-desk",
  "title": "Placeholder: the boundary this desk teaches",
  "label": "TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "domain": "Placeholder: the fictional setting of the cases",
  "executionPolicy": "Inert cases: nothing in this file is executed.",%[6]s
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
`, jsonValue(source), scenarioName, jsonValue(scenarioName), given, FormatExpected(expected, "      "), hosts))
}
