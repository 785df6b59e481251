package household

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryOutcome(t *testing.T) {
	tests := []struct {
		name        string
		cfg         func() Config
		outcome     Outcome
		policyCode  string
		diagnostics []string
	}{
		{"answered", func() Config { return cfgOf(objs(fvArticle, finalOK)...) }, Answered, `"OK"`, []string{}},
		{"clarify", func() Config {
			return cfgOf(obj(`{"final": {"outcome": "clarify", "claims": [], "evidence_ids": [], "policy_code": "MISSING_HORIZON"}}`))
		}, Clarify, `"MISSING_HORIZON"`, []string{}},
		{"escalated", func() Config {
			return cfgOf(obj(`{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": "NO_APPROVED_CONTENT"}}`))
		}, Escalated, `"NO_APPROVED_CONTENT"`, []string{}},
		{"unavailable", func() Config {
			c := cfgOf(objs(fvArticle, finalOK)...)
			c.Timeouts = []string{ToolFutureValue}
			return c
		}, Unavailable, `"TOOL_UNAVAILABLE"`, []string{"TimeoutError: future_value worker timed out (workers/future_value.py:88)"}},
		{"step_limit", func() Config { return cfgOf(objs(readAnand, readAnand, readAnand, readAnand, finalOK)...) },
			StepLimit, `"STEP_LIMIT"`, []string{"RuntimeError: step budget exhausted"}},
		{"deadline_exceeded before a request", func() Config {
			c := cfgOf(objs(readAnand, finalOK)...)
			c.Latencies, c.ToolSeconds = []float64{10}, 20
			return c
		}, DeadlineExceeded, `"DEADLINE"`, []string{"TimeoutError: request deadline exhausted"}},
		{"deadline_exceeded after a response", func() Config {
			c := cfgOf(objs(readAnand, finalOK)...)
			c.Latencies = []float64{12, 19}
			return c
		}, DeadlineExceeded, `"DEADLINE"`, []string{"TimeoutError: request deadline exhausted"}},
		{"parser_failure", func() Config { return cfgOf(text(`{"tool": "future_value",}`)) },
			ParserFailure, `"PARSER_FAILURE"`, []string{"ValueError: decision 1 is not valid JSON"}},
	}
	seen := map[Outcome]bool{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, tc.cfg())
			seen[res.Outcome] = true
			assert.Equal(t, tc.outcome, res.Outcome)
			assert.JSONEq(t, tc.policyCode, string(res.PolicyCode))
			assert.Equal(t, tc.diagnostics, res.Diagnostics)
			r := decode(t, res.UserResult).(map[string]any)
			assert.Equal(t, string(tc.outcome), r["outcome"])
			assert.Equal(t, json.Number("0"), r["portfolio_writes"])
		})
	}
	assert.Len(t, seen, len(Outcomes()), "every outcome is reached")
}

func TestRuntimeResultShape(t *testing.T) {
	cfg := cfgOf(objs(readAnand, readAnand, readAnand, readAnand)...)
	res := mustRun(t, cfg)
	assert.Equal(t, `{"outcome":"step_limit","claims":[],"evidence_ids":[],"policy_code":"STEP_LIMIT","tool_calls":[`+
		strings.Repeat(`{"name":"portfolio.read","arguments":{"household":"hh-anand"}},`, 3)+
		`{"name":"portfolio.read","arguments":{"household":"hh-anand"}}],"portfolio_writes":0}`, string(res.UserResult))
	assert.Empty(t, res.Discarded)
}

