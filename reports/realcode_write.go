package reports

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"strings"
)

// RealCodeFormats are the formats a real-code section is written in on
// its own, as deskcheck-host verify prints it.
var RealCodeFormats = []string{"text", "json", "markdown", "junit", "html"}

// WriteRealCode renders the section on its own in format: the output of
// deskcheck-host verify. verbose shows every case's three columns and
// the harness's adaptations in the text format.
func WriteRealCode(w io.Writer, format string, rc RealCode, verbose bool) error {
	switch format {
	case "text":
		p := &printer{w: w}
		writeRealCodeText(p, rc, verbose)
		return p.err
	case "json":
		return writeRealCodeJSON(w, rc)
	case "markdown":
		p := &printer{w: w}
		writeRealCodeMarkdown(p, rc, "##")
		return p.err
	case "junit":
		return writeRealCodeJUnit(w, rc)
	case "html":
		return realCodeHTML.ExecuteTemplate(w, "page", rc)
	}
	return fmt.Errorf("unknown format %q (one of %s)", format, strings.Join(RealCodeFormats, ", "))
}

func realMark(v RealVerdict) string {
	switch v {
	case RealHolds:
		return "PASS"
	case RealNotApplicable:
		return "N/A "
	default:
		return "FAIL"
	}
}

// writeRealCodeText prints each run: what ran, a line per case with its
// verdict, the columns of a case that fails, and the tally.
func writeRealCodeText(p *printer, rc RealCode, verbose bool) {
	for _, run := range rc {
		h := run.Host
		p.printf("== real host: %s\n", oneLine(hostLine(h)))
		p.printf("   %s\n", oneLine(run.Inertness))
		p.printf("   isolation: %s\n", oneLine(h.Isolation))
		if run.Substitution != "" {
			p.printf("   %s\n", oneLine(run.Substitution))
		}
		if run.Model != "" {
			p.printf("   model compared: %s\n", oneLine(run.Model))
		}
		if pv := realProvenance(run); pv != "" {
			p.printf("   provenance: %s\n", pv)
		}
		if verbose {
			p.printf("   root: %s\n", oneLine(h.Root))
			for _, a := range h.Adaptations {
				p.printf("   adaptation: %s\n", oneLine(a))
			}
		}
		for _, c := range run.Cases {
			p.printf("%s  %s/%s\n", realMark(c.Verdict), oneLine(c.Desk), oneLine(c.ID))
			p.printf("      %s\n", oneLine(string(c.Verdict)))
			if c.Reason != "" {
				p.printf("      %s\n", oneLine(c.Reason))
			}
			if len(c.Absent) > 0 {
				p.printf("      touched stand-ins for absent dependency code (substitution): %s\n", oneLine(strings.Join(c.Absent, ", ")))
			}
			if c.Verdict == RealDoesNotHold || c.Verdict == RealDisagree || verbose {
				p.printf("      authored: %s\n", oneLine(realAuthored(c.Authored)))
				if c.Model != nil {
					p.printf("      model:    %s\n", oneLine(realJSON(c.Model)))
				}
				if c.Real != nil {
					p.printf("      real:     %s\n", oneLine(realJSON(c.Real)))
				}
			}
			for _, m := range c.Mismatches {
				p.printf("      on the real code %s: expected %s, observed %s (%s)\n", oneLine(m.Field), oneLine(realJSON(m.Expected)), oneLine(realJSON(m.Observed)), oneLine(m.Comparison))
			}
			if c.Verdict == RealDisagree {
				p.printf("      model and real code differ on: %s\n", oneLine(strings.Join(c.Differ, ", ")))
				p.printf("      one-case desk to reproduce:\n")
				for _, line := range strings.Split(strings.TrimRight(reproText(c.Repro), "\n"), "\n") {
					p.printf("        %s\n", oneLine(line))
				}
			}
		}
		p.printf("%s: %s\n", oneLine(h.Source), run.Summary.tally())
	}
	writeRealDimText(p, rc)
}

