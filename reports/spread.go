package reports

import (
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// spread orders items so that the first of each group comes before the
// second of any: groups in order of their first item, each group's items
// in their own order. A capped list of the result reaches as many groups
// as it can: the first failure of every file before the second of any.
func spread[T any](items []T, group func(T) string) []T {
	var order []string
	byGroup := map[string][]T{}
	for _, it := range items {
		g := group(it)
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], it)
	}
	out := make([]T, 0, len(items))
	for round := 0; len(order) > 0; round++ {
		// Groups run out in turn; each round keeps those with more.
		left := order[:0]
		for _, g := range order {
			list := byGroup[g]
			out = append(out, list[round])
			if round+1 < len(list) {
				left = append(left, g)
			}
		}
		order = left
	}
	return out
}

// spreadFailures is the failed and errored cases of r, the first of each
// desk before the second of any.
func spreadFailures(r *Report) []*Case {
	return spread(failures(r.Cases), func(c *Case) string { return c.Desk })
}

// faultFiles says where a missed fault is reported: the first file of the
// report that holds a case of the fault's host (its first line), or the
// report's first file when the host of a case cannot be told. Files maps
// each fault's full name to the file.
func faultFiles(r *Report, reg *scenario.Registry) map[string]string {
	out := map[string]string{}
	if r.Strength == nil {
		return out
	}
	first := ""
	if len(r.Provenance.Files) > 0 {
		first = r.Provenance.Files[0].Path
	}
	files := deskFiles(r)
	hostFile := map[string]string{}
	if reg != nil {
		for i := range r.Cases {
			c := &r.Cases[i]
			if _, fam, ok := reg.Lookup(c.Scenario); ok {
				if _, seen := hostFile[fam.Host.Name]; !seen && files[c.Desk] != "" {
					hostFile[fam.Host.Name] = files[c.Desk]
				}
			}
		}
	}
	for _, f := range r.Strength.Results {
		host, _, _ := strings.Cut(f.Fault, "/")
		if file, ok := hostFile[host]; ok {
			out[f.Fault] = file
		} else {
			out[f.Fault] = first
		}
	}
	return out
}