func TestClock(t *testing.T) {
	tests := []struct {
		name        string
		decisions   []Decision
		latencies   []float64
		toolSeconds float64
		deadline    float64
		outcome     Outcome
		modelCalls  int
		decided     int
	}{
		{"exactly 30 s after a response is too late", objs(finalOK), []float64{30}, 0, 30, DeadlineExceeded, 1, 0},
		{"29.5 s is in time", objs(finalOK), []float64{29.5}, 0, 30, Answered, 1, 1},
		{"exactly 30 s before a request is too late", objs(readAnand, finalOK), []float64{10}, 20, 30, DeadlineExceeded, 1, 1},
		{"late response discarded though well-formed", objs(readAnand, finalOK), []float64{12, 19}, 0, 30, DeadlineExceeded, 2, 1},
		{"late malformed response is a deadline, not a parser failure", []Decision{text("not json")}, []float64{31}, 0, 30, DeadlineExceeded, 1, 0},
		{"missing latencies are 0", objs(readAnand, readAnand, finalOK), []float64{29}, 0, 30, Answered, 3, 3},
		{"refusals take no time", objs(readBose, readBose, readBose, finalOK), nil, 100, 30, Answered, 4, 4},
		{"additions in double arithmetic, in order", objs(readAnand, finalOK), []float64{0.1, 0.2}, 0, 0.3, DeadlineExceeded, 2, 1},
		{"custom deadline", objs(readAnand, finalOK), []float64{1, 1}, 0, 2, DeadlineExceeded, 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(tc.decisions...)
			cfg.Latencies, cfg.ToolSeconds, cfg.DeadlineSeconds = tc.latencies, tc.toolSeconds, tc.deadline
			res := mustRun(t, cfg)
			assert.Equal(t, tc.outcome, res.Outcome)
			assert.Equal(t, tc.modelCalls, res.ModelCalls, "model calls")
			assert.Equal(t, tc.decided, res.Decisions, "decisions")
			if tc.outcome == DeadlineExceeded {
				assert.Equal(t, []string{"TimeoutError: request deadline exhausted"}, res.Diagnostics)
				assert.False(t, res.ClaimsVerified)
			}
		})
	}
}

func TestStepBudget(t *testing.T) {
	tests := []struct {
		name        string
		decisions   []Decision
		max         int
		latencies   []float64
		toolSeconds float64
		outcome     Outcome
		modelCalls  int
		diagnostics []string
	}{
		{"budget checked before the clock", objs(readAnand, finalOK), 1, nil, 30, StepLimit, 1, []string{"RuntimeError: step budget exhausted"}},
		{"budget checked before the clock after a late-ish response", objs(readAnand, finalOK), 1, []float64{29}, 5, StepLimit, 1, []string{"RuntimeError: step budget exhausted"}},
		{"zero budget asks nothing", objs(finalOK), 0, nil, 0, StepLimit, 0, []string{"RuntimeError: step budget exhausted"}},
		{"every response counts, refusals included", objs(readBose, readBose, finalOK), 2, nil, 0, StepLimit, 2, []string{"RuntimeError: step budget exhausted"}},
		{"the final decision within budget", objs(readAnand, finalOK), 2, nil, 0, Answered, 2, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(tc.decisions...)
			cfg.MaxDecisions, cfg.Latencies, cfg.ToolSeconds = tc.max, tc.latencies, tc.toolSeconds
			res := mustRun(t, cfg)
			assert.Equal(t, tc.outcome, res.Outcome)
			assert.Equal(t, tc.modelCalls, res.ModelCalls)
			assert.Equal(t, tc.diagnostics, res.Diagnostics)
		})
	}
}

