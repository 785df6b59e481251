package gatewaycheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// readGivenFast stands in for decodeGivenPlain when it can. These tests
// hold the two to each other, and the decoder to itself under any
// spelling, on the bundled givens and on mutations of them that a schema
// would refuse but a decoder must still take (see checktest.Mutations).

// givens returns the bundled givens and mutations of them, as text.
func givens(t *testing.T, rounds int) []string {
	t.Helper()
	return checktest.Mutations(t, []string{"../../../cases/gateway-desk.json"}, rounds,
		`{`, `[]`, `null`, `{"principal":"p","steps":[{"request":{"action":"read"}}]} x`, "{\"principal\":\"\xff\",\"steps\":[]}")
}

func TestGivenReaderMatchesPlain(t *testing.T) {
	gs := givens(t, 40)
	decoded := checktest.SameDecoding(t, gs, decodeGiven, decodeGivenPlain, normGiven)
	taken := 0
	for _, g := range gs {
		if _, ok := readGivenFast([]byte(g)); ok {
			taken++
		}
	}
	require.Greater(t, decoded, taken, "some givens decode through the plain decoder only")
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

// spellingNorm is normGiven without what depends on the spelling: the
// sizes as written, and raw values read by their value.
func spellingNorm(g givenBlock) any {
	value := func(raw []byte) any {
		if raw == nil {
			return "absent"
		}
		if v, ok := jsontext.DecodePy(raw); ok {
			return v
		}
		// A number beyond a double: the text, every string respelled.
		respelled, _ := checktest.Respell(raw)
		return "beyond a double: " + string(respelled)
	}
	type approval struct {
		ID, Principal, Action, Resource, State, ExpiresAt string
		Arguments                                         any
		ArgumentsDigest                                   *string
		Consumed                                          bool
	}
	type step struct {
		Request                   any
		ApprovalID, Principal     *string
		PolicyUnavailable, Tamper bool
	}
	out := struct {
		Principal string
		Now       *string
		Approvals []approval
		Records   map[string]any
		Steps     []step
	}{Principal: g.Principal, Now: g.Now}
	for _, a := range g.Approvals {
		out.Approvals = append(out.Approvals, approval{a.ID, a.Principal, a.Action, a.Resource, a.State, a.ExpiresAt, value(a.Arguments), a.ArgumentsDigest, a.Consumed})
	}
	if g.Records != nil {
		out.Records = map[string]any{}
		for k, v := range g.Records {
			out.Records[k] = value(v)
		}
	}
	for _, s := range g.Steps {
		out.Steps = append(out.Steps, step{value(s.Request), s.ApprovalID, s.Principal, s.PolicyUnavailable, s.Tamper})
	}
	return out
}

// TestGivenReadTheSameWhateverTheSpelling: a block and its copy with every
// key and string written with escapes (which only the reference decoder
// reads) decode to the same values, lone surrogates included.
func TestGivenReadTheSameWhateverTheSpelling(t *testing.T) {
	gs := append(givens(t, 40), spellingGivens...)
	require.Greater(t, checktest.SameSpelling(t, gs, decodeGiven, spellingNorm), 100)
}

// spellingGivens are the blocks of testdata/spelling-desk.json's cases.
var spellingGivens = []string{
	`{"principal":"synthetic-operator","approvals":[{"id":"ap\ud800","principal":"synthetic-operator","action":"publish_summary","resource":"mock/review-board","arguments":{"text":"Q2 summary"},"state":"approved","expiresAt":"2026-06-01T13:00:00Z"}],"steps":[{"request":{"action":"publish_summary","resource":"mock/review-board","arguments":{"text":"Q2 summary"}},"approvalId":"ap\udc00"}]}`,
}

// TestSpellingCheckCatchesALibraryFallback: with the reference decoder
// that encoding/json once was (a lone surrogate read as U+FFFD), the
// spelling check fails on the mutations of the bundled desk and on the
// case of testdata/spelling-desk.json.
func TestSpellingCheckCatchesALibraryFallback(t *testing.T) {
	library := func(raw []byte) (givenBlock, error) {
		if g, ok := readGivenFast(raw); ok {
			return g, nil
		}
		var g givenBlock
		err := json.Unmarshal(raw, &g)
		return g, err
	}
	assert.True(t, checktest.Fails(t, func(tb testing.TB) {
		checktest.SameSpelling(tb, spellingGivens, library, spellingNorm)
	}), "the case of the spelling desk")
	assert.True(t, checktest.Fails(t, func(tb testing.TB) {
		checktest.SameSpelling(tb, givens(t, 40), library, spellingNorm)
	}), "the mutations of the bundled desk")
	assert.False(t, checktest.Fails(t, func(tb testing.TB) {
		checktest.SameSpelling(tb, givens(t, 40), decodeGiven, spellingNorm)
	}), "the decoder as it is")
}
