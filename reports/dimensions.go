package reports

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// Boundary is the boundary-response section of a report: the dimensions
// of the whole suite and of each desk.
type Boundary struct {
	Suite verifier.Dimensions `json:"suite"`
	Desks []DeskDimensions    `json:"desks"`
	// Releases are the columns of the host releases that ask for one
	// (scenario.Release.Column), in registry order, each summing the
	// cases judged on it; none when no case was judged on such a release.
	Releases []ReleaseDimensions `json:"releases,omitempty"`
}

// ReleaseDimensions are the dimensions of the cases judged on one host
// release that has a column of its own, with what its runs were run with.
type ReleaseDimensions struct {
	Host    string `json:"host"`
	Release string `json:"release"`
	// Column is the column's heading.
	Column     string           `json:"column"`
	Provenance []ProvenanceFact `json:"provenance"`
	verifier.Dimensions
}

// ProvenanceFact is one named value of a release column's provenance.
type ProvenanceFact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// releaseTally sums the dimensions per host release, from each case's
// verdict on the release.
type releaseTally struct {
	tally map[[2]string]*verifier.DimensionTally
}

// Add counts the releases each result was judged on.
func (t *releaseTally) Add(results []verifier.Result) {
	for i := range results {
		r := &results[i]
		for _, v := range r.Releases {
			if v.Status != verifier.Pass && v.Status != verifier.Fail {
				continue
			}
			if t.tally == nil {
				t.tally = map[[2]string]*verifier.DimensionTally{}
			}
			key := [2]string{v.Host, v.Release}
			d := t.tally[key]
			if d == nil {
				d = &verifier.DimensionTally{}
				t.tally[key] = d
			}
			d.Add([]verifier.Result{{Case: r.Case, Status: v.Status, Boundary: v.Boundary}})
		}
	}
}

// columns are the tallied releases that ask for a column, in the
// registry's order.
func (t *releaseTally) columns(reg *scenario.Registry) []ReleaseDimensions {
	if len(t.tally) == 0 || reg == nil {
		return nil
	}
	var out []ReleaseDimensions
	for _, f := range reg.Families() {
		for _, rel := range f.Host.Releases {
			key := [2]string{f.Host.Name, rel.Version}
			d := t.tally[key]
			if rel.Column == "" || d == nil {
				continue
			}
			rd := ReleaseDimensions{Host: f.Host.Name, Release: rel.Version, Column: rel.Column, Provenance: []ProvenanceFact{}, Dimensions: d.Dimensions()}
			for _, x := range rel.Provenance {
				rd.Provenance = append(rd.Provenance, ProvenanceFact{Name: x.Name, Value: x.Value})
			}
			out = append(out, rd)
		}
	}
	return out
}

// DeskDimensions are the dimensions of one desk.
type DeskDimensions struct {
	Desk string `json:"desk"`
	verifier.Dimensions
}

// MarshalJSON writes the desk id first, then its dimensions.
func (d DeskDimensions) MarshalJSON() ([]byte, error) {
	inner, err := json.Marshal(d.Dimensions)
	if err != nil {
		return nil, err
	}
	id, _ := json.Marshal(d.Desk)
	out := append([]byte(`{"desk":`), id...)
	if len(inner) > 2 {
		out = append(out, ',')
		out = append(out, inner[1:]...)
	} else {
		out = append(out, '}')
	}
	return out, nil
}

// CaseBoundary is one case's dimensions and control kind.
type CaseBoundary struct {
	Control            string                 `json:"control"`
	DenialPropagation  verifier.Dimension     `json:"denialPropagation"`
	AllowedWork        verifier.Dimension     `json:"allowedWork"`
	FailClosed         verifier.Dimension     `json:"failClosed"`
	RetryAmplification verifier.Amplification `json:"retryAmplification"`
	TraceCompleteness  verifier.Dimension     `json:"traceCompleteness"`
	ExtraEffects       int                    `json:"extraEffects"`
}

// AppendJSON appends what json.Marshal writes for c.
func (c CaseBoundary) AppendJSON(b []byte) []byte {
	b = append(b, `{"control":`...)
	b = jsonx.AppendString(b, c.Control)
	b = c.DenialPropagation.AppendJSON(append(b, `,"denialPropagation":`...))
	b = c.AllowedWork.AppendJSON(append(b, `,"allowedWork":`...))
	b = c.FailClosed.AppendJSON(append(b, `,"failClosed":`...))
	b = c.RetryAmplification.AppendJSON(append(b, `,"retryAmplification":`...))
	b = c.TraceCompleteness.AppendJSON(append(b, `,"traceCompleteness":`...))
	b = append(b, `,"extraEffects":`...)
	b = strconv.AppendInt(b, int64(c.ExtraEffects), 10)
	return append(b, '}')
}

