package reports

import (
	_ "embed"
	"html"
	"html/template"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// writePassingRows writes the compact table of passing cases straight to
// w: a large suite has many, and this is the page's hot loop.
func writePassingRows(w io.Writer, cases []*Case) error {
	p := &printer{w: w}
	p.printf("<h2>Passing cases</h2>\n<p class=\"meta\">%d cases passed; the expected block, observations and trace of each are in report.json.</p>\n", len(cases))
	p.printf("<table class=\"passing\">\n<thead><tr><th>case</th><th>scenario</th><th>title</th></tr></thead>\n<tbody>\n")
	for _, c := range cases {
		id := html.EscapeString(c.Desk + "/" + c.ID)
		p.printf("<tr id=\"case-%s\"><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n", id, id, html.EscapeString(c.Scenario), html.EscapeString(c.Title))
	}
	p.printf("</tbody>\n</table>\n")
	return p.err
}

// HTML renders one self-contained page: inline CSS, no script, no external
// request. A header gives the verdict and counts; failed and errored cases
// come first, each a card with its expected-versus-observed table and its
// trace as a timeline; source-only claims have their own section. When more
// than PassingCards cases pass, the passing ones are listed in a compact
// table instead of cards (their evidence is in report.json), so that the
// page of a large suite stays readable and quick to write.
type HTML struct{}

// PassingCards is the most passing cases shown as full cards.
const PassingCards = 500

type htmlCase struct {
	C      Case
	Status string
	Rows   []row
}

// Write renders r as HTML.
func (HTML) Write(w io.Writer, r *Report) error {
	data := struct {
		R       *Report
		Verdict string
		Line    string
		Failing bool
		Cases   []htmlCase
		Dims    *htmlDimensions
	}{Dims: newHTMLDimensions(r.Dimensions), R: r, Verdict: strings.ToUpper(r.Verdict), Line: SummaryLine(r.Summary), Failing: r.Summary.Failed+r.Summary.Errored > 0}
	compact := r.Summary.Passed > PassingCards
	var passing []*Case
	for _, c := range failuresFirst(r.Cases) {
		if compact && c.Status == verifier.Pass {
			passing = append(passing, c)
			continue
		}
		status := strings.ToUpper(string(c.Status))
		if c.Status == verifier.Errored {
			status = "ERROR"
		}
		data.Cases = append(data.Cases, htmlCase{C: *c, Status: status, Rows: rows(*c)})
	}
	if err := htmlTemplate.ExecuteTemplate(w, "top", data); err != nil {
		return err
	}
	if len(passing) > 0 {
		if err := writePassingRows(w, passing); err != nil {
			return err
		}
	}
	return htmlTemplate.ExecuteTemplate(w, "bottom", data)
}

// htmlDimensions is the boundary-response section as the page lays it out.
type htmlDimensions struct {
	Columns []string
	Rows    []dimensionRow
	Note    string
	Desks   []DeskDimensions
}

func newHTMLDimensions(b *Boundary) *htmlDimensions {
	if b == nil {
		return nil
	}
	columns, rows := dimensionTable(b)
	return &htmlDimensions{Columns: columns, Rows: rows, Note: dimensionsNote, Desks: b.Desks}
}
