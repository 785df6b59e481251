package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
)

// The section inside each format of a report: after the model's results,
// under "Model against real code". A report without the section is
// written as before, byte for byte.

// realCodeCasesAnnotated bounds the failing cases one GitHub annotation
// of a real host names; the rest are counted.
const realCodeCasesAnnotated = 20

// writeRealCodeSection prints the section in the text format.
func writeRealCodeSection(p *printer, rc RealCode, verbose bool) {
	if len(rc) == 0 {
		return
	}
	p.printf("\nModel against real code\n")
	writeRealCodeText(p, rc, verbose)
	p.printf("\n")
}

// writeRealCodeMarkdownSection prints the section in the Markdown format.
func writeRealCodeMarkdownSection(p *printer, rc RealCode) {
	if len(rc) > 0 {
		writeRealCodeMarkdown(p, rc, "###")
	}
}

// realCodeHTMLSection is the section of the HTML page; "" without one.
func realCodeHTMLSection(rc RealCode) (template.HTML, error) {
	if len(rc) == 0 {
		return "", nil
	}
	var b bytes.Buffer
	if err := realCodeHTML.ExecuteTemplate(&b, "section", rc); err != nil {
		return "", err
	}
	// The page's template escaped every string it was given; the
	// section is its own template's output.
	return template.HTML(b.String()), nil
}

// realCodeAnnotations are the GitHub annotations of the section: one per
// real host, an error when a case does not hold, disagrees or could not
// run there, else a notice with the tally.
func realCodeAnnotations(p *printer, rc RealCode) {
	for _, run := range rc {
		level := "notice"
		var failing []string
		for _, c := range run.Cases {
			if c.Verdict.failing() {
				level = "error"
				if len(failing) < realCodeCasesAnnotated {
					failing = append(failing, c.Desk+"/"+c.ID+": "+string(c.Verdict))
				}
			}
		}
		msg := run.Summary.tally()
		if n := run.Summary.DoesNotHold + run.Summary.Disagree + run.Summary.Errored; n > 0 {
			msg += "\n" + strings.Join(failing, "\n")
			if n > len(failing) {
				msg += fmt.Sprintf("\n… and %d more in report.json", n-len(failing))
			}
		}
		ghCommand(p, level, [][2]string{{"title", "model against real code: " + run.Host.Source}}, clipUTF8(msg, maxAnnotationBytes))
	}
}

// realCodeItems are the SARIF results of the section: one per case that
// does not hold, disagrees or could not run on a real host, placed on the
// case's desk file (and line, when the report located it).
func realCodeItems(r *Report) []sarifItem {
	files := deskFiles(r)
	where := map[string][2]int{}
	for _, c := range r.Cases {
		where[c.Desk+"/"+c.ID] = [2]int{c.Line, c.Column}
	}
	var out []sarifItem
	for _, run := range r.RealCode {
		for _, c := range run.Cases {
			if !c.Verdict.failing() {
				continue
			}
			token := ruleToken(string(c.Verdict))
			rule := sarifRule{ID: "real-code/" + token, Name: token,
				ShortDescription:     sarifText{"A case " + string(c.Verdict) + " (deskcheck-host verify)."},
				DefaultConfiguration: sarifRuleConfig{"error"}}
			id := c.Desk + "/" + c.ID
			msg := id + " on " + run.Host.Source + ": " + string(c.Verdict)
			if len(c.Differ) > 0 {
				msg += " on " + strings.Join(c.Differ, ", ")
			}
			for _, m := range c.Mismatches {
				msg += "\n" + m.Field + " (" + m.Comparison + "): expected " + realJSON(m.Expected) + ", observed " + realJSON(m.Observed)
			}
			if c.Reason != "" {
				msg += "\n" + c.Reason
			}
			file, at := files[c.Desk], where[id]
			out = append(out, sarifItem{rule: rule, file: file, result: sarifResult{
				Level: "error", Message: sarifMessage(msg), Locations: sarifLocations(file, at[0], at[1]),
				PartialFingerprints: map[string]string{FingerprintKey: fingerprint("real-code", hostName(run.Host), id, rule.ID)},
				Properties:          map[string]string{"realHost": oneLine(run.Host.Source)},
			}})
		}
	}
	return out
}