// writeRealCodeJSON writes the section on its own: {"realHost": [...]}.
// Hosts are named there by their source alone.
func writeRealCodeJSON(w io.Writer, rc RealCode) error {
	runs := make(RealCode, len(rc))
	for i, run := range rc {
		run.Host.Name = ""
		runs[i] = run
	}
	b, err := marshal(struct {
		RealHost RealCode `json:"realHost"`
	}{runs}, "")
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// rcCell is a string in a Markdown table cell of the section, as code.
func rcCell(s string) string {
	s = oneLine(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// rcText is a string shown in Markdown prose: escaped as in a terminal,
// and the characters Markdown acts on written as its escapes.
func rcText(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Inside a report's Markdown, which a step summary bounds, each host lists
// at most realCodeRows cases and realCodeRepros one-case desks; the rest
// are counted. On its own the section lists them all.
const (
	realCodeRows   = 500
	realCodeRepros = 20
)

// writeRealCodeMarkdown writes the section under a heading of level
// (## on its own, ### inside a report), each host a level below.
func writeRealCodeMarkdown(p *printer, rc RealCode, level string) {
	inReport := level != "##"
	if level == "##" {
		p.printf("## On the real host code\n\n")
	} else {
		p.printf("%s Model against real code\n\n", level)
	}
	for _, run := range rc {
		h := run.Host
		p.printf("%s# %s\n\n", level, rcText(hostLine(h)))
		p.printf("- %s\n- isolation: %s\n", rcText(run.Inertness), rcText(h.Isolation))
		if run.Substitution != "" {
			p.printf("- **%s**\n", rcText(run.Substitution))
		}
		if inReport && run.Model != "" {
			p.printf("- model compared: %s\n", rcText(run.Model))
		}
		if pv := realProvenance(run); pv != "" {
			p.printf("- provenance: %s\n", rcCell(pv))
		}
		p.printf("- %s\n\n", run.Summary.tally())
		p.printf("| case | verdict | authored | model | real |\n|---|---|---|---|---|\n")
		for i, c := range run.Cases {
			if inReport && i == realCodeRows {
				p.printf("\n%d more cases are not listed here; `report.json` holds them all.\n", len(run.Cases)-i)
				break
			}
			v := rcText(string(c.Verdict))
			if c.Reason != "" {
				v += ": " + rcText(c.Reason)
			}
			model, real := "", ""
			if c.Model != nil {
				model = rcCell(realJSON(c.Model))
			}
			if c.Real != nil {
				real = rcCell(realJSON(c.Real))
			}
			p.printf("| %s | %s | %s | %s | %s |\n", rcCell(c.Desk+"/"+c.ID), v, rcCell(realAuthored(c.Authored)), model, real)
		}
		repros := 0
		for _, c := range run.Cases {
			if c.Verdict == RealDisagree && inReport && repros == realCodeRepros {
				p.printf("\n%s## More disagreements\n\nTheir one-case desks are in `report.json`.\n", level)
				break
			}
			if c.Verdict == RealDisagree {
				repros++
				p.printf("\n%s## %s/%s: model and real code disagree on %s\n\n```json\n%s```\n", level, rcText(c.Desk), rcText(c.ID), rcText(strings.Join(c.Differ, ", ")), Visible(reproText(c.Repro)))
			}
		}
		p.printf("\n")
	}
	writeRealDimMarkdown(p, rc, level)
}

// The JUnit shape of the section: one suite per real host, one test case
// per desk case; a case that does not hold or disagrees is a failure, one
// that could not run an error, one not applicable skipped.
type (
	rcFailure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	rcSkipped struct {
		Message string `xml:"message,attr"`
	}
	rcTestcase struct {
		Name      string     `xml:"name,attr"`
		Classname string     `xml:"classname,attr"`
		Failure   *rcFailure `xml:"failure,omitempty"`
		Error     *rcFailure `xml:"error,omitempty"`
		Skipped   *rcSkipped `xml:"skipped,omitempty"`
		Out       string     `xml:"system-out,omitempty"`
	}
	rcProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	rcSuite struct {
		XMLName    xml.Name     `xml:"testsuite"`
		Name       string       `xml:"name,attr"`
		Tests      int          `xml:"tests,attr"`
		Failures   int          `xml:"failures,attr"`
		Errors     int          `xml:"errors,attr"`
		Skipped    int          `xml:"skipped,attr"`
		Properties []rcProperty `xml:"properties>property"`
		Cases      []rcTestcase `xml:"testcase"`
	}
)

// realCodeSuites are the section's JUnit suites.
func realCodeSuites(rc RealCode) []rcSuite {
	var out []rcSuite
	for _, run := range rc {
		h := run.Host
		s := rcSuite{Name: "real host " + oneLine(hostLine(h)), Tests: run.Summary.Cases,
			Failures: run.Summary.DoesNotHold + run.Summary.Disagree, Errors: run.Summary.Errored, Skipped: run.Summary.NotApplicable,
			Properties: []rcProperty{{"inertness", oneLine(run.Inertness)}, {"isolation", oneLine(h.Isolation)}, {"model", oneLine(run.Model)}}}
		if run.Substitution != "" {
			s.Properties = append(s.Properties, rcProperty{"substitution", oneLine(run.Substitution)})
		}
		if pv := realProvenance(run); pv != "" {
			s.Properties = append(s.Properties, rcProperty{"provenance", pv})
		}
		s.Properties = append(s.Properties, realDimProperties(run.Dimensions)...)
		for _, c := range run.Cases {
			tc := rcTestcase{Name: oneLine(c.ID), Classname: oneLine(c.Desk), Out: oneLine(string(c.Verdict))}
			detail := fmt.Sprintf("authored: %s\nmodel: %s\nreal: %s\n", oneLine(realAuthored(c.Authored)), oneLine(realJSON(c.Model)), oneLine(realJSON(c.Real)))
			switch c.Verdict {
			case RealDoesNotHold:
				tc.Failure = &rcFailure{Message: string(c.Verdict), Text: detail}
			case RealDisagree:
				tc.Failure = &rcFailure{Message: string(c.Verdict) + " on " + oneLine(strings.Join(c.Differ, ", ")), Text: detail + "one-case desk:\n" + Visible(reproText(c.Repro))}
			case RealErrored:
				tc.Error = &rcFailure{Message: string(c.Verdict), Text: Visible(c.Reason)}
			case RealNotApplicable:
				tc.Skipped = &rcSkipped{Message: oneLine(c.Reason)}
			}
			s.Cases = append(s.Cases, tc)
		}
		out = append(out, s)
	}
	return out
}

func writeRealCodeJUnit(w io.Writer, rc RealCode) error {
	out := struct {
		XMLName xml.Name  `xml:"testsuites"`
		Suites  []rcSuite `xml:"testsuite"`
	}{Suites: realCodeSuites(rc)}
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

// realCodeHTML is the section as HTML: "page" on its own, "section"
// inside deskcheck's page.
var realCodeHTML = template.Must(template.New("real").Funcs(template.FuncMap{
	"host": func(h RealCodeHost) string { return oneLine(hostLine(h)) }, "json": func(raw json.RawMessage) string { return oneLine(realJSON(raw)) },
	"shown":   func(raw json.RawMessage) bool { return len(raw) > 0 && realJSON(raw) != "{}" },
	"compact": func(raw json.RawMessage) string { return oneLine(realAuthored(raw)) }, "vis": oneLine,
	"join": func(s []string, sep string) string { return oneLine(strings.Join(s, sep)) }, "repro": func(raw json.RawMessage) string { return Visible(reproText(raw)) },
	"dims": realDimTable, "provenance": realProvenance, "dimnote": func() string { return realDimNote }, "dimtitle": func() string { return realDimTitle },
}).Parse(`{{define "page"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>deskcheck: on the real host code</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3em;vertical-align:top}code,pre{font-size:.85em;white-space:pre-wrap}.holds{background:#e6f4e6}.fail{background:#fbe3e3}</style></head><body>
<h1>On the real host code</h1>
{{range .}}<section><h2>{{host .Host}}</h2>
{{template "run" .}}</section>
{{end}}{{template "dims" .}}</body></html>
{{end}}{{define "section"}}<section id="real-code">
<h2>Model against real code</h2>
{{range .}}<section class="real-host"><h3>{{host .Host}}</h3>
{{template "run" .}}</section>
{{end}}{{template "dims" .}}</section>
{{end}}{{define "dims"}}{{with dims .}}<section class="real-dimensions"><h3>{{dimtitle}}</h3>
<table>{{range $i, $r := .}}<tr>{{range $r}}{{if eq $i 0}}<th>{{.}}</th>{{else}}<td>{{.}}</td>{{end}}{{end}}</tr>
{{end}}</table><p>{{dimnote}}</p></section>
{{end}}{{end}}{{define "run"}}<ul><li>{{vis .Inertness}}</li><li>isolation: {{vis .Host.Isolation}}</li>{{with .Substitution}}<li><strong>{{vis .}}</strong></li>{{end}}<li>model compared: {{vis .Model}}</li>{{with provenance .}}<li>provenance: <code>{{.}}</code></li>{{end}}
<li>{{.Summary.Cases}} cases: {{.Summary.Holds}} hold on the real code, {{.Summary.DoesNotHold}} do not hold, {{.Summary.Disagree}} model and real code disagree, {{.Summary.NotApplicable}} not applicable, {{.Summary.Errored}} could not run</li></ul>
<table><tr><th>case</th><th>verdict</th><th>authored</th><th>model</th><th>real</th></tr>
{{range .Cases}}<tr class="{{if eq (print .Verdict) "holds on the real code"}}holds{{else}}fail{{end}}"><td><code>{{vis .Desk}}/{{vis .ID}}</code></td><td>{{vis (print .Verdict)}}{{with .Reason}}<br>{{vis .}}{{end}}{{with .Differ}}<br>differ on: {{join . ", "}}{{end}}</td><td><code>{{compact .Authored}}</code></td><td><code>{{if shown .Model}}{{json .Model}}{{end}}</code></td><td><code>{{if shown .Real}}{{json .Real}}{{end}}</code>{{with .Repro}}<details><summary>one-case desk</summary><pre>{{repro .}}</pre></details>{{end}}</td></tr>
{{end}}</table>{{end}}`))
