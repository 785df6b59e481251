package householdcheck

import (
	"context"
	"encoding/json"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/household"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// registry holds the household family alone.
func registry(t *testing.T) *scenario.Registry {
	t.Helper()
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	return reg
}

// verify runs desk files against the household family.
func verify(t *testing.T, paths ...string) *verifier.SuiteResult {
	t.Helper()
	var inputs []verifier.Input
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		inputs = append(inputs, verifier.Input{Path: p, Data: data})
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: registry(t)})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	return suite
}

const bundled = "../../../cases/household-desk.json"
const more = "testdata/household-more.json"

func TestBundledDeskIsTheSpecsDesk(t *testing.T) {
	ours, err := os.ReadFile(bundled)
	require.NoError(t, err)
	if spec, err := os.ReadFile("../../../../shared/desks/household-desk.json"); err == nil {
		assert.Equal(t, string(spec), string(ours), "cases/household-desk.json is a byte-for-byte copy of the specification's desk")
	}
}

func TestDesksPass(t *testing.T) {
	suite := verify(t, bundled, more)
	for _, r := range suite.Results {
		assert.Equal(t, verifier.Pass, r.Status, "%s: %+v %s", r.Case.FullID(), r.Mismatches, r.Err)
	}
	assert.Equal(t, 16, countDesk(suite, "household-desk"))
}

func countDesk(s *verifier.SuiteResult, id string) int {
	n := 0
	for _, r := range s.Results {
		if r.Case.Desk.ID == id {
			n++
		}
	}
	return n
}

// TestEveryFaultIsCaughtByTheBundledDesk: §5's table, case by case.
func TestEveryFaultIsCaughtByTheBundledDesk(t *testing.T) {
	suite := verify(t, bundled)
	strength := verifier.MeasureStrength(context.Background(), suite.Results, registry(t).Faults())
	require.Len(t, strength.Faults, len(household.FaultList))
	want := map[string][]string{
		"attempt-recorded-after-admission": {"unauthorised-read-recorded", "injection-export-rejected"},
		"trace-not-copied":                 {"recorded-arguments-are-copies"},
		"model-trace-kept":                 {"model-trace-discarded"},
		"household-check-skipped":          {"unauthorised-read-recorded"},
		"snapshot-args-unchecked":          {"altered-evidence-rejected"},
		"snapshot-compare-numeric":         {"evidence-compared-as-text"},
		"deadline-after-only":              {"deadline-before-model-call"},
		"late-response-accepted":           {"late-response-discarded"},
		"internal-error-leaked":            {"tool-timeout-unavailable"},
		"runtime-outcome-claimable":        {"runtime-outcome-not-claimable"},
		"step-limit-off-by-one":            {"step-limit"},
	}
	for _, f := range strength.Faults {
		assert.True(t, f.Caught(), "%s is caught", f.Fault.Name)
		for _, id := range want[f.Fault.Name] {
			assert.Contains(t, f.CaughtBy, "household-desk/"+id, "%s is caught by %s", f.Fault.Name, id)
		}
	}
}

func TestMoreDeskCatchesEveryFaultToo(t *testing.T) {
	suite := verify(t, more)
	strength := verifier.MeasureStrength(context.Background(), suite.Results, registry(t).Faults())
	for _, f := range strength.Faults {
		assert.True(t, f.Caught(), "%s is caught (hint: %s)", f.Fault.Name, f.Fault.Hint)
	}
}

