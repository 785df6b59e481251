package ompcheck_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

func versions(g ...omp.Group) []string {
	var out []string
	for _, gr := range g {
		for _, v := range gr.Releases() {
			out = append(out, v.String())
		}
	}
	return out
}

func statusesOf(r verifier.Result, s verifier.Status) []string {
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
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{readDesk(t, releasesDeskPath)}, verifier.Options{Registry: registered})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	assert.True(t, suite.Passed())
	assert.Equal(t, verifier.Summary{Cases: 12, Passed: 12}, suite.Summary)
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
	in := readDesk(t, releasesDeskPath)
	in.Data = regexp.MustCompile(`"hosts": \{"omp": "[^"]*"\}`).ReplaceAll(in.Data, []byte(`"hosts": {"omp": "*"}`))
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{in}, verifier.Options{Registry: registered})
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
		assert.Equal(t, versions(want.na...), statusesOf(r, verifier.NotApplicable), "%s is not applicable on", r.Case.ID)
		assert.Len(t, r.Releases, 12, r.Case.ID)
		if len(want.fails) > 0 {
			assert.Equal(t, verifier.Fail, r.Status, r.Case.ID)
		} else {
			assert.Equal(t, verifier.Pass, r.Status, r.Case.ID)
		}
		for _, v := range r.Releases {
			if v.Status == verifier.NotApplicable {
				assert.Regexp(t, `^omp 1[34]\.\d+\.\d+ has no (file-write fallback|permission-denied classifier)$|^omp 17\.\d+\.\d+ has no`, v.Reason)
			}
		}
	}
	assert.Equal(t, verifier.Summary{Cases: 12, Passed: 3, Failed: 9}, suite.Summary)
}

// TestBoundaryDeskOnEveryRelease: the seed desk holds on every 18.x
// release; on 17.x its tool-deny case reads the user-policy text and the
// fallback and classifier cases are not applicable; 13.x/14.x have no gate.
func TestBoundaryDeskOnEveryRelease(t *testing.T) {
	in := bundled(t, "cases/boundary-desk.json")
	for _, v := range omp.Releases() {
		g, _ := omp.GroupOf(v)
		suite, _, err := verifier.Verify(context.Background(), []verifier.Input{in}, verifier.Options{Registry: registered, Hosts: verifier.Hosts{"omp": v.String()}})
		require.NoError(t, err)
		var failed []string
		for _, r := range suite.Results {
			assert.Equal(t, []string{v.String()}, append(r.JudgedOn(), statusesOf(r, verifier.NotApplicable)...), "%s on %s", r.Case.ID, v)
			if r.Status == verifier.Fail {
				failed = append(failed, r.Case.ID)
			}
		}
		switch g {
		case omp.G2, omp.G3:
			assert.Equal(t, verifier.Summary{Cases: 15, Passed: 15, SourceOnly: 3}, suite.Summary, "%s", v)
		case omp.G1:
			assert.Equal(t, verifier.Summary{Cases: 15, Passed: 11, Failed: 1, NotApplicable: 3, SourceOnly: 3}, suite.Summary, "%s", v)
			assert.Equal(t, []string{"boundary-deny-before-handler"}, failed, "%s", v)
		case omp.G0:
			assert.Equal(t, verifier.Summary{Cases: 15, Passed: 1, Failed: 11, NotApplicable: 3, SourceOnly: 3}, suite.Summary, "%s", v)
		}
	}
	suite, _, err := verifier.Verify(context.Background(), []verifier.Input{in}, verifier.Options{Registry: registered})
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
	in := []verifier.Input{{Path: "d.json", Data: []byte(desk)}}
	suite, ds, err := verifier.Verify(context.Background(), in, verifier.Options{Registry: registered, Hosts: verifier.Hosts{"omp": "17.3.5"}})
	require.NoError(t, err)
	require.NotNil(t, suite, "%v", ds)
	a, b := suite.Results[0], suite.Results[1]
	assert.Equal(t, verifier.NotApplicable, a.Status)
	assert.Equal(t, `omp 17.3.5 is outside the case's releases (range ">=18.1.16")`, a.Reason)
	assert.Equal(t, verifier.Pass, b.Status)
	assert.Equal(t, []string{"17.3.5"}, b.JudgedOn())
	assert.Equal(t, verifier.Summary{Cases: 2, Passed: 1, NotApplicable: 1}, suite.Summary)
	assert.True(t, suite.Passed())

	suite, _, err = verifier.Verify(context.Background(), in[:1], verifier.Options{Registry: registered, Hosts: verifier.Hosts{"omp": "14.9.9"}, Run: regexp.MustCompile(`d/a`)})
	require.NoError(t, err)
	assert.False(t, suite.Passed(), "nothing judged is no evidence")
}

