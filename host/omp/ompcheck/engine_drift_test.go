package ompcheck_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
)

func driftOf(t *testing.T, in ...verifier.Input) verifier.Drift {
	t.Helper()
	desks, ds := verifier.LoadAll(registered, in, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	cases, _ := verifier.Select(desks, nil)
	return verifier.MeasureDrift(context.Background(), cases)
}

// unreleased are the bundled desks whose cases all run on hosts that
// model no releases.
func unreleased(t *testing.T) []verifier.Input {
	t.Helper()
	var out []verifier.Input
	for _, f := range all.Desks() {
		in := verifier.Input{Path: f.Path, Data: f.Data}
		desks, ds := verifier.LoadAll(registered, []verifier.Input{in}, verifier.Limits{})
		require.False(t, ds.HasErrors(), "%v", ds)
		cases, _ := verifier.Select(desks, nil)
		bare := len(cases) > 0
		for _, c := range cases {
			_, fam := c.Spec()
			bare = bare && len(fam.Host.Releases) == 0
		}
		if bare {
			out = append(out, in)
		}
	}
	require.NotEmpty(t, out)
	return out
}

func unexercisedIDs(d verifier.Drift) []string {
	var out []string
	for _, c := range d.Unexercised {
		out = append(out, c.ID)
	}
	return out
}

// TestDriftBoundaryDesk: on the seed desk only the autoApprove case is the
// same on every release; the tool-deny case differs on 17.x by its text;
// the fallback and classifier cases are not applicable before 18.1.16; and
// no case uses an unknown mode or a policy map that is not an object.
func TestDriftBoundaryDesk(t *testing.T) {
	d := driftOf(t, bundled(t, "cases/boundary-desk.json"))
	require.Len(t, d.Cases, 15)
	same := 0
	byID := map[string]verifier.DriftCase{}
	for _, c := range d.Cases {
		byID[c.ID] = c
		if c.Same {
			same++
		}
		require.Len(t, c.Groups, 4, c.ID)
		assert.Equal(t, "18.3.4", c.Newest)
		assert.Equal(t, verifier.DriftSame, c.Groups[3].Status, "the newest group is the baseline")
		assert.Equal(t, verifier.DriftSame, c.Groups[2].Status, "%s: G2 and G3 agree on the seed desk", c.ID)
	}
	assert.Equal(t, 1, same)
	assert.True(t, byID["boundary-auto-approve-mode"].Same)

	deny := byID["boundary-deny-before-handler"].Groups[1]
	assert.Equal(t, "G1", deny.Group)
	require.Len(t, deny.Differences, 1)
	assert.Equal(t, "errorIncludes", deny.Differences[0].Key)
	assert.Contains(t, deny.Differences[0].Observed, "blocked by user policy")
	assert.Contains(t, deny.Differences[0].Newest, "blocked by tool policy")

	fb := byID["boundary-fallback-no-handler"].Groups
	assert.Equal(t, verifier.DriftNotApplicable, fb[0].Status)
	assert.Equal(t, "omp 17.2.15, 17.3.5: has no file-write fallback", fb[1].Reason)

	assert.Equal(t, []string{"unknown-mode", "non-object-policies", "missing-context", "legacy-names"}, unexercisedIDs(d))
	assert.Equal(t, "no case uses an unknown mode", d.Unexercised[0].Why)
	assert.Equal(t, "18.2.3", d.Unexercised[0].Since)
}

// TestDriftReleasesDesk: the desk of the project's own exercises every
// change a desk key reaches, whatever its cases' ranges say.
func TestDriftReleasesDesk(t *testing.T) {
	d := driftOf(t, append(unreleased(t), readDesk(t, releasesDeskPath))...)
	assert.Equal(t, []string{"missing-context", "legacy-names"}, unexercisedIDs(d))
	assert.Positive(t, d.Skipped, "the cases of hosts without releases are not compared")
	for _, c := range d.Cases {
		if c.ID == "unknown-mode-is-yolo" {
			assert.Equal(t, verifier.DriftDiffers, c.Groups[1].Status)
			assert.Equal(t, verifier.DriftDiffers, c.Groups[2].Status)
			assert.Equal(t, verifier.DriftSame, c.Groups[0].Status, "13.x runs the call too: no gate")
		}
	}
}