// TestDimensionsOfTheBundledDesk: the figures below are worked out by hand
// from the desk's expected blocks (README, "Boundary response").
func TestDimensionsOfTheBundledDesk(t *testing.T) {
	suite := verify(t, bundled)
	d := verifier.SumDimensions(suite.Results)
	assert.Equal(t, verifier.Dimension{Numerator: 10, Denominator: 10, Applicable: true}, d.DenialPropagation)
	assert.Equal(t, verifier.Dimension{Numerator: 13, Denominator: 14, Applicable: true}, d.AllowedWork, "the timed-out run is permitted work that never came back")
	assert.Equal(t, verifier.Dimension{Numerator: 14, Denominator: 14, Applicable: true}, d.FailClosed)
	assert.Equal(t, verifier.Dimension{Numerator: 14, Denominator: 14, Applicable: true}, d.RetryAmplification.Dimension)
	assert.Equal(t, "1.00", d.RetryAmplification.Ratio)
	assert.Equal(t, verifier.Dimension{Numerator: 14, Denominator: 14, Applicable: true}, d.TraceCompleteness)
	assert.Equal(t, 0, d.ExtraEffects)
	assert.Equal(t, verifier.Controls{Allowed: 6, Denied: 3, Mixed: 5, None: 2}, d.Controls)
	for _, r := range suite.Results {
		p, n := script([]byte(r.Case.Given.Raw), fields(r.Case))
		if r.Boundary == nil {
			assert.Zero(t, p+n, r.Case.ID)
			continue
		}
		assert.Equal(t, [2]int{p, n}, [2]int{r.Boundary.Permitted, r.Boundary.Denied}, "%s: Script agrees with the boundary", r.Case.ID)
	}
}

func fields(c *verifier.Case) []scenario.Field {
	out := make([]scenario.Field, len(c.Expected))
	for i, f := range c.Expected {
		out[i] = scenario.Field{Key: f.Key, Raw: json.RawMessage(f.Value.Raw)}
	}
	return out
}

// runCase runs one case of the bundled desk under faults.
func runCase(t *testing.T, id string, faults household.Fault) (scenario.Observation, []scenario.Event) {
	t.Helper()
	suite := verify(t, bundled)
	for _, r := range suite.Results {
		if r.Case.ID == id {
			tr := &scenario.Trace{}
			obs, err := Household.Compile([]byte(r.Case.Given.Raw), fields(r.Case)).Run(context.Background(),
				scenario.Env{Faults: uint64(faults), Trace: tr})
			require.NoError(t, err)
			return obs, tr.Events()
		}
	}
	t.Fatalf("no case %s", id)
	return scenario.Observation{}, nil
}

func TestDimensionsUnderFaults(t *testing.T) {
	// A skipped household check lets the denied read run.
	obs, _ := runCase(t, "unauthorised-read-recorded", household.FaultHouseholdCheckSkipped)
	b := obs.Boundary
	require.NotNil(t, b)
	assert.Equal(t, 0, b.DeniedVisible)
	assert.False(t, b.FailClosed)
	assert.Equal(t, 1, b.ExtraEffects)
	assert.Equal(t, 1, b.ServiceRequests)
	assert.Equal(t, 0, b.ServiceExpected)

	// An attempt recorded only after admission leaves the denial out of the
	// record: the trace no longer reconciles.
	obs, _ = runCase(t, "unauthorised-read-recorded", household.FaultAttemptRecordedAfterAdmission)
	assert.False(t, obs.Boundary.Complete)
	assert.Equal(t, 1, obs.Boundary.DeniedVisible, "the denial itself still reaches the model")

	// The model's own trace in the result does not match the record.
	obs, _ = runCase(t, "model-trace-discarded", household.FaultModelTraceKept)
	assert.False(t, obs.Boundary.Complete)

	// Unchecked snapshot arguments run a scripted-invalid attempt.
	obs, _ = runCase(t, "altered-evidence-rejected", household.FaultSnapshotArgsUnchecked)
	assert.False(t, obs.Boundary.FailClosed)
	assert.Equal(t, 1, obs.Boundary.ExtraEffects)
	assert.Equal(t, 0, obs.Boundary.DeniedVisible)
	assert.Equal(t, 1, obs.Boundary.Worked)

	// The correct model on the same cases.
	for _, id := range []string{"unauthorised-read-recorded", "model-trace-discarded", "altered-evidence-rejected", "tool-timeout-unavailable"} {
		obs, _ = runCase(t, id, 0)
		b := obs.Boundary
		assert.True(t, b.FailClosed && b.Complete && b.DeniedVisible == b.Denied && b.ExtraEffects == 0, "%s: %+v", id, b)
	}
	obs, _ = runCase(t, "tool-timeout-unavailable", 0)
	assert.Equal(t, scenario.Boundary{Actions: 2, Denied: 1, DeniedVisible: 1, Permitted: 1, Worked: 0, FailClosed: true,
		ServiceRequests: 1, ServiceExpected: 1, Complete: true}, *obs.Boundary, "a timeout is permitted with no work")
}