func caseBoundary(r verifier.Result) CaseBoundary {
	d := verifier.CaseDimensions(r)
	return CaseBoundary{
		Control:            verifier.ControlKind(r.Boundary),
		DenialPropagation:  d.DenialPropagation,
		AllowedWork:        d.AllowedWork,
		FailClosed:         d.FailClosed,
		RetryAmplification: d.RetryAmplification,
		TraceCompleteness:  d.TraceCompleteness,
		ExtraEffects:       d.ExtraEffects,
	}
}

// buildBoundary sums the dimensions per desk, in desk order, and for the
// suite.
func buildBoundary(s *verifier.SuiteResult) *Boundary {
	b := &Boundary{Suite: verifier.SumDimensions(s.Results), Desks: []DeskDimensions{}}
	var rt releaseTally
	rt.Add(s.Results)
	b.Releases = rt.columns(s.Registry)
	byDesk := map[*verifier.Desk][]verifier.Result{}
	for _, r := range s.Results {
		byDesk[r.Case.Desk] = append(byDesk[r.Case.Desk], r)
	}
	for _, d := range s.Desks {
		if rs, ok := byDesk[d]; ok {
			b.Desks = append(b.Desks, DeskDimensions{Desk: d.ID, Dimensions: verifier.SumDimensions(rs)})
		}
	}
	return b
}

// dimensionRow is one dimension across the desks and the suite.
type dimensionRow struct {
	Name string
	Key  string
	// Means says in a phrase what the figure counts (the HTML title).
	Means string
	Cells []dimensionCell
}

// dimensionCell is one figure: "9/9", "1.00 (6/6)", "0" or n/a.
type dimensionCell struct {
	Text       string
	Applicable bool
	// Bar is set on a k-of-n figure that applies: the page draws it as a
	// bar Fill pixels of 50 long. An n/a figure has no bar at all, never
	// an empty or a full one.
	Bar                    bool
	Numerator, Denominator int
	Fill                   int
}

// dimensionTable lays the section out as rows (the six dimensions) by
// columns (each desk, each release column, then the suite).
func dimensionTable(b *Boundary) (columns []string, rows []dimensionRow) {
	all := make([]verifier.Dimensions, 0, len(b.Desks)+len(b.Releases)+1)
	for _, d := range b.Desks {
		columns = append(columns, oneLine(d.Desk))
		all = append(all, d.Dimensions)
	}
	for _, r := range b.Releases {
		columns = append(columns, oneLine(r.Column))
		all = append(all, r.Dimensions)
	}
	columns = append(columns, "suite")
	all = append(all, b.Suite)
	frac := func(x verifier.Dimension) dimensionCell {
		if !x.Applicable {
			return dimensionCell{Text: "n/a"}
		}
		c := dimensionCell{Text: strconv.Itoa(x.Numerator) + "/" + strconv.Itoa(x.Denominator), Applicable: true, Bar: x.Denominator > 0, Numerator: x.Numerator, Denominator: x.Denominator}
		if c.Bar {
			c.Fill = min(50, max(0, x.Numerator*50/x.Denominator))
			if x.Numerator > 0 && c.Fill == 0 {
				c.Fill = 1
			}
		}
		return c
	}
	for _, spec := range []struct {
		name, key string
		cell      func(verifier.Dimensions) dimensionCell
	}{
		{"denial propagation", "denialPropagation", func(d verifier.Dimensions) dimensionCell { return frac(d.DenialPropagation) }},
		{"allowed work", "allowedWork", func(d verifier.Dimensions) dimensionCell { return frac(d.AllowedWork) }},
		{"fail closed", "failClosed", func(d verifier.Dimensions) dimensionCell { return frac(d.FailClosed) }},
		{"retry amplification", "retryAmplification", func(d verifier.Dimensions) dimensionCell {
			return frac(d.RetryAmplification.Dimension)
		}},
		{"trace completeness", "traceCompleteness", func(d verifier.Dimensions) dimensionCell { return frac(d.TraceCompleteness) }},
		{"extra effects", "extraEffects", func(d verifier.Dimensions) dimensionCell {
			return dimensionCell{Text: strconv.Itoa(d.ExtraEffects), Applicable: true}
		}},
	} {
		row := dimensionRow{Name: spec.name, Key: spec.key, Means: dimensionMeans[spec.key]}
		for _, d := range all {
			c := spec.cell(d)
			if spec.key == "retryAmplification" && c.Applicable {
				// A figure whose denominator is not the permitted actions
				// says which it is: "1.00 (24/24 scripted)".
				if x := d.RetryAmplification.Basis; x != "" {
					c.Text += " " + oneLine(x)
				}
				c.Text = d.RetryAmplification.Ratio + " (" + c.Text + ")"
			}
			row.Cells = append(row.Cells, c)
		}
		rows = append(rows, row)
	}
	return columns, rows
}

