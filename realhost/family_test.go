package realhost

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/gemini/geminicheck"
	"github.com/deskcheck/deskcheck/internal/realcode"
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

func (m *modelHarness) Info() Hello {
	return Hello{Name: geminicheck.Family.Host.Name, Package: gemini.Package, Release: m.release, Source: "gemini@" + m.release}
}

func (m *modelHarness) RunAll(reqs []Request) ([]Answer, error) {
	out := make([]Answer, len(reqs))
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
	cases := append(loadDesk(t, "../cases/gemini-desk.json"), loadDesk(t, "../cases/boundary-desk.json")...)
	h := &modelHarness{release: "0.61.0"}
	run, err := Judge(context.Background(), h, cases, Options{})
	require.NoError(t, err)
	assert.Equal(t, Summary{Cases: 40, Holds: 25, NotApplicable: 15}, run.Summary)
	assert.Equal(t, 25, h.asked, "only the host's own cases go to its harness")
	assert.Equal(t, "deskcheck's model of gemini@0.61.0 (group G6)", run.Model)
	for _, r := range run.Results[25:] {
		assert.Equal(t, "not a gemini case: it is judged on the real code of its own host", r.Reason)
	}

	h = &modelHarness{release: "0.61.0", tamper: map[int]bool{3: true}}
	run, err = Judge(context.Background(), h, cases[:25], Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, run.Summary.Disagree)
	r := run.Results[3]
	assert.Equal(t, Disagree, r.Verdict)
	assert.Equal(t, []string{"decision"}, r.Differ)
	desk, ds := verifier.Load(all.Registry(), "repro.json", r.Repro, verifier.Limits{})
	require.NotNil(t, desk, "%v\n%s", ds, r.Repro)
	assert.Contains(t, string(r.Repro), `"title": "deskcheck's model of gemini and the real code disagree"`)
}

// TestModelReleaseOfAFamily: a release the model has is compared as
// itself, another as the newest.
func TestModelReleaseOfAFamily(t *testing.T) {
	v, name := ModelRelease("gemini", Hello{Release: "0.50.0"})
	assert.Equal(t, "0.50.0", v)
	assert.Equal(t, "deskcheck's model of gemini@0.50.0 (group G2)", name)
	v, name = ModelRelease("gemini", Hello{Release: "0.99.0"})
	assert.Equal(t, "0.61.0", v)
	assert.Contains(t, name, `the model has no release "0.99.0", so the newest is compared`)
	v, name = ModelRelease("nosuch", Hello{Release: "1.0.0"})
	assert.Empty(t, v)
	assert.Equal(t, `deskcheck has no model of host "nosuch"`, name)
}

