// Package geminicheck runs deskcheck's policy-check scenario against the
// model of Gemini CLI's policy engine in host/gemini.
//
// A case is one tool call and the configuration around it: policy files of
// the user, admin and extension tiers, the settings the CLI turns into
// rules, remembered "Allow always" answers, the approval mode, headless or
// not. The adapter builds the engine as the CLI does, calls check once and
// observes the decision, the rule held responsible, the heuristics that
// fired, the parts of a shell command and what the CLI's scheduler does
// with the decision. Nothing is executed: commands and paths are data.
package geminicheck

import (
	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// hostName is the family's host name, in hosts ranges and -host gemini@V.
const hostName = "gemini"

// Family is the Gemini CLI host with its scenario and its faults.
var Family = scenario.Family{
	Host: scenario.Host{
		Name:      hostName,
		Model:     "host/gemini",
		Reference: gemini.Package + " " + releaseNames() + " in six behaviour groups (policy engine, TOML loader, default policies, shell heuristics), read from each release's npm tarball; checked against the real code by host/gemini/conformance",
		Releases:  Releases,
		Changes:   Changes,
		// A JavaScript program: JSON.parse reads its case.
		Values: scenario.JavaScript,
	},
	Scenarios: []*scenario.Scenario{PolicyCheck},
	Faults:    adapter.Faults(gemini.FaultList),
	Points:    Points,
	Mutants:   Mutants,
	Generate:  Generate,
	Worst:     worst,
}
