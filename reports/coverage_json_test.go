package reports

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encoderCoverage is what encoding/json writes for c as a field of
// report.json's head.
func encoderCoverage(t *testing.T, c *Coverage) string {
	t.Helper()
	b, err := marshal(c, "  ")
	require.NoError(t, err)
	return string(b)
}

// hostileStrings are strings whose escaping the encoder decides.
var hostileStrings = []string{"", "plain", `<&>`, "a\u2028b\u2029", "\x00\x1f\x7f", "bad \xff utf-8", `"\`, "tab\tnew\nline\r", "é😀", strings.Repeat("x", 300)}

func randomCoverage(r *rand.Rand) *Coverage {
	str := func() string { return hostileStrings[r.IntN(len(hostileStrings))] }
	strs := func() []string {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		out := make([]string, 1+r.IntN(4))
		for i := range out {
			out[i] = str()
		}
		return out
	}
	points := func() []PointCoverage {
		switch r.IntN(5) {
		case 0:
			return nil
		case 1:
			return []PointCoverage{}
		}
		out := make([]PointCoverage, 1+r.IntN(3))
		for i := range out {
			p := &out[i]
			if r.IntN(2) == 0 {
				p.Desk = str()
			}
			p.Host, p.Reached, p.Points = str(), r.IntN(100)-10, r.IntN(100)
			switch r.IntN(4) {
			case 0:
			case 1:
				p.List = []PointResult{}
			default:
				p.List = make([]PointResult, 1+r.IntN(3))
				for j := range p.List {
					p.List[j] = PointResult{Point: str(), Scenario: str(), Text: str(), Reached: r.IntN(50), Cases: strs()}
				}
			}
			p.NotAddressed = strs()
			if r.IntN(2) == 0 {
				p.Unaddressed = r.IntN(9) - 2
			}
		}
		return out
	}
	return &Coverage{Desks: points(), Families: points()}
}

// TestCoverageJSONIsTheEncoders: the coverage report.json's head holds,
// written by hand, is byte for byte what encoding/json writes: for the
// bundled desks' runs, for the empty cases and for generated coverage
// with every string the encoder escapes; one with a made case is left to
// the encoder.
func TestCoverageJSONIsTheEncoders(t *testing.T) {
	handWritten := 0
	check := func(name string, c *Coverage) {
		got, ok := appendCoverageJSON(nil, c, "  ")
		want := encoderCoverage(t, c)
		// Text that is not UTF-8 (the encoder writes \ufffd for it) is
		// left to the encoder.
		require.Equal(t, !strings.Contains(want, `\ufffd`), ok, name)
		if ok {
			handWritten++
			assert.Equal(t, want, string(got), name)
		}
	}
	desks, err := filepath.Glob("../cases/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, desks)
	r := stableReport(t, desks...)
	require.NotNil(t, r.Coverage)
	require.NotEmpty(t, r.Coverage.Desks)
	check("the bundled desks", r.Coverage)
	check("nothing", &Coverage{})
	check("empty lists", &Coverage{Desks: []PointCoverage{}, Families: []PointCoverage{{Host: "h"}}})
	check("nil", nil)
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 2000 {
		check("generated "+strings.Repeat("#", i%3), randomCoverage(rng))
	}
	assert.Greater(t, handWritten, 500)
	made := &Coverage{Families: []PointCoverage{{Host: "h", List: []PointResult{{Point: "p", Made: &MadeCase{}}}}}}
	_, ok := appendCoverageJSON(nil, made, "  ")
	assert.False(t, ok, "a made case is the encoder's to write")
	surrogate := &Coverage{Desks: []PointCoverage{{Host: "h", List: []PointResult{{Point: "p", Cases: []string{"a\xed\xa0\x80"}}}}}}
	_, ok = appendCoverageJSON(nil, surrogate, "  ")
	assert.False(t, ok, "text that is not UTF-8 is the encoder's to write")
}
