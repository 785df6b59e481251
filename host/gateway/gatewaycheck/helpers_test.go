package gatewaycheck

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gateway"
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

// run plays a given block with faults and an expected block, and returns
// the observation with its values normalized, as the engine sees them.
func run(t testing.TB, given string, faults gateway.Faults, expected ...scenario.Field) (scenario.Observation, *scenario.Trace) {
	t.Helper()
	tr := &scenario.Trace{}
	obs, err := Gateway.Run(context.Background(), []byte(given), scenario.Env{Faults: uint64(faults), Trace: tr, Expected: expected, Limits: defaultLimits()})
	require.NoError(t, err)
	for k, v := range obs.Values {
		obs.Values[k] = scenario.Normalize(v)
	}
	return obs, tr
}

func defaultLimits() map[string]int {
	out := map[string]int{}
	for _, l := range Gateway.Limits {
		out[l.Name] = l.Default
	}
	return out
}

// field is one expected key as written.
func field(key, raw string) scenario.Field {
	return scenario.Field{Key: key, Raw: json.RawMessage(raw)}
}

// deskCase is one case of a desk file, as Run and Lint receive it.
type deskCase struct {
	ID       string
	Given    json.RawMessage
	Expected []scenario.Field
	want     map[string]any
}

// loadDesk reads the cases of a desk file.
func loadDesk(t testing.TB, path string) []deskCase {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var desk struct {
		Cases []struct {
			ID       string                     `json:"id"`
			Given    json.RawMessage            `json:"given"`
			Expected map[string]json.RawMessage `json:"expected"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &desk))
	out := make([]deskCase, len(desk.Cases))
	for i, c := range desk.Cases {
		dc := deskCase{ID: c.ID, Given: c.Given, want: map[string]any{}}
		keys := make([]string, 0, len(c.Expected))
		for k := range c.Expected {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			dc.Expected = append(dc.Expected, scenario.Field{Key: k, Raw: c.Expected[k]})
			var v any
			require.NoError(t, json.Unmarshal(c.Expected[k], &v))
			dc.want[k] = v
		}
		out[i] = dc
	}
	return out
}
