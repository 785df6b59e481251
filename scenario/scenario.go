// Package scenario is the contract between deskcheck's engine and the host
// families it verifies.
//
// A Family is one executable host model (its Host), the scenarios that drive
// it and the deliberate bugs (Faults) it can be switched into. A Scenario
// declares everything the engine, lint, `new`, `observe`, `explain`, the
// case schema and the reports need to know about one kind of case: its
// schema fragment (the single source of its given and expected keys), how
// each expected key is compared, its limits, its lint, its template, what
// its trace counts, and Run.
//
// The package imports no host. Hosts stay free of deskcheck imports too:
// each family's adapter, in a sub-package of its host (host/omp/ompcheck),
// imports this package and its host and nothing else of deskcheck.
package scenario

import (
	"encoding/json"
)

// Family is one executable host model and the scenarios that drive it.
type Family struct {
	Host      Host
	Scenarios []*Scenario
	// Faults are the deliberate bugs of this host; their IDs are private
	// to the family and come back to it in Env.Faults.
	Faults []Fault
	// Points are the units of the host's decision logic a case can
	// reach; Mutants, its generated mutations; Generate, the family's
	// generated inputs, from which cases that reach a point or kill a
	// mutant are made. Optional, but every bundled family declares them.
	Points   []Point
	Mutants  []Mutant
	Generate func() []Candidate
	// Shapes are the family's cases for generated benchmark desks (see
	// internal/gen); a scenario with none lends the cases of the bundled
	// desks instead. Worst are its most expensive desks at the default
	// limits. Both optional.
	Shapes []Shape
	Worst  []Worst
}

// Host says which host model a family runs and what it models.
type Host struct {
	// Name is short and unique among families: it prefixes fault names
	// ("omp/approval-remembered").
	Name string
	// Model is the package that holds the model, e.g. host/omp.
	Model string
	// Reference names what the model reproduces (a release, a commit, a
	// specification).
	Reference string
	// Releases are the published releases the model follows, oldest
	// first; nil when the host has no release axis. A desk's hosts key
	// names a range of them; a case is judged on every release its range
	// selects (the newest when it names none).
	Releases []Release
	// Changes are the behaviour changes between the groups of Releases,
	// oldest first, for deskcheck drift.
	Changes []ReleaseChange
	// Values is the language whose values the host reads: the engine
	// decodes the case's expected values as the host decodes the same
	// text, and compares them in that domain.
	Values Values
}

// Fault is a deliberate boundary bug of a host model.
type Fault struct {
	Name string
	// Bug says what the faulty host does wrong.
	Bug string
	// Hint says what a case needs in order to catch the fault.
	Hint string
	// Scenarios are the scenarios of the host whose cases can expose the
	// fault; empty means every scenario of the host. A selection with no
	// case of them does not address the fault.
	Scenarios []string
	// ID is opaque to the engine; it is passed back in Env.Faults.
	ID uint64
	// Mutant, when not zero, makes the fault a generated mutant: the ID
	// of one of the family's Mutants, passed back in Env.Mutant (and ID
	// is then zero).
	Mutant int
}

// Scenario is one kind of case: what the engine, the schema, `new` and
// the reports know of it. Its Kind (Declare) holds what runs.
type Scenario struct {
	Name        string
	Description string
	// Unit is what Event.Seq counts in this scenario's trace: "call",
	// "step", "request".
	Unit string
	// Schema is a draft-07 fragment {"given": {...}, "expected": {...}}
	// with optional "definitions" of its own. It is the one place the
	// scenario's given and expected keys are listed.
	Schema []byte
	// Expected lists, in canonical order, the observed keys and how each
	// is compared. Its keys are those of the fragment's expected block.
	Expected Observables
	// Limits bound what one case may ask for.
	Limits []Limit
	// Shape turns an observed value into the value an author writes for
	// key (the first dialog title of a list of titles, say); false means
	// the key is never proposed. Optional: values are taken as observed.
	Shape func(key string, observed any) (any, bool)
	// Template is the given block of `deskcheck new`, every key present.
	Template string
	// Examples are further given blocks `deskcheck new` prints as cases
	// of their own after the template's (optional).
	Examples []Example
	// SourceKey is the key of the desk's sources that `new` writes.
	SourceKey string
	// Warnings names every warning the Kind's Plan may return (Problem.Name), with
	// what it warns about. A desk or case acknowledges a warning by its
	// name.
	Warnings []Warning
	// Picture returns what the HTML report draws of one case's run (see
	// Drawing); nil, or a nil result, draws nothing of the run.
	Picture func(Seen) *Drawing
	// Deciding names the trace kinds whose events say what decided a run
	// (a decision row, a check, an admission); `deskcheck try` lists them
	// under "decided by".
	Deciding []string

	// kind is the typed half, set by Declare.
	kind *erased
}

