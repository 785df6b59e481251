package verifier

import (
	"fmt"
	"strings"

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

// workOf sums the work of cases, each counted once per run group it is
// judged on and runs(c) times, and names the largest shares.
func workOf(cases []*Case, runs func(*Case) int) (int, string) {
	by := map[string]int{}
	total := 0
	for _, c := range cases {
		r := c.groupRuns()
		if runs != nil {
			r *= runs(c)
		}
		total += c.Work() * r
		for i, n := range c.workUnits() {
			if n > 0 {
				by[c.sc.Name+"."+c.sc.Limits[i].Name] += n * r
			}
		}
	}
	return total, shares(by)
}

// shares lists the limits that make up a sum of work, largest first.
func shares(by map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var list []kv
	for k, v := range by {
		list = append(list, kv{k, v})
	}
	if len(list) == 0 {
		return "one unit per case"
	}
	// Largest first, then by name: deterministic.
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && (list[j].v > list[j-1].v || list[j].v == list[j-1].v && list[j].k < list[j-1].k); j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	var parts []string
	for i, x := range list {
		if i == 4 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", x.k, thousands(x.v)))
	}
	return strings.Join(parts, ", ")
}

// lintWork bounds the scripted work of one file.
func lintWork(d *Desk, limits Limits) Diagnostics {
	total, detail := workOf(d.Cases, nil)
	if total <= limits.Work {
		return nil
	}
	return Diagnostics{d.diag(Error, "/cases", false,
		"the cases of this file script %s units of work (%s), over the limit of %s per file; split the file or raise the limit with -max-work N",
		thousands(total), detail, thousands(limits.Work))}
}

// CheckRunWork bounds the scripted work and the copied bytes of a run,
// before anything runs: every selected case counted once per time it will
// run (runs nil: once).
func CheckRunWork(cases []*Case, runs func(*Case) int, limits Limits) error {
	limits = limits.WithDefaults()
	total, detail := workOf(cases, runs)
	if total <= limits.RunWork {
		return checkRunCopies(cases, runs, limits)
	}
	return fmt.Errorf("the selected cases script %s units of work (%s), over the limit of %s per run; select fewer with -run or raise the limit with -max-run-work N",
		thousands(total), detail, thousands(limits.RunWork))
}

// placeholder marks text left from `deskcheck new`.
const placeholder = "Placeholder:"

// lintPlaceholders warns about what `deskcheck new` printed for the author
// to replace: its desk id, its case ids and its "Placeholder:" texts.
func lintPlaceholders(d *Desk) Diagnostics {
	var ds Diagnostics
	text := func(ptr, v string) {
		if strings.HasPrefix(strings.TrimSpace(v), placeholder) {
			ds = append(ds, d.warn(placeholderWarning, ptr, false, "placeholder text from deskcheck new: say what this desk or case is about"))
		}
	}
	if d.ID == "new-desk" {
		ds = append(ds, d.warn(placeholderWarning, "/id", false, "placeholder id %q from deskcheck new: give the desk an id of its own", d.ID))
	}
	text("/title", d.Title)
	text("/domain", d.root.Get("domain").Str)
	for k, v := range d.Sources {
		text("/sources/"+pointerToken(k), v)
	}
	for _, c := range d.Cases {
		if c.sc != nil && c.ID == "new-"+c.sc.Name+"-case" {
			ds = append(ds, d.warn(placeholderWarning, c.Pointer+"/id", false, "placeholder id %q from deskcheck new: give the case an id of its own", c.ID))
		}
		text(c.Pointer+"/title", c.Title)
		text(c.Pointer+"/why", c.Why)
	}
	return ds
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

// copiesOf sums the copied bytes of cases, each counted once per run group
// it is judged on and runs(c) times, and names the largest shares.
func copiesOf(cases []*Case, runs func(*Case) int) (int, string) {
	by := map[string]int{}
	total := 0
	for _, c := range cases {
		r := c.groupRuns()
		if runs != nil {
			r *= runs(c)
		}
		for i, n := range c.copies {
			if n > 0 {
				total += n * r
				by[c.sc.Name+"."+c.sc.Limits[i].Name] += n * r
			}
		}
	}
	return total, shares(by)
}

// lintCopies bounds the copied bytes of one file by the run's limit: a
// file over it could run in no run.
func lintCopies(d *Desk, limits Limits) Diagnostics {
	total, detail := copiesOf(d.Cases, nil)
	if total <= limits.CopyBytes {
		return nil
	}
	return Diagnostics{d.diag(Error, "/cases", false,
		"the cases of this file copy %s bytes of case data into their results, trace and reports (%s), over the limit of %s per run; split the file or raise the limit with -max-copy-bytes N",
		thousands(total), detail, thousands(limits.CopyBytes))}
}

// checkRunCopies bounds the copied bytes of a run, before anything runs.
func checkRunCopies(cases []*Case, runs func(*Case) int, limits Limits) error {
	total, detail := copiesOf(cases, runs)
	if total <= limits.CopyBytes {
		return nil
	}
	return fmt.Errorf("the selected cases copy %s bytes of case data into their results, trace and reports (%s), over the limit of %s per run; select fewer with -run or raise the limit with -max-copy-bytes N",
		thousands(total), detail, thousands(limits.CopyBytes))
}
