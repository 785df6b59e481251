package verifier

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/scenario"
)

// strengthDesks are the desks the fault-skipping tests run: the bundled
// ones (every family, cases judged on several releases) and every
// family's own desks beside its adapter.
func strengthDesks(t *testing.T) []*Case {
	t.Helper()
	paths, err := filepath.Glob("../cases/*.json")
	require.NoError(t, err)
	own, err := filepath.Glob("../host/*/*check/testdata/*.json")
	require.NoError(t, err)
	return loadCases(t, append(paths, own...)...)
}

// TestUnaskedFaultsChangeNothing holds the rule runUnder relies on: a case
// whose correct run never checked a fault gives exactly its correct result
// under that fault. Every fault of every host meets every case of its host.
// A model that read its faults other than through Has, or a check not
// noted, would show here as a result that changed.
func TestUnaskedFaultsChangeNothing(t *testing.T) {
	ctx := context.Background()
	cases := strengthDesks(t)
	correct := runAll(ctx, cases, nil, nil)
	asked, unasked := 0, 0
	var changed []string
	for _, f := range testReg.Faults() {
		if f.Mutant != 0 {
			continue
		}
		for i, c := range cases {
			_, fam := c.Spec()
			if fam.Host.Name != f.Host || correct[i].Status == NotApplicable {
				continue
			}
			if correct[i].Asked&f.ID != 0 {
				asked++
				continue
			}
			unasked++
			under := judge(ctx, c, nil, &f)
			want := correct[i]
			want.Mismatches, under.Mismatches = nil, nil // under a fault only the verdict is compared
			if !assert.ObjectsAreEqual(want, under) && len(changed) < 10 {
				changed = append(changed, c.FullID()+" under "+f.Host+"/"+f.Name)
			}
		}
	}
	assert.Empty(t, changed, "results that changed under a fault their correct run never checked")
	t.Logf("%d case-and-fault pairs checked the fault, %d never did", asked, unasked)
	assert.Positive(t, asked, "some runs check some faults")
	assert.Greater(t, unasked, asked, "most faults are outside most cases' runs")
}

func TestStrengthIsTheSameWithoutReuse(t *testing.T) {
	ctx := context.Background()
	cases := strengthDesks(t)
	baseline := runAll(ctx, cases, nil, nil)
	faults := testReg.Faults()
	reused := MeasureStrength(ctx, baseline, faults)
	reuseUnasked = false
	t.Cleanup(func() { reuseUnasked = true })
	ranAll := MeasureStrength(ctx, baseline, faults)
	assert.Empty(t, cmp.Diff(ranAll, reused), "taking the correct results of cases that never checked a fault changes nothing")
	assert.Positive(t, reused.Caught())
}

// askingFamily has one scenario on two release groups: the older checks
// fault 1, the newer fault 2, and each fault breaks the release that
// checks it.
func askingFamily() scenario.Family {
	sc := scenario.Declare(&scenario.Scenario{
		Name: "ask", Description: "checks a fault per release", Unit: "call",
		Schema:   []byte(`{"given": {"type": "object"}, "expected": {"type": "object", "additionalProperties": false, "properties": {"value": {}}}}`),
		Expected: scenario.Observables{{Key: "value", Comparer: scenario.Exact}},
	}, scenario.Kind[struct{}, struct{}, struct{}]{
		Decode:  func([]byte) (struct{}, error) { return struct{}{}, nil },
		Suggest: func(struct{}, map[string]any) []string { return nil },
		Run: func(_ context.Context, _ struct{}, env scenario.Env) (scenario.Observation, struct{}, error) {
			faults := fault.Of[uint64](env.Faults).Asking(env.Asked)
			check := uint64(1)
			if env.Release >= "2.0.0" {
				check = 2
			}
			value := "ok"
			if faults.Has(check) {
				value = "broken"
			}
			return scenario.Observation{Values: map[string]any{"value": value}}, struct{}{}, nil
		},
	})
	return scenario.Family{
		Host: scenario.Host{Name: "asking", Values: scenario.JavaScript, Releases: []scenario.Release{{Version: "1.0.0", Group: "A"}, {Version: "2.0.0", Group: "B"}}},
		Faults: []scenario.Fault{
			{Name: "old-breaks", Bug: "the old release breaks", Hint: "scenario ask: any case", ID: 1, Scenarios: []string{"ask"}},
			{Name: "new-breaks", Bug: "the new release breaks", Hint: "scenario ask: any case", ID: 2, Scenarios: []string{"ask"}},
		},
		Scenarios: []*scenario.Scenario{sc},
	}
}

// TestAskedSpansEveryRelease: a case judged on two release groups notes the
// faults of both runs, so that each fault still runs it.
func TestAskedSpansEveryRelease(t *testing.T) {
	reg, err := scenario.NewRegistry(askingFamily())
	require.NoError(t, err)
	desk := `{"schemaVersion": 1, "id": "d", "title": "t", "hosts": {"asking": "*"}, "cases": [
	  {"id": "a", "title": "t", "scenario": "ask", "given": {}, "expected": {"value": "ok"}}]}`
	suite, ds, err := Verify(context.Background(), []Input{{Path: "d.json", Data: []byte(desk)}}, Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	require.Equal(t, Pass, suite.Results[0].Status)
	assert.Equal(t, uint64(3), suite.Results[0].Asked, "both releases' checks")
	s := MeasureStrength(context.Background(), suite.Results, reg.Faults())
	require.Len(t, s.Faults, 2)
	for _, f := range s.Faults {
		assert.True(t, f.Caught(), "%s: the case ran under it", f.Fault.Name)
	}
}
