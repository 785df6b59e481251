package reports

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
)

// placedFaults are three faults of the registry: of one family, one that
// only a case of a later scenario (not its first) exposes and one a case
// of its first scenario exposes but no case of that later one; and a
// fault of another family.
func placedFaults(t *testing.T) (first, later string, onLater, onFirst, elsewhere scenario.QualifiedFault) {
	t.Helper()
	reg := all.Registry()
	for _, f := range reg.Families() {
		if len(f.Scenarios) < 2 {
			continue
		}
		first = f.Scenarios[0].Name
		var lateOK, firstOK, otherOK bool
		for _, q := range reg.Faults() {
			switch {
			case q.Host != f.Host.Name:
				if !otherOK {
					elsewhere, otherOK = q, true
				}
			case len(q.Scenarios) == 1 && q.Scenarios[0] != first && !lateOK:
				onLater, later, lateOK = q, q.Scenarios[0], true
			}
		}
		if !lateOK || !otherOK {
			continue
		}
		for _, q := range reg.Faults() {
			if q.Host == f.Host.Name && (len(q.Scenarios) == 0 || slices.Contains(q.Scenarios, first)) && !slices.Contains(q.Scenarios, later) && len(q.Scenarios) > 0 {
				onFirst, firstOK = q, true
				break
			}
		}
		if firstOK {
			return first, later, onLater, onFirst, elsewhere
		}
	}
	t.Fatal("no family has a fault of its first scenario only and one of a later scenario only")
	return
}

// TestMissedFaultOnTheDeskThatAddressesIt: a missed fault that only a case
// of one scenario exposes is annotated on the desk that has a case of it,
// not on the first desk of its host, and at no line; a fault no desk
// addresses is on no file.
func TestMissedFaultOnTheDeskThatAddressesIt(t *testing.T) {
	first, later, onLater, onFirst, elsewhere := placedFaults(t)
	r := &Report{
		Provenance: Provenance{Files: []File{{Path: "desks/one.json", Desk: "one"}, {Path: "desks/two.json", Desk: "two"}}},
		Cases: []Case{
			{Desk: "one", ID: "a", Scenario: first, Status: "pass"},
			{Desk: "two", ID: "b", Scenario: later, Status: "pass"},
		},
		Strength: &Strength{Results: []FaultResult{
			{Fault: onLater.FullName(), Bug: onLater.Bug, Hint: onLater.Hint},
			{Fault: onFirst.FullName(), Bug: onFirst.Bug, Hint: onFirst.Hint},
			{Fault: elsewhere.FullName(), Bug: elsewhere.Bug, Hint: elsewhere.Hint},
		}},
	}
	var b bytes.Buffer
	require.NoError(t, GitHub{Registry: all.Registry(), StrengthOnly: true}.Write(&b, r))
	out := b.String()
	assert.Contains(t, out, "::error file=desks/two.json,title=fault "+onLater.FullName()+" missed::")
	assert.Contains(t, out, "::error file=desks/one.json,title=fault "+onFirst.FullName()+" missed::")
	assert.Contains(t, out, "::error title=fault "+elsewhere.FullName()+" missed::")
	assert.NotContains(t, out, "line=")

	b.Reset()
	require.NoError(t, SARIF{Registry: all.Registry()}.Write(&b, r))
	assert.Contains(t, b.String(), `"artifactLocation":{"uri":"desks/two.json"}`)
}
