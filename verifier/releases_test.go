package verifier

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
)

const releasesDesk = "../host/omp/ompcheck/testdata/releases-desk.json"

func versions(g ...omp.Group) []string {
	var out []string
	for _, gr := range g {
		for _, v := range gr.Releases() {
			out = append(out, v.String())
		}
	}
	return out
}

func statusesOf(r Result, s Status) []string {
	var out []string
	for _, v := range r.Releases {
		if v.Status == s {
			out = append(out, v.Release)
		}
	}
	return out
}

// TestReleasesDeskPinned: the desk of the project's own, each lesson
// pinned to the releases §1 says it holds on, passes on every one of them.
func TestReleasesDeskPinned(t *testing.T) {
	suite, ds, err := Verify(context.Background(), []Input{readInput(t, releasesDesk)}, Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	assert.True(t, suite.Passed())
	assert.Equal(t, Summary{Cases: 12, Passed: 12}, suite.Summary)
	judged := map[string][]string{}
	for _, r := range suite.Results {
		judged[r.Case.ID] = r.JudgedOn()
		assert.Empty(t, r.FailedOn(), r.Case.ID)
	}
	assert.Equal(t, versions(omp.G0), judged["no-gate-runs-every-call"])
	assert.Equal(t, versions(omp.G1), judged["tool-deny-user-text"])
	assert.Equal(t, versions(omp.G1, omp.G2), judged["unknown-mode-approves-nothing"])
	assert.Equal(t, versions(omp.G3), judged["unknown-mode-is-yolo"])
	assert.Equal(t, versions(omp.G0, omp.G1, omp.G2, omp.G3), judged["read-runs-everywhere"])
}

// TestReleasesDeskStar: the same desk with every case pinned to * fails
// exactly on the releases §1 predicts, and names them; a fallback or
// classifier case is not applicable before 18.1.16, never a failure.
func TestReleasesDeskStar(t *testing.T) {
	in := readInput(t, releasesDesk)
	in.Data = regexp.MustCompile(`"hosts": \{"omp": "[^"]*"\}`).ReplaceAll(in.Data, []byte(`"hosts": {"omp": "*"}`))
	suite, ds, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	g0, g1, g2, g3 := omp.G0, omp.G1, omp.G2, omp.G3
	tests := map[string]struct {
		fails, na []omp.Group
	}{
		"no-gate-runs-every-call":       {fails: []omp.Group{g1, g2, g3}},
		"no-gate-ignores-revision":      {fails: []omp.Group{g1, g2, g3}},
		"revision-runs":                 {fails: []omp.Group{g0}},
		"tool-deny-user-text":           {fails: []omp.Group{g0, g2, g3}},
		"tool-deny-tool-text":           {fails: []omp.Group{g0, g1}},
		"unknown-mode-approves-nothing": {fails: []omp.Group{g0, g3}},
		"unknown-mode-is-yolo":          {fails: []omp.Group{g1, g2}},
		"array-policies-have-indexes":   {fails: []omp.Group{g0, g3}},
		"non-object-policies-are-empty": {fails: []omp.Group{g1, g2}},
		"fallback-rethrows":             {na: []omp.Group{g0, g1}},
		"classifier-reads-codes":        {na: []omp.Group{g0, g1}},
		"read-runs-everywhere":          {},
	}
	require.Len(t, suite.Results, len(tests))
	for _, r := range suite.Results {
		want, ok := tests[r.Case.ID]
		require.True(t, ok, r.Case.ID)
		assert.Equal(t, versions(want.fails...), r.FailedOn(), "%s fails on", r.Case.ID)
		assert.Equal(t, versions(want.na...), statusesOf(r, NotApplicable), "%s is not applicable on", r.Case.ID)
		assert.Len(t, r.Releases, 12, r.Case.ID)
		if len(want.fails) > 0 {
			assert.Equal(t, Fail, r.Status, r.Case.ID)
		} else {
			assert.Equal(t, Pass, r.Status, r.Case.ID)
		}
		for _, v := range r.Releases {
			if v.Status == NotApplicable {
				assert.Regexp(t, `^omp 1[34]\.\d+\.\d+ has no (file-write fallback|permission-denied classifier)$|^omp 17\.\d+\.\d+ has no`, v.Reason)
			}
		}
	}
	assert.Equal(t, Summary{Cases: 12, Passed: 3, Failed: 9}, suite.Summary)
}

// TestBoundaryDeskOnEveryRelease: the seed desk holds on every 18.x
// release; on 17.x its tool-deny case reads the user-policy text and the
// fallback and classifier cases are not applicable; 13.x/14.x have no gate.
func TestBoundaryDeskOnEveryRelease(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	for _, v := range omp.Releases() {
		g, _ := omp.GroupOf(v)
		suite, _, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg, Hosts: Hosts{"omp": v.String()}})
		require.NoError(t, err)
		var failed []string
		for _, r := range suite.Results {
			assert.Equal(t, []string{v.String()}, append(r.JudgedOn(), statusesOf(r, NotApplicable)...), "%s on %s", r.Case.ID, v)
			if r.Status == Fail {
				failed = append(failed, r.Case.ID)
			}
		}
		switch g {
		case omp.G2, omp.G3:
			assert.Equal(t, Summary{Cases: 15, Passed: 15, SourceOnly: 3}, suite.Summary, "%s", v)
		case omp.G1:
			assert.Equal(t, Summary{Cases: 15, Passed: 11, Failed: 1, NotApplicable: 3, SourceOnly: 3}, suite.Summary, "%s", v)
			assert.Equal(t, []string{"boundary-deny-before-handler"}, failed, "%s", v)
		case omp.G0:
			assert.Equal(t, Summary{Cases: 15, Passed: 1, Failed: 11, NotApplicable: 3, SourceOnly: 3}, suite.Summary, "%s", v)
		}
	}
	suite, _, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg})
	require.NoError(t, err)
	for _, r := range suite.Results {
		assert.Equal(t, []string{omp.Newest().String()}, r.JudgedOn(), "with no hosts and no -host, the newest release")
	}
}