func TestParserFailures(t *testing.T) {
	tests := []struct {
		name       string
		decisions  []Decision
		diagnostic string
	}{
		{"not JSON", []Decision{text("I will read the portfolio.")}, "ValueError: decision 1 is not valid JSON"},
		{"trailing comma, second decision", []Decision{obj(readAnand), text(`{"tool": "future_value", "arguments": {"principal_inr": 2500000,}}`)}, "ValueError: decision 2 is not valid JSON"},
		{"duplicate key", []Decision{text(`{"tool": "portfolio.read", "tool": "future_value"}`)}, "ValueError: decision 1 is not valid JSON"},
		{"duplicate key deep inside", []Decision{text(`{"final": {"outcome": "answered", "claims": [{"a": 1, "a": 2}]}}`)}, "ValueError: decision 1 is not valid JSON"},
		{"NaN", []Decision{text(`{"tool": "future_value", "arguments": {"principal_inr": NaN}}`)}, "ValueError: decision 1 is not valid JSON"},
		{"Infinity", []Decision{text(`{"final": {"outcome": "answered", "claims": [Infinity]}}`)}, "ValueError: decision 1 is not valid JSON"},
		{"number overflowing a double", []Decision{text(`{"tool": "future_value", "arguments": {"principal_inr": 1e999}}`)}, "ValueError: decision 1 is not valid JSON"},
		{"lone surrogate escape", []Decision{text(`{"final": {"outcome": "answered", "policy_code": "\udead"}}`)}, "ValueError: decision 1 is not valid JSON"},
		{"exhausted script", nil, "ValueError: decision 1 is not valid JSON"},
		{"exhausted script after a read", objs(readAnand), "ValueError: decision 2 is not valid JSON"},
		{"empty string", []Decision{text("")}, "ValueError: decision 1 is not valid JSON"},
		{"whitespace only", []Decision{text(" \n")}, "ValueError: decision 1 is not valid JSON"},
		{"invalid shape: array", []Decision{text(`[{"tool": "portfolio.read"}]`)}, "ValueError: decision 1 has an invalid shape"},
		{"invalid shape: string", []Decision{text(`"final"`)}, "ValueError: decision 1 has an invalid shape"},
		{"invalid shape: null", []Decision{text(`null`)}, "ValueError: decision 1 has an invalid shape"},
		{"invalid shape: neither key", []Decision{obj(`{"action": "portfolio.read"}`)}, "ValueError: decision 1 has an invalid shape"},
		{"invalid shape: both keys", []Decision{obj(`{"tool": "portfolio.read", "final": {"outcome": "answered"}}`)}, "ValueError: decision 1 has an invalid shape"},
		{"invalid shape: tool not a string", []Decision{obj(`{"tool": ["portfolio.read"]}`)}, "ValueError: decision 1 has an invalid shape"},
		{"invalid shape: tool null", []Decision{obj(`{"tool": null}`)}, "ValueError: decision 1 has an invalid shape"},
		{"invalid final: not an object", []Decision{obj(`{"final": "answered"}`)}, "ValueError: decision 1 has an invalid final result"},
		{"invalid final: no outcome", []Decision{obj(`{"final": {"claims": []}}`)}, "ValueError: decision 1 has an invalid final result"},
		{"invalid final: outcome not a string", []Decision{obj(`{"final": {"outcome": true}}`)}, "ValueError: decision 1 has an invalid final result"},
		{"invalid final: unknown outcome", []Decision{obj(`{"final": {"outcome": "done"}}`)}, "ValueError: decision 1 has an invalid final result"},
		{"invalid final: wrong case", []Decision{obj(`{"final": {"outcome": "Answered"}}`)}, "ValueError: decision 1 has an invalid final result"},
		{"runtime outcome not claimable: unavailable", []Decision{obj(finalWith("unavailable", "[]"))}, "ValueError: decision 1 has an invalid final result"},
		{"runtime outcome not claimable: step_limit", []Decision{obj(finalWith("step_limit", "[]"))}, "ValueError: decision 1 has an invalid final result"},
		{"runtime outcome not claimable: deadline_exceeded", []Decision{obj(finalWith("deadline_exceeded", "[]"))}, "ValueError: decision 1 has an invalid final result"},
		{"runtime outcome not claimable: parser_failure", []Decision{obj(finalWith("parser_failure", "[]"))}, "ValueError: decision 1 has an invalid final result"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, cfgOf(tc.decisions...))
			assert.Equal(t, ParserFailure, res.Outcome)
			assert.Equal(t, []string{tc.diagnostic}, res.Diagnostics)
			assert.JSONEq(t, `"PARSER_FAILURE"`, string(res.PolicyCode))
			assert.NotContains(t, string(res.UserResult), "ValueError")
		})
	}
}

