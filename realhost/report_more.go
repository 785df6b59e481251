package realhost

import (
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/reports"
)

// writeJUnit renders runs as JUnit XML: one suite per real host, one test
// case per desk case; a case that does not hold or disagrees is a failure,
// one that could not run an error, one not applicable skipped.
func writeJUnit(w io.Writer, runs []*Run) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Error     *failure `xml:"error,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
		Out       string   `xml:"system-out,omitempty"`
	}
	type property struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	type suite struct {
		Name       string     `xml:"name,attr"`
		Tests      int        `xml:"tests,attr"`
		Failures   int        `xml:"failures,attr"`
		Errors     int        `xml:"errors,attr"`
		Skipped    int        `xml:"skipped,attr"`
		Properties []property `xml:"properties>property"`
		Cases      []testcase `xml:"testcase"`
	}
	type suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []suite  `xml:"testsuite"`
	}
	var out suites
	for _, run := range runs {
		h := run.Hello
		s := suite{Name: "real host " + vis(hostLine(h)), Tests: run.Summary.Cases,
			Failures: run.Summary.DoesNotHold + run.Summary.Disagree, Errors: run.Summary.Errored, Skipped: run.Summary.NotApplicable,
			Properties: []property{{"inertness", Inertness}, {"isolation", vis(h.Isolation)}, {"model", vis(run.Model)}}}
		if sub := substitution(h); sub != "" {
			s.Properties = append(s.Properties, property{"substitution", vis(sub)})
		}
		for _, r := range run.Results {
			tc := testcase{Name: vis(r.Case.ID), Classname: vis(r.Case.Desk.ID), Out: string(r.Verdict)}
			detail := fmt.Sprintf("authored: %s\nmodel: %s\nreal: %s\n", vis(compact(r.Authored)), vis(jsonText(r.Model)), vis(jsonText(r.Real)))
			switch r.Verdict {
			case DoesNotHold:
				tc.Failure = &failure{Message: string(r.Verdict), Text: detail}
			case Disagree:
				tc.Failure = &failure{Message: string(r.Verdict) + " on " + vis(strings.Join(r.Differ, ", ")), Text: detail + "one-case desk:\n" + reports.Visible(string(r.Repro))}
			case Errored:
				tc.Error = &failure{Message: string(r.Verdict), Text: reports.Visible(r.Reason)}
			case NotApplicable:
				tc.Skipped = &skipped{Message: vis(r.Reason)}
			}
			s.Cases = append(s.Cases, tc)
		}
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

var htmlReport = template.Must(template.New("real").Funcs(template.FuncMap{
	"host": func(h Hello) string { return vis(hostLine(h)) }, "json": func(v any) string { return vis(jsonText(v)) },
	"compact": func(s string) string { return vis(compact(s)) }, "sub": func(h Hello) string { return vis(substitution(h)) },
	"inert": func() string { return Inertness }, "vis": vis,
	"join": func(s []string, sep string) string { return vis(strings.Join(s, sep)) }, "str": func(b []byte) string { return reports.Visible(string(b)) },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>deskcheck: on the real host code</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3em;vertical-align:top}code,pre{font-size:.85em;white-space:pre-wrap}.holds{background:#e6f4e6}.fail{background:#fbe3e3}</style></head><body>
<h1>On the real host code</h1>
{{range .}}<section><h2>{{host .Hello}}</h2>
<ul><li>{{inert}}</li><li>isolation: {{vis .Hello.Isolation}}</li>{{with sub .Hello}}<li><strong>{{.}}</strong></li>{{end}}<li>model compared: {{vis .Model}}</li>
<li>{{.Summary.Cases}} cases: {{.Summary.Holds}} hold on the real code, {{.Summary.DoesNotHold}} do not hold, {{.Summary.Disagree}} model and real code disagree, {{.Summary.NotApplicable}} not applicable, {{.Summary.Errored}} could not run</li></ul>
<table><tr><th>case</th><th>verdict</th><th>authored</th><th>model</th><th>real</th></tr>
{{range .Results}}<tr class="{{if eq (print .Verdict) "holds on the real code"}}holds{{else}}fail{{end}}"><td><code>{{vis .Case.Desk.ID}}/{{vis .Case.ID}}</code></td><td>{{.Verdict}}{{with .Reason}}<br>{{vis .}}{{end}}{{with .Differ}}<br>differ on: {{join . ", "}}{{end}}</td><td><code>{{compact .Authored}}</code></td><td><code>{{if .Model}}{{json .Model}}{{end}}</code></td><td><code>{{if .Real}}{{json .Real}}{{end}}</code>{{with .Repro}}<details><summary>one-case desk</summary><pre>{{str .}}</pre></details>{{end}}</td></tr>
{{end}}</table></section>
{{end}}</body></html>
`))

func writeHTML(w io.Writer, runs []*Run) error { return htmlReport.Execute(w, runs) }
