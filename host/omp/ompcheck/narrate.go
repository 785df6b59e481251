package ompcheck

import (
	"strconv"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/scenario"
)

// Trace and Event are the engine's; the recorders of this package write
// to the case's trace.
type (
	Trace = scenario.Trace
	Event = scenario.Event
)

// noter returns a recorder of the host wrapper's steps for t; it fits
// omp.Wrapper.Observe.
func noter(t *Trace) func(omp.Note) {
	return func(n omp.Note) { note(t, n) }
}

func note(t *Trace, n omp.Note) {
	switch n.Step {
	case "resolve-original", "resolve":
		what := "effective input"
		if n.Step == "resolve-original" {
			what = "original input"
		}
		t.AddText("resolve", "resolve ("+what+"): "+Explain(*n.Resolution, n.Mode))
	case "approval-required":
		if n.Text != "" {
			t.AddText("approval", "approval required (reason: "+n.Text+")")
		} else {
			t.AddText("approval", "approval required")
		}
	case "no-ui":
		t.AddText("approval", "no interactive UI: the approval cannot be asked")
	case "ungated":
		t.AddText("release", "omp "+n.Text+" has no approval gate: no policy, mode or dialog; the call runs after tool_call, with its original input")
	}
}

// Explain says in words which rule of the decision order produced r.
func Explain(r omp.Resolution, mode string) string {
	user := "user policy tools.approval." + r.PolicyKey
	var why string
	switch r.Row {
	case 1:
		why = "tool policy deny"
	case 2:
		why = user + " is deny"
	case 3:
		why = "tool policy " + string(r.Policy) + ", which yolo does not override"
	case 4:
		if r.Source == omp.SourceUser {
			why = user + " applies even in yolo"
		} else {
			why = "yolo mode allows every tier"
		}
	case 5:
		why = "the tool demands a prompt (override)"
		if r.Policy == omp.PolicyAllow {
			why = "tool override with policy allow"
		}
	case 6:
		why = "tool policy " + string(r.Policy)
	case 7:
		why = user + " is " + string(r.Policy)
	case 8:
		why = "mode " + mode + " auto-approves tier " + string(r.Tier)
	default:
		why = "mode " + mode + " does not auto-approve tier " + string(r.Tier)
	}
	if r.Reason != "" && r.Row != 8 {
		why += "; reason: " + r.Reason
	}
	return string(r.Policy) + " — " + why + " (decision row " + strconv.Itoa(r.Row) + ")"
}
