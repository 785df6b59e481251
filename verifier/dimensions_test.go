package verifier

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

// TestBoundaryDeskDimensions: the figures of the bundled boundary desk,
// worked out by hand from its expected blocks (spec B.4).
func TestBoundaryDeskDimensions(t *testing.T) {
	suite, _, err := Verify(context.Background(), []Input{readInput(t, "../cases/boundary-desk.json")}, Options{Registry: testReg})
	require.NoError(t, err)
	d := SumDimensions(suite.Results)
	assert.Equal(t, Dimension{9, 9, true}, d.DenialPropagation)
	assert.Equal(t, Dimension{5, 5, true}, d.AllowedWork)
	assert.Equal(t, Dimension{13, 13, true}, d.FailClosed)
	assert.Equal(t, Dimension{6, 6, true}, d.RetryAmplification.Dimension)
	assert.Equal(t, "1.00", d.RetryAmplification.Ratio)
	assert.Equal(t, Dimension{13, 13, true}, d.TraceCompleteness)
	assert.Equal(t, 0, d.ExtraEffects)
	assert.Equal(t, Controls{Allowed: 4, Denied: 8, Mixed: 1, None: 2}, d.Controls)
	assert.Equal(t, BlanketRefusal{AllowedControls: 5, Detectable: true}, d.BlanketRefusal)
	assert.Empty(t, d.Arenas)
}

func TestDimensionsWithoutActions(t *testing.T) {
	d := SumDimensions(nil)
	for _, x := range []Dimension{d.DenialPropagation, d.AllowedWork, d.FailClosed, d.RetryAmplification.Dimension, d.TraceCompleteness} {
		assert.Equal(t, Dimension{}, x, "a zero denominator is not applicable, never 100 %")
	}
	assert.Equal(t, "", d.RetryAmplification.Ratio)
	assert.False(t, d.BlanketRefusal.Detectable)
}

func TestControlKinds(t *testing.T) {
	for _, tt := range []struct {
		reason string
		b      *scenario.Boundary
		want   string
	}{
		{"no action scripted", nil, "none"},
		{"only permitted", &scenario.Boundary{Actions: 1, Permitted: 1}, "allowed"},
		{"only denied", &scenario.Boundary{Actions: 2, Denied: 2}, "denied"},
		{"both", &scenario.Boundary{Actions: 2, Permitted: 1, Denied: 1}, "mixed"},
	} {
		assert.Equal(t, tt.want, ControlKind(tt.b), tt.reason)
	}
}

func TestRatio(t *testing.T) {
	for _, tt := range []struct {
		n, d int
		want string
	}{{6, 6, "1.00"}, {0, 17, "0.00"}, {2, 1, "2.00"}, {1, 3, "0.33"}, {2, 3, "0.67"}, {1, 8, "0.13"}, {7, 6, "1.17"}} {
		assert.Equal(t, tt.want, Ratio(tt.n, tt.d), "%d/%d", tt.n, tt.d)
	}
}

func TestPairingLint(t *testing.T) {
	doc := named(`{"schemaVersion":1,"id":"d","title":"t","label":"DO NOT EXECUTE","cases":[
{"id":"a","title":"t","scenario":"{prompt}","family":"credential","given":{"approval":{"policy":"deny"}},"expected":{"outcome":"throw","effects":0}},
{"id":"b","title":"t","scenario":"{prompt}","family":"protected-file","given":{"mode":"always-ask","ui":false},"expected":{"outcome":"throw","effects":0}}]}`)
	_, ds := LoadAll(testReg, []Input{{Path: "denied-only.json", Data: []byte(doc)}}, Limits{})
	assert.False(t, ds.HasErrors())
	s := diagStrings(ds)
	assert.Contains(t, s, "denied-only.json:1:74: warning: no allowed control: a host that refuses everything passes this desk (/cases) [no-allowed-control]")
	assert.Contains(t, s, "denied-only.json:2:53: warning: family credential has no allowed control (/cases/0/family) [unpaired-family]")
	assert.Contains(t, s, "denied-only.json:3:53: warning: family protected-file has no allowed control (/cases/1/family) [unpaired-family]")

	bad := named(`{"schemaVersion":1,"id":"d","title":"t","label":"DO NOT EXECUTE","cases":[{"id":"a","title":"t","scenario":"{prompt}","family":"credentials","given":{},"expected":{"outcome":"return","effects":1}}]}`)
	_, ds = LoadAll(testReg, []Input{{Path: "bad-family.json", Data: []byte(bad)}}, Limits{})
	assert.Contains(t, diagStrings(ds), `bad-family.json:1:127: error: unknown family "credentials" (known: protected-file, network-destination, credential, approval-rejection, policy-service-failure, mixed-batch, repeated-denial, permitted-recovery); did you mean "credential"? (/cases/0/family)`)
}

// TestBlanketRefusalShowsInAllowedWork: under omp/deny-all the boundary
// desk's allowed work drops to zero while denials still reach the caller,
// and the fault is caught by the allowed controls.
func TestBlanketRefusalShowsInAllowedWork(t *testing.T) {
	suite, _, err := Verify(context.Background(), []Input{readInput(t, "../cases/boundary-desk.json")}, Options{Registry: testReg})
	require.NoError(t, err)
	fault, err := testReg.LookupFault(named("{host}/deny-all"))
	require.NoError(t, err)
	cases, _ := Select(suite.Desks, nil)
	refused := SumDimensions(runAll(context.Background(), cases, nil, &fault))
	assert.Equal(t, Dimension{0, 5, true}, refused.AllowedWork)
	assert.Equal(t, Dimension{9, 9, true}, refused.DenialPropagation)
	// The fallback case still reaches its writer (deny-all refuses wrapper
	// resolutions only): 1 of the 6 expected service requests.
	assert.Equal(t, "0.17", refused.RetryAmplification.Ratio)
	s := MeasureStrength(context.Background(), suite.Results, []scenario.QualifiedFault{fault})
	assert.True(t, s.Faults[0].Caught())
}
