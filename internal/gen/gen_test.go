package gen_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

func TestGeneratedSuitePasses(t *testing.T) {
	files := gen.Suite(2500, 1000)
	require.Len(t, files, 3)
	var inputs []verifier.Input
	for _, f := range files {
		inputs = append(inputs, verifier.Input{Path: f.Name, Data: f.Data})
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: all.Registry()})
	require.NoError(t, err)
	require.Empty(t, ds, "%d diagnostics", len(ds))
	assert.Equal(t, verifier.Summary{Cases: 2500, Passed: 2500}, suite.Summary)
	scenarios := map[string]int{}
	for _, r := range suite.Results {
		scenarios[r.Case.Scenario]++
	}
	bundled := map[string]bool{}
	for _, f := range cases.Files() {
		gjson.GetBytes(f.Data, "cases.#.scenario").ForEach(func(_, v gjson.Result) bool { bundled[v.Str] = true; return true })
	}
	assert.Len(t, scenarios, len(bundled), "every scenario of the bundled desks")
	assert.True(t, bytes.Equal(gen.Desk(1, 10, 10), gen.Desk(1, 10, 10)), "deterministic")
}

// Each worst case is a valid desk within every default limit of a file
// and a run, and reaches the limits it declares: the file size (within a
// sixteenth), the copies of a run or the work of a file (within a tenth
// and a hundredth), so the README's envelope is measured at the limits.
func TestWorstCasesAreAtTheDefaultLimits(t *testing.T) {
	reg := all.Registry()
	require.NotEmpty(t, gen.WorstCases())
	for _, w := range gen.WorstCases() {
		name := w.Name
		data, err := gen.Worst(name)
		require.NoError(t, err)
		assert.LessOrEqual(t, int64(len(data)), verifier.DefaultLimits.FileSize, name)
		if w.Reaches&scenario.ReachesFileSize != 0 {
			assert.Greater(t, int64(len(data)), verifier.DefaultLimits.FileSize*15/16, name)
		}
		desks, ds := verifier.LoadAll(reg, []verifier.Input{{Path: name + ".json", Data: data}}, verifier.Limits{})
		require.False(t, ds.HasErrors(), "%s: %v", name, ds)
		work, copies := 0, 0
		for _, c := range desks[0].Cases {
			work, copies = work+c.Work(), copies+c.Copies()
		}
		assert.LessOrEqual(t, copies, verifier.DefaultLimits.CopyBytes, name)
		if w.Reaches&scenario.ReachesCopies != 0 {
			assert.Greater(t, copies, verifier.DefaultLimits.CopyBytes*9/10, "%s copies what a run may", name)
		}
		if w.Reaches&scenario.ReachesWork != 0 {
			assert.Greater(t, work, verifier.DefaultLimits.Work*99/100, "%s scripts the work of a file", name)
		}
	}
	_, err := gen.Worst("nope")
	assert.ErrorContains(t, err, `no worst case "nope" (known: `)
}
