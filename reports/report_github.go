package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// GitHub prints GitHub Actions workflow commands, so that a pull request
// that adds a failing case shows the failure on the case's line in
// review: an ::error per failed or errored case, with the desk file, the
// case's line and column when the report located it, a title naming the
// case, and the mismatches as the message; an ::error per missed fault of
// a strength run, on the first desk with a case of a scenario the fault
// belongs to (with no line: the fault is not at one); an ::error,
// ::warning or ::notice (acknowledged) per problem found in a case file.
// The closing line is the plain headline.
//
// GitHub shows at most 10 error and 10 warning annotations of a step (and
// 50 of a job) and drops the rest silently, so at most Errors errors and
// Warnings warnings are printed, errors first, chosen so that the first
// problem of every file comes before the second of any; then one ::notice
// says how many more there are and where they are. Values are escaped as
// workflow commands require (%, CR and LF; in properties also : and ,)
// after every other acting character has been made visible, so no case
// text can end a command or start another.
type GitHub struct {
	// Errors and Warnings are the most annotations of each kind; zero
	// means GitHubLimit, and more than GitHubLimit is refused by Check.
	Errors, Warnings int
	// Diagnostics are annotated with the cases: the problems found while
	// reading the case files; nil: those the report holds.
	Diagnostics verifier.Diagnostics
	// Registry, when set, tells each case's host, so that a missed fault
	// is reported on a file of its own host.
	Registry *scenario.Registry
	// Where says where the annotations left out can be read; empty: the
	// step summary and report.json in the report folder.
	Where string
	// StrengthOnly annotates the missed faults alone: the cases and the
	// problems of the case files are verify's to annotate, so that a job
	// running both shows each of them once.
	StrengthOnly bool
}

// GitHubLimit is the most annotations of each kind (error, warning,
// notice) GitHub shows of one step, as its documentation states.
const GitHubLimit = 10

// maxAnnotationBytes bounds the message of one annotation.
const maxAnnotationBytes = 4 << 10

// Check refuses limits GitHub would not honour.
func (g GitHub) Check() error {
	for _, n := range []int{g.Errors, g.Warnings} {
		if n < 0 || n > GitHubLimit {
			return fmt.Errorf("at most %d annotations of each kind can be asked for (GitHub shows no more of one step), not %d", GitHubLimit, n)
		}
	}
	return nil
}

func (g GitHub) limits() (errs, warns int) {
	errs, warns = g.Errors, g.Warnings
	if errs <= 0 || errs > GitHubLimit {
		errs = GitHubLimit
	}
	if warns <= 0 || warns > GitHubLimit {
		warns = GitHubLimit
	}
	return errs, warns
}

// annotation is one workflow command to be printed.
type annotation struct {
	level     string // error, warning or notice (an acknowledged warning)
	file      string
	line, col int
	title     string
	message   string
}

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

func (a annotation) print(p *printer) {
	props := [][2]string{{"file", a.file}}
	if a.line > 0 {
		props = append(props, [2]string{"line", strconv.Itoa(a.line)}, [2]string{"col", strconv.Itoa(max(a.col, 1))})
	}
	props = append(props, [2]string{"title", a.title})
	msg := a.message
	if len(msg) > maxAnnotationBytes {
		msg = clipUTF8(msg, maxAnnotationBytes) + "…"
	}
	ghCommand(p, a.level, props, msg)
}

// clipUTF8 cuts s to at most n bytes without splitting a character.
func clipUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}

// diagnosticAnnotation is a problem of a case file as an annotation.
func diagnosticAnnotation(d verifier.Diagnostic) annotation {
	level := "error"
	if d.Severity == verifier.Warning {
		level = "warning"
	}
	msg := d.Summary
	if d.Pointer != "" {
		msg += " (" + d.Pointer + ")"
	}
	if d.Detail != "" {
		msg += "\n" + d.Detail
	}
	title := "deskcheck " + string(d.Severity)
	if d.Acknowledged != "" {
		level, title = "notice", "deskcheck acknowledged"
		msg += "\nacknowledged: " + d.Acknowledged
	}
	if d.Name != "" {
		title += " " + d.Name
	}
	return annotation{level: level, file: d.File, line: d.Line, col: d.Col, title: title, message: msg}
}

// caseAnnotation is a failed or errored case as an annotation.
func caseAnnotation(c *Case, file string) annotation {
	c = c.whole()
	status := "FAIL"
	var msg []string
	if f := FailedOn(c); f != "" && len(c.Releases) > 1 {
		msg = append(msg, f)
	}
	if c.Status == verifier.Fail {
		for i, m := range c.Mismatches {
			if i == mdMismatches {
				msg = append(msg, verifier.Thousands(len(c.Mismatches)-i)+" more mismatched fields in report.json")
				break
			}
			msg = append(msg, mismatchText(m, "  "))
		}
	} else {
		status = "ERROR"
		msg = append(msg, "could not run: "+c.Error)
	}
	return annotation{level: "error", file: file, line: c.Line, col: c.Column, title: status + " " + c.Desk + "/" + c.ID + ": " + c.Title, message: strings.Join(msg, "\n")}
}

