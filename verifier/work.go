package verifier

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// workOf sums the work of cases, each counted once per run group it is
// judged on and runs(c) times, and names the largest shares.
func workOf(cases []*Case, runs func(*Case) int) (int, string) {
	var w runWork
	w.add(cases, runs)
	return w.work, shares(w.workBy)
}

// runWork adds up, case by case, the scripted work and the copied bytes
// of a run, each case counted once per run group it is judged on and
// runs(c) times, with the shares of each scenario limit.
type runWork struct {
	work, copies     int
	workBy, copiesBy map[limitName]int
}

// limitName is a scenario's limit, named "scenario.limit" in shares: kept
// as its two names so that adding a case's share makes no string.
type limitName struct{ scenario, limit string }

func (w *runWork) add(cases []*Case, runs func(*Case) int) {
	if w.workBy == nil {
		w.workBy, w.copiesBy = map[limitName]int{}, map[limitName]int{}
	}
	for _, c := range cases {
		r := groupRuns(c)
		if runs != nil {
			r *= runs(c)
		}
		w.work += c.Work() * r
		for i, n := range c.workUnits() {
			if n > 0 {
				w.workBy[limitName{c.sc.Name, c.sc.Limits[i].Name}] += n * r
			}
		}
		for i, n := range c.copies {
			if n > 0 {
				w.copies += n * r
				w.copiesBy[limitName{c.sc.Name, c.sc.Limits[i].Name}] += n * r
			}
		}
	}
}

// over reports whether the sums are over the run's limits.
func (w *runWork) over(limits Limits) bool {
	return w.work > limits.RunWork || w.copies > limits.CopyBytes
}

// err says which of the run's limits the sums are over, the scripted work
// first; nil when neither.
func (w *runWork) err(limits Limits) error {
	if w.work > limits.RunWork {
		return fmt.Errorf("the selected cases script %s units of work (%s), over the limit of %s per run; select fewer with -run or raise the limit with -max-run-work N",
			Thousands(w.work), shares(w.workBy), Thousands(limits.RunWork))
	}
	if w.copies > limits.CopyBytes {
		return fmt.Errorf("the selected cases copy %s bytes of case data into their results, trace and reports (%s), over the limit of %s per run; select fewer with -run or raise the limit with -max-copy-bytes N",
			Thousands(w.copies), shares(w.copiesBy), Thousands(limits.CopyBytes))
	}
	return nil
}

// shares lists the limits that make up a sum of work, largest first.
func shares(by map[limitName]int) string {
	type kv struct {
		k string
		v int
	}
	var list []kv
	for k, v := range by {
		list = append(list, kv{k.scenario + "." + k.limit, v})
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
		parts = append(parts, fmt.Sprintf("%s %s", x.k, Thousands(x.v)))
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
		Thousands(total), detail, Thousands(limits.Work))}
}

// CheckRunWork bounds the scripted work and the copied bytes of a run,
// before anything runs: every selected case counted once per time it will
// run (runs nil: once).
func CheckRunWork(cases []*Case, runs func(*Case) int, limits Limits) error {
	limits = limits.WithDefaults()
	var w runWork
	w.add(cases, runs)
	return w.err(limits)
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
	text("/domain", d.Root().Get("domain").Str)
	for k, v := range d.Sources {
		text("/sources/"+jsontext.PointerToken(k), v)
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

// copiesOf sums the copied bytes of cases, each counted once per run group
// it is judged on and runs(c) times, and names the largest shares.
func copiesOf(cases []*Case, runs func(*Case) int) (int, string) {
	var w runWork
	w.add(cases, runs)
	return w.copies, shares(w.copiesBy)
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
		Thousands(total), detail, Thousands(limits.CopyBytes))}
}
