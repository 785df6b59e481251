package all

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// The documentation states figures of the bundled suite (tallies, the list
// of desks, coverage, mutants, the boundary response, drift) between
// generated markers, <!-- NAME --> and <!-- end NAME -->, which go test
// ./host/all -update rewrites from the registry and the bundled suite.
// Adding a desk to cases/ or a family to Families then needs no hand edit
// of a figure. A block that is a manual's (its family's own desks) is
// written only in a family's manual.

// bundled is the bundled suite run once for every figure: its verify
// run, coverage, mutants and drift.
type bundled struct {
	suite    *verifier.SuiteResult
	coverage verifier.Coverage
	mutants  verifier.Mutants
	drift    verifier.Drift
}

var measureBundled = sync.OnceValues(func() (*bundled, error) {
	var inputs []verifier.Input
	for _, f := range Desks() {
		inputs = append(inputs, verifier.Input{Path: f.Path, Data: f.Data})
	}
	ctx := context.Background()
	suite, ds, err := verifier.Verify(ctx, inputs, verifier.Options{Registry: Registry()})
	if err != nil {
		return nil, err
	}
	if ds.HasErrors() {
		return nil, fmt.Errorf("the bundled suite does not load: %v", ds)
	}
	cases, _ := verifier.Select(suite.Desks, nil)
	return &bundled{
		suite:    suite,
		coverage: verifier.MeasureCoverage(ctx, suite.Results, false),
		mutants:  verifier.MeasureMutants(ctx, suite.Results, nil),
		drift:    verifier.MeasureDrift(ctx, cases),
	}, nil
})

// figure writes one generated block. fam is the family whose manual holds
// the block, nil in the README and the pages under docs/.
type figure struct {
	manual bool // the block belongs in a family's manual, and only there
	write  func(b *bundled, fam *scenario.Family) string
}

var figures = map[string]figure{
	"tally":         {write: tallyFigure},
	"fault pairs":   {write: faultPairsFigure},
	"bundled desks": {write: desksFigure},
	"families":      {write: familiesFigure},
	"coverage":      {write: coverageFigure},
	"dimensions":    {write: dimensionsFigure},
	"desk figures":  {manual: true, write: deskFiguresFigure},
	"drift tail":    {manual: true, write: driftTailFigure},
	"required keys": {write: requiredKeysFigure},
}

// tallyFigure is what verify prints last on the bundled suite, quoted
// inline: `104 passed, 0 failed` and `(5 source-only claims not executed)`.
func tallyFigure(b *bundled, _ *scenario.Family) string {
	s := b.suite.Summary
	line := "`" + reports.SummaryLine(s) + "`"
	switch {
	case s.SourceOnly == 1:
		line += " and `(1 source-only claim not executed)`"
	case s.SourceOnly > 1:
		line += " and `(" + strconv.Itoa(s.SourceOnly) + " source-only claims not executed)`"
	}
	return line
}

// requiredKeysFigure names, quoted inline, the expected keys each
// scenario's schema requires, scenarios with the same keys together, in
// the registry's order: "`outcome` and `effects` (`wrapper`, `runner`);
// `decision` and `outcome` (`policy-check`)".
func requiredKeysFigure(_ *bundled, _ *scenario.Family) string {
	var order []string
	groups := map[string][]string{}
	for _, f := range Registry().Families() {
		for _, sc := range f.Scenarios {
			var keys []string
			for _, k := range gjson.GetBytes(sc.Schema, "expected.required").Array() {
				keys = append(keys, "`"+k.String()+"`")
			}
			key := andList(keys)
			if _, seen := groups[key]; !seen {
				order = append(order, key)
			}
			groups[key] = append(groups[key], sc.Name)
		}
	}
	parts := make([]string, len(order))
	for i, key := range order {
		parts[i] = key + " (" + codeList(groups[key]) + ")"
	}
	return strings.Join(parts, "; ")
}

// andList joins words as a sentence does: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// thousands writes n as the documents do: 2,087.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// faultPairsFigure counts, quoted inline, the pairs of a passing bundled
// case and a fault of its host, and those whose correct run never checked
// the fault, which faults takes without running: "1,355 of the 2,087".
func faultPairsFigure(b *bundled, _ *scenario.Family) string {
	pairs, taken := 0, 0
	faults := b.suite.Registry.Faults()
	for _, r := range b.suite.Results {
		if r.Status != verifier.Pass {
			continue
		}
		_, fam := r.Case.Spec()
		for _, f := range faults {
			if f.Host == fam.Host.Name {
				pairs++
				if r.Asked&f.ID == 0 {
					taken++
				}
			}
		}
	}
	return thousands(taken) + " of the " + thousands(pairs)
}

