package gen

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
)

// WorstCases are the most expensive desks of every family at the default
// limits (scenario.Family.Worst), each just under the 16 MiB file size
// limit or at a limit of a run: what the README's memory envelope is
// measured on.
func WorstCases() []scenario.Worst {
	var out []scenario.Worst
	for _, f := range all.Families {
		out = append(out, f.Worst...)
	}
	return out
}

// fileBudget is how much of the 16 MiB a worst-case desk fills.
const fileBudget = 16<<20 - 8192

// Worst returns the worst-case desk called name (one of WorstCases): its
// cases while the next fits in the file.
func Worst(name string) ([]byte, error) {
	var names []string
	for _, w := range WorstCases() {
		if w.Name != name {
			names = append(names, w.Name)
			continue
		}
		var cases []string
		size := 100
		for i := 0; ; i++ {
			c := w.Case(i)
			if c == "" || size+len(c)+1 > fileBudget {
				break
			}
			cases, size = append(cases, c), size+len(c)+1
		}
		return []byte(`{"schemaVersion":1,"id":"worst-` + name + `","title":"t","label":"DO NOT EXECUTE","cases":[` + strings.Join(cases, ",") + `]}`), nil
	}
	return nil, fmt.Errorf("no worst case %q (known: %s)", name, strings.Join(names, ", "))
}
