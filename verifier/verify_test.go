package verifier

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readInput(t *testing.T, path string) Input {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return Input{Path: path, Data: data}
}

// loadCases loads the desks at paths, which must be valid, and returns
// their cases.
func loadCases(t *testing.T, paths ...string) []*Case {
	t.Helper()
	var in []Input
	for _, p := range paths {
		in = append(in, readInput(t, p))
	}
	desks, ds := LoadAll(testReg, in, Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	cases, _ := Select(desks, nil)
	return cases
}

func TestVerifyBundledAndScenarioDesks(t *testing.T) {
	type deskCount struct {
		path         string
		cases, claim int
	}
	counts := []deskCount{{"../cases/boundary-desk.json", 15, 3}}
	// Every family's own desks beside its adapter, counted as loaded.
	own, err := filepath.Glob("../host/*/*check/testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, own)
	for _, p := range own {
		desks, ds := LoadAll(testReg, []Input{readInput(t, p)}, Limits{})
		require.False(t, ds.HasErrors(), "%v", ds)
		counts = append(counts, deskCount{p, len(desks[0].Cases), len(desks[0].Claims)})
	}
	for _, tt := range counts {
		t.Run(tt.path, func(t *testing.T) {
			suite, ds, err := Verify(context.Background(), []Input{readInput(t, tt.path)}, Options{Registry: testReg})
			require.NoError(t, err)
			require.False(t, ds.HasErrors(), diagStrings(ds))
			for _, r := range suite.Results {
				assert.Equal(t, Pass, r.Status, "%s: %v %s", r.Case.FullID(), r.Mismatches, r.Err)
			}
			assert.Equal(t, Summary{Cases: tt.cases, Passed: tt.cases, SourceOnly: tt.claim}, suite.Summary)
			assert.True(t, suite.Passed())
		})
	}
}

// mutate returns a different value of the same kind for an expected field
// of scenario sc: a word compared exactly is one of two the schema takes.
func mutate(sc *scenario.Scenario, key string, raw string) string {
	var v any
	_ = json.Unmarshal([]byte(raw), &v)
	switch x := v.(type) {
	case float64:
		return fmt.Sprint(x + 1)
	case bool:
		return fmt.Sprint(!x)
	case string:
		if cmp, _ := sc.Expected.Comparer(key); cmp.Name() == scenario.Exact.Name() {
			if x == "return" {
				return `"throw"`
			}
			return `"return"`
		}
		return `"text the host never says"`
	}
	return `{"action":"mutated"}`
}

// TestEveryExpectedFieldIsAsserted changes one expected value of the
// boundary desk at a time and checks that exactly that case fails, naming
// exactly that field with both values.
func TestEveryExpectedFieldIsAsserted(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	desk, ds := Load(testReg, in.Path, in.Data, Limits{})
	require.False(t, ds.HasErrors())
	keysSeen := map[string]bool{}
	for _, c := range desk.Cases {
		for _, f := range c.Expected {
			keysSeen[f.Key] = true
			t.Run(c.ID+"/"+f.Key, func(t *testing.T) {
				sc, _ := c.Spec()
				mutated := mutate(sc, f.Key, f.Value.Raw)
				data := append([]byte{}, in.Data[:f.Value.Index]...)
				data = append(data, mutated...)
				data = append(data, in.Data[f.Value.Index+len(f.Value.Raw):]...)
				suite, ds, err := Verify(context.Background(), []Input{{Path: in.Path, Data: data}}, Options{Registry: testReg})
				require.NoError(t, err)
				require.False(t, ds.HasErrors(), diagStrings(ds))
				assert.Equal(t, 1, suite.Summary.Failed)
				assert.Equal(t, 14, suite.Summary.Passed)
				for _, r := range suite.Results {
					if r.Case.ID != c.ID {
						continue
					}
					require.Equal(t, Fail, r.Status)
					require.Len(t, r.Mismatches, 1)
					m := r.Mismatches[0]
					assert.Equal(t, f.Key, m.Field)
					assert.Equal(t, gjson.Parse(mutated).Value(), m.Expected)
					assert.Equal(t, r.Observed[f.Key], m.Observed)
					assert.NotEqual(t, m.Expected, m.Observed)
				}
			})
		}
	}
	// The desk uses 12 keys, each compared: a count, a flag, a word, a text
	// and JSON among them.
	assert.Len(t, keysSeen, 12)
	for _, k := range []string{"effects", "prompts", "toolCalls", "input", "errorIncludes", "successfulCalls",
		"rpcRequests", "providerSafetyApproved", "promptIncludes", "primitiveAttempts", "permissionDenied"} {
		assert.True(t, keysSeen[k], "the desk uses %s", k)
	}
}

func TestVerifySelection(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	suite, _, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg, Run: regexp.MustCompile(`/boundary-rpc-`)})
	require.NoError(t, err)
	assert.Equal(t, 2, suite.Summary.Cases)
	assert.Equal(t, 0, suite.Summary.SourceOnly, "-run filters claims by id too")

	_, _, err = Verify(context.Background(), []Input{in}, Options{Registry: testReg, Run: regexp.MustCompile(`nothing-matches`)})
	assert.ErrorIs(t, err, ErrNoCases)

	empty := Input{Path: "empty-desk.json", Data: []byte(`{"schemaVersion":1,"id":"e","title":"t","label":"DO NOT EXECUTE","cases":[]}`)}
	_, _, err = Verify(context.Background(), []Input{empty}, Options{Registry: testReg})
	assert.ErrorIs(t, err, ErrNoCases, "an empty suite is never a pass")
}