// deskHosts names the families whose cases a desk holds, in the order of
// the registry.
func deskHosts(reg *scenario.Registry, d *verifier.Desk) []string {
	seen := map[string]bool{}
	for _, c := range d.Cases {
		if _, fam, ok := reg.Lookup(c.Scenario); ok {
			seen[fam.Host.Name] = true
		}
	}
	var out []string
	for _, f := range reg.Families() {
		if seen[f.Host.Name] {
			out = append(out, f.Host.Name)
		}
	}
	return out
}

func codeList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "`" + strings.Join(names, "`, `") + "`"
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// desksFigure lists the bundled desks, for the README: each with its
// families, its cases and its title.
func desksFigure(b *bundled, _ *scenario.Family) string {
	var w strings.Builder
	w.WriteString("\n| desk | family | cases | title |\n|---|---|---:|---|\n")
	for _, d := range b.suite.Desks {
		fmt.Fprintf(&w, "| [`%s`](%s) | %s | %d | %s |\n", path.Base(d.Path), d.Path, codeList(deskHosts(b.suite.Registry, d)), len(d.Cases), cell(d.Title))
	}
	return w.String()
}

// familiesFigure lists the families, for the README: their scenarios,
// model, faults and manual.
func familiesFigure(_ *bundled, _ *scenario.Family) string {
	var w strings.Builder
	w.WriteString("\n| family | scenarios | model | faults | manual |\n|---|---|---|---:|---|\n")
	for _, f := range Registry().Families() {
		var names []string
		for _, sc := range f.Scenarios {
			names = append(names, sc.Name)
		}
		fmt.Fprintf(&w, "| `%s` | %s | `%s` | %d | [%s](%s) |\n", f.Host.Name, codeList(names), f.Host.Model, len(f.Faults), Manual(f), Manual(f))
	}
	return w.String()
}

// coverageFigure is the table of the bundled desks' points reached and
// mutants killed, for docs/strength.md, with each family's and the
// suite's totals.
func coverageFigure(b *bundled, _ *scenario.Family) string {
	killed := func(scores []verifier.MutantScore, desk, host string) string {
		for _, s := range scores {
			if s.Desk == desk && s.Host == host {
				return strconv.Itoa(s.Killed) + " of " + strconv.Itoa(s.Total)
			}
		}
		return "n/a"
	}
	var w strings.Builder
	w.WriteString("\n| desk | family | points reached | mutants killed |\n|---|---|---|---|\n")
	for _, c := range b.coverage.Desks {
		fmt.Fprintf(&w, "| %s | %s | %d of %d | %s |\n", cell(c.Desk), c.Host, c.Reached(), len(c.Points), killed(b.mutants.Desks, c.Desk, c.Host))
	}
	w.WriteString("\nEach family's desks together:\n\n| family | points reached | mutants killed | left out as equivalent |\n|---|---|---|---|\n")
	for _, c := range b.coverage.Families {
		var equivalent []string
		for _, m := range b.mutants.Equivalent {
			if m.Host == c.Host {
				equivalent = append(equivalent, m.Mutant.Name)
			}
		}
		fmt.Fprintf(&w, "| %s | %d of %d | %s | %s |\n", c.Host, c.Reached(), len(c.Points), killed(b.mutants.Families, c.Desk, c.Host), codeList(equivalent))
	}
	total, dead := 0, 0
	for _, s := range b.mutants.Families {
		total += s.Total
		dead += s.Killed
	}
	fmt.Fprintf(&w, "\nIn all, %d of %d mutants are killed and %d survive; %d are left out as equivalent.\n", dead, total, total-dead, len(b.mutants.Equivalent))
	return w.String()
}