// Warning is the stable name of a kind of lint warning and what it says.
type Warning struct {
	Name string
	Help string
}

// Example is one further case of `deskcheck new`: a short name for its id
// and its given block.
type Example struct {
	Name  string
	Given string
}

// Env is what the engine hands a scenario's Run.
type Env struct {
	// Faults is the OR of the IDs of this family's faults to switch on
	// (zero: the correct model).
	Faults uint64
	// Asked, when not nil, receives the OR of the IDs of every fault of
	// this family the model checked during the run, switched on or not
	// (see the host's fault set: adapter.FaultSet).
	Asked *uint64
	// Release is the version of the host release to behave as (one of
	// Host.Releases); "" means the newest. Hosts without releases ignore
	// it.
	Release string
	// Mutant is the ID of the family's generated mutant to switch on
	// (zero: none).
	Mutant int
	// Trace receives the events of the run.
	Trace *Trace
}

// Observation is what the recorders saw while a case ran: one value per
// expected key the scenario can observe. The trace is in Env.Trace.
type Observation struct {
	Values map[string]any
	// Boundary counts the case's actions for the boundary-response
	// dimensions; nil when the scenario scripts no action.
	Boundary *Boundary
	// Points names the family's points the run reached, as the recorders
	// and the model's trace show them (any order; repeats are allowed).
	Points []string
}

// Field is one key of a case's expected block, as written.
type Field struct {
	Key string
	Raw json.RawMessage
}

// Problem is something a scenario's lint found in one case.
type Problem struct {
	// Pointer is relative to the case, e.g. /given/choices.
	Pointer string
	// Key: the problem is about the key Pointer names, not its value.
	Key     bool
	Warning bool
	// Name is the warning's stable name, one of the scenario's Warnings
	// (warnings only).
	Name    string
	Message string
	// OutsideModel marks an error that says the case is valid for the
	// host but outside the model (a command or a pattern it does not
	// read): deskcheck refuses the case, and deskcheck-host judges it on
	// the real code alone.
	OutsideModel bool
}

// Limit bounds one thing a case may ask for.
type Limit struct {
	// Name is unique within the scenario; the command line sets it as
	// -limit SCENARIO.NAME=N.
	Name string
	// Pointer is where the limited value sits in a case, e.g.
	// /given/repeat.
	Pointer string
	// Count: the limit bounds the number of elements of the array at
	// Pointer. Otherwise the value at Pointer must be a whole number
	// no larger than the limit.
	Count bool
	// Measured makes this a limit on what the case copies: the scenario's
	// Kind.Measure returns, from the given block alone (nothing runs), the
	// bytes of case data the run will copy into observations, the trace and
	// the reports — the records of every read, the arguments of every call.
	// Pointer then only says where a diagnostic points. A measured limit is
	// not scripted work: the engine adds its values up per file and per run
	// against a limit of its own on copied bytes.
	Measured bool
	Default  int
	Help     string
	// Flag, when set, is a command-line flag of its own for this limit:
	// -FLAG N is -limit SCENARIO.NAME=N.
	Flag string
}

// Observable is one expected key and how it is compared.
type Observable struct {
	Key      string
	Comparer Comparer
	// Count: the key is a count, which an author writes as a whole
	// number (digits only, at most 15); the reader refuses any other
	// number there. Other keys take any JSON value their schema allows.
	Count bool
}

// Observables is an ordered list of observable keys.
type Observables []Observable

// Comparer returns how key is compared, and whether it is observed.
func (o Observables) Comparer(key string) (Comparer, bool) {
	for _, x := range o {
		if x.Key == key {
			return x.Comparer, true
		}
	}
	return nil, false
}

// IsCount reports whether key is declared a count.
func (o Observables) IsCount(key string) bool {
	for _, x := range o {
		if x.Key == key {
			return x.Count
		}
	}
	return false
}

// Keys returns the keys in order.
func (o Observables) Keys() []string {
	keys := make([]string, len(o))
	for i, x := range o {
		keys[i] = x.Key
	}
	return keys
}
