package household

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRound(t *testing.T) {
	tests := []struct {
		name   string
		x      float64
		places int
		want   float64
	}{
		{"article example", 3345563.9440000005, 2, 3345563.94},
		{"1000 at 5 % for 3 years", 1157.6250000000002, 2, 1157.63},
		{"binary value below the tie", 1.005, 2, 1.0},
		{"exact tie to even down", 0.125, 2, 0.12},
		{"exact tie to even up", 0.375, 2, 0.38},
		{"four places", 0.7, 4, 0.7},
		{"four places of a third", 1.0 / 3, 4, 0.3333},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, round(tc.x, tc.places))
		})
	}
}

// fvCall is a future_value decision with the given argument members.
func fvCall(args string) string {
	return `{"tool": "future_value", "arguments": {` + args + `}}`
}

func TestFutureValue(t *testing.T) {
	tests := []struct {
		name   string
		args   string
		status Status
		obs    string
	}{
		{"article example", `"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": "scenario-A"`, StatusOK,
			`{"evidence_id": "ev-1", "output": ` + fvOutputArt + `}`},
		{"1000 at 5 % for 3 years", `"principal_inr": 1000, "annual_rate": 0.05, "years": 3, "scenario": "s"`, StatusOK,
			`{"evidence_id": "ev-1", "output": {"value": 1157.63, "currency": "INR", "scenario": "s", "as_of": "2026-03-31", "method": "calc-fv-v1"}}`},
		{"1.005 at 0 % stays 1.0", `"principal_inr": 1.005, "annual_rate": 0, "years": 1, "scenario": "s"`, StatusOK,
			`{"evidence_id": "ev-1", "output": {"value": 1.0, "currency": "INR", "scenario": "s", "as_of": "2026-03-31", "method": "calc-fv-v1"}}`},
		{"rate 1 doubles yearly", `"principal_inr": 1, "annual_rate": 1, "years": 3, "scenario": "s"`, StatusOK,
			`{"evidence_id": "ev-1", "output": {"value": 8.0, "currency": "INR", "scenario": "s", "as_of": "2026-03-31", "method": "calc-fv-v1"}}`},
		{"upper bounds", `"principal_inr": 1000000000000, "annual_rate": 0, "years": 50, "scenario": "` + strings.Repeat("x", 32) + `"`, StatusOK,
			`{"evidence_id": "ev-1", "output": {"value": 1000000000000.0, "currency": "INR", "scenario": "` + strings.Repeat("x", 32) + `", "as_of": "2026-03-31", "method": "calc-fv-v1"}}`},
		{"scenario trimmed of space, tab, CR, LF", `"principal_inr": 1, "annual_rate": 0, "years": 1, "scenario": " \t\r\nA B\n"`, StatusOK,
			`{"evidence_id": "ev-1", "output": {"value": 1.0, "currency": "INR", "scenario": "A B", "as_of": "2026-03-31", "method": "calc-fv-v1"}}`},
		{"32 code points, more bytes", `"principal_inr": 1, "annual_rate": 0, "years": 1, "scenario": "` + strings.Repeat("é", 32) + `"`, StatusOK,
			`{"evidence_id": "ev-1", "output": {"value": 1.0, "currency": "INR", "scenario": "` + strings.Repeat("é", 32) + `", "as_of": "2026-03-31", "method": "calc-fv-v1"}}`},

		{"missing field", `"principal_inr": 1, "annual_rate": 0, "years": 1`, StatusInvalid, `{"error": "unexpected calculator fields"}`},
		{"extra field", `"principal_inr": 1, "annual_rate": 0, "years": 1, "scenario": "s", "compounding": "monthly"`, StatusInvalid, `{"error": "unexpected calculator fields"}`},
		{"principal zero", `"principal_inr": 0, "annual_rate": 0, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"principal negative", `"principal_inr": -5, "annual_rate": 0, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"principal above 10^12", `"principal_inr": 1000000000000.5, "annual_rate": 0, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"principal a string", `"principal_inr": "2500000", "annual_rate": 0, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"principal a boolean", `"principal_inr": true, "annual_rate": 0, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"rate negative", `"principal_inr": 1, "annual_rate": -0.01, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"rate a percentage", `"principal_inr": 1, "annual_rate": 6, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"rate a boolean", `"principal_inr": 1, "annual_rate": false, "years": 1, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"years with a fraction", `"principal_inr": 1, "annual_rate": 0, "years": 5.0, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"years with an exponent", `"principal_inr": 1, "annual_rate": 0, "years": 5e0, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"years a string", `"principal_inr": 1, "annual_rate": 0, "years": "5", "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"years zero", `"principal_inr": 1, "annual_rate": 0, "years": 0, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"years 51", `"principal_inr": 1, "annual_rate": 0, "years": 51, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"years huge", `"principal_inr": 1, "annual_rate": 0, "years": 100000000000000000000, "scenario": "s"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"scenario empty", `"principal_inr": 1, "annual_rate": 0, "years": 1, "scenario": ""`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"scenario only spaces", `"principal_inr": 1, "annual_rate": 0, "years": 1, "scenario": " \t "`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"scenario 33 characters", `"principal_inr": 1, "annual_rate": 0, "years": 1, "scenario": "` + strings.Repeat("x", 33) + `"`, StatusInvalid, `{"error": "invalid calculator input"}`},
		{"scenario not a string", `"principal_inr": 1, "annual_rate": 0, "years": 1, "scenario": 7`, StatusInvalid, `{"error": "invalid calculator input"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, cfgOf(objs(fvCall(tc.args), finalOK)...))
			require.Len(t, res.Attempts, 1)
			assert.Equal(t, tc.status, res.Attempts[0].Status)
			assert.JSONEq(t, tc.obs, string(res.Attempts[0].Observation))
			assert.Equal(t, Answered, res.Outcome, "an invalid attempt is not an outcome")
		})
	}
}

func TestConcentrationComparesAsText(t *testing.T) {
	tests := []struct {
		name   string
		equity string
		match  bool
	}{
		{"integer literal", `48000000`, true},
		{"string of the digits", `"48000000"`, true},
		{"float literal", `48000000.0`, false},
		{"exponent literal", `4.8e7`, false},
		{"string of the float", `"48000000.0"`, false},
		{"string with a space", `" 48000000"`, false},
		{"other integer", `4800000`, false},
		{"boolean", `true`, false},
		{"null", `null`, false},
		{"array", `[48000000]`, false},
		{"object", `{"v": 48000000}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conc := `{"tool": "concentration", "arguments": {"equity_inr": ` + tc.equity + `, "eligible_inr": 120000000}}`
			res := mustRun(t, cfgOf(objs(readAnand, conc, finalOK)...))
			require.Len(t, res.Attempts, 2)
			if tc.match {
				assert.Equal(t, StatusOK, res.Attempts[1].Status)
				assert.JSONEq(t, `{"evidence_id": "ev-2", "output": `+concOutput+`}`, string(res.Attempts[1].Observation))
			} else {
				assert.Equal(t, StatusInvalid, res.Attempts[1].Status)
				assert.JSONEq(t, `{"error": "argument differs from authorised evidence"}`, string(res.Attempts[1].Observation))
			}
		})
	}
}

