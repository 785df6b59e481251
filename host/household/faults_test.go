package household

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/fault"
)

// observe runs cfg with faults and renders every observable.
func observe(t *testing.T, cfg Config, faults Faults) string {
	t.Helper()
	cfg.Faults = faults
	res := mustRun(t, cfg)
	return fmt.Sprintf("outcome %s · effects %d · attempts %d · statuses %v · toolCalls %s · observations %s · result %s · modelCalls %d · decisions %d · claims %v · diagnostics %q",
		res.Outcome, res.Effects, res.Recorded(), res.Statuses(), res.ToolCalls, observationsJSON(res), res.UserResult,
		res.ModelCalls, res.Decisions, res.ClaimsVerified, res.Diagnostics)
}

func TestEveryFaultIsLive(t *testing.T) {
	with := func(c Config, f func(*Config)) Config { f(&c); return c }
	fixtures := map[Fault]Config{
		FaultAttemptRecordedAfterAdmission: cfgOf(objs(readBose, finalOK)...),
		FaultTraceNotCopied: cfgOf(objs(fvCall(`"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": " scenario-A "`),
			finalOK)...),
		FaultModelTraceKept: cfgOf(objs(readAnand,
			`{"final": {"outcome": "answered", "claims": [], "evidence_ids": [], "policy_code": "OK", "tool_calls": [], "portfolio_writes": 0}}`)...),
		FaultHouseholdCheckSkipped: cfgOf(objs(readBose, finalOK)...),
		FaultSnapshotArgsUnchecked: cfgOf(objs(readAnand,
			`{"tool": "concentration", "arguments": {"equity_inr": 4800000, "eligible_inr": 120000000}}`, finalOK)...),
		FaultSnapshotCompareNumeric: cfgOf(objs(readAnand,
			`{"tool": "concentration", "arguments": {"equity_inr": 48000000.0, "eligible_inr": 120000000}}`, finalOK)...),
		FaultDeadlineAfterOnly: with(cfgOf(objs(readAnand, finalOK)...), func(c *Config) {
			c.Latencies, c.ToolSeconds = []float64{10}, 20
		}),
		FaultLateResponseAccepted: with(cfgOf(objs(readAnand, finalOK)...), func(c *Config) {
			c.Latencies = []float64{12, 19}
		}),
		FaultInternalErrorLeaked: with(cfgOf(objs(fvArticle, finalOK)...), func(c *Config) {
			c.Timeouts = []string{ToolFutureValue}
		}),
		FaultRuntimeOutcomeClaimable: cfgOf(objs(finalWith("unavailable", "[]"))...),
		FaultStepLimitOffByOne:       cfgOf(objs(readAnand, readAnand, readAnand, readAnand, finalOK)...),
		FaultDenyAll:                 cfgOf(objs(readAnand, finalOK)...),
	}
	require.Len(t, fixtures, len(FaultList), "one fixture per fault")
	for _, info := range FaultList {
		t.Run(info.Name, func(t *testing.T) {
			cfg, ok := fixtures[info.Fault]
			require.True(t, ok, "a fixture for %s", info.Name)
			correct, faulty := observe(t, cfg, Faults{}), observe(t, cfg, Faults{}.With(info.Fault))
			assert.NotEqual(t, correct, faulty, "%s changes what can be observed", info.Name)
		})
	}
}

