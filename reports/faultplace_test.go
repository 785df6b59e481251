package reports

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

// TestMissedFaultOnTheDeskThatAddressesIt: a missed fault of the fallback
// is annotated on the desk that has a fallback case, not on the first desk
// of its host, and at no line; a fault no desk addresses is on no file.
func TestMissedFaultOnTheDeskThatAddressesIt(t *testing.T) {
	r := &Report{
		Provenance: Provenance{Files: []File{{Path: "desks/edges.json", Desk: "edges"}, {Path: "desks/fallback.json", Desk: "fallback"}}},
		Cases: []Case{
			{Desk: "edges", ID: "a", Scenario: "wrapper", Status: "pass"},
			{Desk: "fallback", ID: "b", Scenario: "fallback", Status: "pass"},
		},
		Strength: &Strength{Results: []FaultResult{
			{Fault: "omp/fallback-retries", Bug: "the fallback retries", Hint: "scenario fallback: a case"},
			{Fault: "omp/dismiss-approves", Bug: "a dismissed dialog approves", Hint: "scenario wrapper: a case"},
			{Fault: "gateway/deny-all", Bug: "every request is refused", Hint: "scenario gateway: a case"},
		}},
	}
	var b bytes.Buffer
	require.NoError(t, GitHub{Registry: all.Registry(), StrengthOnly: true}.Write(&b, r))
	out := b.String()
	assert.Contains(t, out, "::error file=desks/fallback.json,title=fault omp/fallback-retries missed::")
	assert.Contains(t, out, "::error file=desks/edges.json,title=fault omp/dismiss-approves missed::")
	assert.Contains(t, out, "::error title=fault gateway/deny-all missed::")
	assert.NotContains(t, out, "line=")

	b.Reset()
	require.NoError(t, SARIF{Registry: all.Registry()}.Write(&b, r))
	assert.Contains(t, b.String(), `"artifactLocation":{"uri":"desks/fallback.json"}`)
}