// dimensionNames are the six dimensions, in the order every report lists
// them, with the figure of each.
var dimensionNames = []struct {
	name string
	cell func(d verifier.Dimensions) string
}{
	{"denial propagation", func(d verifier.Dimensions) string { return fraction(d.DenialPropagation) }},
	{"allowed work", func(d verifier.Dimensions) string { return fraction(d.AllowedWork) }},
	{"fail closed", func(d verifier.Dimensions) string { return fraction(d.FailClosed) }},
	{"retry amplification", func(d verifier.Dimensions) string {
		if !d.RetryAmplification.Applicable {
			return "n/a"
		}
		basis := ""
		if b := d.RetryAmplification.Basis; b != "" {
			basis = " " + b
		}
		return d.RetryAmplification.Ratio + " (" + fraction(d.RetryAmplification.Dimension) + basis + ")"
	}},
	{"trace completeness", func(d verifier.Dimensions) string { return fraction(d.TraceCompleteness) }},
	{"extra effects", func(d verifier.Dimensions) string { return strconv.Itoa(d.ExtraEffects) }},
}

func fraction(x verifier.Dimension) string {
	if !x.Applicable {
		return "n/a"
	}
	return strconv.Itoa(x.Numerator) + "/" + strconv.Itoa(x.Denominator)
}

// deskDimensions are the dimensions of each bundled desk, in suite order.
func deskDimensions(b *bundled) ([]*verifier.Desk, map[*verifier.Desk]verifier.Dimensions) {
	byDesk := map[*verifier.Desk][]verifier.Result{}
	for _, r := range b.suite.Results {
		byDesk[r.Case.Desk] = append(byDesk[r.Case.Desk], r)
	}
	var order []*verifier.Desk
	dims := map[*verifier.Desk]verifier.Dimensions{}
	for _, d := range b.suite.Desks {
		if rs, ok := byDesk[d]; ok {
			order = append(order, d)
			dims[d] = verifier.SumDimensions(rs)
		}
	}
	return order, dims
}

// dimensionsFigure is the boundary response of each bundled desk, for
// docs/strength.md: one row per dimension, one column per desk.
func dimensionsFigure(b *bundled, _ *scenario.Family) string {
	order, dims := deskDimensions(b)
	var w strings.Builder
	w.WriteString("\n| dimension |")
	for _, d := range order {
		w.WriteString(" " + cell(strings.TrimSuffix(d.ID, "-desk")) + " |")
	}
	w.WriteString("\n|---|" + strings.Repeat("---|", len(order)) + "\n")
	for _, dn := range dimensionNames {
		w.WriteString("| " + dn.name + " |")
		for _, d := range order {
			w.WriteString(" " + dn.cell(dims[d]) + " |")
		}
		w.WriteString("\n")
	}
	return w.String()
}

// deskFiguresFigure is the boundary response of the bundled desks whose
// cases run on the manual's family, and their controls.
func deskFiguresFigure(b *bundled, fam *scenario.Family) string {
	order, dims := deskDimensions(b)
	var w strings.Builder
	w.WriteString("\n| desk | cases |")
	for _, dn := range dimensionNames {
		w.WriteString(" " + dn.name + " |")
	}
	w.WriteString(" controls: allowed, denied, mixed, none |\n|---|---:|" + strings.Repeat("---|", len(dimensionNames)+1) + "\n")
	for _, d := range order {
		if !slices.Contains(deskHosts(b.suite.Registry, d), fam.Host.Name) {
			continue
		}
		fmt.Fprintf(&w, "| [`%s`](../../../%s) | %d |", path.Base(d.Path), d.Path, len(d.Cases))
		for _, dn := range dimensionNames {
			w.WriteString(" " + dn.cell(dims[d]) + " |")
		}
		c := dims[d].Controls
		fmt.Fprintf(&w, " %d, %d, %d, %d |\n", c.Allowed, c.Denied, c.Mixed, c.None)
	}
	return w.String()
}

// driftTailFigure is the end of deskcheck drift on the bundled suite, from
// its tally on, for the manual of a family with releases.
func driftTailFigure(b *bundled, fam *scenario.Family) string {
	if len(fam.Host.Releases) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if err := reports.WriteDriftText(&buf, b.drift); err != nil {
		return err.Error()
	}
	out := buf.String()
	tally := regexp.MustCompile(`(?m)^\d+ of \d+ cases behave the same`).FindStringIndex(out)
	if tally == nil {
		return out
	}
	return "\n```\n" + out[tally[0]:] + "```\n"
}

