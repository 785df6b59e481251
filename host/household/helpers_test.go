package household

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// obj is an already-parsed decision.
func obj(s string) Decision { return Decision{Object: json.RawMessage(s)} }

// text is a raw response.
func text(s string) Decision { return Decision{Text: s} }

const (
	readAnand   = `{"tool": "portfolio.read", "arguments": {"household": "hh-anand"}}`
	readBose    = `{"tool": "portfolio.read", "arguments": {"household": "hh-bose"}}`
	fvArticle   = `{"tool": "future_value", "arguments": {"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": "scenario-A"}}`
	concAnand   = `{"tool": "concentration", "arguments": {"equity_inr": 48000000, "eligible_inr": 120000000}}`
	finalOK     = `{"final": {"outcome": "answered", "claims": [], "evidence_ids": [], "policy_code": "OK"}}`
	fvClaimEv1  = `{"value": 3345563.94, "currency": "INR", "scenario": "scenario-A", "as_of": "2026-03-31", "method": "calc-fv-v1", "evidence_id": "ev-1"}`
	snapAnand   = `{"household": "hh-anand", "as_of": "2026-03-31", "currency": "INR", "equity_inr": 48000000, "eligible_inr": 120000000}`
	concOutput  = `{"concentration": 0.4, "household": "hh-anand", "as_of": "2026-03-31", "method": "calc-conc-v1"}`
	fvOutputArt = `{"value": 3345563.94, "currency": "INR", "scenario": "scenario-A", "as_of": "2026-03-31", "method": "calc-fv-v1"}`
)

// finalWith is a final decision with the given outcome and claims.
func finalWith(outcome, claims string) string {
	return `{"final": {"outcome": "` + outcome + `", "claims": ` + claims + `, "evidence_ids": [], "policy_code": "OK"}}`
}

// cfgOf is the default configuration with the given decisions.
func cfgOf(ds ...Decision) Config { return NewConfig(ds...) }

// objs turns JSON texts into already-parsed decisions.
func objs(ss ...string) []Decision {
	out := make([]Decision, len(ss))
	for i, s := range ss {
		out[i] = obj(s)
	}
	return out
}

func mustRun(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Run(cfg)
	require.NoError(t, err)
	require.NotNil(t, res)
	return res
}

// decode reads JSON text into plain values with numbers kept as
// json.Number.
func decode(t *testing.T, raw []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", raw)
	return v
}

// observationsJSON is the observations as one JSON array.
func observationsJSON(r *Result) string {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, o := range r.Observations() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(o)
	}
	b.WriteByte(']')
	return b.String()
}
