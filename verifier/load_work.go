package verifier

import (
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// Work is what a case scripts its host to do, from its given block alone
// (nothing runs): the sum of every value its scenario declares a limit
// for — the entries of a limited list (wrapper.choices, gateway.steps,
// household.decisions) and a limited number (wrapper.repeat,
// household.maxDecisions) — and at least 1. Each declared limit bounds
// one case; Work lets the engine bound a file and a run, whose cost in
// time, memory, trace events and report size grows with it.
func (c *Case) Work() int {
	total := 0
	for _, n := range c.workUnits() {
		total += n
	}
	return max(total, 1)
}

// workUnits returns, for each limit of the case's scenario, how much of it
// the given block asks for (read once at load).
func (c *Case) workUnits() []int {
	if c.units != nil || c.sc == nil {
		return c.units
	}
	return unitsOf(c.sc, c.Given)
}

// unitsOf reads, for each limit of sc, how much of it a given block asks
// for.
func unitsOf(sc *scenario.Scenario, given gjson.Result) []int {
	units := make([]int, len(sc.Limits))
	for i, l := range sc.Limits {
		if !l.Measured {
			units[i] = limitUnits(l, given.Get(gjsonPath(l.Pointer[len("/given/"):])))
		}
	}
	return units
}

// limitUnits is how much of limit l the value v at its pointer asks for:
// the entries of a limited list, a limited number's value.
func limitUnits(l scenario.Limit, v gjson.Result) int {
	n := 0
	switch {
	case !v.Exists():
	case l.Count:
		v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	case v.Type == gjson.Number && v.Num > 0:
		n = int(min(v.Num, 1<<40))
	}
	return n
}

// Copies is the bytes of case data the case's run will copy into its
// observation, its trace and the reports, as its scenario's measured
// limits count them from the given block alone (nothing runs).
func (c *Case) Copies() int {
	total := 0
	for _, n := range c.copies {
		total += n
	}
	return total
}
