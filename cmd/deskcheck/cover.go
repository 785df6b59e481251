package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// cover runs the selected cases and says, per family and desk, which of
// the family's boundary points they reach, with a case made for each point
// none reaches.
func cover(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("cover", stderr)
	reg := all.Registry()
	sel := selectionFlags(fs, reg, "use only cases whose `<desk-id>/<case-id>` matches this regular expression")
	minPct := fs.Float64("min", 0, "exit 1 when a family's cases, over every desk read, reach less than `PCT` percent of the points of the scenarios they address, listing what is missing")
	perDesk := fs.Bool("per-desk", false, "with -min: judge each desk on its own, on the points of the scenarios it has cases of")
	suggest := fs.Bool("suggest", false, "print one complete desk of the cases made for the unreached points on stdout, instead of the table")
	format := fs.String("format", "text", "output on stdout: text or json")
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "deskcheck: -format must be text or json, not %q\n", *format)
		return exitInvalid
	}
	if *minPct < 0 || *minPct > 100 {
		fmt.Fprintf(stderr, "deskcheck: -min must be a percentage from 0 to 100, not %v\n", *minPct)
		return exitInvalid
	}
	// Coverage reads the points each case reached, not its evidence.
	suite, code := sel.pointsSuite(paths, stderr)
	if code != exitPass {
		return code
	}
	ctx := context.Background()
	cov := verifier.MeasureCoverage(ctx, suite.Results, true)
	addressed := addressedBy(suite.Results)
	if *suggest {
		var made []*verifier.Made
		seen := map[string]bool{}
		for _, d := range cov.Desks {
			for _, p := range d.Points {
				if p.Made != nil && !seen[p.Made.ID] && addressed(d.Desk, d.Host, p.Point.Scenario) {
					seen[p.Made.ID] = true
					made = append(made, p.Made)
				}
			}
		}
		return printMade(ctx, stdout, stderr, "suggested-coverage", "Cases that reach the boundary points no case of the desks reaches", made)
	}
	rep := reports.CoverageOf(cov, true)
	rep.Addressed(addressed)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
	} else if err := reports.WriteCoverageText(stdout, rep, true); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	if *minPct > 0 {
		return judgeCoverage(rep, *minPct, *perDesk, stderr)
	}
	return exitPass
}

// addressedBy says whether the selected cases of a desk (desk "": of every
// desk) include a case of a host's scenario.
func addressedBy(results []verifier.Result) func(desk, host, scenario string) bool {
	type scope struct{ desk, host, scenario string }
	has := map[scope]bool{}
	for _, r := range results {
		sc, fam := r.Case.Spec()
		if sc == nil || fam == nil {
			continue
		}
		has[scope{r.Case.Desk.ID, fam.Host.Name, sc.Name}] = true
		has[scope{"", fam.Host.Name, sc.Name}] = true
	}
	return func(desk, host, scenario string) bool { return has[scope{desk, host, scenario}] }
}

// judgeCoverage holds each family over every desk (or, perDesk, each
// desk) to min percent of the points it addresses, says what it judged,
// and lists what is missing where it falls short.
func judgeCoverage(rep *reports.Coverage, min float64, perDesk bool, stderr io.Writer) int {
	list, what := rep.Families, "each family over every desk read"
	if perDesk {
		list, what = rep.Desks, "each desk on its own"
	}
	code := exitPass
	var figures []string
	for _, d := range list {
		name := d.Host
		if d.Desk != "" {
			name = d.Host + " on " + d.Desk
		}
		pct := 100.0
		if d.Points > 0 {
			pct = 100 * float64(d.Reached) / float64(d.Points)
		}
		figures = append(figures, fmt.Sprintf("%s %.1f%%", reports.OneLine(name), pct))
		if pct >= min {
			continue
		}
		var names []string
		for _, p := range d.List {
			if p.Reached == 0 {
				names = append(names, p.Point)
			}
		}
		fmt.Fprintf(stderr, "deskcheck: %s reaches %.1f%% of the %d points of the scenarios its cases address, below -min %v; missing: %s\n",
			reports.OneLine(name), pct, d.Points, min, reports.OneLine(strings.Join(names, ", ")))
		code = exitFail
	}
	fmt.Fprintf(stderr, "deskcheck: -min %v judged %s, on the points of the scenarios its cases address (%s)\n", min, what, strings.Join(figures, "; "))
	return code
}

