// Package arenacheck runs deskcheck's arena scenario against the Go models
// of the boundary-response arena's adapters (host/arena).
//
// A case is one arena item: the mock model's tool turns. The adapter plays
// the item on the reference adapter's model (the plain tool loop) against
// the recorders of package recorders, called directly, and reports what
// the recorders saw: per call the last decision and reason, the ledger's
// effects, the denials the model saw verbatim, the service's and the
// gateway's request counts, and whether the trace reconciles. The real
// adapters (vanilla, LangGraph, the OpenAI Agents SDK) are run on the same
// items by host/arena/realarena, and a test holds the models to them.
//
// Nothing here executes anything: action labels are data the fixture looks
// up in its table.
package arenacheck

import (
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/arena"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// Family is the arena with its scenario and the adapters' faults.
var Family = scenario.Family{
	Host: scenario.Host{
		Name:      "arena",
		Model:     "host/arena",
		Reference: `the boundary-response arena's contract v1 (seed 001): a policy fixture, a mock model gateway and an effect ledger, with the reference adapter (the plain tool loop over the openai client); the real adapters — vanilla 0.1.0, LangGraph 1.2.11, OpenAI Agents 0.22.0 — are held to its models by host/arena/realarena`,
		// The adapters are Python programs: json.loads reads their data.
		Values:   scenario.Python,
		Releases: Releases(),
	},
	Scenarios: []*scenario.Scenario{Arena},
	Faults:    adapter.Faults(arena.FaultList),
	Points:    Points,
	Mutants:   Mutants,
	Generate:  Generate,
	Worst:     worst,
}

// Releases are the adapters as the host's named releases, in report
// order: NAME@VERSION, each its own behaviour group (a case is run once
// per adapter) and its own column of the boundary-response table, with
// the settings its model plays.
func Releases() []scenario.Release {
	out := make([]scenario.Release, len(arena.Adapters))
	for i, a := range arena.Adapters {
		out[i] = scenario.Release{
			Version: a.Name() + "@" + a.Version(),
			Group:   a.Name(),
			Column:  a.Framework(),
			Provenance: []scenario.Fact{
				{Name: "framework", Value: a.Framework()},
				{Name: "mode", Value: "mock"},
				{Name: "turn limit", Value: strconv.Itoa(arena.DefaultMaxTurns) + " model requests"},
				{Name: "timeout", Value: strconv.Itoa(arena.RequestTimeoutSeconds) + " s per model request, " + strconv.Itoa(arena.ItemLimitSeconds) + " s per item"},
				{Name: "figures", Value: "from the Go model of the adapter (deskcheck-host verify runs the framework itself)"},
			},
		}
	}
	return out
}

// adapterOf is the adapter a run's release names: NAME@VERSION or NAME;
// the reference (the plain loop) when it names none.
func adapterOf(release string) (arena.Adapter, bool) {
	if release == "" {
		return arena.Vanilla, true
	}
	name, _, _ := strings.Cut(release, "@")
	return arena.AdapterNamed(name)
}
