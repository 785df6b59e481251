// Package gen generates large, valid and varied desks for benchmarks and
// scale tests. Output is deterministic: the same arguments give the same
// bytes. Every generated case passes on the correct host model; the
// variations (tool names, arguments, messages) never change an outcome.
//
// Its cases are the shapes the families declare (scenario.Family.Shapes)
// and, for every scenario without any, the cases of the bundled desks, so a
// generated suite exercises every family.
package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
)

// shapes are the families' own shapes (scenario.Family.Shapes), in the
// registry's order, followed by the cases of the bundled desks of every
// scenario with none (as written: they pass on the correct models).
// sources are the sources the shapes cite, in order of first citation.
var shapes, sources = func() ([]scenario.Shape, [][2]string) {
	var out []scenario.Shape
	var sources [][2]string
	own := map[string]bool{}
	for _, f := range all.Families {
		for _, sh := range f.Shapes {
			out = append(out, sh)
			own[sh.Scenario] = true
			if !slices.Contains(sources, sh.Source) {
				sources = append(sources, sh.Source)
			}
		}
	}
	for _, f := range cases.Files() {
		gjson.GetBytes(f.Data, "cases").ForEach(func(_, c gjson.Result) bool {
			if sc := c.Get("scenario").String(); !own[sc] {
				out = append(out, scenario.Shape{Scenario: sc, Given: c.Get("given").Raw, Expected: c.Get("expected").Raw})
			}
			return true
		})
	}
	return out, sources
}()

var words = []string{"publish", "inspect", "shelve", "catalogue", "lend", "return", "archive", "label", "sort", "mend", "weigh", "sow"}

// Desk returns desk number d holding cases first to first+n-1; ids are
// unique across all desks of a suite. A case cites its shape's source; a
// case lent by a bundled desk cites the last source of the desk (its own
// desk's sources are not copied).
func Desk(d, first, n int) []byte {
	var b strings.Builder
	var srcs []string
	for _, s := range sources {
		srcs = append(srcs, fmt.Sprintf("%q: %q", s[0], s[1]))
	}
	fmt.Fprintf(&b, `{
  "schemaVersion": 1,
  "id": "generated-%04d",
  "title": "Generated desk %d",
  "label": "GENERATED TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "sources": {%s},
  "cases": [`, d, d, strings.Join(srcs, ", "))
	for i := 0; i < n; i++ {
		k := first + i
		t := shapes[k%len(shapes)]
		word := words[(k/len(shapes))%len(words)]
		r := strings.NewReplacer("%TOOL%", fmt.Sprintf("tool_%d", k%7), "%WORD%", word, "%N%", fmt.Sprint(k%1000))
		ref := t.Source[0]
		if ref == "" && len(sources) > 0 {
			ref = sources[len(sources)-1][0]
		}
		refs := "[]"
		if ref != "" {
			refs = fmt.Sprintf("[%q]", ref)
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    {\"id\": \"case-%07d\", \"title\": \"Generated %s case %d\", \"scenario\": %q,\n     \"given\": %s,\n     \"expected\": %s,\n     \"why\": \"Generated.\", \"sourceRefs\": %s}",
			k, t.Scenario, k, t.Scenario, r.Replace(t.Given), r.Replace(t.Expected), refs)
	}
	b.WriteString("\n  ]\n}\n")
	return []byte(b.String())
}

// File is one generated desk file.
type File struct {
	Name string
	Data []byte
}

// Suite returns total cases spread over files of perFile cases.
func Suite(total, perFile int) []File {
	var out []File
	for d := 0; d*perFile < total; d++ {
		n := min(perFile, total-d*perFile)
		out = append(out, File{Name: fmt.Sprintf("generated-%04d.json", d), Data: Desk(d, d*perFile, n)})
	}
	return out
}