// TestPinOutsideRange: -host naming a release outside a case's range makes
// it not applicable, with the reason; a suite of only such cases does not
// pass.
func TestPinOutsideRange(t *testing.T) {
	desk := `{"schemaVersion": 1, "id": "d", "title": "t", "hosts": {"omp": ">=18.1.16"}, "cases": [
	  {"id": "a", "title": "t", "scenario": "wrapper", "given": {"approval": "read"}, "expected": {"outcome": "return", "effects": 1}},
	  {"id": "b", "title": "t", "scenario": "wrapper", "hosts": {"omp": "*"}, "given": {"approval": "read"}, "expected": {"outcome": "return", "effects": 1}}]}`
	in := []Input{{Path: "d.json", Data: []byte(desk)}}
	suite, ds, err := Verify(context.Background(), in, Options{Registry: testReg, Hosts: Hosts{"omp": "17.3.5"}})
	require.NoError(t, err)
	require.NotNil(t, suite, "%v", ds)
	a, b := suite.Results[0], suite.Results[1]
	assert.Equal(t, NotApplicable, a.Status)
	assert.Equal(t, `omp 17.3.5 is outside the case's releases (range ">=18.1.16")`, a.Reason)
	assert.Equal(t, Pass, b.Status)
	assert.Equal(t, []string{"17.3.5"}, b.JudgedOn())
	assert.Equal(t, Summary{Cases: 2, Passed: 1, NotApplicable: 1}, suite.Summary)
	assert.True(t, suite.Passed())

	suite, _, err = Verify(context.Background(), in[:1], Options{Registry: testReg, Hosts: Hosts{"omp": "14.9.9"}, Run: regexp.MustCompile(`d/a`)})
	require.NoError(t, err)
	assert.False(t, suite.Passed(), "nothing judged is no evidence")
}

