package verifier

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
)

// Lint checks loaded desks for problems the schema cannot see: desk ids
// unique among the desks, case and claim ids unique within their desk,
// sourceRefs that name a source, expected keys the scenario observes,
// scripted choices that match the prompts expected, the declared limits
// and the scripted work of each file, placeholders left from `deskcheck
// new`, an empty desk, and a label that warns readers not to execute
// anything. Diagnostics come located, sorted and capped per file.
func Lint(desks []*Desk, limits Limits) Diagnostics {
	limits = limits.WithDefaults()
	var ds Diagnostics
	// What concerns one desk alone is checked for all desks at once.
	own := make([]Diagnostics, len(desks))
	parallel.For(len(desks), func(i int) {
		own[i] = lintDesk(desks[i], limits)
		own[i].resolve()
	})
	deskIDs := map[string]*Desk{}
	for i, d := range desks {
		if first, dup := deskIDs[d.ID]; dup {
			ds = append(ds, d.diag(Error, "/id", false, "duplicate desk id %s (first in %s)", jsontext.Quote(d.ID), first.Path))
		} else {
			deskIDs[d.ID] = d
		}
		ds = append(ds, own[i]...)
	}
	ds.resolve()
	ds.Sort()
	return ds.capPerFile(limits.Diagnostics)
}

// lintIDs reports case and claim ids that repeat within the desk, naming
// where each was first used. The first uses are located together.
func lintIDs(d *Desk) Diagnostics {
	type use struct{ id, ptr, first string }
	seen := map[string]string{} // id → pointer of its first use
	var dups []use
	claim := func(id, ptr string) {
		if first, dup := seen[id]; dup {
			dups = append(dups, use{id, ptr, first})
			return
		}
		seen[id] = ptr
	}
	for _, c := range d.Cases {
		claim(c.ID, c.Pointer+"/id")
	}
	for _, cl := range d.Claims {
		claim(cl.ID, cl.Pointer+"/id")
	}
	if len(dups) == 0 {
		return nil
	}
	ptrs := make([]string, len(dups))
	for i, u := range dups {
		ptrs[i] = u.first
	}
	lines, cols := d.LocateAll(ptrs)
	var ds Diagnostics
	for i, u := range dups {
		line, col := lines[i], cols[i]
		ds = append(ds, d.diag(Error, u.ptr, false, "duplicate id %s in this desk (first at %d:%d)", jsontext.Quote(u.id), line, col))
	}
	return ds
}

// lintDesk checks what concerns one desk alone: its label, its ids, the
// sourceRefs of its cases and claims, each case, its scripted work and
// the placeholders of `deskcheck new`. Of a partial desk (some cases left
// out for their schema errors), what reads all the cases together, which
// the missing ones would change, is not checked: an empty desk, the
// pairing of controls, lessons, the desk's acknowledgements that nothing
// used.
func lintDesk(d *Desk, limits Limits) Diagnostics {
	var ds Diagnostics
	acks := newAcks(d)
	// A case can have a warning for each element of its script, and
	// every caller lists at most limits.Diagnostics of a file: while the
	// list grows, it is marked, located, sorted and cut to what a caller
	// could list, the rest counted (which the caller's own cut adds up).
	marked := 0
	compact := func() {
		if len(ds) < lintCompactAt {
			return
		}
		acks.mark(ds[marked:])
		ds.resolve()
		ds.Sort()
		ds = ds.capPerFile(limits.Diagnostics)
		marked = len(ds)
	}
	if !strings.Contains(strings.ToUpper(d.Label), "DO NOT EXECUTE") {
		ds = append(ds, d.warn("label", "/label", false, "the label should warn readers: DO NOT EXECUTE"))
	}
	if len(d.Cases) == 0 && !d.partial {
		ds = append(ds, d.warn("empty-desk", "/cases", false, "the desk holds no case: nothing in %s is verified", d.Path))
	}
	ds = append(ds, lintIDs(d)...)
	refs := func(ptr string, list []string) {
		for i, r := range list {
			if _, ok := d.Sources[r]; !ok {
				ds = append(ds, d.diag(Error, fmt.Sprintf("%s/sourceRefs/%d", ptr, i), false, "sourceRef %s names no key of sources%s", jsontext.Quote(r), knownKeys(d.Sources)))
			}
		}
	}
	for _, c := range d.Cases {
		refs(c.Pointer, c.SourceRefs)
		ds = append(ds, lintCase(c, limits)...)
		compact()
	}
	ds = append(ds, lintWork(d, limits)...)
	ds = append(ds, lintCopies(d, limits)...)
	if !d.partial {
		// Pairing and lessons read the cases together: not one is
		// missing.
		ds = append(ds, lintPairing(d)...)
		ds = append(ds, lintLessons(d)...)
	}
	for _, cl := range d.Claims {
		refs(cl.Pointer, cl.SourceRefs)
	}
	ds = append(ds, lintPlaceholders(d)...)
	acks.mark(ds[marked:])
	return append(ds, acks.finish()...)
}

// lintCompactAt is how long lintDesk lets its list grow before cutting it
// to what a caller lists: locating its problems walks the desk up to the
// last one, so the list is cut seldom, and while it grows it holds at
// most this many problems (some 20 MB) besides the last case's.
var lintCompactAt = 1 << 16

