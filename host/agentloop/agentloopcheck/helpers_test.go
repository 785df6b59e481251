package agentloopcheck

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/scenario"
)

// deskPath is the bundled runner desk.
const deskPath = "../../../cases/runner-desk.json"

// deskCase is one case of a desk file, as the tests need it.
type deskCase struct {
	ID       string
	Given    json.RawMessage
	Expected []scenario.Field
}

// readDesk reads the cases of a desk file, keeping each expected block's
// keys in file order.
func readDesk(t testing.TB, path string) []deskCase {
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
	require.NoError(t, json.Unmarshal(data, &desk))
	out := make([]deskCase, len(desk.Cases))
	for i, c := range desk.Cases {
		out[i] = deskCase{ID: c.ID, Given: c.Given, Expected: fields(t, string(c.Expected))}
	}
	return out
}

// fields reads an expected block into its fields, in order.
func fields(t testing.TB, block string) []scenario.Field {
	t.Helper()
	if block == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(block))
	tok, err := dec.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok)
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

// run runs a given block with an expected block (JSON, "" for none) and
// faults, and returns the observation, its values normalized as the
// engine normalizes them, and the trace.
func run(t testing.TB, givenJSON, expected string, faults ...agentloop.Fault) (scenario.Observation, []scenario.Event) {
	t.Helper()
	var set agentloop.Faults
	for _, f := range faults {
		set = set.With(f)
	}
	env := scenario.Env{Faults: uint64(set), Trace: &scenario.Trace{}, Limits: defaultLimits(), Expected: fields(t, expected)}
	obs, err := Runner.Run(context.Background(), []byte(givenJSON), env)
	require.NoError(t, err)
	for k, v := range obs.Values {
		obs.Values[k] = scenario.Normalize(v)
	}
	return obs, env.Trace.Events()
}

func defaultLimits() map[string]int {
	out := map[string]int{}
	for _, l := range Runner.Limits {
		out[l.Name] = l.Default
	}
	return out
}

// norm normalizes a JSON text into the plain values observations take.
func norm(t testing.TB, text string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(text), &v))
	return v
}