func TestVerifyStopsOnInvalidInput(t *testing.T) {
	suite, ds, err := Verify(context.Background(), []Input{readInput(t, "testdata/invalid/duplicate-key.json"), readInput(t, "../cases/boundary-desk.json")}, Options{Registry: testReg})
	assert.NoError(t, err)
	assert.Nil(t, suite, "nothing runs when any file is invalid")
	assert.True(t, ds.HasErrors())
}

func TestRunRecoversPanics(t *testing.T) {
	sc := scenario.Declare(&scenario.Scenario{Name: "test", Unit: "call"}, scenario.Kind[string, struct{}, struct{}]{
		Decode: func(given []byte) (string, error) { return string(given), nil },
		Run: func(_ context.Context, given string, _ scenario.Env) (scenario.Observation, struct{}, error) {
			if given == `"panic"` {
				panic("boom")
			}
			return scenario.Observation{}, struct{}{}, fmt.Errorf("cannot build")
		},
		Suggest: func(string, map[string]any) []string { return nil },
	})
	fam := &scenario.Family{Host: scenario.Host{Name: "test"}}
	d := &Desk{ID: "d"}
	res, err := Run(context.Background(), []*Case{
		{Desk: d, ID: "p", Given: gjson.Parse(`"panic"`), sc: sc, fam: fam, compiled: sc.Compile([]byte(`"panic"`), nil)},
		{Desk: d, ID: "e", Given: gjson.Parse("{}"), sc: sc, fam: fam, compiled: sc.Compile([]byte("{}"), nil)},
	}, RunOptions{})
	require.NoError(t, err)
	require.Len(t, res, 2)
	assert.Equal(t, Errored, res[0].Status)
	assert.Contains(t, res[0].Err, "panic while running the case: boom")
	assert.Equal(t, Errored, res[1].Status)
	assert.Equal(t, "cannot build", res[1].Err)
	s := Summarize(res, nil)
	assert.Equal(t, Summary{Cases: 2, Errored: 2}, s)
	assert.False(t, (&SuiteResult{Summary: s}).Passed())
}

// testReg holds every host family, as the command builds it.
var testReg = all.Registry()
