package verifier

import (
	"context"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/recorders"
)

// Comparison says how an expected key is compared with the observation.
type Comparison string

// The comparisons.
const (
	// Exact: counts, booleans and words must be equal.
	Exact Comparison = "exact"
	// JSONEqual: equal as JSON values (key order and number spelling aside).
	JSONEqual Comparison = "JSON-equal"
	// Substring: the expected text occurs in the observed text.
	Substring Comparison = "substring"
	// AnySubstring: the expected text occurs in at least one observed text.
	AnySubstring Comparison = "substring of any"
)

// Observation is what the recorders saw while a case ran: one value per
// expected key the scenario can observe, and the event trace.
type Observation struct {
	Values map[string]any
	Trace  []recorders.Event
}

// Scenario runs one kind of case against the host model.
type Scenario struct {
	Name string
	// Description says what the scenario exercises.
	Description string
	// Given lists the given keys the scenario reads.
	Given []string
	// Expected lists, in canonical order, the keys the scenario observes and
	// how each compares.
	Expected Observables
	// Suggest picks, from an observation, the expected keys worth asserting
	// in a new case, in canonical order.
	Suggest func(given gjson.Result, observed map[string]any) []string
	// Run builds the host and its recorders from the case's given block,
	// runs it, and returns what the recorders observed. An error means the
	// case could not run (errored), not that it failed.
	// faults switches the host model into deliberate bugs (zero: correct).
	Run func(ctx context.Context, c *Case, faults omp.Faults) (Observation, error)
}

// Observable is one expected key and how it is compared.
type Observable struct {
	Key        string
	Comparison Comparison
}

// Observables is an ordered list of observable keys.
type Observables []Observable

// Comparison returns how key is compared, and whether it is observed.
func (o Observables) Comparison(key string) (Comparison, bool) {
	for _, x := range o {
		if x.Key == key {
			return x.Comparison, true
		}
	}
	return "", false
}

// Keys returns the keys in order.
func (o Observables) Keys() []string {
	keys := make([]string, len(o))
	for i, x := range o {
		keys[i] = x.Key
	}
	return keys
}

var scenarios = map[string]Scenario{
	wrapperScenario.Name:  wrapperScenario,
	fallbackScenario.Name: fallbackScenario,
	classifyScenario.Name: classifyScenario,
}

// LookupScenario returns the scenario registered under name.
func LookupScenario(name string) (Scenario, bool) {
	s, ok := scenarios[name]
	return s, ok
}

// ScenarioNames returns the registered scenario names, sorted.
func ScenarioNames() []string {
	names := make([]string, 0, len(scenarios))
	for n := range scenarios {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