// TestOpenFamilyNeedsTheSandboxsStart: a family whose Open starts no
// process through the driver's start is refused, and one whose Open fails
// leaves no temporary folder.
func TestOpenFamilyNeedsTheSandboxsStart(t *testing.T) {
	tmpRoot := t.TempDir()
	t.Setenv("TMPDIR", tmpRoot)
	fam := realcode.Family{Host: "toy", Open: func(ctx context.Context, opts realcode.OpenOptions, start realcode.Start) (realcode.Harness, error) {
		return nopHarness{}, nil
	}}
	_, err := OpenFamily(context.Background(), fam, realcode.OpenOptions{Cache: t.TempDir(), Version: "1.0.0"}, Bounds{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "started no process through the sandbox")
	fam.Open = func(ctx context.Context, opts realcode.OpenOptions, start realcode.Start) (realcode.Harness, error) {
		return nil, errors.New("not installed")
	}
	_, err = OpenFamily(context.Background(), fam, realcode.OpenOptions{Cache: t.TempDir(), Version: "1.0.0"}, Bounds{})
	require.EqualError(t, err, "toy@1.0.0: not installed")
	left, _ := filepath.Glob(filepath.Join(tmpRoot, "deskcheck-host-*"))
	assert.Empty(t, left)
}

type nopHarness struct{}

func (nopHarness) Hello() realcode.Hello { return realcode.Hello{Release: "1.0.0", Runtime: "none"} }
func (nopHarness) Close() error          { return nil }
func (nopHarness) Run(context.Context, []realcode.Case) ([]realcode.Answer, error) {
	return nil, nil
}

// TestAnswerLimit: a harness that answers more than the bound is stopped
// with ErrAnswerLimit.
func TestAnswerLimit(t *testing.T) {
	killed := false
	r := &answerLimit{r: strings.NewReader(strings.Repeat("x", 100)), left: 10, max: 10, kill: func() { killed = true }}
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	assert.Equal(t, 10, n)
	require.NoError(t, err)
	_, err = r.Read(buf)
	assert.ErrorIs(t, err, ErrAnswerLimit)
	assert.True(t, killed, "the harness is ended")
}

// TestSandboxSpecByRuntime: a runtime binary's sandbox takes the
// program's folders as given and may run without bubblewrap; a venv's
// interpreter gets pysandbox's, which requires it and refuses what is not
// a venv; an unknown kind is refused.
func TestSandboxSpecByRuntime(t *testing.T) {
	dir := t.TempDir()
	p := realcode.Program{Runtime: "/usr/bin/node", Args: []string{"h.mjs"}, Temp: dir, Dir: dir, ReadOnly: []string{"/rel"}, Native: []string{"/rel/a.node"}}
	s, err := SandboxSpec(realcode.SandboxRuntime, p)
	require.NoError(t, err)
	assert.Equal(t, []string{"/rel"}, s.ReadOnly)
	assert.Equal(t, []string{"/rel/a.node"}, s.Native)
	assert.False(t, s.Require)
	_, err = SandboxSpec(realcode.SandboxPythonVenv, p)
	assert.ErrorContains(t, err, "not a venv's interpreter")
	venv := filepath.Join(dir, "venv")
	require.NoError(t, os.MkdirAll(filepath.Join(venv, "bin"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = "+filepath.Join(dir, "py", "bin")+"\n"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "py", "bin"), 0o700))
	p.Runtime = filepath.Join(venv, "bin", "python")
	s, err = SandboxSpec(realcode.SandboxPythonVenv, p)
	require.NoError(t, err)
	assert.True(t, s.Require, "a venv's interpreter never runs without bubblewrap")
	assert.Equal(t, []string{venv, filepath.Join(dir, "py"), "/rel"}, s.ReadOnly)
	_, err = SandboxSpec("jvm", p)
	assert.EqualError(t, err, `no sandbox is known for a runtime of kind "jvm"`)
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
	reqs := make([]Request, len(cases))
	for i, rc := range cases {
		reqs[i] = Request{Scenario: rc.Scenario, Given: string(rc.Given)}
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
	cases := append(loadDesk(t, "../cases/gemini-desk.json")[:3], loadDesk(t, "../cases/boundary-desk.json")[:2]...)
	h := &countingHarness{modelHarness: modelHarness{release: "0.61.0"}, lost: map[string]bool{"gemini-desk/gemini-tie-first-in-file": true}}
	run, err := Judge(context.Background(), h, cases, Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"gemini-desk/gemini-priority-beats-deny", "gemini-desk/gemini-priority-deny-first", "gemini-desk/gemini-tie-first-in-file"}, h.ids)
	require.NotNil(t, run.Dimensions)
	assert.Equal(t, "gemini@0.61.0", run.Dimensions.Column, "a release without a column of its own is named by its source")
	assert.Equal(t, verifier.Dimension{Numerator: 2, Denominator: 3, Applicable: true}, run.Dimensions.Real.AllowedWork)
	assert.Equal(t, 3, run.Dimensions.Real.TraceCompleteness.Denominator)
	assert.JSONEq(t, `{"runId":"toy"}`, string(run.Provenance))
	assert.Equal(t, run.Dimensions, Section([]*Run{run})[0].Dimensions)

	plain, err := Judge(context.Background(), &modelHarness{release: "0.61.0"}, cases, Options{})
	require.NoError(t, err)
	assert.Nil(t, plain.Dimensions)
	assert.Nil(t, plain.Provenance)
}