func TestRawResponsesThatParse(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		outcome  Outcome
		statuses []string
	}{
		{"surrounding whitespace", "\n  " + finalOK + " \t\r\n", Answered, []string{}},
		{"other keys ignored", `{"thought": "read first", "tool": "portfolio.read", "arguments": {"household": "hh-anand"}}`, ParserFailure, []string{"ok"}},
		{"surrogate pair in a string", `{"final": {"outcome": "answered", "policy_code": "\ud83d\ude00"}}`, Answered, []string{}},
		{"absent arguments are the empty object", `{"tool": "portfolio.read"}`, ParserFailure, []string{"invalid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, cfgOf(text(tc.raw)))
			assert.Equal(t, tc.outcome, res.Outcome)
			assert.Equal(t, tc.statuses, res.Statuses())
		})
	}
	res := mustRun(t, cfgOf(text(`{"final": {"outcome": "answered", "policy_code": "\ud83d\ude00"}}`)))
	assert.JSONEq(t, `"😀"`, string(res.PolicyCode))
	res = mustRun(t, cfgOf(text(`{"tool": "portfolio.read"}`)))
	assert.JSONEq(t, `[{"name": "portfolio.read", "arguments": {}}]`, string(res.ToolCalls))
	assert.JSONEq(t, `{"error": "unexpected portfolio fields"}`, string(res.Attempts[0].Observation))
}

func TestRecordBeforeAdmit(t *testing.T) {
	tests := []struct {
		name      string
		tools     []string
		decision  string
		status    Status
		obs       string
		toolCalls string
	}{
		{"unavailable tool", nil, `{"tool": "portfolio.export", "arguments": {"household": "hh-bose", "format": "csv"}}`, StatusDenied,
			`{"error": "tool is not available"}`, `[{"name": "portfolio.export", "arguments": {"household": "hh-bose", "format": "csv"}}]`},
		{"catalogue tool not granted", []string{ToolFutureValue}, readAnand, StatusDenied,
			`{"error": "tool is not available"}`, `[{"name": "portfolio.read", "arguments": {"household": "hh-anand"}}]`},
		{"unauthorised household", nil, readBose, StatusDenied,
			`{"error": "household is not authorised"}`, `[{"name": "portfolio.read", "arguments": {"household": "hh-bose"}}]`},
		{"household checked on any tool", nil, `{"tool": "future_value", "arguments": {"household": "hh-bose", "principal_inr": 1}}`, StatusDenied,
			`{"error": "household is not authorised"}`, `[{"name": "future_value", "arguments": {"household": "hh-bose", "principal_inr": 1}}]`},
		{"numeric household", nil, `{"tool": "concentration", "arguments": {"household": 7}}`, StatusDenied,
			`{"error": "household is not authorised"}`, `[{"name": "concentration", "arguments": {"household": 7}}]`},
		{"arguments a string", nil, `{"tool": "portfolio.read", "arguments": "hh-anand"}`, StatusInvalid,
			`{"error": "arguments must be an object"}`, `[{"name": "portfolio.read", "arguments": "hh-anand"}]`},
		{"arguments null", nil, `{"tool": "portfolio.read", "arguments": null}`, StatusInvalid,
			`{"error": "arguments must be an object"}`, `[{"name": "portfolio.read", "arguments": null}]`},
		{"arguments an array", nil, `{"tool": "portfolio.read", "arguments": ["hh-anand"]}`, StatusInvalid,
			`{"error": "arguments must be an object"}`, `[{"name": "portfolio.read", "arguments": ["hh-anand"]}]`},
		{"tool check before the object check", nil, `{"tool": "shell", "arguments": "ls"}`, StatusDenied,
			`{"error": "tool is not available"}`, `[{"name": "shell", "arguments": "ls"}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(objs(tc.decision, finalOK)...)
			if tc.tools != nil {
				cfg.Tools = tc.tools
			}
			res := mustRun(t, cfg)
			assert.Equal(t, 1, res.Recorded())
			assert.Equal(t, 0, res.Effects)
			require.Len(t, res.Attempts, 1)
			assert.Equal(t, tc.status, res.Attempts[0].Status)
			assert.JSONEq(t, tc.obs, string(res.Attempts[0].Observation))
			assert.JSONEq(t, tc.toolCalls, string(res.ToolCalls))
			assert.Equal(t, Answered, res.Outcome, "a refusal is an observation, not an outcome")
			assert.Empty(t, res.Diagnostics, "refusals write no diagnostic")
		})
	}
}

func TestRecordIsACopy(t *testing.T) {
	spaced := fvCall(`"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": " scenario-A "`)
	tests := []struct {
		name     string
		decision Decision
	}{
		{"already-parsed decision", obj(spaced)},
		{"raw response", text(spaced)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(tc.decision, obj(finalOK))
			res := mustRun(t, cfg)
			assert.JSONEq(t, `[{"name": "future_value", "arguments": {"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": " scenario-A "}}]`, string(res.ToolCalls))
			assert.JSONEq(t, `{"evidence_id": "ev-1", "output": `+fvOutputArt+`}`, string(res.Attempts[0].Observation), "the trimmed scenario is used")
			assert.JSONEq(t, `{"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": " scenario-A "}`, string(res.Attempts[0].Arguments))
			again := mustRun(t, cfg)
			assert.Equal(t, res, again, "a run changes nothing in its Config")
		})
	}
}

func TestEvidenceIDsCountEveryAttempt(t *testing.T) {
	tests := []struct {
		name      string
		decisions []string
		ids       []string
		last      string
	}{
		{"success after a denial is ev-2", []string{readBose, readAnand}, []string{"ev-1", "ev-2"}, `{"evidence_id": "ev-2", "output": ` + snapAnand + `}`},
		{"after a denial and an invalid attempt", []string{`{"tool": "portfolio.export"}`, `{"tool": "portfolio.read", "arguments": 1}`, fvArticle}, []string{"ev-1", "ev-2", "ev-3"},
			`{"evidence_id": "ev-3", "output": ` + fvOutputArt + `}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, cfgOf(objs(append(tc.decisions, finalOK)...)...))
			var ids []string
			for _, a := range res.Attempts {
				ids = append(ids, a.EvidenceID)
			}
			assert.Equal(t, tc.ids, ids)
			obs := res.Observations()
			assert.JSONEq(t, tc.last, string(obs[len(obs)-1]))
		})
	}
}

