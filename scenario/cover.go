package scenario

// Point is one unit of a host's decision logic that a teacher teaches: a
// row of a decision order, a deny source, a dialog outcome, a check and its
// reason, a stop. A run reaches a point when the recorders or the model's
// trace say so (Observation.Points), never because a case expects it.
type Point struct {
	// Name is stable and unique within the family: "wrapper/row-3".
	Name string
	// Scenario is the scenario whose runs can reach the point.
	Scenario string
	// Text says in words what reaching the point means.
	Text string
}

// Mutant is a generated mutation of a host's decision logic: a fault made
// from one of the family's declared mutation points (a mode's tier cap
// moved by one, a check dropped, two adjacent rows swapped, a comparison
// inverted, a limit moved by one, a recorded event dropped). A family
// declares its mutants; the engine passes Mutant.ID back in Env.Mutant.
type Mutant struct {
	// Name is stable and unique within the family: "cap/write/raise".
	Name string
	// Text says in words what the mutated host does.
	Text string
	// ID is opaque to the engine, positive, and unique within the family.
	ID int
	// Equivalent, when set, says why the mutant behaves exactly like the
	// correct host on every input; such a mutant is left out of every
	// score and listed with this reason. A test holds the claim to the
	// family's generated inputs: none of them tells it from the correct
	// host.
	Equivalent string
}

// Candidate is one generated input of a family: a given block of one of
// its scenarios, and the points it is made to reach. Coverage looks for a
// case that reaches an unreached point among the candidates aimed at it,
// mutant search among all of them; either keeps a candidate only once
// running it on the model has shown that it does what it is kept for.
type Candidate struct {
	Scenario string
	// Given is the JSON of the given block.
	Given string
	// Aims names the points the candidate is made to reach.
	Aims []string
	// Title says in a line what the candidate does.
	Title string
	// Hosts, when set, is the release range of the family's host the
	// candidate's case is judged on (its hosts key): the releases where
	// the reference run it is made from holds. Empty: the host's default.
	Hosts string
}
