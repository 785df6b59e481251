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
		Compact []Case
	}{R: r, Verdict: strings.ToUpper(r.Verdict), Line: SummaryLine(r.Summary), Failing: r.Summary.Failed+r.Summary.Errored > 0}
	compact := r.Summary.Passed > PassingCards
	for _, c := range failuresFirst(r.Cases) {
		if compact && c.Status == verifier.Pass {
			data.Compact = append(data.Compact, c)
			continue
		}
		status := strings.ToUpper(string(c.Status))
		if c.Status == verifier.Errored {
			status = "ERROR"
		}
		data.Cases = append(data.Cases, htmlCase{C: c, Status: status, Rows: rows(c)})
	}
	return htmlTemplate.Execute(w, data)
}
