// Package checktest holds what the tests of the host adapters
// (host/<name>/<name>check) share: reading the cases of a desk file,
// running a scenario as the engine runs a case, and rewriting texts at
// random. Only tests import it.
package checktest

import (
	"context"
	"encoding/json"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

// Case is one case of a desk file, as a scenario's Compile receives it.
type Case struct {
	ID       string
	Given    json.RawMessage
	Expected []scenario.Field
}

// Desk reads the cases of the desk file at path, keeping each expected
// block's keys in file order.
func Desk(t testing.TB, path string) []Case {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var desk struct {
		Cases []struct {
			ID       string          `json:"id"`
			Given    json.RawMessage `json:"given"`
			Expected json.RawMessage `json:"expected"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &desk), path)
	out := make([]Case, len(desk.Cases))
	for i, c := range desk.Cases {
		out[i] = Case{ID: c.ID, Given: c.Given, Expected: Fields(t, string(c.Expected))}
	}
	return out
}

// Fields reads an expected block (JSON, "" for none) into its fields, in
// order.
func Fields(t testing.TB, block string) []scenario.Field {
	t.Helper()
	if block == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(block))
	tok, err := dec.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok, "an expected block is an object")
	var out []scenario.Field
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		var raw json.RawMessage
		require.NoError(t, dec.Decode(&raw))
		out = append(out, scenario.Field{Key: k.(string), Raw: raw})
	}
	return out
}

// DefaultLimits returns every limit of sc at its default.
func DefaultLimits(sc *scenario.Scenario) map[string]int {
	out := make(map[string]int, len(sc.Limits))
	for _, l := range sc.Limits {
		out[l.Name] = l.Default
	}
	return out
}

// Run runs sc on a given block under faults with an expected block and the
// default limits, and returns the observation, its values normalized as
// the engine normalizes them, and the trace.
func Run(t testing.TB, sc *scenario.Scenario, given []byte, faults uint64, expected []scenario.Field) (scenario.Observation, *scenario.Trace) {
	t.Helper()
	tr := &scenario.Trace{}
	env := scenario.Env{Faults: faults, Trace: tr}
	obs, err := sc.Compile(given, expected).Run(context.Background(), env)
	require.NoError(t, err)
	for k, v := range obs.Values {
		obs.Values[k] = scenario.Normalize(v)
	}
	return obs, tr
}

// Variants returns each text followed by rounds rewritings of it, each
// made by one or two of edits, picked by rng.
func Variants(rng *rand.Rand, texts []string, edits []func(string) string, rounds int) []string {
	out := make([]string, 0, len(texts)*(1+rounds))
	for _, text := range texts {
		out = append(out, text)
		for range rounds {
			v := text
			for range 1 + rng.Intn(2) {
				v = edits[rng.Intn(len(edits))](v)
			}
			out = append(out, v)
		}
	}
	return out
}
