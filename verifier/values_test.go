package verifier

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
)

// oneCase is a desk of one case of scenario with the given and expected
// blocks as JSON text.
func oneCase(scenario, given, expected string) []byte {
	return []byte(fmt.Sprintf(`{
  "schemaVersion": 1,
  "id": "values",
  "title": "Values as the host reads them",
  "label": "TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "cases": [
    {
      "id": "case",
      "title": "one case",
      "scenario": %q,
      "given": %s,
      "expected": %s
    }
  ]
}
`, scenario, given, expected))
}

// verifyOne loads, lints and runs a one-case desk and returns its result,
// failing on any diagnostic error.
func verifyOne(t *testing.T, data []byte) Result {
	t.Helper()
	suite, ds, err := Verify(context.Background(), []Input{{Path: "values.json", Data: data}}, Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), diagStrings(ds))
	require.Len(t, suite.Results, 1)
	return suite.Results[0]
}

// TestObservePasteValidateVerify: for every scenario, the expected block
// observe proposes, pasted into the case, validates and verifies; also on
// the values this issue is about (a negative, fractional and huge policy
// code, an exact integer, lone surrogates).
func TestObservePasteValidateVerify(t *testing.T) {
	// More givens of some scenarios, on the values above, keyed by scenario.
	var givens map[string][]json.RawMessage
	require.NoError(t, json.Unmarshal(readInput(t, "testdata/values/givens.json").Data, &givens))
	for name := range givens {
		_, _, ok := testReg.Lookup(name)
		require.True(t, ok, "testdata/values/givens.json: no scenario %s", name)
	}
	for _, name := range testReg.Names() {
		sc, _, _ := testReg.Lookup(name)
		for i, given := range append([]json.RawMessage{json.RawMessage(sc.Template)}, givens[name]...) {
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				ctx := context.Background()
				compiled := sc.Compile(given, nil)
				obs, err := compiled.Run(ctx, scenario.Env{Trace: &scenario.Trace{}})
				require.NoError(t, err)
				for k, v := range obs.Values {
					obs.Values[k] = scenario.Normalize(v)
				}
				block := FormatExpected(suggestions(sc, compiled, obs.Values), "      ")
				r := verifyOne(t, oneCase(name, string(given), block))
				assert.Equal(t, Pass, r.Status, "%s\n%v %s", block, r.Mismatches, r.Err)
			})
		}
	}
}

// TestObserveOnEveryBundledCase: the block observe proposes for each case
// of the bundled and family desks, pasted in place of its expected block,
// validates and verifies.
func TestObserveOnEveryBundledCase(t *testing.T) {
	var inputs []Input
	for _, f := range all.Desks() {
		inputs = append(inputs, Input{Path: f.Path, Data: f.Data})
	}
	// A family's own desks beside its adapter count too.
	own, err := filepath.Glob("../host/*/*check/testdata/*.json")
	require.NoError(t, err)
	for _, p := range own {
		if !strings.Contains(p, "releases-desk") {
			inputs = append(inputs, readInput(t, p))
		}
	}
	scenarios := map[string]bool{}
	for _, in := range inputs {
		desks, ds := LoadAll(testReg, []Input{in}, Limits{})
		require.False(t, ds.HasErrors(), diagStrings(ds))
		for _, res := range runAll(context.Background(), desks[0].Cases, nil, nil) {
			c := res.Case
			require.NotEqual(t, Errored, res.Status, "%s: %s", c.FullID(), res.Err)
			scenarios[c.Scenario] = true
			block := FormatExpected(res.Suggestions(), "      ")
			// The block was observed on one release: judge it there.
			var pin Hosts
			if res.Release != "" {
				pin = Hosts{res.Releases[0].Host: res.Release}
			}
			suite, ds, err := Verify(context.Background(), []Input{{Path: "values.json", Data: oneCase(c.Scenario, c.Given.Raw, block)}}, Options{Registry: testReg, Hosts: pin})
			require.NoError(t, err)
			require.False(t, ds.HasErrors(), diagStrings(ds))
			r := suite.Results[0]
			assert.Equal(t, Pass, r.Status, "%s\n%s\n%v", c.FullID(), block, r.Mismatches)
		}
	}
	assert.Len(t, scenarios, len(testReg.Names()), "every scenario")
}

// TestDeskStringsKeepLoneSurrogates: the desk's own strings (sources and
// their keys, ids, claims) are read as the hosts read strings, so two keys
// that differ in a lone surrogate stay two keys and a ref to a third names
// neither.
func TestDeskStringsKeepLoneSurrogates(t *testing.T) {
	seed, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	desk := bytes.Replace(seed, []byte(`"sources": {`), []byte(`"sources": {"a\ud800": "first", "a\ud801": "second", `), 1)
	desk = bytes.Replace(desk, []byte(`"sourceRefs": [`), []byte(`"sourceRefs": ["a\udbff", `), 1)
	_, ds := LoadAll(testReg, []Input{{Path: "d.json", Data: desk}}, Limits{})
	var msgs []string
	for _, d := range ds {
		msgs = append(msgs, d.Summary)
	}
	// The known keys are held in WTF-8, which every output shows as \ud800.
	assert.Contains(t, strings.Join(msgs, "\n"), `sourceRef "a\udbff" names no key of sources (known: approval, a`+"\xed\xa0\x80, a\xed\xa0\x81,")
	assert.Len(t, ds, 1, "the two keys load as two, and nothing else is wrong")
}