func TestTimeouts(t *testing.T) {
	tests := []struct {
		name      string
		decisions []string
		timeouts  []string
		outcome   Outcome
		statuses  []string
		effects   int
		observed  int
	}{
		{"timeout ends the run", []string{readAnand, fvArticle, finalOK}, []string{ToolFutureValue}, Unavailable, []string{"ok", "timeout"}, 2, 1},
		{"invalid attempt never reaches the worker", []string{fvCall(`"principal_inr": 1`), finalOK}, []string{ToolFutureValue}, Answered, []string{"invalid"}, 0, 1},
		{"denied attempt never reaches the worker", []string{readBose, finalOK}, []string{ToolPortfolioRead}, Answered, []string{"denied"}, 0, 1},
		{"another tool's timeout does not matter", []string{readAnand, finalOK}, []string{ToolConcentration}, Answered, []string{"ok"}, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(objs(tc.decisions...)...)
			cfg.Timeouts = tc.timeouts
			res := mustRun(t, cfg)
			assert.Equal(t, tc.outcome, res.Outcome)
			assert.Equal(t, tc.statuses, res.Statuses())
			assert.Equal(t, tc.effects, res.Effects)
			assert.Len(t, res.Observations(), tc.observed)
		})
	}
}

func TestInternalErrorsNeverInTheResult(t *testing.T) {
	tests := []struct {
		name string
		cfg  func() Config
	}{
		{"tool timeout", func() Config {
			c := cfgOf(objs(fvArticle, finalOK)...)
			c.Timeouts = []string{ToolFutureValue}
			return c
		}},
		{"parser failure", func() Config { return cfgOf(text("{")) }},
		{"invalid shape", func() Config { return cfgOf(text("[]")) }},
		{"step budget", func() Config { c := cfgOf(objs(readAnand)...); c.MaxDecisions = 1; return c }},
		{"deadline", func() Config { c := cfgOf(objs(finalOK)...); c.Latencies = []float64{40}; return c }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, tc.cfg())
			require.NotEmpty(t, res.Diagnostics)
			for _, leak := range []string{"Error", "workers/", ".py", "decision 1", "exhausted"} {
				assert.NotContains(t, string(res.UserResult), leak)
			}
		})
	}
}

