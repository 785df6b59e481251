// Package adapter holds what the host adapters (host/<name>/<name>check)
// share on their side of the engine. The host models never import it.
package adapter

import (
	"strings"
	"sync"

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

// FaultSet is the fault set a run under env uses: the faults env switches
// on, noting each fault the model checks in env.Asked.
func FaultSet[F ~uint64](env scenario.Env) fault.Set[F] {
	return fault.Of[F](env.Faults).Asking(env.Asked)
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

// Reached collects the boundary points one run reaches; the recorders of
// a case add to it while the host runs. It is safe for concurrent use.
type Reached struct {
	mu    sync.Mutex
	names []string
}

// Add records that the run reached the point called name.
func (r *Reached) Add(name string) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

// Names returns the points reached so far, in the order reached.
func (r *Reached) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.names...)
}

// Mutant is one generated mutant of a host, as its adapter declares it:
// the host's own mutation value M with its name and what it does.
type Mutant[M any] struct {
	Name, Text string
	// Equivalent says why the mutant behaves like the correct host on every
	// input; empty when it does not.
	Equivalent string
	Mutation   M
}

// Mutants numbers a host's mutants from 1 in list order and returns them
// as the engine registers them.
func Mutants[M any](list []Mutant[M]) []scenario.Mutant {
	out := make([]scenario.Mutant, len(list))
	for i, m := range list {
		out[i] = scenario.Mutant{Name: m.Name, Text: m.Text, Equivalent: m.Equivalent, ID: i + 1}
	}
	return out
}

// Mutation returns the host mutation of the mutant with id (the zero
// value, the correct host, for 0 or an unknown id).
func Mutation[M any](list []Mutant[M], id int) M {
	var zero M
	if id < 1 || id > len(list) {
		return zero
	}
	return list[id-1].Mutation
}
