package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// cover runs the selected cases and says, per family and desk, which of
// the family's boundary points they reach, with a case made for each point
// none reaches.
func cover(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("cover", stderr)
	reg := all.Registry()
	sel := selectionFlags(fs, reg, "use only cases whose `<desk-id>/<case-id>` matches this regular expression")
	minPct := fs.Float64("min", 0, "exit 1 when a desk reaches less than `PCT` percent of its family's points, listing what is missing")
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
	suite, code := sel.verifySuite(paths, stderr)
	if code != exitPass {
		return code
	}
	ctx := context.Background()
	cov := verifier.MeasureCoverage(ctx, suite.Results, true)
	if *suggest {
		var made []*verifier.Made
		seen := map[string]bool{}
		for _, d := range cov.Desks {
			for _, p := range d.Points {
				if p.Made != nil && !seen[p.Made.ID] {
					seen[p.Made.ID] = true
					made = append(made, p.Made)
				}
			}
		}
		return printMade(ctx, stdout, stderr, "suggested-coverage", "Cases that reach the boundary points no case of the desks reaches", made)
	}
	rep := reports.CoverageOf(cov, true)
	missing := cov.Missing(*minPct)
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
	if *minPct > 0 && len(missing) > 0 {
		for _, d := range missing {
			var names []string
			for _, p := range d.Points {
				if p.Count == 0 {
					names = append(names, p.Point.Name)
				}
			}
			fmt.Fprintf(stderr, "deskcheck: %s on %s reaches %.1f%% of its points, below -min %v; missing: %s\n", d.Host, d.Desk, d.Percent(), *minPct, strings.Join(names, ", "))
		}
		return exitFail
	}
	return exitPass
}

// printMade checks the made cases as one desk (each passes on the correct
// model, reaches its point and fails under its mutant) and prints it.
func printMade(ctx context.Context, stdout, stderr io.Writer, id, title string, made []*verifier.Made) int {
	if len(made) == 0 {
		fmt.Fprintf(stderr, "deskcheck: nothing to suggest: no gap was found that a generated case closes\n")
		return exitPass
	}
	desk := verifier.MadeDesk(all.Registry(), id, title, made)
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
	if *suggest {
		var made []*verifier.Made
		for _, r := range m.Results {
			if r.Made != nil {
				made = append(made, r.Made)
			}
		}
		return printMade(ctx, stdout, stderr, "suggested-mutant-killers", "Cases that kill the generated mutants no case of the desks kills", made)
	}
	rep := reports.MutantsOf(m)
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
	if m.Survived() > 0 {
		return exitFail
	}
	return exitPass
}