func TestHostsInvalid(t *testing.T) {
	wrap := func(deskHosts, caseHosts, scenarioName string) string {
		return `{"schemaVersion": 1, "id": "d", "title": "t",` + deskHosts + `
  "cases": [{"id": "a", "title": "t", "scenario": "` + scenarioName + `",` + caseHosts + ` "given": {"approval": "read"}, "expected": {"outcome": "return", "effects": 1}}]}`
	}
	// bare is a host that models no releases.
	var bare string
	for _, f := range registered.Families() {
		if len(f.Host.Releases) == 0 {
			bare = f.Host.Name
			break
		}
	}
	require.NotEmpty(t, bare)
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
		{"a host without releases", wrap(`"hosts": {"`+bare+`": "*"},`, "", "wrapper"),
			`error: host ` + bare + ` models no releases, so a release range cannot be named for it (/hosts/` + bare + `)`},
		{"a case naming another host", wrap("", `"hosts": {"`+bare+`": "*"},`, "wrapper"),
			`error: this case runs on host omp, not ` + bare + `: name its releases under "omp" (/cases/0/hosts/` + bare + `)`},
		{"an empty range", wrap("", `"hosts": {"omp": ""},`, "wrapper"),
			`(/cases/0/hosts/omp)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := verifier.LoadAll(registered, []verifier.Input{{Path: "d.json", Data: []byte(tt.data)}}, verifier.Limits{})
			require.True(t, ds.HasErrors(), "%v", ds)
			assert.Contains(t, strings.Join(diagLines(ds), "\n"), tt.want)
		})
	}
}

// TestStrengthSkipsNotApplicable: under -host a case not applicable to the
// release is neither run under the faults nor left out as failing.
func TestStrengthSkipsNotApplicable(t *testing.T) {
	suite, _, err := verifier.Verify(context.Background(), []verifier.Input{readDesk(t, releasesDeskPath)}, verifier.Options{Registry: registered, Hosts: verifier.Hosts{"omp": "18.3.4"}})
	require.NoError(t, err)
	assert.Equal(t, verifier.Summary{Cases: 12, Passed: 7, NotApplicable: 5}, suite.Summary)
	q, err := registered.LookupFault("omp/revision-ignored")
	require.NoError(t, err)
	s := verifier.MeasureStrengthPinned(context.Background(), suite.Results, []scenario.QualifiedFault{q}, suite.Hosts)
	assert.Empty(t, s.Excluded)
	assert.Equal(t, 7, s.Faults[0].Cases)
	assert.Equal(t, []string{"releases-desk/revision-runs"}, s.Faults[0].CaughtBy)
}

// TestReleaseMeaningWarnings: lint that states a meaning that depends on
// the release names the releases of each meaning.
func TestReleaseMeaningWarnings(t *testing.T) {
	desk := `{"schemaVersion": 1, "id": "d", "title": "t", "label": "DO NOT EXECUTE", "cases": [
	  {"id": "a", "title": "t", "scenario": "wrapper", "given": {"mode": "ask", "userPolicies": "deny"}, "expected": {"outcome": "return", "effects": 1}},
	  {"id": "b", "title": "t", "scenario": "wrapper", "given": {"userPolicies": null}, "expected": {"outcome": "return", "effects": 1}}]}`
	_, ds := verifier.LoadAll(registered, []verifier.Input{{Path: "d.json", Data: []byte(desk)}}, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	got := strings.Join(diagLines(ds), "\n")
	assert.Contains(t, got, `mode "ask" is not one the host knows (always-ask, write, yolo, matched exactly), and what it means depends on the release: omp 13.19.0 … 14.9.9 have no approval gate, so the mode means nothing; omp 17.2.15 … 18.2.0 keep it as a mode that auto-approves no tier`)
	assert.Contains(t, got, "; omp 18.2.3 … 18.3.4 read it as yolo, which auto-approves every tier (/cases/0/given/mode)")
	assert.Contains(t, got, "userPolicies is not an object, and what it means depends on the release: omp 13.19.0 … 14.9.9 have no approval gate, so it means nothing; omp 17.2.15 … 18.2.0 read its own properties")
	assert.Contains(t, got, "omp 18.2.3 … 18.3.4 read it as {}, no user policy (/cases/0/given/userPolicies)")
	assert.NotContains(t, got, "/cases/1/given/userPolicies", "null is {} on every release")
}

// hostNames lists the registered hosts as the unknown-host message does.
func hostNames() string {
	var names []string
	for _, f := range registered.Families() {
		names = append(names, f.Host.Name)
	}
	return strings.Join(names, ", ")
}

// TestRunOptions: Run judges each case on the releases it selects, on the
// one release a pin names, or once as a release whatever the case
// selects; under a fault of the case's family; and, bounded, stops with an
// error and no result once the trace goes over its limit.
func TestRunOptions(t *testing.T) {
	ctx := context.Background()
	cases := loadDeskCases(t, releasesDeskPath)
	byID := func(rs []verifier.Result) map[string]verifier.Result {
		out := map[string]verifier.Result{}
		for _, r := range rs {
			out[r.Case.ID] = r
		}
		return out
	}
	oldest := versions(omp.G0)[0]
	all, err := verifier.Run(ctx, cases, verifier.RunOptions{})
	require.NoError(t, err)
	require.Len(t, all, len(cases))
	assert.Equal(t, versions(omp.G0, omp.G1, omp.G2, omp.G3), byID(all)["read-runs-everywhere"].JudgedOn())

	pinned, err := verifier.Run(ctx, cases, verifier.RunOptions{Pin: verifier.Hosts{"omp": oldest}})
	require.NoError(t, err)
	assert.Equal(t, []string{oldest}, byID(pinned)["read-runs-everywhere"].JudgedOn())
	assert.Equal(t, verifier.NotApplicable, byID(pinned)["unknown-mode-is-yolo"].Status, "its range leaves the pinned release out")

	once, err := verifier.Run(ctx, cases, verifier.RunOptions{Once: true, Release: oldest})
	require.NoError(t, err)
	r := byID(once)["tool-deny-user-text"]
	assert.Empty(t, r.JudgedOn(), "one run, on no range")
	assert.Equal(t, verifier.Fail, r.Status, "run as a release its range leaves out, the case's expectation does not hold")
	assert.Equal(t, verifier.Errored, byID(once)["fallback-rethrows"].Status, "the scenario says what a release it lacks means")
	newest, err := verifier.Run(ctx, cases, verifier.RunOptions{Once: true})
	require.NoError(t, err)
	assert.Equal(t, verifier.Fail, byID(newest)["no-gate-runs-every-call"].Status, "the host chooses its newest release")
	assert.Equal(t, verifier.Pass, byID(newest)["unknown-mode-is-yolo"].Status)

	f := ompFaults(t, "revision-ignored")[0]
	under, err := verifier.Run(ctx, cases, verifier.RunOptions{Fault: &f})
	require.NoError(t, err)
	var failing []string
	for i, r := range under {
		if all[i].Status == verifier.Pass && r.Status == verifier.Fail {
			failing = append(failing, r.Case.FullID())
		}
	}
	caught := verifier.MeasureStrength(ctx, all, []scenario.QualifiedFault{f}).Faults[0].CaughtBy
	require.NotEmpty(t, caught, "the fault changes some case")
	assert.Equal(t, caught, failing, "under the fault, the cases that catch it fail")

	bounded, err := verifier.Run(ctx, cases, verifier.RunOptions{Within: &verifier.Limits{Events: 3}})
	assert.ErrorContains(t, err, "the cases recorded more than 3 trace events, the limit per run")
	assert.Nil(t, bounded)
	within, err := verifier.Run(ctx, cases, verifier.RunOptions{Within: &verifier.Limits{}})
	require.NoError(t, err, "the default limits hold the desk")
	assert.Equal(t, all, within)
}
