// Package gatewaycheck runs deskcheck's gateway scenario against the policy
// gateway model in host/gateway.
//
// A case scripts an untrusted caller's requests and the trusted fixture
// around them (principal, clock, approval registry, records). The adapter
// plays the steps against a fresh gateway and observes only what the
// gateway's recorders saw: the response each request received, the audit
// log, the effect ledger of drafts and publications, the mock-tool service
// requests and the approval labels after the last step. It narrates every
// step (the check that decided and the values it compared, the dispatch,
// the audit event, the response) into the case's trace, compares decision
// and reason sequences element by element and audit events field by field,
// and counts the case's steps for the boundary-response dimensions.
//
// Nothing here executes anything: requests, records and notes are inert
// JSON, and the tools behind the gateway are in-memory lists.
package gatewaycheck

import (
	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// Family is the policy gateway with its one scenario and its faults.
var Family = scenario.Family{
	Host: scenario.Host{
		Name:      "gateway",
		Model:     "host/gateway",
		Reference: "permissions demonstration contract (mock policy gateway), as specified in gateway-and-dimensions part A with the choices of part C: RFC 8785 digests, inclusive expiry, single-use bound approvals",
		// A Python program: json.loads reads its case.
		Values: scenario.Python,
	},
	Scenarios: []*scenario.Scenario{Gateway},
	Faults:    adapter.Faults(gateway.FaultList),
	Points:    Points,
	Mutants:   Mutants,
	Generate:  Generate,
	Worst:     worst,
}