func TestFinalAssembly(t *testing.T) {
	tests := []struct {
		name      string
		final     string
		result    string
		discarded []string
	}{
		{"four public fields then the recorded trace",
			`{"final": {"outcome": "answered", "claims": [], "evidence_ids": [], "policy_code": "OK"}}`,
			`{"outcome":"answered","claims":[],"evidence_ids":[],"policy_code":"OK","tool_calls":[{"name":"portfolio.read","arguments":{"household":"hh-anand"}}],"portfolio_writes":0}`,
			[]string{}},
		{"missing keys become null",
			`{"final": {"outcome": "escalated"}}`,
			`{"outcome":"escalated","claims":null,"evidence_ids":null,"policy_code":null,"tool_calls":[{"name":"portfolio.read","arguments":{"household":"hh-anand"}}],"portfolio_writes":0}`,
			[]string{}},
		{"values copied unchecked, numbers as written",
			`{"final": {"policy_code": 1.50, "outcome": "clarify", "claims": {"x": 1E+2}, "evidence_ids": "ev-9"}}`,
			`{"outcome":"clarify","claims":{"x":1E+2},"evidence_ids":"ev-9","policy_code":1.50,"tool_calls":[{"name":"portfolio.read","arguments":{"household":"hh-anand"}}],"portfolio_writes":0}`,
			[]string{}},
		{"model trace and notes discarded",
			`{"final": {"outcome": "answered", "notes": "checked twice", "claims": [], "evidence_ids": [], "policy_code": "OK", "tool_calls": [], "portfolio_writes": 3}}`,
			`{"outcome":"answered","claims":[],"evidence_ids":[],"policy_code":"OK","tool_calls":[{"name":"portfolio.read","arguments":{"household":"hh-anand"}}],"portfolio_writes":0}`,
			[]string{"notes", "tool_calls", "portfolio_writes"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, cfgOf(objs(readAnand, tc.final)...))
			assert.Equal(t, tc.result, string(res.UserResult))
			assert.Equal(t, tc.discarded, res.Discarded)
			r := decode(t, res.UserResult).(map[string]any)
			assert.Len(t, r, 6, "exactly six keys")
		})
	}
}

