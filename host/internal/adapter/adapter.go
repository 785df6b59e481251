// Package adapter holds what the host adapters (host/<name>/<name>check)
// share on their side of the engine. The host models never import it.
package adapter

import (
	"strings"

	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/scenario"
)

// Faults returns a host's fault list as the engine registers it, in the
// same order, each fault's bit as its ID and the scenarios its hint names
// ("scenario wrapper: …", "scenario wrapper, fallback: …") as the ones
// whose cases can expose it.
func Faults[F ~uint64](list []fault.Info[F]) []scenario.Fault {
	out := make([]scenario.Fault, len(list))
	for i, f := range list {
		out[i] = scenario.Fault{Name: f.Name, Bug: f.Bug, Hint: f.Hint, ID: uint64(f.Fault), Scenarios: hintScenarios(f.Hint)}
	}
	return out
}

// hintScenarios reads the scenario names a hint starts with: "scenario
// NAME[, NAME…]: …"; nil when it names none.
func hintScenarios(hint string) []string {
	rest, ok := strings.CutPrefix(hint, "scenario ")
	if !ok {
		return nil
	}
	head, _, ok := strings.Cut(rest, ":")
	if !ok {
		return nil
	}
	var names []string
	for _, n := range strings.Split(head, ",") {
		n = strings.TrimSpace(n)
		if n == "" || strings.ContainsAny(n, " \t") {
			return nil
		}
		names = append(names, n)
	}
	return names
}
