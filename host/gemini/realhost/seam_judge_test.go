package realhost_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/gemini/geminicheck"
	"github.com/deskcheck/deskcheck/internal/realcode"
	driver "github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// modelHarness answers as the Gemini model of a release does, with one
// observed key changed for the case ids in tamper: a harness of another
// family than OMP, with no process.
type modelHarness struct {
	release string
	tamper  map[int]bool
	asked   int
}

func (m *modelHarness) Host() string { return geminicheck.Family.Host.Name }

func (m *modelHarness) Info() driver.Hello {
	return driver.Hello{Name: geminicheck.Family.Host.Name, Package: gemini.Package, Release: m.release, Source: "gemini@" + m.release}
}

func (m *modelHarness) RunAll(reqs []driver.Request) ([]driver.Answer, error) {
	out := make([]driver.Answer, len(reqs))
	for i, r := range reqs {
		m.asked++
		obs, err := geminicheck.Check([]byte(r.Given), m.release, gemini.Faults{})
		if err != nil {
			out[i].Error = err.Error()
			continue
		}
		if m.tamper[i] {
			if obs["decision"] == gemini.Allow {
				obs["decision"] = gemini.Deny
			} else {
				obs["decision"] = gemini.Allow
			}
		}
		out[i].Observed = obs
	}
	return out, nil
}

func loadDesk(t *testing.T, path string) []*verifier.Case {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	desk, ds := verifier.Load(all.Registry(), path, data, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	return desk.Cases
}

// TestJudgeAnyFamilysHarness: the driver judges a family's harness as it
// judges OMP's: the family's own cases hold, another host's are not
// applicable, and a disagreement gets a one-case desk that loads.
func TestJudgeAnyFamilysHarness(t *testing.T) {
	cases := append(loadDesk(t, "../../../cases/gemini-desk.json"), loadDesk(t, "../../../cases/boundary-desk.json")...)
	h := &modelHarness{release: "0.61.0"}
	run, err := driver.Judge(context.Background(), h, cases, driver.Options{})
	require.NoError(t, err)
	assert.Equal(t, driver.Summary{Cases: 40, Holds: 25, NotApplicable: 15}, run.Summary)
	assert.Equal(t, 25, h.asked, "only the host's own cases go to its harness")
	assert.Equal(t, "deskcheck's model of gemini@0.61.0 (group G6)", run.Model)
	for _, r := range run.Results[25:] {
		assert.Equal(t, "not a gemini case: it is judged on the real code of its own host", r.Reason)
	}

	h = &modelHarness{release: "0.61.0", tamper: map[int]bool{3: true}}
	run, err = driver.Judge(context.Background(), h, cases[:25], driver.Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, run.Summary.Disagree)
	r := run.Results[3]
	assert.Equal(t, driver.Disagree, r.Verdict)
	assert.Equal(t, []string{"decision"}, r.Differ)
	desk, ds := verifier.Load(all.Registry(), "repro.json", r.Repro, verifier.Limits{})
	require.NotNil(t, desk, "%v\n%s", ds, r.Repro)
	assert.Contains(t, string(r.Repro), `"title": "deskcheck's model of gemini and the real code disagree"`)
}

// TestModelReleaseOfAFamily: a release the model has is compared as
// itself, another as the newest.
func TestModelReleaseOfAFamily(t *testing.T) {
	v, name := driver.ModelRelease("gemini", driver.Hello{Release: "0.50.0"})
	assert.Equal(t, "0.50.0", v)
	assert.Equal(t, "deskcheck's model of gemini@0.50.0 (group G2)", name)
	v, name = driver.ModelRelease("gemini", driver.Hello{Release: "0.99.0"})
	assert.Equal(t, "0.61.0", v)
	assert.Contains(t, name, `the model has no release "0.99.0", so the newest is compared`)
	v, name = driver.ModelRelease("nosuch", driver.Hello{Release: "1.0.0"})
	assert.Empty(t, v)
	assert.Equal(t, `deskcheck has no model of host "nosuch"`, name)
}

// countingHarness is a declared family's harness whose recorders count
// the boundary-response dimensions: it answers as the Gemini model does,
// each case counted as one permitted action that worked, except those in
// lost; it checks that it is given each case's id and expected block.
type countingHarness struct {
	modelHarness
	lost map[string]bool
	ids  []string
}

func (c *countingHarness) RunCases(cases []realcode.Case) ([]realcode.Answer, error) {
	reqs := make([]driver.Request, len(cases))
	for i, rc := range cases {
		reqs[i] = driver.Request{Scenario: rc.Scenario, Given: string(rc.Given)}
		c.ids = append(c.ids, rc.ID)
		if len(rc.Expected) == 0 {
			return nil, errors.New("no expected block for " + rc.ID)
		}
	}
	as, err := c.RunAll(reqs)
	out := make([]realcode.Answer, len(as))
	for i, a := range as {
		worked := 1
		if c.lost[cases[i].ID] {
			worked = 0
		}
		out[i] = realcode.Answer{Observed: a.Observed, Error: a.Error,
			Boundary: &scenario.Boundary{Actions: 1, Permitted: 1, Worked: worked, FailClosed: true, Complete: true}}
	}
	return out, err
}

func (c *countingHarness) Provenance() json.RawMessage { return json.RawMessage(`{"runId":"toy"}`) }

// TestJudgeCountsTheRealCodesDimensions: a harness that counts the
// dimensions gets them summed over the cases both sides ran, beside the
// model's, with its provenance and its release's column; one that counts
// none gets no table.
func TestJudgeCountsTheRealCodesDimensions(t *testing.T) {
	cases := append(loadDesk(t, "../../../cases/gemini-desk.json")[:3], loadDesk(t, "../../../cases/boundary-desk.json")[:2]...)
	h := &countingHarness{modelHarness: modelHarness{release: "0.61.0"}, lost: map[string]bool{"gemini-desk/gemini-tie-first-in-file": true}}
	run, err := driver.Judge(context.Background(), h, cases, driver.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"gemini-desk/gemini-priority-beats-deny", "gemini-desk/gemini-priority-deny-first", "gemini-desk/gemini-tie-first-in-file"}, h.ids)
	require.NotNil(t, run.Dimensions)
	assert.Equal(t, "gemini@0.61.0", run.Dimensions.Column, "a release without a column of its own is named by its source")
	assert.Equal(t, verifier.Dimension{Numerator: 2, Denominator: 3, Applicable: true}, run.Dimensions.Real.AllowedWork)
	assert.Equal(t, 3, run.Dimensions.Real.TraceCompleteness.Denominator)
	assert.JSONEq(t, `{"runId":"toy"}`, string(run.Provenance))
	assert.Equal(t, run.Dimensions, driver.Section([]*driver.Run{run})[0].Dimensions)

	plain, err := driver.Judge(context.Background(), &modelHarness{release: "0.61.0"}, cases, driver.Options{})
	require.NoError(t, err)
	assert.Nil(t, plain.Dimensions)
	assert.Nil(t, plain.Provenance)
}
