package agentloopcheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
)

// deskPath is the bundled runner desk.
const deskPath = "../../../cases/runner-desk.json"

// run runs a given block with an expected block (JSON, "" for none) and
// faults, and returns the observation, its values normalized as the
// engine normalizes them, and the trace.
func run(t testing.TB, givenJSON, expected string, faults ...agentloop.Fault) (scenario.Observation, []scenario.Event) {
	t.Helper()
	var set uint64
	for _, f := range faults {
		set |= uint64(f)
	}
	obs, tr := checktest.Run(t, Runner, []byte(givenJSON), set, checktest.Fields(t, expected))
	return obs, tr.Events()
}

// decode decodes a schema-valid given block.
func decode(t testing.TB, givenJSON string) given {
	t.Helper()
	g, err := readGiven([]byte(givenJSON))
	require.NoError(t, err)
	return g
}

// norm normalizes a JSON text into the plain values observations take.
func norm(t testing.TB, text string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(text), &v))
	return v
}