// dimensionMeans says what each dimension counts, for the legend.
var dimensionMeans = map[string]string{
	"denialPropagation":  "scripted-denied actions whose denial reached the caller with its reason, of the scripted-denied actions",
	"allowedWork":        "scripted-permitted actions whose work was observed, of the scripted-permitted actions",
	"failClosed":         "cases with no effect from a denied or unknown action and none beyond what is permitted, of the cases with a scripted action",
	"retryAmplification": "service requests observed per request the reference decision lets through (1.00: no extra request)",
	"traceCompleteness":  "cases whose actions, calls, policy events and receipts reconcile one to one, of the cases with a scripted action",
	"extraEffects":       "effects beyond those scripted as permitted",
}

// dimensionsLegend and controlsLegend are the lines text and Markdown put
// under the tables; the HTML page gives the same as titles.
const (
	dimensionsLegend = "denial propagation: denials that reached the caller with their reason · allowed work: permitted actions whose work was seen · " +
		"fail closed: cases with no unpermitted effect · retry amplification: service requests per permitted one · " +
		"trace completeness: cases whose records reconcile · extra effects: effects beyond those permitted"
	controlsLegend = "controls: allowed = a case whose script permits an action, denied = one that denies one, mixed = both, none = neither; " +
		"a family (protected-file, network-destination, credential, approval-rejection, policy-service-failure, mixed-batch, repeated-denial, " +
		"permitted-recovery) pairs allowed and denied controls of one boundary"
)

// dimensionsNote is the line every rendering puts under the table.
const dimensionsNote = "Separate dimensions, not a combined score; n/a = zero denominator"

// writeDimensionsText prints the section as an aligned table.
func writeDimensionsText(p *printer, b *Boundary) {
	columns, rows := dimensionTable(b)
	widths := make([]int, len(columns)+1)
	widths[0] = len("dimension")
	for _, r := range rows {
		widths[0] = max(widths[0], len(r.Name))
	}
	for i, c := range columns {
		widths[i+1] = len(c)
		for _, r := range rows {
			widths[i+1] = max(widths[i+1], len(r.Cells[i].Text))
		}
	}
	p.printf("Boundary response\n")
	line := func(first string, cells []string) {
		p.printf("  %-*s", widths[0], first)
		for i, c := range cells {
			p.printf("  %*s", widths[i+1], c)
		}
		p.printf("\n")
	}
	line("dimension", columns)
	for _, r := range rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c.Text
		}
		line(r.Name, cells)
	}
	p.printf("  %s\n", dimensionsNote)
	for _, line := range releaseNotes(b) {
		p.printf("%s", wrap("  "+line+"\n", DefaultWidth))
	}
	p.printf("%s", wrap("  "+dimensionsLegend+"\n", DefaultWidth))
	p.printf("%s", wrap("  "+controlsLegend+"\n", DefaultWidth))
	c := b.Suite.Controls
	p.printf("  controls: %d allowed, %d denied, %d mixed, %d none", c.Allowed, c.Denied, c.Mixed, c.None)
	if !b.Suite.BlanketRefusal.Detectable {
		p.printf(" — no allowed control passes: a host that refuses everything would pass")
	}
	p.printf("\n")
	for _, d := range b.Desks {
		for _, f := range d.Arenas {
			if !f.Paired {
				p.printf("  %s: family %s is unpaired (%d allowed, %d denied)\n", oneLine(d.Desk), oneLine(f.Arena), f.Allowed, f.Denied)
			}
		}
	}
	p.printf("\n")
}

// dimensionDesks is the most desks given a column of their own in the
// HTML and Markdown dimension tables; with more, the tables show the suite
// column only (every desk's figures are in report.json).
const dimensionDesks = 20

