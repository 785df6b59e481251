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
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// Case is one case of a desk file, as a scenario's Compile receives it.
type Case struct {
	ID       string
	Given    json.RawMessage
	Expected []scenario.Field
}

// Desk reads the cases of the desk file at path, keeping each expected
// block's keys in file order. It reads the file as the hosts read JSON
// (internal/jsontext): keys and strings with their escapes decoded, an
// unpaired surrogate kept; each given block stays as written.
func Desk(t testing.TB, path string) []Case {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	top, ok := jsontext.ReadHostMembers(data, nil)
	require.True(t, ok, "%s is not one JSON object", path)
	cases, ok := top.Get("cases")
	require.True(t, ok, "%s has no cases", path)
	list, ok := jsontext.HostElements(cases)
	require.True(t, ok, "%s: the cases are not a list", path)
	out := make([]Case, len(list))
	for i, c := range list {
		ms, ok := jsontext.ReadHostMembers(c, nil)
		require.True(t, ok, "%s: case %d is not an object", path, i)
		var id string
		if raw, ok := ms.Get("id"); ok {
			id, ok = jsontext.HostString(raw)
			require.True(t, ok, "%s: the id of case %d is not a string", path, i)
		}
		given, _ := ms.Get("given")
		expected, _ := ms.Get("expected")
		out[i] = Case{ID: id, Given: given, Expected: Fields(t, string(expected))}
	}
	return out
}

// Fields reads an expected block (JSON, "" for none) into its fields, in
// order, a repeated key as often as it is written; keys are read as the
// hosts read them, values stay as written.
func Fields(t testing.TB, block string) []scenario.Field {
	t.Helper()
	if block == "" {
		return nil
	}
	raw := []byte(block)
	i := jsontext.SkipSpace(raw, 0)
	require.True(t, i < len(raw) && raw[i] == '{', "an expected block is an object")
	var out []scenario.Field
	ok := jsontext.WholeObject(raw, func(keyTok []byte, plain bool, start int) int {
		end := jsontext.ScanHostValue(raw, start, 1)
		if end >= 0 {
			out = append(out, scenario.Field{Key: jsontext.StringValue(keyTok, plain), Raw: json.RawMessage(raw[start:end:end])})
		}
		return end
	})
	require.True(t, ok, "the expected block is not one JSON object: %s", block)
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
