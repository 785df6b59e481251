package reports

import (
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
// report that holds a case of a scenario the fault belongs to (the desk
// that addresses it), or none. It maps each fault's full name to the file.
func faultFiles(r *Report, reg *scenario.Registry) map[string]string {
	out := map[string]string{}
	if r.Strength == nil || reg == nil {
		return out
	}
	files := deskFiles(r)
	// The first desk with a case of each scenario, by host.
	type key struct{ host, scenario string }
	scenarioFile := map[key]string{}
	for i := range r.Cases {
		c := &r.Cases[i]
		if _, fam, ok := reg.Lookup(c.Scenario); ok && files[c.Desk] != "" {
			k := key{fam.Host.Name, c.Scenario}
			if _, seen := scenarioFile[k]; !seen {
				scenarioFile[k] = files[c.Desk]
			}
		}
	}
	for _, f := range r.Strength.Results {
		q, err := reg.LookupFault(f.Fault)
		if err != nil {
			continue
		}
		scenarios := q.Fault.Scenarios
		if len(scenarios) == 0 {
			for _, f := range reg.Families() {
				if f.Host.Name == q.Host {
					for _, sc := range f.Scenarios {
						scenarios = append(scenarios, sc.Name)
					}
				}
			}
		}
		for _, sc := range scenarios {
			if file := scenarioFile[key{q.Host, sc}]; file != "" {
				out[f.Fault] = file
				break
			}
		}
	}
	return out
}