func TestHostsInvalid(t *testing.T) {
	wrap := func(deskHosts, caseHosts, scenarioName string) string {
		given, expected := `{"approval": "read"}`, `{"outcome": "return", "effects": 1}`
		if scenarioName == "gateway" {
			given, expected = `{"steps": []}`, `{"effects": 0}`
		}
		return `{"schemaVersion": 1, "id": "d", "title": "t",` + deskHosts + `
  "cases": [{"id": "a", "title": "t", "scenario": "` + scenarioName + `",` + caseHosts + ` "given": ` + given + `, "expected": ` + expected + `}]}`
	}
	tests := []struct {
		name, data, want string
	}{
		{"a range selecting nothing", wrap(`"hosts": {"omp": ">=19.0.0"},`, "", "wrapper"),
			`d.json:1:63: error: release range ">=19.0.0" selects no modelled release (modelled omp releases: 13.19.0, 14.9.9, 17.2.15, 17.3.5, 18.1.16, 18.1.17, 18.1.20, 18.1.21, 18.2.0, 18.2.3, 18.2.9, 18.3.4) (/hosts/omp)`},
		{"a caret range", wrap("", `"hosts": {"omp": "^18.1.16"},`, "wrapper"),
			`d.json:2:78: error: release range "^18.1.16": "^18.1.16" is not a comparator`},
		{"a release that was never published", wrap("", `"hosts": {"omp": "18.1.18"},`, "wrapper"),
			`selects no modelled release`},
		{"an unknown host", wrap(`"hosts": {"opm": "*"},`, "", "wrapper"),
			`d.json:1:56: error: unknown host "opm" (known: ` + hostNames() + `); did you mean "omp"? (/hosts/opm)`},
		{"a host without releases", wrap(`"hosts": {"gateway": "*"},`, "", "wrapper"),
			`error: host gateway models no releases, so a release range cannot be named for it (/hosts/gateway)`},
		{"a case naming another host", wrap("", `"hosts": {"gateway": "*"},`, "wrapper"),
			`error: this case runs on host omp, not gateway: name its releases under "omp" (/cases/0/hosts/gateway)`},
		{"an empty range", wrap("", `"hosts": {"omp": ""},`, "wrapper"),
			`(/cases/0/hosts/omp)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := LoadAll(testReg, []Input{{Path: "d.json", Data: []byte(tt.data)}}, Limits{})
			require.True(t, ds.HasErrors(), "%v", ds)
			assert.Contains(t, strings.Join(diagStrings(ds), "\n"), tt.want)
		})
	}
}

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
	return scenario.Family{Host: scenario.Host{Name: "counted", Releases: []scenario.Release{
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

// TestStrengthSkipsNotApplicable: under -host a case not applicable to the
// release is neither run under the faults nor left out as failing.
func TestStrengthSkipsNotApplicable(t *testing.T) {
	suite, _, err := Verify(context.Background(), []Input{readInput(t, releasesDesk)}, Options{Registry: testReg, Hosts: Hosts{"omp": "18.3.4"}})
	require.NoError(t, err)
	assert.Equal(t, Summary{Cases: 12, Passed: 7, NotApplicable: 5}, suite.Summary)
	q, err := testReg.LookupFault("omp/revision-ignored")
	require.NoError(t, err)
	s := MeasureStrengthPinned(context.Background(), suite.Results, []scenario.QualifiedFault{q}, suite.Hosts)
	assert.Empty(t, s.Excluded)
	assert.Equal(t, 7, s.Faults[0].Cases)
	assert.Equal(t, []string{"releases-desk/revision-runs"}, s.Faults[0].CaughtBy)
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

// TestReleaseMeaningWarnings: lint that states a meaning that depends on
// the release names the releases of each meaning.
func TestReleaseMeaningWarnings(t *testing.T) {
	desk := `{"schemaVersion": 1, "id": "d", "title": "t", "label": "DO NOT EXECUTE", "cases": [
	  {"id": "a", "title": "t", "scenario": "wrapper", "given": {"mode": "ask", "userPolicies": "deny"}, "expected": {"outcome": "return", "effects": 1}},
	  {"id": "b", "title": "t", "scenario": "wrapper", "given": {"userPolicies": null}, "expected": {"outcome": "return", "effects": 1}}]}`
	_, ds := LoadAll(testReg, []Input{{Path: "d.json", Data: []byte(desk)}}, Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	got := strings.Join(diagStrings(ds), "\n")
	assert.Contains(t, got, `mode "ask" is not one the host knows (always-ask, write, yolo, matched exactly), and what it means depends on the release: omp 13.19.0 … 14.9.9 have no approval gate, so the mode means nothing; omp 17.2.15 … 18.2.0 keep it as a mode that auto-approves no tier`)
	assert.Contains(t, got, "; omp 18.2.3 … 18.3.4 read it as yolo, which auto-approves every tier (/cases/0/given/mode)")
	assert.Contains(t, got, "userPolicies is not an object, and what it means depends on the release: omp 13.19.0 … 14.9.9 have no approval gate, so it means nothing; omp 17.2.15 … 18.2.0 read its own properties")
	assert.Contains(t, got, "omp 18.2.3 … 18.3.4 read it as {}, no user policy (/cases/0/given/userPolicies)")
	assert.NotContains(t, got, "/cases/1/given/userPolicies", "null is {} on every release")
}

// hostNames lists the registered hosts as the unknown-host message does.
func hostNames() string {
	var names []string
	for _, f := range testReg.Families() {
		names = append(names, f.Host.Name)
	}
	return strings.Join(names, ", ")
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

// TestRunOptions: Run judges each case on the releases it selects, on the
// one release a pin names, or once as a release whatever the case
// selects; under a fault of the case's family; and, bounded, stops with an
// error and no result once the trace goes over its limit.
func TestRunOptions(t *testing.T) {
	ctx := context.Background()
	cases := loadCases(t, releasesDesk)
	byID := func(rs []Result) map[string]Result {
		out := map[string]Result{}
		for _, r := range rs {
			out[r.Case.ID] = r
		}
		return out
	}
	oldest := versions(omp.G0)[0]
	all, err := Run(ctx, cases, RunOptions{})
	require.NoError(t, err)
	require.Len(t, all, len(cases))
	assert.Equal(t, versions(omp.G0, omp.G1, omp.G2, omp.G3), byID(all)["read-runs-everywhere"].JudgedOn())

	pinned, err := Run(ctx, cases, RunOptions{Pin: Hosts{"omp": oldest}})
	require.NoError(t, err)
	assert.Equal(t, []string{oldest}, byID(pinned)["read-runs-everywhere"].JudgedOn())
	assert.Equal(t, NotApplicable, byID(pinned)["unknown-mode-is-yolo"].Status, "its range leaves the pinned release out")

	once, err := Run(ctx, cases, RunOptions{Once: true, Release: oldest})
	require.NoError(t, err)
	r := byID(once)["tool-deny-user-text"]
	assert.Empty(t, r.JudgedOn(), "one run, on no range")
	assert.Equal(t, Fail, r.Status, "run as a release its range leaves out, the case's expectation does not hold")
	assert.Equal(t, Errored, byID(once)["fallback-rethrows"].Status, "the scenario says what a release it lacks means")
	newest, err := Run(ctx, cases, RunOptions{Once: true})
	require.NoError(t, err)
	assert.Equal(t, Fail, byID(newest)["no-gate-runs-every-call"].Status, "the host chooses its newest release")
	assert.Equal(t, Pass, byID(newest)["unknown-mode-is-yolo"].Status)

	f := ompFaults(t)[0]
	under, err := Run(ctx, cases, RunOptions{Fault: &f})
	require.NoError(t, err)
	assert.Equal(t, runAll(ctx, cases, nil, &f), under)

	bounded, err := Run(ctx, cases, RunOptions{Within: &Limits{Events: 3}})
	assert.ErrorContains(t, err, "the cases recorded more than 3 trace events, the limit per run")
	assert.Nil(t, bounded)
	within, err := Run(ctx, cases, RunOptions{Within: &Limits{}})
	require.NoError(t, err, "the default limits hold the desk")
	assert.Equal(t, all, within)
}