func TestNoActionNoBoundary(t *testing.T) {
	obs, _ := runCase(t, "clarify-missing-horizon", 0)
	assert.Nil(t, obs.Boundary)
	obs, _ = runCase(t, "runtime-outcome-not-claimable", 0)
	assert.Nil(t, obs.Boundary)
}

func TestScriptDerivation(t *testing.T) {
	f := func(key, raw string) scenario.Field { return scenario.Field{Key: key, Raw: json.RawMessage(raw)} }
	read := `{"tool": "portfolio.read", "arguments": {"household": "hh-anand"}}`
	fin := `{"final": {"outcome": "answered"}}`
	for _, tc := range []struct {
		name     string
		given    string
		expected []scenario.Field
		p, d     int
	}{
		{"statuses win", `{"decisions": []}`, []scenario.Field{f("effects", "5"), f("attempts", "9"), f("statuses", `["ok","denied","invalid","timeout"]`)}, 2, 2},
		{"attempts", `{"decisions": []}`, []scenario.Field{f("effects", "1"), f("attempts", "3")}, 1, 2},
		{"toolCalls", `{"decisions": []}`, []scenario.Field{f("effects", "0"), f("toolCalls", `[{},{}]`)}, 0, 2},
		{"denied and invalid", `{"decisions": []}`, []scenario.Field{f("effects", "1"), f("denied", "1"), f("invalid", "2")}, 1, 3},
		{"effects over attempts", `{"decisions": []}`, []scenario.Field{f("effects", "2"), f("attempts", "1")}, 2, 0},
		{"offered: up to the first final", `{"decisions": [` + read + `,` + read + `,` + fin + `,` + read + `]}`, []scenario.Field{f("effects", "1")}, 1, 1},
		{"offered: within the budget", `{"decisions": [` + read + `,` + read + `,` + read + `], "maxDecisions": 2}`, []scenario.Field{f("effects", "0")}, 0, 2},
		{"offered: raw text counts, bad text stops", `{"decisions": [` + jsonString(read) + `, "{", ` + read + `]}`, []scenario.Field{f("effects", "0")}, 0, 1},
		{"offered: stops at the scripted deadline", `{"decisions": [` + read + `,` + read + `], "latencies": [10, 25]}`, []scenario.Field{f("effects", "1")}, 1, 0},
		{"offered: a bad shape stops", `{"decisions": [{"tool": 1}, ` + read + `]}`, []scenario.Field{f("effects", "0")}, 0, 0},
	} {
		p, d := script([]byte(tc.given), tc.expected)
		assert.Equal(t, [2]int{tc.p, tc.d}, [2]int{p, d}, tc.name)
	}
}

// script is the plan's counts of a case.
func script(given []byte, expected []scenario.Field) (permitted, denied int) {
	return Household.Compile(given, expected).Script()
}

