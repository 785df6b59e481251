package gatewaycheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
)

const (
	q2Text      = "Q2 summary: 41 orders shipped, 3 tickets open."
	emptyDigest = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
	q2Digest    = "sha256:d9a81a79b41f581c67025ade82061c368ca28a9cdbc5e8386a98d60523233142"
	// q2Approval is a valid approval of the operator's Q2 publication.
	q2Approval = `{"id":"ap-q2","principal":"synthetic-operator","action":"publish_summary","resource":"mock/review-board","arguments":{"text":"` + q2Text + `"},"state":"approved","expiresAt":"2026-06-01T13:00:00Z"}`
	// q2Publish is the request that approval binds.
	q2Publish  = `{"action":"publish_summary","resource":"mock/review-board","arguments":{"text":"` + q2Text + `"}}`
	readOrders = `{"action":"read","resource":"ops/orders","arguments":{}}`
)

// run plays a given block with faults (the OR of their IDs) and an expected block, and returns
// the observation with its values normalized, as the engine sees them.
func run(t testing.TB, given string, faults uint64, expected ...scenario.Field) (scenario.Observation, *scenario.Trace) {
	t.Helper()
	return checktest.Run(t, Gateway, []byte(given), faults, expected)
}

// compile decodes and plans a case once, as the engine does when it loads
// it.
func compile(t testing.TB, given string, expected ...scenario.Field) *scenario.Compiled {
	t.Helper()
	c := Gateway.Compile([]byte(given), expected)
	require.NoError(t, c.Err())
	return c
}

// field is one expected key as written.
func field(key, raw string) scenario.Field {
	return scenario.Field{Key: key, Raw: json.RawMessage(raw)}
}
