// Package householdcheck runs deskcheck's household scenario against the
// bounded financial-agent runtime modelled in host/household.
//
// The model is driven only through its exported API: the adapter builds a
// household.Config from a case's given block (NewConfig, then only the
// keys the case sets), runs it, and reads what the runtime recorded — its
// attempts, the boundary's record, the user-facing result, the diagnostics
// and the narration of every check. The clock is data (latencies and tool
// seconds); nothing is sent to a model, a network or a file.
package householdcheck

import (
	"github.com/deskcheck/deskcheck/host/household"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// Family is the household host with its scenario and its faults.
var Family = scenario.Family{
	Host: scenario.Host{
		Name:  "household",
		Model: "host/household",
		Reference: "designed from the specification (runner-and-household §4) from the article's text; " +
			"the original code is unpublished",
		// A Python program: json.loads reads its case.
		Values: scenario.Python,
	},
	Scenarios: []*scenario.Scenario{Household},
	Faults:    adapter.Faults(household.FaultList),
	Points:    Points,
	Mutants:   Mutants,
	Generate:  Generate,
	Worst:     worst,
}
