package reports

import (
	_ "embed"
	"html/template"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// HTML renders one self-contained page: inline CSS, no script, no external
// request. A header gives the verdict and counts; failed and errored cases
// come first, each a card with its expected-versus-observed table and its
// trace as a timeline; source-only claims have their own section.
type HTML struct{}

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
	}{R: r, Verdict: strings.ToUpper(r.Verdict), Line: SummaryLine(r.Summary), Failing: r.Summary.Failed+r.Summary.Errored > 0}
	for _, c := range failuresFirst(r.Cases) {
		status := strings.ToUpper(string(c.Status))
		if c.Status == verifier.Errored {
			status = "ERROR"
		}
		data.Cases = append(data.Cases, htmlCase{C: c, Status: status, Rows: rows(c)})
	}
	return htmlTemplate.Execute(w, data)
}