// printMade checks the made cases as one desk (each passes on the correct
// model, reaches its point and fails under its mutant) and prints it.
func printMade(ctx context.Context, stdout, stderr io.Writer, id, title string, made []*verifier.Made) int {
	if len(made) == 0 {
		fmt.Fprintf(stderr, "deskcheck: nothing to suggest: no gap was found that a generated case closes\n")
		return exitPass
	}
	desk, err := acknowledgeMade(verifier.MadeDesk(all.Registry(), id, title, made), made)
	if err != nil {
		fmt.Fprintf(stderr, "deskcheck: the suggested desk does not read back, so nothing is printed: %v\n", err)
		return exitFail
	}
	if err := verifier.CheckMade(ctx, all.Registry(), desk, made); err != nil {
		fmt.Fprintf(stderr, "deskcheck: a suggested case does not do what it is made for, so nothing is printed: %v\n", err)
		return exitFail
	}
	if _, err := stdout.Write(desk); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(stderr, "deskcheck: %d suggested case(s), each run on the correct model before printing\n", len(made))
	return exitPass
}

// mutants runs every generated mutant of the selected cases' families and
// says which survive.
func mutants(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("mutants", stderr)
	reg := all.Registry()
	sel := selectionFlags(fs, reg, "use only cases whose `<desk-id>/<case-id>` matches this regular expression")
	only := fs.String("mutant", "", "run only mutants whose full name (`host/mutant`) matches this regular expression")
	suggest := fs.Bool("suggest", false, "print one complete desk of the cases made to kill the survivors on stdout, instead of the table")
	format := fs.String("format", "text", "output on stdout: text or json")
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "deskcheck: -format must be text or json, not %q\n", *format)
		return exitInvalid
	}
	var keep func(string) bool
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fmt.Fprintf(stderr, "deskcheck: -mutant: %v\n", err)
			return exitInvalid
		}
		keep = re.MatchString
	}
	perHost := map[string]int{}
	for _, f := range reg.Families() {
		perHost[f.Host.Name] = len(f.Mutants)
	}
	sel.runs = func(c *verifier.Case) int {
		_, fam := c.Spec()
		return 1 + perHost[fam.Host.Name]
	}
	suite, code := sel.verifySuite(paths, stderr)
	if code != exitPass {
		return code
	}
	ctx := context.Background()
	m := verifier.MeasureMutants(ctx, suite.Results, keep)
	if len(m.Results) == 0 && len(m.Equivalent) == 0 {
		fmt.Fprintf(stderr, "deskcheck: no mutant selected\n")
		return exitInvalid
	}
	addressed := mutantsAddressed(ctx, reg, suite.Results, m)
	if *suggest {
		var made []*verifier.Made
		for _, r := range m.Results {
			if r.Made == nil {
				continue
			}
			for _, d := range m.Desks {
				if d.Host == r.Host && slices.Contains(d.Survivors, r.FullName()) && addressed(d.Desk, d.Host, r.FullName()) {
					made = append(made, r.Made)
					break
				}
			}
		}
		return printMade(ctx, stdout, stderr, "suggested-mutant-killers", "Cases that kill the generated mutants no case of the desks kills", made)
	}
	rep := reports.MutantsOf(m)
	rep.Addressed(addressed)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "deskcheck: %v\n", err)
			return exitInvalid
		}
	} else if err := reports.WriteMutantsText(stdout, rep); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitInvalid
	}
	for _, f := range rep.Families {
		if len(f.Survivors) > 0 {
			return exitFail
		}
	}
	return exitPass
}