// documents are the files that may hold generated blocks: the README, the
// pages under docs/ and each family's manual (with its family).
func documents(t *testing.T) map[string]*scenario.Family {
	t.Helper()
	docs := map[string]*scenario.Family{"../../README.md": nil}
	pages, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	for _, p := range pages {
		docs[p] = nil
	}
	for _, f := range Registry().Families() {
		docs[filepath.Join("..", "..", filepath.FromSlash(Manual(f)))] = &f
	}
	return docs
}

var marker = regexp.MustCompile(`<!-- ([a-z][a-z ]*[a-z]) -->`)

// regenerate rewrites every generated block of text, and says which
// figures it holds.
func regenerate(text string, b *bundled, fam *scenario.Family) (string, []string, error) {
	var out strings.Builder
	var found []string
	for {
		m := marker.FindStringSubmatchIndex(text)
		if m == nil {
			break
		}
		name := text[m[2]:m[3]]
		fig, ok := figures[name]
		// A marker quoted as code (`<!-- tally -->`) is text about the
		// markers, not one.
		if !ok || m[0] > 0 && text[m[0]-1] == '`' {
			out.WriteString(text[:m[1]])
			text = text[m[1]:]
			continue
		}
		if fig.manual && fam == nil {
			return "", nil, fmt.Errorf("the figure %q is a family manual's", name)
		}
		end := "<!-- end " + name + " -->"
		stop := strings.Index(text[m[1]:], end)
		if stop < 0 {
			return "", nil, fmt.Errorf("%q has no %q", text[m[0]:m[1]], end)
		}
		out.WriteString(text[:m[1]])
		out.WriteString(fig.write(b, fam))
		out.WriteString(end)
		text = text[m[1]+stop+len(end):]
		found = append(found, name)
	}
	out.WriteString(text)
	return out.String(), found, nil
}

// TestFiguresAreCurrent keeps every generated figure of the documentation
// equal to what the bundled suite and the registry give (go test
// ./host/all -update rewrites them), and holds the documentation to
// stating each: every figure of the suite is in the README or a page
// under docs/, and every manual has its family's desk figures.
func TestFiguresAreCurrent(t *testing.T) {
	b, err := measureBundled()
	require.NoError(t, err)
	stated := map[string]bool{}
	for p, fam := range documents(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		want, found, err := regenerate(string(data), b, fam)
		if !assert.NoError(t, err, p) {
			continue
		}
		for _, name := range found {
			stated[name] = true
		}
		if fam != nil {
			assert.Contains(t, found, "desk figures", "%s has the figures of its family's bundled desks", p)
			if len(fam.Host.Releases) > 0 {
				assert.Contains(t, found, "drift tail", "%s has the end of deskcheck drift", p)
			}
		}
		if *update && want != string(data) {
			require.NoError(t, os.WriteFile(p, []byte(want), 0o644))
			continue
		}
		assert.Equal(t, want, string(data), "%s states other figures than the bundled suite's: run go test ./host/all -update", p)
	}
	for name, fig := range figures {
		if !fig.manual {
			assert.True(t, stated[name], "the figure %q is stated in the README or a page of docs/", name)
		}
	}
}

// TestFiguresFollowTheSuite: a generated block is written between its
// markers and nowhere else, a block of an unknown name is left alone, and
// a marker without its end is an error.
func TestFiguresFollowTheSuite(t *testing.T) {
	b, err := measureBundled()
	require.NoError(t, err)
	got, found, err := regenerate("ends with <!-- tally -->stale<!-- end tally -->.\n<!-- other -->kept<!-- end other -->\n", b, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"tally"}, found)
	assert.Equal(t, "ends with <!-- tally -->"+tallyFigure(b, nil)+"<!-- end tally -->.\n<!-- other -->kept<!-- end other -->\n", got)
	assert.Contains(t, got, " passed, 0 failed`")
	assert.Equal(t, "1,355,000", thousands(1355000))
	assert.Equal(t, "999", thousands(999))

	quoted := "write `<!-- tally -->` and `<!-- end tally -->` around it"
	got, found, err = regenerate(quoted, b, nil)
	require.NoError(t, err)
	assert.Empty(t, found, "a marker quoted as code is not one")
	assert.Equal(t, quoted, got)

	_, _, err = regenerate("<!-- tally -->no end", b, nil)
	assert.ErrorContains(t, err, "<!-- end tally -->")
	_, _, err = regenerate("<!-- desk figures --><!-- end desk figures -->", b, nil)
	assert.ErrorContains(t, err, "manual")
}
