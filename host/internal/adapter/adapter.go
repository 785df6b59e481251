// Package adapter holds what the host adapters (host/<name>/<name>check)
// share on their side of the engine. The host models never import it.
package adapter

import (
	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/scenario"
)

// Faults returns a host's fault list as the engine registers it, in the
// same order, each fault's bit as its ID.
func Faults[F ~uint64](list []fault.Info[F]) []scenario.Fault {
	out := make([]scenario.Fault, len(list))
	for i, f := range list {
		out[i] = scenario.Fault{Name: f.Name, Bug: f.Bug, Hint: f.Hint, ID: uint64(f.Fault)}
	}
	return out
}