// annotations lists every annotation of r and ds: errors (problems of the
// files, then failed cases, then missed faults), warnings and notices (the
// acknowledged warnings), each kind spread over the files.
func (g GitHub) annotations(r *Report) (errs, warns, notes []annotation, left leftOut) {
	ds := g.Diagnostics
	if ds == nil && r != nil {
		ds = r.Diagnostics
	}
	if g.StrengthOnly {
		ds = nil
	}
	for _, d := range ds {
		if e, w, n := d.LeftOut(); e+w+n > 0 {
			// The problems a file's list left out have no line: they
			// are counted in the notice of what is not annotated.
			left.errs, left.warns, left.notes = left.errs+e, left.warns+w, left.notes+n
			left.files = append(left.files, d.File)
			continue
		}
		a := diagnosticAnnotation(d)
		switch a.level {
		case "error":
			errs = append(errs, a)
		case "notice":
			notes = append(notes, a)
		default:
			warns = append(warns, a)
		}
	}
	if r != nil {
		files := deskFiles(r)
		if !g.StrengthOnly {
			for _, c := range failures(r.Cases) {
				errs = append(errs, caseAnnotation(c, files[c.Desk]))
			}
		}
		if s := r.Strength; s != nil {
			// A missed fault has no line: it is named on the desk that
			// addresses it, or on none.
			at := faultFiles(r, g.Registry)
			for _, f := range s.Results {
				if !f.Caught && f.NotAddressed == "" {
					errs = append(errs, annotation{level: "error", file: at[f.Fault], title: "fault " + f.Fault + " missed",
						message: "no case fails when " + f.Bug + "\nto catch it: " + f.Hint})
				}
			}
		}
	}
	byFile := func(a annotation) string { return a.file }
	return spread(errs, byFile), spread(warns, byFile), spread(notes, byFile), left
}

// leftOut counts the problems of the files that their lists left out:
// errors, warnings and acknowledged warnings.
type leftOut struct {
	errs, warns, notes int
	files              []string
}

// Write renders r, and the diagnostics, as workflow commands.
func (g GitHub) Write(w io.Writer, r *Report) error {
	p := &printer{w: w}
	g.writeAnnotations(p, r)
	realCodeAnnotations(p, r.RealCode)
	p.printf("%s\n", Headline(r))
	return p.err
}

// WriteDiagnostics renders the diagnostics alone (no run), then line.
func (g GitHub) WriteDiagnostics(w io.Writer, line string) error {
	p := &printer{w: w}
	g.writeAnnotations(p, nil)
	if line != "" {
		p.printf("%s\n", line)
	}
	return p.err
}

func (g GitHub) writeAnnotations(p *printer, r *Report) {
	errs, warns, notes, left := g.annotations(r)
	g.printNotes(p, errs, warns, notes, left)
}

// print prints errs and warns within the limits, errors first, then the
// notice of those left out.
func (g GitHub) print(p *printer, errs, warns []annotation) {
	g.printNotes(p, errs, warns, nil, leftOut{})
}

// printNotes prints errs, warns and notes within the limits, errors first,
// then the notice of those left out. The notices of acknowledged warnings
// leave room in GitHub's notices of the step for that one.
func (g GitHub) printNotes(p *printer, errs, warns, notes []annotation, left leftOut) {
	maxErrs, maxWarns := g.limits()
	shownErrs, shownWarns, shownNotes := min(len(errs), maxErrs), min(len(warns), maxWarns), min(len(notes), GitHubLimit-1)
	for _, a := range errs[:shownErrs] {
		a.print(p)
	}
	for _, a := range warns[:shownWarns] {
		a.print(p)
	}
	for _, a := range notes[:shownNotes] {
		a.print(p)
	}
	moreErrs, moreWarns, moreNotes := len(errs)-shownErrs+left.errs, len(warns)-shownWarns+left.warns, len(notes)-shownNotes+left.notes
	if moreErrs == 0 && moreWarns == 0 && moreNotes == 0 {
		return
	}
	var parts []string
	if moreErrs > 0 {
		parts = append(parts, plural(moreErrs, "more error", "more errors"))
	}
	if moreWarns > 0 {
		parts = append(parts, plural(moreWarns, "more warning", "more warnings"))
	}
	if moreNotes > 0 {
		parts = append(parts, plural(moreNotes, "more acknowledged warning", "more acknowledged warnings"))
	}
	files := map[string]bool{}
	for _, a := range append(append(errs[shownErrs:], warns[shownWarns:]...), notes[shownNotes:]...) {
		files[a.file] = true
	}
	for _, f := range left.files {
		files[f] = true
	}
	where := g.Where
	if where == "" {
		where = "the step summary and report.json in the report folder"
	}
	if len(left.files) > 0 {
		where += ", which lists the first problems of each file and counts the rest (-max-diagnostics raises how many)"
	}
	ghCommand(p, "notice", [][2]string{{"title", "deskcheck: more than GitHub shows"}},
		fmt.Sprintf("%s in %s not annotated (GitHub shows %d of each kind per step); every one is in %s", strings.Join(parts, " and "), plural(len(files), "file", "files"), GitHubLimit, where))
}

// GitHubDiagnostics prints diagnostics as workflow commands (::error or
// ::warning at the file, line and column), within GitHub's limits, so
// that a pull request with a broken case file shows each problem on its
// line.
func GitHubDiagnostics(w io.Writer, ds verifier.Diagnostics) error {
	return GitHub{Diagnostics: ds, Where: "the output of deskcheck validate"}.WriteDiagnostics(w, "")
}
