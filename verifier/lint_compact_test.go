package verifier

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableScenario is the scenario whose cases script calls against a policy
// table and are warned when they expect what the table does not give.
func tableScenario() string {
	for _, name := range testReg.Names() {
		sc, _, _ := testReg.Lookup(name)
		for _, w := range sc.Warnings {
			if w.Name == "contradicts-table" {
				return name
			}
		}
	}
	panic("no scenario warns contradicts-table")
}

// manyWarnings is a desk of n cases of the table scenario, each of 64
// calls whose expected decisions and reasons all contradict the table:
// 128 warnings a case. Every third case acknowledges them, the desk
// acknowledges its label, and the last case acknowledges a warning it
// does not raise.
func manyWarnings(n int) Input {
	name := tableScenario()
	calls := strings.TrimSuffix(strings.Repeat(`{"action":"file.read.workspace"},`, 8), ",")
	turns := strings.TrimSuffix(strings.Repeat("["+calls+"],", 8), ",")
	var cases []string
	for i := range n {
		ack := ""
		switch {
		case i == n-1:
			ack = `"acknowledge":{"near-label":"no such label here"},`
		case i%3 == 0:
			ack = `"acknowledge":{"contradicts-table":"every call contradicts it on purpose"},`
		}
		cases = append(cases, fmt.Sprintf(`{"id":"a%d","title":"t","scenario":%q,%s"given":{"turns":[%s]},"expected":{"decisions":[%s],"reasons":[%s],"effects":0,"visibleDenials":64,"serviceRequests":64,"modelRequests":9,"traceComplete":true}}`,
			i, name, ack, turns, strings.TrimSuffix(strings.Repeat(`"deny",`, 64), ","), strings.TrimSuffix(strings.Repeat(`"unknown_action",`, 64), ",")))
	}
	return Input{Path: "many.json", Data: []byte(`{"schemaVersion":1,"id":"many","title":"t","label":"teaching data","acknowledge":{"label":"a test desk"},"cases":[` + strings.Join(cases, ",") + `]}`)}
}

// TestLintCutsItsListWithoutChangingIt: lint cuts its list to what a
// caller lists while the list grows (a case can have a warning for each
// call it scripts). What the callers list is the same, cut or not — the
// problems, which are acknowledged, the counts of the rest by kind, the
// unused acknowledgements — for any point of cutting and any
// -max-diagnostics, on the bundled desks and on a desk of 5,120 warnings.
func TestLintCutsItsListWithoutChangingIt(t *testing.T) {
	inputs := []Input{manyWarnings(40)}
	paths, err := filepath.Glob("../cases/*.json")
	require.NoError(t, err)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		inputs = append(inputs, Input{Path: p, Data: data})
	}
	saved := lintCompactAt
	t.Cleanup(func() { lintCompactAt = saved })
	for _, in := range inputs {
		for _, most := range []int{1, 100, 100_000} {
			limits := Limits{Diagnostics: most}
			lintCompactAt = math.MaxInt
			_, want := LoadAll(testReg, []Input{in}, limits)
			if in.Path == "many.json" {
				require.Greater(t, len(want), min(most, 100), "the desk has warnings past the cut")
				if most == 100_000 {
					require.Greater(t, len(want), 5120)
				}
			}
			wantEach := LoadEach(testReg, []Input{in}, limits, func(*Desk) {})
			for _, at := range []int{1, 7, 1000} {
				lintCompactAt = at
				_, got := LoadAll(testReg, []Input{in}, limits)
				require.Equal(t, diagStrings(want), diagStrings(got), "%s, -max-diagnostics %d, cut at %d", in.Path, most, at)
				require.Equal(t, want, got, "%s, -max-diagnostics %d, cut at %d", in.Path, most, at)
				each := LoadEach(testReg, []Input{in}, limits, func(*Desk) {})
				assert.Equal(t, wantEach, each, "%s read file by file, -max-diagnostics %d, cut at %d", in.Path, most, at)
			}
		}
	}
}

// TestLintTwiceIsTheSame: lint takes each case's plan warnings rather
// than keeping them with the case; a desk linted again is planned again
// and gets the same diagnostics.
func TestLintTwiceIsTheSame(t *testing.T) {
	in := manyWarnings(3)
	d, ds := Load(testReg, in.Path, in.Data, Limits{})
	require.NotNil(t, d, diagStrings(ds))
	first := Lint([]*Desk{d}, Limits{Diagnostics: 100_000})
	require.Greater(t, len(first), 3*128, "every call's warnings")
	assert.Equal(t, first, Lint([]*Desk{d}, Limits{Diagnostics: 100_000}))
}
