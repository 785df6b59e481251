package verifier

import (
	"slices"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// placeholderWarning names the warnings about text left from deskcheck
// new. They count as warnings and can never be acknowledged: the text is
// to be replaced.
const placeholderWarning = "placeholder"

// EngineWarnings are the warnings lint raises for any desk, whatever its
// scenarios; each scenario names its own (scenario.Scenario.Warnings).
var EngineWarnings = []scenario.Warning{
	{Name: "label", Help: "the desk's label does not say DO NOT EXECUTE"},
	{Name: "empty-desk", Help: "the desk holds no case"},
	{Name: placeholderWarning, Help: "text left from deskcheck new (never acknowledged: replace it)"},
	{Name: "no-allowed-control", Help: "denied controls but no allowed one: a host that refuses everything passes"},
	{Name: "unpaired-family", Help: "a boundary-response family (a case's family key) with controls of one side only"},
	{Name: lessonOneCase, Help: "a lesson key no other case of the desk shares: nothing stands beside it"},
	{Name: lessonHostTwice, Help: "two cases of one lesson on the same host: a lesson asks each host once"},
	{Name: "unused-acknowledgement", Help: "an acknowledgement that matches no warning of the desk or case"},
	{Name: "skipped", Help: "a file found in a folder and not read (a link, a FIFO, over the size limit)"},
	{Name: skippedName, Help: "later checks skipped for a file or some of its cases, whose errors make them meaningless (fix the errors)"},
}

// WarningNames returns every warning name lint can raise, sorted: the
// engine's and every scenario's of reg.
func WarningNames(reg *scenario.Registry) []string {
	seen := map[string]bool{}
	for _, w := range EngineWarnings {
		seen[w.Name] = true
	}
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		for _, w := range sc.Warnings {
			seen[w.Name] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// acks are the acknowledgements of a desk and its cases. They mark the
// warnings that a case or the desk itself acknowledges, and are checked
// themselves: every name must be one lint can raise, every reason must
// say something, placeholders cannot be acknowledged, and an
// acknowledgement no warning uses is itself a warning. A case's
// acknowledgement covers the warnings inside that case; the desk's covers
// every warning of the file. mark may be called on the desk's warnings in
// parts; finish then gives the problems of the acknowledgements.
type acks struct {
	d     *Desk
	desk  map[string]*ack
	cases map[string]map[string]*ack
	// errs are the problems of the acknowledge keys (an unknown name, an
	// empty reason).
	errs Diagnostics
}

type ack struct {
	owner  string // pointer of the object holding the acknowledge key
	reason string
	used   bool
}

// newAcks reads the desk's acknowledgements; nil when it has none.
func newAcks(d *Desk) *acks {
	if len(d.Acknowledge) == 0 && !d.caseAcks {
		return nil
	}
	known := WarningNames(d.reg)
	a := &acks{d: d, cases: map[string]map[string]*ack{}}
	valid := func(owner string, m map[string]string) map[string]*ack {
		out := map[string]*ack{}
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			ptr := owner + "/acknowledge/" + jsontext.PointerToken(n)
			switch {
			case !slices.Contains(known, n):
				a.errs = append(a.errs, d.diag(Error, ptr, true, "acknowledge: %q is not the name of a warning%s", n, suggest(n, known)))
			case n == placeholderWarning:
				a.errs = append(a.errs, d.diag(Error, ptr, true, "acknowledge: a placeholder cannot be acknowledged; replace the text deskcheck new left"))
			case strings.TrimSpace(m[n]) == "":
				a.errs = append(a.errs, d.diag(Error, ptr, false, "acknowledge: say why %s is acknowledged; the reason is empty", n))
			default:
				out[n] = &ack{owner: owner, reason: m[n]}
			}
		}
		return out
	}
	a.desk = valid("", d.Acknowledge)
	for _, c := range d.Cases {
		if len(c.Acknowledge) > 0 {
			a.cases[c.Pointer] = valid(c.Pointer, c.Acknowledge)
		}
	}
	return a
}

// mark sets Acknowledged on each warning of ds that the warning's case,
// or the desk, acknowledges.
func (a *acks) mark(ds Diagnostics) {
	if a == nil {
		return
	}
	for i := range ds {
		w := &ds[i]
		if w.Severity != Warning || w.Name == "" {
			continue
		}
		if owner := caseOf(w.Pointer); owner != "" {
			if k := a.cases[owner][w.Name]; k != nil {
				w.Acknowledged, k.used = k.reason, true
				continue
			}
		}
		if k := a.desk[w.Name]; k != nil {
			w.Acknowledged, k.used = k.reason, true
		}
	}
}

// finish gives the problems of the acknowledgements: those of their keys,
// and a warning for each that no marked warning used.
func (a *acks) finish() Diagnostics {
	if a == nil {
		return nil
	}
	ds := a.errs
	unused := func(m map[string]*ack) {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if k := m[n]; !k.used {
				ds = append(ds, a.d.warn("unused-acknowledgement", k.owner+"/acknowledge/"+jsontext.PointerToken(n), true, "acknowledges %s, but no such warning is raised here", n))
			}
		}
	}
	if !a.d.partial {
		unused(a.desk) // a case left out may have used them
	}
	for _, c := range a.d.Cases {
		unused(a.cases[c.Pointer])
	}
	return ds
}

// caseOf returns the pointer of the case a pointer lies in (/cases/3), ""
// when it lies in none.
func caseOf(ptr string) string {
	rest, ok := strings.CutPrefix(ptr, "/cases/")
	if !ok {
		return ""
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	if rest == "" {
		return ""
	}
	return "/cases/" + rest
}
