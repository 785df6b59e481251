package verifier

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// skippedName is the name of the warning that says which later checks of
// a file were skipped, and why.
const skippedName = "checks-skipped"

// The reasons a whole file's later checks are skipped.
const (
	skipUnread  = "it must first read as JSON within the limits"
	skipVersion = "they check files of schemaVersion %d"
)

// skipWhole is the checks-skipped warning of a file none of whose later
// checks ran.
func skipWhole(file, why string) Diagnostic {
	return skipLine(file, "later checks (schema, whole numbers, hosts, lint) were skipped for the whole file: "+why)
}

// skipLine is a checks-skipped warning. It has no position: it is about
// the file's list, follows its located problems, and is never left out of
// it.
func skipLine(file, summary string) Diagnostic {
	return Diagnostic{Severity: Warning, Name: "checks-skipped", File: file, Summary: summary, skip: true}
}

// brokenParts are the parts of a file that its schema errors leave out of
// the later checks: the cases with schema errors of their own, and, for
// an error anywhere else (a value of the desk's own keys, the cases key
// itself, a source-only claim), the desk's hosts and all of lint. A key
// of the desk's own that the format does not know breaks nothing: the
// later checks do not read it.
type brokenParts struct {
	desk  bool
	cases map[int]bool
}

// add takes a schema problem: its pointer, and the key it names, if any.
func (b *brokenParts) add(ptr, key string) {
	if ptr == "" && key != "" {
		return
	}
	if rest, ok := strings.CutPrefix(ptr, "/cases/"); ok {
		tok, _, _ := strings.Cut(rest, "/")
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && strconv.Itoa(i) == tok {
			b.addCase(i)
			return
		}
	}
	b.desk = true
}

func (b *brokenParts) addCase(i int) {
	if b.cases == nil {
		b.cases = map[int]bool{}
	}
	b.cases[i] = true
}

// skippedShown is how many skipped cases the checks-skipped warning names.
const skippedShown = 3

// skipped is the checks-skipped warning for the broken parts of d, if
// any.
func (b *brokenParts) skipped(d *Desk) (Diagnostic, bool) {
	if !b.desk && len(b.cases) == 0 {
		return Diagnostic{}, false
	}
	idx := make([]int, 0, len(b.cases))
	for i := range b.cases {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var names []string
	cases := d.root.Get("cases")
	for _, i := range idx[:min(len(idx), skippedShown)] {
		ptr := "/cases/" + strconv.Itoa(i)
		if id := cases.Get(strconv.Itoa(i)).Get("id"); cases.IsArray() && id.Type == gjson.String {
			names = append(names, jsontext.Quote(hostText(id))+" ("+ptr+")")
		} else {
			names = append(names, ptr)
		}
	}
	list := ""
	switch n := len(b.cases); {
	case n == 0:
	case n == 1:
		list = "case " + names[0]
	case n <= skippedShown:
		list = "cases " + strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	default:
		list = fmt.Sprintf("%s cases (the first %d: %s)", Thousands(n), len(names), strings.Join(names, ", "))
	}
	var s string
	switch {
	case !b.desk:
		s = fmt.Sprintf("later checks (whole numbers, hosts, lint) were skipped for %s, whose schema errors make them meaningless; so were lint's checks that read all cases together", list)
	case len(b.cases) == 0:
		s = "later checks (the desk's hosts, lint) were skipped for the whole file: its schema errors outside the cases make them meaningless"
	default:
		s = fmt.Sprintf("later checks (the desk's hosts, lint) were skipped for the whole file, and (whole numbers, hosts) for %s: schema errors make them meaningless", list)
	}
	return skipLine(d.Path, s), true
}
