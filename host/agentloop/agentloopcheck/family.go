// Package agentloopcheck runs deskcheck's runner scenario against the
// bounded agent runner modelled in host/agentloop.
//
// A case's given block is the mock model's script and the runner's
// settings; the adapter turns it into the model's input, runs the decision
// loop once, and reports what the runner showed: its outcome, its trace
// rows, the cumulative validated and blocked series, the draft list and the
// final answer. The narration it writes for explain follows the published
// table (step, tool, result, observation) and says why each request was
// blocked and why the run stopped.
//
// The adapter also maps each case onto the boundary-response dimensions:
// the case's script (its rows when it has them, else its given block read
// by the runner's checks) says which tool requests should be permitted and
// which denied; the model's record of each request says what happened.
//
// Nothing here executes anything: tool names, arguments and expressions are
// data, the tools are fixtures and the draft list lives in memory for one
// case.
package agentloopcheck

import (
	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// Family is the bounded runner with its scenario and its faults.
var Family = scenario.Family{
	Host: scenario.Host{
		Name:      "runner",
		Model:     "host/agentloop",
		Reference: `designed from the specification (runner-and-household §3), reproducing the four published traces (normal, permissions, budget, invalid) of the "Permission to act" showcase; the original code is unpublished`,
		// A Python program: json.loads reads its case.
		Values: scenario.Python,
	},
	Scenarios: []*scenario.Scenario{Runner},
	Faults:    adapter.Faults(agentloop.FaultList),
	Points:    Points,
	Mutants:   Mutants,
	Generate:  Generate,
	Worst:     worst,
}