// acknowledgeMade gives each made case of desk an acknowledge key for the
// warnings lint raises on it: a case made to reach a point (an unknown
// mode, say) holds what the warning is about on purpose, so the desk as
// printed passes validate -fail-on-warn. The key goes after the case's
// scenario line, where MadeDesk writes it.
func acknowledgeMade(desk []byte, made []*verifier.Made) ([]byte, error) {
	reg := all.Registry()
	d, ds := verifier.Load(reg, "suggested.json", desk, verifier.Limits{})
	if ds.HasErrors() || d == nil {
		for _, e := range ds {
			if e.Severity == verifier.Error {
				return nil, fmt.Errorf("%s (%s)", e.Summary, e.Pointer)
			}
		}
		return nil, fmt.Errorf("no desk")
	}
	names := make([]map[string]bool, len(made))
	for _, w := range verifier.Lint([]*verifier.Desk{d}, verifier.Limits{}) {
		var i int
		if w.Severity != verifier.Warning || w.Name == "" {
			continue
		}
		if _, err := fmt.Sscanf(w.Pointer, "/cases/%d/", &i); err != nil || i < 0 || i >= len(made) {
			continue
		}
		if names[i] == nil {
			names[i] = map[string]bool{}
		}
		names[i][w.Name] = true
	}
	const at = "\n      \"scenario\": "
	var out []byte
	rest := desk
	for i, m := range made {
		k := bytes.Index(rest, []byte(at))
		if k < 0 {
			return nil, fmt.Errorf("case %d has no scenario line", i)
		}
		end := k + 1 + bytes.IndexByte(rest[k+1:], '\n')
		out, rest = append(out, rest[:end]...), rest[end:]
		if len(names[i]) == 0 {
			continue
		}
		list := make([]string, 0, len(names[i]))
		for n := range names[i] {
			list = append(list, n)
		}
		sort.Strings(list)
		target := m.Point
		if target == "" {
			target = "kill " + m.Mutant
		} else {
			target = "reach " + target
		}
		var b strings.Builder
		b.WriteString("\n      \"acknowledge\": {")
		for j, n := range list {
			if j > 0 {
				b.WriteString(", ")
			}
			name, _ := json.Marshal(n)
			why, _ := json.Marshal("deskcheck made this case from a generated input to " + target + ", as the model observes it")
			fmt.Fprintf(&b, "%s: %s", name, why)
		}
		b.WriteString("},")
		out = append(out, b.String()...)
	}
	return append(out, rest...), nil
}

// mutantsAddressed says whether a desk (desk "": every desk) addresses a
// mutant of a host: whether the family's generated inputs of a scenario
// the desk has cases of kill it. A mutant that only inputs of other
// scenarios kill is not addressed by the desk; one no generated input
// kills is held against every desk. Only the survivors are asked about.
func mutantsAddressed(ctx context.Context, reg *scenario.Registry, results []verifier.Result, m verifier.Mutants) func(desk, host, mutant string) bool {
	addressed := addressedBy(results)
	fams := map[string]*scenario.Family{}
	for _, f := range reg.Families() {
		fams[f.Host.Name] = &f
	}
	type key struct{ host, scenario string }
	searches := map[key]*verifier.Search{}
	search := func(host, sc string) *verifier.Search {
		k := key{host, sc}
		if searches[k] == nil {
			fam := *fams[host]
			all := fam.Generate
			fam.Generate = func() []scenario.Candidate {
				var out []scenario.Candidate
				if all != nil {
					for _, c := range all() {
						if c.Scenario == sc {
							out = append(out, c)
						}
					}
				}
				return out
			}
			searches[k] = verifier.NewSearch(&fam)
		}
		return searches[k]
	}
	// killers[full name] lists the scenarios whose inputs kill the mutant.
	killers := map[string][]string{}
	byName := map[string]verifier.MutantResult{}
	for _, r := range m.Results {
		byName[r.FullName()] = r
	}
	for _, s := range append(append([]verifier.MutantScore{}, m.Desks...), m.Families...) {
		for _, name := range s.Survivors {
			if _, done := killers[name]; done {
				continue
			}
			r := byName[name]
			killers[name] = []string{}
			for _, sc := range fams[r.Host].Scenarios {
				if _, ok := search(r.Host, sc.Name).Distinguishes(ctx, r.Mutant); ok {
					killers[name] = append(killers[name], sc.Name)
				}
			}
		}
	}
	return func(desk, host, mutant string) bool {
		ks, asked := killers[mutant]
		if !asked || len(ks) == 0 {
			return true
		}
		for _, sc := range ks {
			if addressed(desk, host, sc) {
				return true
			}
		}
		return false
	}
}
