package ompcheck

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestOneDecodePerCase: loading the family's desks decodes each case's
// given block once, and running every case on every release it names,
// under the correct model and every fault, and suggesting its keys,
// decodes none again.
func TestOneDecodePerCase(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	var inputs []verifier.Input
	n := 0
	for _, path := range []string{"testdata/omp-desk.json", "testdata/releases-desk.json"} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		inputs = append(inputs, verifier.Input{Path: path, Data: data})
		n += len(checktest.Desk(t, path))
	}
	for _, f := range cases.Files() {
		if f.Path == "cases/omp-tools-desk.json" || f.Path == "cases/boundary-desk.json" {
			inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
			n += len(checktest.Desk(t, "../../../"+f.Path))
		}
	}
	require.Len(t, inputs, 4)
	before := scenario.Calls.Decodes.Load()
	desks, ds := verifier.LoadAll(reg, inputs, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	all, _ := verifier.Select(desks, nil)
	require.Len(t, all, n)
	assert.Equal(t, int64(n), scenario.Calls.Decodes.Load()-before, "one decode per case at load")
	results, err := verifier.Run(t.Context(), all, verifier.RunOptions{})
	require.NoError(t, err)
	for _, f := range reg.Faults() {
		under, err := verifier.Run(t.Context(), all, verifier.RunOptions{Fault: &f})
		require.NoError(t, err)
		results = append(results, under...)
	}
	controls := 0
	for _, r := range results {
		require.NotEqual(t, verifier.Errored, r.Status, "%s: %v", r.Case.ID, r.Err)
		if r.Boundary != nil {
			controls++
		}
		require.NotEmpty(t, r.Suggestions(), r.Case.ID)
	}
	assert.Positive(t, controls, "wrapper and fallback cases count their boundary")
	assert.Len(t, results, n*(1+len(reg.Faults())))
	assert.Equal(t, int64(n), scenario.Calls.Decodes.Load()-before, "no decode when the cases run")
}

// TestPlanAndBoundary: a wrapper case's plan scripts its repeat calls,
// expected.effects of them permitted, and its boundary counts a run's
// evidence against that script; a fallback case's one write is permitted
// when one effect is expected.
func TestPlanAndBoundary(t *testing.T) {
	g, err := decodeWrapper([]byte(`{"repeat": 3, "choices": ["Approve"]}`))
	require.NoError(t, err)
	p := planWrapper(g, checktest.Fields(t, `{"effects": 1, "prompts": 1}`))
	assert.Equal(t, 1, p.Permitted)
	assert.Equal(t, 2, p.Denied)
	assert.Empty(t, p.Problems)
	b := wrapperBoundary(p.Script, wrapperEvidence{calls: []callOutcome{{}, {threw: true, message: "denied"}, {threw: true}}, runs: 1})
	assert.Equal(t, 3, b.Actions)
	assert.Equal(t, 1, b.DeniedVisible, "a throw without a message is no visible denial")
	assert.True(t, b.FailClosed)
	assert.Zero(t, b.ExtraEffects)
	b = wrapperBoundary(p.Script, wrapperEvidence{calls: make([]callOutcome, 3), runs: 3})
	assert.False(t, b.FailClosed, "two denied calls ran")
	assert.Equal(t, 2, b.ExtraEffects)

	warned := planWrapper(g, checktest.Fields(t, `{"effects": 4, "prompts": 2}`))
	var names []string
	for _, pr := range warned.Problems {
		names = append(names, pr.Name)
	}
	assert.Equal(t, []string{"effects-vs-calls", "choices-vs-prompts"}, names)

	f, err := decodeFallback([]byte(`{"code": "EACCES", "message": "denied", "handlers": []}`))
	require.NoError(t, err)
	assert.True(t, f.hasHandlers, "an empty handler list is still written")
	fp := planFallback(f, checktest.Fields(t, `{"effects": 0}`))
	assert.Equal(t, [2]int{0, 1}, [2]int{fp.Permitted, fp.Denied})
	fb := fallbackBoundary(fp.Script, fallbackEvidence{threw: true, message: "denied", attempts: 1})
	assert.Equal(t, 1, fb.DeniedVisible)
	assert.True(t, fb.FailClosed)
}

// TestToolsRunGroup: the wrapper splits 18.3.4 from the rest of G3 only
// for a case that uses a real tool's own declaration.
func TestToolsRunGroup(t *testing.T) {
	var r18_3_4, r18_2_3 scenario.Release
	for _, r := range Releases {
		switch r.Version {
		case "18.3.4":
			r18_3_4 = r
		case "18.2.3":
			r18_2_3 = r
		}
	}
	group := func(given string, r scenario.Release) string {
		return Wrapper.Compile([]byte(given), nil).Group(r)
	}
	real := `{"tool": "write", "args": {"path": "notes/card.txt"}}`
	assert.Equal(t, r18_3_4.Group+" (18.3.4 tools)", group(real, r18_3_4))
	assert.Equal(t, r18_2_3.Group, group(real, r18_2_3))
	assert.Equal(t, r18_3_4.Group, group(`{"tool": "write", "approval": "read"}`, r18_3_4), "a fake tool")
	assert.Equal(t, r18_3_4.Group, group(`{"tool": "seed_note"}`, r18_3_4))
	assert.Equal(t, r18_3_4.Group, Fallback.Compile([]byte(`{"code": "EACCES", "message": "m"}`), nil).Group(r18_3_4))
}
