package reports

import (
	"io"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// GitHub prints GitHub Actions workflow commands, so that a pull request
// that adds a failing case shows the failure on the case's line in
// review: one ::error per failed or errored case, with the desk file, the
// case's line and column when the report located it, a title naming the
// case, and the mismatches as the message. Missed faults of a strength
// run are errors without a file. The closing line is the plain summary.
//
// GitHub shows at most 10 error annotations of a step and 50 of a job, so
// at most GitHubAnnotations cases are annotated, then a warning counts the
// rest. Values are escaped as workflow commands require (%, CR and LF;
// in properties also : and ,) after every other acting character has been
// made visible, so no case text can end a command or start another.
type GitHub struct{}

// GitHubAnnotations is the most cases annotated.
const GitHubAnnotations = 50

// ghData escapes the message of a workflow command.
var ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// ghProperty escapes a property value of a workflow command.
var ghProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

// ghCommand writes one workflow command: ::name k=v,k=v::message.
func ghCommand(p *printer, name string, props [][2]string, message string) {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(name)
	sep := " "
	for _, kv := range props {
		if kv[1] == "" {
			continue
		}
		b.WriteString(sep)
		b.WriteString(kv[0])
		b.WriteByte('=')
		b.WriteString(ghProperty.Replace(oneLine(kv[1])))
		sep = ","
	}
	b.WriteString("::")
	b.WriteString(ghData.Replace(visible(message, true)))
	p.printf("%s\n", b.String())
}

// Write renders r as workflow commands.
func (GitHub) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	files := deskFiles(r)
	shown, rest := 0, 0
	for _, c := range r.Cases {
		if !failed(&c) {
			continue
		}
		if shown == GitHubAnnotations {
			rest++
			continue
		}
		shown++
		status := "FAIL"
		var msg []string
		if f := FailedOn(&c); f != "" && len(c.Releases) > 1 {
			msg = append(msg, f)
		}
		if c.Status == verifier.Fail {
			for _, m := range c.Mismatches {
				msg = append(msg, mismatchText(m, "  "))
			}
		} else {
			status = "ERROR"
			msg = append(msg, "could not run: "+c.Error)
		}
		props := [][2]string{{"file", files[c.Desk]}}
		if c.Line > 0 {
			props = append(props, [2]string{"line", strconv.Itoa(c.Line)}, [2]string{"col", strconv.Itoa(max(c.Column, 1))})
		}
		props = append(props, [2]string{"title", status + " " + c.Desk + "/" + c.ID + ": " + c.Title})
		ghCommand(p, "error", props, strings.Join(msg, "\n"))
	}
	if rest > 0 {
		ghCommand(p, "warning", [][2]string{{"title", "deskcheck"}}, plural(rest, "more failed or errored case is", "more failed or errored cases are")+" not annotated; report.json in the report folder holds every case")
	}
	if s := r.Strength; s != nil {
		for _, f := range s.Results {
			if !f.Caught {
				ghCommand(p, "error", [][2]string{{"title", "fault " + f.Fault + " missed"}}, "no case fails when "+f.Bug+"\nto catch it: "+f.Hint)
			}
		}
	}
	p.printf("%s\n", Headline(r))
	return p.err
}

// GitHubDiagnostics prints diagnostics as workflow commands (::error or
// ::warning at the file, line and column), so that a pull request with a
// broken case file shows each problem on its line.
func GitHubDiagnostics(w io.Writer, ds verifier.Diagnostics) error {
	p := &printer{w: w}
	for _, d := range ds {
		name := "error"
		if d.Severity == verifier.Warning {
			name = "warning"
		}
		props := [][2]string{{"file", d.File}}
		if d.Line > 0 {
			props = append(props, [2]string{"line", strconv.Itoa(d.Line)}, [2]string{"col", strconv.Itoa(max(d.Col, 1))})
		}
		props = append(props, [2]string{"title", "deskcheck " + string(d.Severity)})
		msg := d.Summary
		if d.Pointer != "" {
			msg += " (" + d.Pointer + ")"
		}
		if d.Detail != "" {
			msg += "\n" + d.Detail
		}
		ghCommand(p, name, props, msg)
	}
	return p.err
}
