package verifier

import (
	"runtime"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
)

// LoadWindow is how many case files LoadEach holds at most at a time, per
// processor: those being loaded and those loaded but not yet handed on.
const LoadWindow = 2

// LoadEach loads and lints the inputs as LoadAll does, with the same
// diagnostics, but one window of files at a time: each desk without
// errors is handed to each in input order and then let go, so that the
// memory held is that of a few files, not of the suite. Inputs listed by
// ListPaths are read when their turn comes. each may be nil.
func LoadEach(reg *scenario.Registry, inputs []Input, limits Limits, each func(*Desk)) Diagnostics {
	limits = limits.WithDefaults()
	type loaded struct {
		desk           *Desk
		problems, lint Diagnostics
	}
	var ds Diagnostics
	deskIDs := map[string]string{} // desk id → the file it was first used in
	window := LoadWindow * runtime.GOMAXPROCS(0)
	parallel.Ordered(len(inputs), window, func(i int) loaded {
		in := inputs[i]
		in, err := in.Fill(limits.FileSize)
		if err != nil {
			return loaded{problems: Diagnostics{{Severity: Warning, Name: "skipped", File: in.Path, Summary: "skipped: " + err.Error()}}}
		}
		d, problems := Load(reg, in.Path, in.Data, limits)
		if d == nil {
			return loaded{problems: problems}
		}
		own := lintDesk(d, limits)
		own.Resolve()
		return loaded{desk: d, problems: problems, lint: own}
	}, func(i int, l loaded) {
		ds = append(ds, l.problems...)
		d := l.desk
		if d == nil {
			return
		}
		// What LoadAll's Lint adds across desks, and its cap on each
		// file's lint diagnostics.
		var mine Diagnostics
		if first, dup := deskIDs[d.ID]; dup {
			mine = append(mine, d.Diag(Error, "/id", false, "duplicate desk id %s (first in %s)", jsontext.Quote(d.ID), first))
		} else {
			deskIDs[d.ID] = d.Path
		}
		mine = append(mine, l.lint...)
		mine.Resolve()
		mine.Sort()
		ds = append(ds, mine.CapPerFile(limits.Diagnostics)...)
		if each != nil {
			each(d)
		}
	})
	ds.Sort()
	return ds
}