func TestFaultEffects(t *testing.T) {
	tests := []struct {
		name  string
		fault Fault
		cfg   Config
		check func(t *testing.T, r *Result)
	}{
		{"recorded after admission: a denied read leaves no record", FaultAttemptRecordedAfterAdmission, cfgOf(objs(readBose, readAnand, finalOK)...),
			func(t *testing.T, r *Result) {
				assert.Equal(t, 1, r.Recorded())
				assert.Equal(t, []string{"denied", "ok"}, r.Statuses())
				assert.Equal(t, "ev-1", r.Attempts[1].EvidenceID)
				assert.Equal(t, 0, r.Attempts[0].Record)
			}},
		{"trace not copied: the record shows the trimmed scenario", FaultTraceNotCopied,
			cfgOf(objs(fvCall(`"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": " scenario-A "`), finalOK)...),
			func(t *testing.T, r *Result) {
				assert.JSONEq(t, `[{"name": "future_value", "arguments": {"principal_inr": 2500000, "annual_rate": 0.06, "years": 5, "scenario": "scenario-A"}}]`, string(r.ToolCalls))
			}},
		{"model trace kept", FaultModelTraceKept,
			cfgOf(objs(readAnand, `{"final": {"outcome": "answered", "claims": [], "evidence_ids": [], "policy_code": "OK", "tool_calls": [{"name": "future_value"}], "portfolio_writes": 2, "notes": "x"}}`)...),
			func(t *testing.T, r *Result) {
				assert.Equal(t, `{"outcome":"answered","claims":[],"evidence_ids":[],"policy_code":"OK","tool_calls":[{"name":"future_value"}],"portfolio_writes":2}`, string(r.UserResult))
				assert.Equal(t, []string{"notes"}, r.Discarded)
			}},
		{"household check skipped: another household's snapshot is read", FaultHouseholdCheckSkipped, cfgOf(objs(readBose, finalOK)...),
			func(t *testing.T, r *Result) {
				assert.Equal(t, []string{"ok"}, r.Statuses())
				assert.Equal(t, 1, r.Effects)
			}},
		{"snapshot args unchecked: output still from the snapshot", FaultSnapshotArgsUnchecked,
			cfgOf(objs(readAnand, `{"tool": "concentration", "arguments": {"equity_inr": 1, "eligible_inr": 2}}`, finalOK)...),
			func(t *testing.T, r *Result) {
				assert.JSONEq(t, `{"evidence_id": "ev-2", "output": `+concOutput+`}`, string(r.Attempts[1].Observation))
			}},
		{"snapshot compared numerically: the string of digits is refused", FaultSnapshotCompareNumeric,
			cfgOf(objs(readAnand, `{"tool": "concentration", "arguments": {"equity_inr": "48000000", "eligible_inr": 120000000}}`,
				`{"tool": "concentration", "arguments": {"equity_inr": 4.8e7, "eligible_inr": 120000000}}`, finalOK)...),
			func(t *testing.T, r *Result) {
				assert.Equal(t, []string{"ok", "invalid", "ok"}, r.Statuses())
			}},
		{"deadline after only: the model is asked at 30 s", FaultDeadlineAfterOnly,
			func() Config {
				c := cfgOf(objs(readAnand, finalOK)...)
				c.Latencies, c.ToolSeconds = []float64{10}, 20
				return c
			}(),
			func(t *testing.T, r *Result) {
				assert.Equal(t, DeadlineExceeded, r.Outcome)
				assert.Equal(t, 2, r.ModelCalls)
			}},
		{"late response accepted", FaultLateResponseAccepted,
			func() Config { c := cfgOf(objs(readAnand, finalOK)...); c.Latencies = []float64{12, 19}; return c }(),
			func(t *testing.T, r *Result) {
				assert.Equal(t, Answered, r.Outcome)
				assert.Equal(t, 2, r.Decisions)
			}},
		{"internal error leaked into the policy code", FaultInternalErrorLeaked,
			func() Config { c := cfgOf(objs(fvArticle)...); c.Timeouts = []string{ToolFutureValue}; return c }(),
			func(t *testing.T, r *Result) {
				assert.JSONEq(t, `"TimeoutError: future_value worker timed out (workers/future_value.py:88)"`, string(r.PolicyCode))
				assert.Contains(t, string(r.UserResult), "workers/future_value.py")
			}},
		{"runtime outcome claimable", FaultRuntimeOutcomeClaimable, cfgOf(objs(finalWith("step_limit", "[]"))...),
			func(t *testing.T, r *Result) {
				assert.Equal(t, StepLimit, r.Outcome)
				assert.JSONEq(t, `"OK"`, string(r.PolicyCode))
				assert.Empty(t, r.Diagnostics)
			}},
		{"step limit off by one: a fifth decision", FaultStepLimitOffByOne, cfgOf(objs(readAnand, readAnand, readAnand, readAnand, finalOK)...),
			func(t *testing.T, r *Result) {
				assert.Equal(t, Answered, r.Outcome)
				assert.Equal(t, 5, r.Decisions)
			}},
		{"deny all: an authorised read is refused", FaultDenyAll, cfgOf(objs(readAnand, finalOK)...),
			func(t *testing.T, r *Result) {
				assert.Equal(t, 0, r.Effects)
				assert.Equal(t, []string{"denied"}, r.Statuses())
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Faults = Faults{}.With(tc.fault)
			tc.check(t, mustRun(t, cfg))
		})
	}
}

func TestFaultList(t *testing.T) {
	names := []string{
		"attempt-recorded-after-admission", "trace-not-copied", "model-trace-kept", "household-check-skipped",
		"snapshot-args-unchecked", "snapshot-compare-numeric", "deadline-after-only", "late-response-accepted",
		"internal-error-leaked", "runtime-outcome-claimable", "step-limit-off-by-one", "deny-all",
	}
	require.NoError(t, fault.Check(FaultList, "scenario household: "))
	require.Len(t, FaultList, len(names))
	for i, f := range FaultList {
		assert.Equal(t, names[i], f.Name, "declaration order")
	}
}