func lintCase(c *Case, limits Limits) Diagnostics {
	d := c.Desk
	var ds Diagnostics
	sc, _, ok := d.reg.Lookup(c.Scenario)
	if !ok {
		return Diagnostics{d.diag(Error, c.Pointer+"/scenario", false, "unknown scenario %s (known: %s)%s", jsontext.Quote(c.Scenario), strings.Join(d.reg.Names(), ", "), suggest(c.Scenario, d.reg.Names()))}
	}
	for _, f := range c.Expected {
		if _, ok := sc.Expected.Comparer(f.Key); !ok {
			ds = append(ds, d.diag(Error, c.Pointer+"/expected/"+jsontext.PointerToken(f.Key), true, "expected key %q is not observed by scenario %s%s", f.Key, sc.Name, suggest(f.Key, sc.Expected.Keys())))
		}
	}
	resolved := limits.For(sc)
	for j, l := range sc.Limits {
		if l.Measured {
			if c.copies != nil && c.copies[j] > resolved[l.Name] {
				ds = append(ds, d.diag(Error, c.Pointer+l.Pointer, false, "the case copies %s bytes of case data (%s), over the limit of %s%s",
					Thousands(c.copies[j]), l.Help, Thousands(resolved[l.Name]), limitHint(sc, l)))
			}
			continue
		}
		bound := int64(resolved[l.Name])
		if j < len(c.units) && int64(c.units[j]) <= bound {
			// The loader measured the value at the limit's pointer
			// (limitUnits): within the limit, as read again here.
			continue
		}
		v := c.Given.Get(gjsonPath(l.Pointer[len("/given/"):]))
		if !v.Exists() {
			continue
		}
		if l.Count {
			n := int64(0)
			v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
			if n > bound {
				ds = append(ds, d.diag(Error, c.Pointer+l.Pointer, false, "%s", overLimit("the number of entries in "+l.Pointer[len("/given/"):], n, bound)+limitHint(sc, l)))
			}
		} else if v.Type == gjson.Number && v.Int() > bound {
			ds = append(ds, d.diag(Error, c.Pointer+l.Pointer, false, "%s", overLimit(l.Pointer[len("/given/"):], v.Int(), bound)+limitHint(sc, l)))
		}
	}
	if c.compiled != nil {
		if err := c.compiled.Err(); err != nil {
			ds = append(ds, d.diag(Error, c.Pointer+"/given", false, "%s", err.Error()))
		}
		problems := c.compiled.TakeProblems(func() []scenario.Field { return scriptOf(c.Expected) })
		if c.fam != nil && len(c.releases) > 0 {
			problems = append(problems[:len(problems):len(problems)], c.compiled.RangeProblems(c.Range, c.releases)...)
		}
		for _, p := range problems {
			if p.Warning {
				ds = append(ds, d.warn(p.Name, c.Pointer+p.Pointer, p.Key, "%s", p.Message))
				continue
			}
			e := d.diag(Error, c.Pointer+p.Pointer, p.Key, "%s", p.Message)
			e.outsideModel = p.OutsideModel
			ds = append(ds, e)
		}
	}
	return ds
}

// limitHint says which flag raises a limit.
func limitHint(sc *scenario.Scenario, l scenario.Limit) string {
	return fmt.Sprintf(" (raise it with -limit %s.%s=N)", sc.Name, l.Name)
}

// lintPairing warns when a desk, or a boundary-response arena in it, has
// denied controls but no allowed one (or the reverse, for an arena): a host
// that refuses everything passes denied controls, so only paired controls
// tell a working boundary from a blanket refusal.
func lintPairing(d *Desk) Diagnostics {
	var ds Diagnostics
	type side struct {
		allowed, denied int
		first           string
	}
	var desk side
	arenas := map[string]*side{}
	var order []string
	for _, c := range d.Cases {
		sc, _, ok := d.reg.Lookup(c.Scenario)
		if !ok || !sc.Control() || c.compiled == nil {
			continue
		}
		p, n := c.compiled.Script()
		if p > 0 {
			desk.allowed++
		}
		if n > 0 {
			desk.denied++
		}
		if c.Arena == "" {
			continue
		}
		f := arenas[c.Arena]
		if f == nil {
			f = &side{first: c.Pointer + "/family"}
			arenas[c.Arena] = f
			order = append(order, c.Arena)
		}
		if p > 0 {
			f.allowed++
		}
		if n > 0 {
			f.denied++
		}
	}
	if desk.denied > 0 && desk.allowed == 0 {
		ds = append(ds, d.warn("no-allowed-control", "/cases", false, "no allowed control: a host that refuses everything passes this desk"))
	}
	// The warning keeps its stable name and words: desks acknowledge it
	// as unpaired-family, after the case file's key.
	for _, name := range order {
		f := arenas[name]
		switch {
		case f.allowed == 0 && f.denied > 0:
			ds = append(ds, d.warn("unpaired-family", f.first, false, "family %s has no allowed control", name))
		case f.denied == 0 && f.allowed > 0:
			ds = append(ds, d.warn("unpaired-family", f.first, false, "family %s has no denied control", name))
		}
	}
	return ds
}

func knownKeys(m map[string]string) string {
	if len(m) == 0 {
		return " (the desk has no sources)"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return " (known: " + strings.Join(keys, ", ") + ")"
}