// pageTable is dimensionTable for a page: the per-desk columns only when
// there are at most dimensionDesks desks.
func pageTable(b *Boundary) (columns []string, rows []dimensionRow, folded bool) {
	if len(b.Desks) <= dimensionDesks {
		columns, rows = dimensionTable(b)
		return columns, rows, false
	}
	columns, rows = dimensionTable(&Boundary{Suite: b.Suite, Releases: b.Releases})
	return columns, rows, true
}

// writeDimensionsMarkdown prints the section as HTML tables (desk ids are
// case data) with the arenas (the page says "families", after the case
// file's key) in a <details> block.
func writeDimensionsMarkdown(p *printer, b *Boundary) {
	columns, rows, folded := pageTable(b)
	p.printf("## Boundary response\n\n<table>\n<tr><th>dimension</th>")
	for _, c := range columns {
		p.printf("<th>%s</th>", mdCell(c))
	}
	p.printf("</tr>\n")
	for _, r := range rows {
		p.printf("<tr><td>%s</td>", r.Name)
		for _, c := range r.Cells {
			p.printf("<td align=\"right\">%s</td>", mdCell(c.Text))
		}
		p.printf("</tr>\n")
	}
	p.printf("</table>\n\n%s. %s.", dimensionsNote, dimensionsLegend)
	if folded {
		p.printf(" The figures of each of the %s desks are in `report.json`.", verifier.Thousands(len(b.Desks)))
	}
	if notes := releaseNotes(b); len(notes) > 0 {
		p.printf("\n")
		for _, line := range notes {
			p.printf("\n- %s", mdValue(line))
		}
	}
	p.printf("\n\n<details>\n<summary>Controls and families</summary>\n<p>%s.</p>\n<table>", controlsLegend)
	p.printf("\n<tr><th>desk</th><th>allowed</th><th>denied</th><th>mixed</th><th>none</th><th>families</th></tr>\n")
	for i, d := range b.Desks {
		if i == mdDeskRows {
			break
		}
		c := d.Controls
		var fams []string
		for _, f := range d.Arenas {
			mark := ""
			if !f.Paired {
				mark = " (unpaired)"
			}
			fams = append(fams, fmt.Sprintf("%s %d/%d%s", f.Arena, f.Allowed, f.Denied, mark))
		}
		p.printf("<tr><td>%s</td><td align=\"right\">%d</td><td align=\"right\">%d</td><td align=\"right\">%d</td><td align=\"right\">%d</td><td>%s</td></tr>\n",
			mdCell(d.Desk), c.Allowed, c.Denied, c.Mixed, c.None, mdCell(strings.Join(fams, ", ")))
	}
	p.printf("</table>\n")
	if n := len(b.Desks) - mdDeskRows; n > 0 {
		p.printf("<p>%s more desks in report.json.</p>\n", verifier.Thousands(n))
	}
	p.printf("</details>\n\n")
}

// dimensionProperties are the JUnit properties of one desk's dimensions.
func dimensionProperties(d verifier.Dimensions) []junitProperty {
	_, rows := dimensionTable(&Boundary{Suite: d})
	out := make([]junitProperty, 0, len(rows))
	for _, r := range rows {
		out = append(out, junitProperty{Name: "boundary." + r.Key, Value: r.Cells[0].Text})
	}
	return out
}

// releaseNotes are the lines under the table that say what each release
// column's runs were run with ("LangGraph 1.2.11: framework LangGraph
// 1.2.11; mode mock; …") and name the amplification bases shown.
func releaseNotes(b *Boundary) []string {
	var out, bases []string
	for _, d := range b.Desks {
		if x := d.RetryAmplification.Basis; x != "" && !slices.Contains(bases, x) {
			bases = append(bases, x)
		}
	}
	for _, r := range b.Releases {
		facts := make([]string, len(r.Provenance))
		for i, x := range r.Provenance {
			facts[i] = oneLine(x.Name) + " " + oneLine(x.Value)
		}
		out = append(out, oneLine(r.Column)+" ("+oneLine(r.Host)+" "+oneLine(r.Release)+"): "+strings.Join(facts, "; "))
		if x := r.RetryAmplification.Basis; x != "" && !slices.Contains(bases, x) {
			bases = append(bases, x)
		}
	}
	for _, x := range bases {
		out = append(out, "retry amplification marked "+oneLine(x)+": service requests over the "+oneLine(x)+" actions, where the service decides every one (not over the permitted actions)")
	}
	return out
}
