package verifier

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

// seenMu guards the releases a countingFamily saw: cases run in parallel.
var seenMu sync.Mutex

// countingFamily is a host with three releases in two groups, one lacking
// the scenario, whose runs are counted. With splitAt set, a case whose
// given block says split runs apart on that release of its group.
func countingFamily(runs *atomic.Int64, seen *[]string, splitAt ...string) scenario.Family {
	type given struct{ split bool }
	sc := scenario.Declare(&scenario.Scenario{
		Name: "count", Description: "counts runs", Unit: "call",
		Schema:   []byte(`{"given": {"type": "object"}, "expected": {"type": "object", "additionalProperties": false, "properties": {"release": {}}}}`),
		Expected: scenario.Observables{{Key: "release", Comparer: scenario.Exact}},
	}, scenario.Kind[given, struct{}, struct{}]{
		Decode:  func(b []byte) (given, error) { return given{split: strings.Contains(string(b), "split")}, nil },
		Suggest: func(given, map[string]any) []string { return nil },
		Group: func(g given, r scenario.Release) string {
			if g.split && len(splitAt) > 0 && r.Version == splitAt[0] {
				return "B-old"
			}
			return r.Group
		},
		Run: func(_ context.Context, _ given, env scenario.Env) (scenario.Observation, struct{}, error) {
			runs.Add(1)
			seenMu.Lock()
			*seen = append(*seen, env.Release)
			seenMu.Unlock()
			group := "A"
			if env.Release >= "2.0.0" {
				group = "B"
			}
			return scenario.Observation{Values: map[string]any{"release": group}}, struct{}{}, nil
		},
	})
	return scenario.Family{Host: scenario.Host{Name: "counted", Values: scenario.JavaScript, Releases: []scenario.Release{
		{Version: "0.9.0", Group: "Z", Lacks: map[string]string{"count": "has no counter"}},
		{Version: "1.0.0", Group: "A"}, {Version: "1.1.0", Group: "A"}, {Version: "2.0.0", Group: "B"}, {Version: "2.1.0", Group: "B"},
	}}, Scenarios: []*scenario.Scenario{sc}}
}

// TestOneRunPerGroup: a case is run once per behaviour group, on the
// group's newest release, and each release of the group takes its verdict.
func TestOneRunPerGroup(t *testing.T) {
	var runs atomic.Int64
	var seen []string
	reg, err := scenario.NewRegistry(countingFamily(&runs, &seen))
	require.NoError(t, err)
	desk := `{"schemaVersion": 1, "id": "d", "title": "t", "hosts": {"counted": "*"}, "cases": [
	  {"id": "a", "title": "t", "scenario": "count", "given": {}, "expected": {"release": "A"}}]}`
	in := []Input{{Path: "d.json", Data: []byte(desk)}}
	suite, ds, err := Verify(context.Background(), in, Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	r := suite.Results[0]
	assert.Equal(t, int64(2), runs.Load(), "two groups, two runs: %v", seen)
	assert.Equal(t, []string{"2.1.0", "1.1.0"}, seen, "newest group first, each on its newest release")
	assert.Equal(t, Fail, r.Status)
	assert.Equal(t, []string{"2.0.0", "2.1.0"}, r.FailedOn())
	assert.Equal(t, []string{"1.0.0", "1.1.0", "2.0.0", "2.1.0"}, r.JudgedOn())
	assert.Equal(t, "2.1.0", r.Release, "the evidence shown is the failing run's")
	assert.Equal(t, []ReleaseVerdict{{Host: "counted", Release: "0.9.0", Group: "Z", Status: NotApplicable, Reason: "counted 0.9.0 has no counter"}}, r.Releases[:1])
	b, err := json.Marshal(r.Releases[1])
	require.NoError(t, err)
	assert.JSONEq(t, `{"host": "counted", "release": "1.0.0", "group": "A", "status": "pass"}`, string(b))

	// The run's scripted work counts each group run.
	assert.Equal(t, 2, groupRuns(suite.Results[0].Case))
}

// TestRunGroupSplits: a host that says some releases of a group behave
// apart for a case gets one run for each part.
func TestRunGroupSplits(t *testing.T) {
	var runs atomic.Int64
	var seen []string
	fam := countingFamily(&runs, &seen, "2.0.0")
	reg, err := scenario.NewRegistry(fam)
	require.NoError(t, err)
	desk := `{"schemaVersion": 1, "id": "d", "title": "t", "hosts": {"counted": ">=1.0.0"}, "cases": [
	  {"id": "a", "title": "t", "scenario": "count", "given": {"split": true}, "expected": {"release": "B"}},
	  {"id": "b", "title": "t", "scenario": "count", "given": {}, "expected": {"release": "B"}}]}`
	suite, ds, err := Verify(context.Background(), []Input{{Path: "d.json", Data: []byte(desk)}}, Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	assert.Equal(t, int64(5), runs.Load(), "three runs for the split case, two for the other")
	assert.Equal(t, 3, groupRuns(suite.Results[0].Case))
	assert.Equal(t, 3, DriftRuns(suite.Results[0].Case), "drift: A, B-old and B (0.9.0 is Z, which lacks the scenario, and is not counted)")
}

// TestParseHostExample: a -host value without a version is answered with
// an example taken from the registry, the newest release of the first
// host that models releases.
func TestParseHostExample(t *testing.T) {
	var host scenario.Host
	for _, f := range testReg.Families() {
		if len(f.Host.Releases) > 0 {
			host = f.Host
			break
		}
	}
	require.NotEmpty(t, host.Name)
	newest := host.Releases[len(host.Releases)-1].Version
	for _, v := range []string{host.Name, host.Name + "@", "@" + newest, ""} {
		_, _, err := ParseHost(testReg, v)
		assert.ErrorContains(t, err, "write HOST@VERSION, e.g. "+host.Name+"@"+newest+" (hosts with releases: "+host.Name, v)
	}
	name, ver, err := ParseHost(testReg, host.Name+"@"+newest)
	require.NoError(t, err)
	assert.Equal(t, [2]string{host.Name, newest}, [2]string{name, ver})
}