func TestClaimsVerified(t *testing.T) {
	fvClaim := func(ev, extra string) string {
		return `{"value": 3345563.94, "currency": "INR", "scenario": "scenario-A", "as_of": "2026-03-31", "method": "calc-fv-v1"` + extra + `, "evidence_id": "` + ev + `"}`
	}
	tests := []struct {
		name      string
		decisions []string
		want      bool
	}{
		{"article claim", []string{fvArticle, finalWith("answered", "["+fvClaimEv1+"]")}, true},
		{"value written differently, same number", []string{fvArticle, finalWith("answered", `[{"value": 3345563.940, "currency": "INR", "scenario": "scenario-A", "as_of": "2026-03-31", "method": "calc-fv-v1", "evidence_id": "ev-1"}]`)}, true},
		{"snapshot claim", []string{readAnand, finalWith("answered", `[{"household": "hh-anand", "as_of": "2026-03-31", "currency": "INR", "equity_inr": 48000000, "eligible_inr": 120000000, "evidence_id": "ev-1"}]`)}, true},
		{"two claims", []string{readAnand, concAnand, finalWith("answered", `[{"household": "hh-anand", "as_of": "2026-03-31", "currency": "INR", "equity_inr": 48000000.0, "eligible_inr": 120000000, "evidence_id": "ev-1"}, {"concentration": 0.4, "household": "hh-anand", "as_of": "2026-03-31", "method": "calc-conc-v1", "evidence_id": "ev-2"}]`)}, true},
		{"outcome clarify", []string{fvArticle, finalWith("clarify", "["+fvClaimEv1+"]")}, false},
		{"empty claims", []string{fvArticle, finalWith("answered", "[]")}, false},
		{"claims not an array", []string{fvArticle, finalWith("answered", fvClaimEv1)}, false},
		{"claim not an object", []string{fvArticle, finalWith("answered", `["3345563.94"]`)}, false},
		{"missing field", []string{fvArticle, finalWith("answered", `[{"value": 3345563.94, "evidence_id": "ev-1"}]`)}, false},
		{"extra field", []string{fvArticle, finalWith("answered", "["+fvClaim("ev-1", `, "confidence": "high"`)+"]")}, false},
		{"wrong value", []string{fvArticle, finalWith("answered", `[{"value": 3345563.95, "currency": "INR", "scenario": "scenario-A", "as_of": "2026-03-31", "method": "calc-fv-v1", "evidence_id": "ev-1"}]`)}, false},
		{"no evidence id", []string{fvArticle, finalWith("answered", `[{"value": 3345563.94, "currency": "INR", "scenario": "scenario-A", "as_of": "2026-03-31", "method": "calc-fv-v1"}]`)}, false},
		{"evidence id not a string", []string{fvArticle, finalWith("answered", `[{"value": 3345563.94, "currency": "INR", "scenario": "scenario-A", "as_of": "2026-03-31", "method": "calc-fv-v1", "evidence_id": 1}]`)}, false},
		{"evidence id of a refused attempt", []string{readBose, fvArticle, finalWith("answered", "["+fvClaimEv1+"]")}, false},
		{"evidence id of no attempt", []string{finalWith("answered", "["+fvClaimEv1+"]")}, false},
		{"one bad claim spoils the rest", []string{fvArticle, finalWith("answered", "["+fvClaimEv1+", "+fvClaim("ev-2", "")+"]")}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := mustRun(t, cfgOf(objs(tc.decisions...)...))
			assert.Equal(t, tc.want, res.ClaimsVerified)
		})
	}
}

func TestAttemptDimensions(t *testing.T) {
	cfg := cfgOf(objs(readBose, readAnand, fvArticle, `{"final": {"outcome": "answered", "claims": [], "evidence_ids": [], "policy_code": "OK", "notes": "n"}}`)...)
	cfg.MaxDecisions = 3
	res := mustRun(t, cfg)
	assert.Equal(t, StepLimit, res.Outcome)
	require.Len(t, res.Attempts, 3)
	want := []struct {
		index, decision, record int
		name                    string
		status                  Status
		reason                  string
		receipt, delivered      bool
	}{
		{1, 1, 1, "portfolio.read", StatusDenied, "household is not authorised", true, true},
		{2, 2, 2, "portfolio.read", StatusOK, "", true, true},
		{3, 3, 3, "future_value", StatusOK, "", true, false},
	}
	for i, w := range want {
		a := res.Attempts[i]
		assert.Equal(t, w.index, a.Index, "attempt %d index", i+1)
		assert.Equal(t, w.decision, a.Decision, "attempt %d decision", i+1)
		assert.Equal(t, w.record, a.Record, "attempt %d record", i+1)
		assert.Equal(t, w.name, a.Name)
		assert.Equal(t, w.status, a.Status)
		assert.Equal(t, w.reason, a.Reason)
		assert.Equal(t, w.receipt, a.Receipt, "attempt %d receipt", i+1)
		assert.Equal(t, w.delivered, a.Delivered, "attempt %d delivered", i+1)
	}
	assert.JSONEq(t, fvOutputArt, string(res.Attempts[2].Output))

	cfg = cfgOf(objs(fvArticle)...)
	cfg.Timeouts = []string{ToolFutureValue}
	res = mustRun(t, cfg)
	a := res.Attempts[0]
	assert.Equal(t, StatusTimeout, a.Status)
	assert.False(t, a.Receipt, "a timeout sends nothing back")
	assert.Nil(t, a.Observation)
	assert.Nil(t, a.Output)
}

