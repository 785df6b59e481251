package gatewaycheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/host/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The readers of jsontext.go stand in for encoding/json when they can.
// These tests hold each to the encoding/json code it stands in for, on the
// bundled givens and on mutations of them that a schema would refuse but
// a decoder must still take (see checktest.Mutations).

// givens returns the bundled givens and mutations of them, as text.
func givens(t *testing.T, rounds int) []string {
	t.Helper()
	return checktest.Mutations(t, []string{"../../../cases/gateway-desk.json"}, rounds,
		`{`, `[]`, `null`, `{"principal":"p","steps":[{"request":{"action":"read"}}]} x`, "{\"principal\":\"\xff\",\"steps\":[]}")
}

func TestGivenReaderMatchesEncodingJSON(t *testing.T) {
	gs := givens(t, 40)
	decoded := checktest.SameDecoding(t, gs, decodeGiven, decodeGivenPlain, normGiven)
	taken := 0
	for _, g := range gs {
		if _, ok := readGivenFast([]byte(g)); ok {
			taken++
		}
	}
	require.Greater(t, decoded, taken, "some givens decode through encoding/json only")
	require.Greater(t, taken, 100, "the fast reader takes the givens written plainly")
}

// normGiven makes a decoded block comparable: raw values as text, pointers
// as values.
func normGiven(g givenBlock) any {
	type approval struct {
		ID, Principal, Action, Resource, Arguments, State, ExpiresAt string
		ArgumentsDigest                                              *string
		Consumed                                                     bool
		Size                                                         int
	}
	type step struct {
		Request                   string
		ApprovalID, Principal     *string
		PolicyUnavailable, Tamper bool
		HasRequest                bool
		PrincipalSize             int
	}
	out := struct {
		Principal     string
		PrincipalSize int
		Now           *string
		Approvals     []approval
		Records       map[string]string
		Steps         []step
	}{Principal: g.Principal, PrincipalSize: g.principalSize, Now: g.Now}
	for _, a := range g.Approvals {
		out.Approvals = append(out.Approvals, approval{a.ID, a.Principal, a.Action, a.Resource, string(a.Arguments), a.State, a.ExpiresAt, a.ArgumentsDigest, a.Consumed, a.size})
	}
	if g.Records != nil {
		out.Records = map[string]string{}
		for k, v := range g.Records {
			out.Records[k] = string(v)
		}
	}
	for _, s := range g.Steps {
		out.Steps = append(out.Steps, step{string(s.Request), s.ApprovalID, s.Principal, s.PolicyUnavailable, s.Tamper, s.Request != nil, s.principalSize})
	}
	return out
}

// TestSnapshotsDecode: every result the bundled desk snapshots decodes
// without encoding/json, and as Unmarshal decodes it.
func TestSnapshotsDecode(t *testing.T) {
	for _, c := range checktest.Desk(t, "../../../cases/gateway-desk.json") {
		g, err := decodeGiven(c.Given)
		require.NoError(t, err)
		cfg, steps, err := g.config(gateway.Faults{})
		require.NoError(t, err)
		res, err := gateway.Run(cfg, steps)
		require.NoError(t, err)
		for _, r := range res.Responses {
			got, ok := jsontext.Decode(r.Result)
			require.True(t, ok, string(r.Result))
			var want any
			require.NoError(t, json.Unmarshal(r.Result, &want))
			require.Equal(t, want, got)
		}
	}
}