func TestConcentrationContract(t *testing.T) {
	tests := []struct {
		name       string
		households []string
		decisions  []string
		statuses   []string
		last       string // the last observation
	}{
		{"needs a snapshot read first", nil, []string{concAnand}, []string{"invalid"},
			`{"error": "no authorised snapshot read"}`},
		{"snapshot check comes before the field set", nil, []string{`{"tool": "concentration", "arguments": {"x": 1}}`}, []string{"invalid"},
			`{"error": "no authorised snapshot read"}`},
		{"a failed read is no snapshot", nil, []string{readBose, concAnand}, []string{"denied", "invalid"},
			`{"error": "no authorised snapshot read"}`},
		{"exact field set", nil, []string{readAnand, `{"tool": "concentration", "arguments": {"equity_inr": 48000000}}`}, []string{"ok", "invalid"},
			`{"error": "unexpected calculator fields"}`},
		{"eligible compared too", nil, []string{readAnand, `{"tool": "concentration", "arguments": {"equity_inr": 48000000, "eligible_inr": 12000000}}`}, []string{"ok", "invalid"},
			`{"error": "argument differs from authorised evidence"}`},
		{"hh-bose is 0.7", []string{"hh-bose"}, []string{readBose, `{"tool": "concentration", "arguments": {"equity_inr": 9100000, "eligible_inr": 13000000}}`}, []string{"ok", "ok"},
			`{"evidence_id": "ev-2", "output": {"concentration": 0.7, "household": "hh-bose", "as_of": "2026-03-31", "method": "calc-conc-v1"}}`},
		{"the last successful read counts", []string{"hh-anand", "hh-bose"}, []string{readAnand, readBose, concAnand}, []string{"ok", "ok", "invalid"},
			`{"error": "argument differs from authorised evidence"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(objs(append(tc.decisions, finalOK)...)...)
			if tc.households != nil {
				cfg.Households = tc.households
			}
			res := mustRun(t, cfg)
			assert.Equal(t, tc.statuses, res.Statuses())
			obs := res.Observations()
			require.NotEmpty(t, obs)
			assert.JSONEq(t, tc.last, string(obs[len(obs)-1]))
		})
	}
}

func TestPortfolioRead(t *testing.T) {
	tests := []struct {
		name       string
		households []string
		args       string
		status     Status
		obs        string
	}{
		{"authorised household", nil, `{"household": "hh-anand"}`, StatusOK, `{"evidence_id": "ev-1", "output": ` + snapAnand + `}`},
		{"unauthorised household", nil, `{"household": "hh-bose"}`, StatusDenied, `{"error": "household is not authorised"}`},
		{"authorised without a snapshot", []string{"hh-chen"}, `{"household": "hh-chen"}`, StatusInvalid, `{"error": "no snapshot for household"}`},
		{"extra field", nil, `{"household": "hh-anand", "as_of": "2025-01-01"}`, StatusInvalid, `{"error": "unexpected portfolio fields"}`},
		{"no household", nil, `{}`, StatusInvalid, `{"error": "unexpected portfolio fields"}`},
		{"case matters", nil, `{"household": "HH-ANAND"}`, StatusDenied, `{"error": "household is not authorised"}`},
		{"non-string household never authorised", nil, `{"household": ["hh-anand"]}`, StatusDenied, `{"error": "household is not authorised"}`},
		{"null household never authorised", nil, `{"household": null}`, StatusDenied, `{"error": "household is not authorised"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(objs(`{"tool": "portfolio.read", "arguments": `+tc.args+`}`, finalOK)...)
			if tc.households != nil {
				cfg.Households = tc.households
			}
			res := mustRun(t, cfg)
			require.Len(t, res.Attempts, 1)
			assert.Equal(t, tc.status, res.Attempts[0].Status)
			assert.JSONEq(t, tc.obs, string(res.Attempts[0].Observation))
		})
	}
}

func TestSnapshotFixtures(t *testing.T) {
	s, ok := Snapshot("hh-anand")
	require.True(t, ok)
	assert.Equal(t, `{"household":"hh-anand","as_of":"2026-03-31","currency":"INR","equity_inr":48000000,"eligible_inr":120000000}`, string(s))
	s, ok = Snapshot("hh-bose")
	require.True(t, ok)
	assert.Equal(t, `{"household":"hh-bose","as_of":"2026-03-31","currency":"INR","equity_inr":9100000,"eligible_inr":13000000}`, string(s))
	_, ok = Snapshot("hh-chen")
	assert.False(t, ok)
	assert.Equal(t, []string{"portfolio.read", "future_value", "concentration"}, Catalogue())
}