func TestNarration(t *testing.T) {
	cfg := cfgOf(objs(readBose, `{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": "ACCESS_DENIED", "tool_calls": []}}`)...)
	cfg.Latencies = []float64{29.5}
	res := mustRun(t, cfg)
	text := res.Narration()
	for _, want := range []string{
		"clock 0 s < deadline 30 s",
		"clock 29.5 s < deadline 30 s",
		"attempt 1 (portfolio.read) recorded as ev-1",
		"attempt 1 denied: household is not authorised",
		"escalated (model)",
		"model-supplied fields discarded: tool_calls",
	} {
		assert.Contains(t, text, want)
	}
	kinds := map[string]bool{}
	for _, e := range res.Events {
		kinds[e.Kind] = true
		assert.Positive(t, e.Step)
	}
	for _, k := range []string{EventBudget, EventClock, EventRequest, EventParse, EventAttempt, EventDenied, EventOutcome, EventDiscard} {
		assert.True(t, kinds[k], "an event of kind %s", k)
	}

	cfg = cfgOf(objs(finalOK)...)
	cfg.Latencies = []float64{30}
	assert.Contains(t, mustRun(t, cfg).Narration(), "clock 30 s ≥ deadline 30 s")
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Config)
		errSub string
	}{
		{"decision object not JSON", func(c *Config) { c.Decisions = []Decision{obj(`{`)} }, "decision 1"},
		{"decision object not an object", func(c *Config) { c.Decisions = []Decision{obj(`[1]`)} }, "decision 1"},
		{"negative latency", func(c *Config) { c.Latencies = []float64{1, -1} }, "latency 2"},
		{"NaN latency", func(c *Config) { c.Latencies = []float64{math.NaN()} }, "latency 1"},
		{"infinite latency", func(c *Config) { c.Latencies = []float64{math.Inf(1)} }, "latency 1"},
		{"tool outside the catalogue", func(c *Config) { c.Tools = []string{"portfolio.export"} }, "tools"},
		{"timeout outside the catalogue", func(c *Config) { c.Timeouts = []string{"shell"} }, "timeouts"},
		{"negative tool seconds", func(c *Config) { c.ToolSeconds = -1 }, "toolSeconds"},
		{"negative budget", func(c *Config) { c.MaxDecisions = -1 }, "maxDecisions"},
		{"zero deadline", func(c *Config) { c.DeadlineSeconds = 0 }, "deadlineSeconds"},
		{"NaN deadline", func(c *Config) { c.DeadlineSeconds = math.NaN() }, "deadlineSeconds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := cfgOf(obj(finalOK))
			tc.modify(&cfg)
			_, err := Run(cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.errSub)
		})
	}
}

func TestDefaults(t *testing.T) {
	cfg := NewConfig()
	assert.Equal(t, []string{"hh-anand"}, cfg.Households)
	assert.Equal(t, Catalogue(), cfg.Tools)
	assert.Equal(t, 4, cfg.MaxDecisions)
	assert.Equal(t, 30.0, cfg.DeadlineSeconds)
	assert.Zero(t, cfg.ToolSeconds)
	assert.Empty(t, cfg.Timeouts)
	assert.Empty(t, cfg.Latencies)
	assert.Zero(t, cfg.Faults)

	for _, o := range Outcomes() {
		code, runtime := PolicyCode(o)
		assert.Equal(t, !ModelOutcome(o), runtime, "%s", o)
		assert.Equal(t, runtime, code != "")
	}
}

func TestInjectionGrantsNothing(t *testing.T) {
	res := mustRun(t, cfgOf(objs(
		`{"tool": "portfolio.export", "arguments": {"household": "hh-bose", "format": "csv"}}`,
		readBose,
		`{"final": {"outcome": "escalated", "claims": [], "evidence_ids": [], "policy_code": "NO_APPROVED_CONTENT"}}`,
	)...))
	assert.Equal(t, Escalated, res.Outcome)
	assert.Equal(t, []string{"denied", "denied"}, res.Statuses())
	assert.JSONEq(t, `[{"error": "tool is not available"}, {"error": "household is not authorised"}]`, observationsJSON(res))
	assert.Equal(t, 0, res.Effects)
	assert.Equal(t, 2, res.Recorded())
}