// lint is the plan's problems of a case.
func lint(t *testing.T, given string, expected []scenario.Field) []scenario.Problem {
	t.Helper()
	c := Household.Compile([]byte(given), expected)
	require.NoError(t, c.Err())
	return c.Problems()
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestGivenOverridesOnlyWhatIsSet(t *testing.T) {
	for name, decode := range map[string]func([]byte) (*given, error){"decodeGiven": decodeGiven, "decodeGivenPlain": decodeGivenPlain} {
		t.Run(name, func(t *testing.T) { givenOverridesOnlyWhatIsSet(t, decode) })
	}
}

func givenOverridesOnlyWhatIsSet(t *testing.T, decode func([]byte) (*given, error)) {
	readGiven := func(text string) household.Config {
		g, err := decode([]byte(text))
		require.NoError(t, err)
		return g.cfg
	}
	cfg := readGiven(`{"decisions": [{"final": {}}, "raw"]}`)
	def := household.NewConfig()
	assert.Equal(t, def.Households, cfg.Households)
	assert.Equal(t, def.Tools, cfg.Tools)
	assert.Equal(t, def.MaxDecisions, cfg.MaxDecisions)
	assert.Equal(t, def.DeadlineSeconds, cfg.DeadlineSeconds)
	assert.Nil(t, cfg.Latencies)
	assert.Nil(t, cfg.Timeouts)
	require.Len(t, cfg.Decisions, 2)
	assert.Equal(t, `{"final": {}}`, string(cfg.Decisions[0].Object))
	assert.Equal(t, household.Decision{Text: "raw"}, cfg.Decisions[1])

	cfg = readGiven(`{"decisions": [{"tool": "concentration", "arguments": {"equity_inr": 48000000.0}}], "households": [], "tools": [], "timeouts": ["future_value"],
		"latencies": [1.5, 0], "toolSeconds": 2, "maxDecisions": 0, "deadlineSeconds": 0.25}`)
	assert.Equal(t, []string{}, cfg.Households, "an empty list authorises nobody")
	assert.Equal(t, []string{}, cfg.Tools)
	assert.Equal(t, []string{"future_value"}, cfg.Timeouts)
	assert.Equal(t, []float64{1.5, 0}, cfg.Latencies)
	assert.Equal(t, 2.0, cfg.ToolSeconds)
	assert.Equal(t, 0, cfg.MaxDecisions)
	assert.Equal(t, 0.25, cfg.DeadlineSeconds)
	assert.Contains(t, string(cfg.Decisions[0].Object), "48000000.0", "number literals reach the model as written")
}

func TestExplainNarration(t *testing.T) {
	text := func(events []scenario.Event) string {
		var b strings.Builder
		for _, e := range events {
			b.WriteString(e.Text + "\n")
		}
		return b.String()
	}
	_, ev := runCase(t, "unauthorised-read-recorded", 0)
	s := text(ev)
	assert.Contains(t, s, "authorised households: hh-anand (default)")
	assert.Contains(t, s, "attempt 1 (portfolio.read) recorded as ev-1: a deep copy, before any check")
	assert.Contains(t, s, "attempt 1 denied: household is not authorised")
	assert.Contains(t, s, "clock 0 s < deadline 30 s: the model is asked")
	assert.Contains(t, s, "escalated (model)")

	_, ev = runCase(t, "concentration-from-snapshot", 0)
	assert.Contains(t, text(ev), "attempt 1 passed admit and the portfolio.read contract — admitted: portfolio.read is available to the caller, the arguments are an object, household hh-anand is authorised")

	_, ev = runCase(t, "model-trace-discarded", 0)
	assert.Contains(t, text(ev), "model-supplied fields discarded: tool_calls, portfolio_writes, notes")

	_, ev = runCase(t, "late-response-discarded", 0)
	s = text(ev)
	assert.Contains(t, s, "clock 31 s ≥ deadline 30 s: the response is late and discarded unparsed")
	assert.Contains(t, s, "deadline_exceeded (runtime)")
	assert.Contains(t, s, "restricted diagnostics: TimeoutError: request deadline exhausted")

	for _, e := range ev {
		if strings.HasPrefix(e.Text, "clock 31 s") {
			assert.Equal(t, 2, e.Seq, "events are numbered by decision")
		}
	}
}

func TestSuggestAndShape(t *testing.T) {
	obs, _ := runCase(t, "tool-timeout-unavailable", 0)
	keys := suggest(nil, normalized(obs))
	assert.Equal(t, []string{"outcome", "effects", "attempts", "denied", "invalid", "toolCalls", "statuses", "observations", "policyCode", "modelCalls", "decisions", "diagnostics"}, keys)
	obs, _ = runCase(t, "clarify-missing-horizon", 0)
	assert.Equal(t, []string{"outcome", "effects", "attempts", "result", "policyCode", "modelCalls", "decisions", "claimsVerified"}, suggest(nil, normalized(obs)))
	_, ok := shape("resultExcludes", map[string]any{})
	assert.False(t, ok, "resultExcludes is never proposed")
	v, ok := shape("result", "x")
	assert.True(t, ok)
	assert.Equal(t, "x", v)
}

func normalized(obs scenario.Observation) map[string]any {
	out := map[string]any{}
	for k, v := range obs.Values {
		out[k] = scenario.Normalize(v)
	}
	return out
}

func TestLint(t *testing.T) {
	f := func(key, raw string) scenario.Field { return scenario.Field{Key: key, Raw: json.RawMessage(raw)} }
	ps := lint(t, `{"decisions": []}`, []scenario.Field{
		f("effects", "2"), f("attempts", "3"), f("denied", "0"), f("invalid", "0"), f("toolCalls", "[{}]"),
		f("statuses", `["timeout","ok","denied"]`), f("observations", "[]"),
	})
	var msgs []string
	for _, p := range ps {
		assert.True(t, p.Warning)
		msgs = append(msgs, p.Pointer+": "+p.Message)
	}
	assert.ElementsMatch(t, []string{
		"/expected/denied: 1 statuses are denied but 0 denied expected",
		"/expected/statuses: a timeout ends the run: only the last status can be timeout",
		"/expected/observations: 0 observations but 2 statuses that are not timeout (each of them sends one back)",
		"/expected/toolCalls: 1 recorded tool calls but 3 attempts expected",
	}, msgs)

	shallow := `{"decisions": [{"tool": "x", "arguments": {"a": [[{"b": "]]]]"}]]}}]}`
	assert.Empty(t, lint(t, shallow, []scenario.Field{f("effects", "0")}))
	deep := `{"tool": "x", "arguments": ` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`
	ps = lint(t, `{"decisions": ["x", `+deep+`]}`, []scenario.Field{f("effects", "0")})
	require.Len(t, ps, 1)
	assert.Equal(t, "/given/decisions/1", ps[0].Pointer)
	assert.False(t, ps[0].Warning)
}

// TestInvalidInputNeverRuns: what the runtime model refuses as input is
// refused by the schema or the lint with a pointer, exit 2 territory.
func TestInvalidInputNeverRuns(t *testing.T) {
	reg := registry(t)
	for _, tc := range []struct{ name, given string }{
		{"/cases/0/given/tools/0", `{"decisions": [], "tools": ["portfolio.export"]}`},
		{"/cases/0/given/timeouts/0", `{"decisions": [], "timeouts": ["shell"]}`},
		{"/cases/0/given/decisions/0", `{"decisions": [3]}`},
		{"/cases/0/given/latencies/0", `{"decisions": [], "latencies": [-1]}`},
		{"/cases/0/given/deadlineSeconds", `{"decisions": [], "deadlineSeconds": 0}`},
		{"/cases/0/given/maxDecisions", `{"decisions": [], "maxDecisions": -1}`},
		{"/cases/0/given/toolSeconds", `{"decisions": [], "toolSeconds": -0.5}`},
		{"/cases/0/given/households/0", `{"decisions": [], "households": [null]}`},
		{"/cases/0/given", `{}`},
		{"/cases/0/expected/resultExcludes", `{"decisions": []}`},
		{"/cases/0/given/deadlineSeconds", `{"decisions": [], "deadlineSeconds": 1e-400}`}, // positive as written, 0 as a double
	} {
		name, given := tc.name, tc.given
		expected := `{"outcome": "parser_failure", "effects": 0}`
		if strings.HasSuffix(name, "resultExcludes") {
			expected = `{"outcome": "parser_failure", "effects": 0, "resultExcludes": ""}`
		}
		doc := `{"schemaVersion": 1, "id": "d", "title": "t", "label": "DO NOT EXECUTE", "cases": [{"id": "c", "title": "t", "scenario": "household", "given": ` + given + `, "expected": ` + expected + `}]}`
		_, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "d.json", Data: []byte(doc)}}, verifier.Options{Registry: reg})
		require.NoError(t, err)
		require.True(t, ds.HasErrors(), "%s: %s", name, given)
		var all []string
		for _, d := range ds {
			all = append(all, d.String())
		}
		assert.Contains(t, strings.Join(all, "\n"), "("+name+")", given)
	}
}

// TestNewDeskAsPrinted: `deskcheck new household` validates and verifies
// as printed, with every given key and every expected key but
// resultExcludes.
func TestNewDeskAsPrinted(t *testing.T) {
	reg := registry(t)
	data, err := verifier.NewDesk(context.Background(), reg, "household")
	require.NoError(t, err)
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "new.json", Data: data}}, verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	require.Len(t, suite.Results, 1)
	r := suite.Results[0]
	assert.Equal(t, verifier.Pass, r.Status, "%+v", r.Mismatches)
	for _, k := range reg.GivenKeys("household") {
		assert.Contains(t, r.Case.Given.Raw, `"`+k+`"`)
	}
	var keys []string
	for _, f := range r.Case.Expected {
		keys = append(keys, f.Key)
	}
	want := Household.Expected.Keys()
	assert.Equal(t, want[:len(want)-1], keys)
	require.NotNil(t, r.Boundary)
	assert.Equal(t, "mixed", verifier.ControlKind(r.Boundary))
}

// Raw text nested far deeper than any parser should follow is counted as
// not a decision, in bounded stack: with a small stack limit, a recursive
// validity check of a million brackets would kill the process.
func TestOfferedDeepRawTextInBoundedStack(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	read := `{"tool": "portfolio.read", "arguments": {"household": "hh-anand"}}`
	deep := strings.Repeat("[", 1_000_000)
	given := `{"decisions": [` + jsonString(read) + `, ` + jsonString(deep) + `, ` + read + `]}`
	p, d := script([]byte(given), []scenario.Field{{Key: "effects", Raw: json.RawMessage("0")}})
	assert.Equal(t, [2]int{0, 1}, [2]int{p, d})
}

// TestOneDecodePerCase: the engine decodes each case's given block once,
// at load, however many steps read it.
func TestOneDecodePerCase(t *testing.T) {
	before := scenario.Calls.Decodes.Load()
	suite := verify(t, bundled, more)
	assert.Equal(t, int64(len(suite.Results)), scenario.Calls.Decodes.Load()-before)
}

// TestRunsLeaveTheGivenAlone: runs under every fault and every mutant
// share one decoded given block and never write to it.
func TestRunsLeaveTheGivenAlone(t *testing.T) {
	for _, c := range checktest.Desk(t, bundled) {
		g, err := decodeGiven(c.Given)
		require.NoError(t, err)
		faults := []household.Fault{0}
		for _, f := range household.FaultList {
			faults = append(faults, f.Fault)
		}
		envs := []scenario.Env{}
		for _, f := range faults {
			envs = append(envs, scenario.Env{Faults: uint64(f)})
		}
		for m := 1; m <= len(mutants); m++ {
			envs = append(envs, scenario.Env{Mutant: m})
		}
		for _, env := range envs {
			env.Trace = &scenario.Trace{}
			_, _, err := run(context.Background(), g, env)
			require.NoError(t, err)
		}
		fresh, err := decodeGiven(c.Given)
		require.NoError(t, err)
		require.Equal(t, fresh, g, c.ID)
	}
}
