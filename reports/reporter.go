package reports

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// Reporter renders a report in one format.
type Reporter interface {
	// Write renders r to w.
	Write(w io.Writer, r *Report) error
}

// Format names a reporter and the file it writes into a report folder.
type Format struct {
	Name     string
	File     string // file name in the report folder; empty: stdout only
	Reporter Reporter
}

// Formats returns every format. Text options apply to the text format.
func Formats(text Text) []Format {
	return []Format{
		{Name: "text", Reporter: text},
		{Name: "json", File: "report.json", Reporter: JSON{}},
		{Name: "html", File: "report.html", Reporter: HTML{}},
		{Name: "markdown", File: "report.md", Reporter: Markdown{}},
		{Name: "junit", File: "report.junit.xml", Reporter: JUnit{}},
		{Name: "github", Reporter: GitHub{}},
		{Name: "sarif", Reporter: SARIF{}},
	}
}

// Lookup returns the format called name.
func Lookup(name string, text Text) (Format, error) {
	var names []string
	for _, f := range Formats(text) {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return Format{}, fmt.Errorf("unknown format %q (known: %v)", name, names)
}

// printer writes formatted text and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// print writes parts as they are, without a copy of them made first (a
// mismatch of a long value is megabytes long).
func (p *printer) print(parts ...string) {
	for _, s := range parts {
		if p.err == nil {
			_, p.err = io.WriteString(p.w, s)
		}
	}
}

// trace prints events one per line after indent, each numbered by its
// unit; the continuation lines of a multi-line event stay indented under
// it, so that no event text starts a line of its own.
func (p *printer) trace(events []scenario.Event, unit, indent string) {
	for _, e := range events {
		prefix := indent + seqLabel(unit, e)
		p.printf("%s%s\n", prefix, strings.ReplaceAll(visible(e.Text, true), "\n", "\n"+strings.Repeat(" ", len(prefix)+2)))
	}
}

// seqLabel is "[call 2] " for an event of call 2, and "" for an event
// outside any call: no format numbers an event "[call 0]".
func seqLabel(unit string, e scenario.Event) string {
	if e.Seq <= 0 {
		return ""
	}
	if unit == "" {
		unit = "call"
	}
	return "[" + oneLine(unit) + " " + strconv.Itoa(e.Seq) + "] "
}

// mismatchText says what differs, in one line, with the structural
// changes after it on lines of their own, each after indent.
func mismatchText(m verifier.Mismatch, indent string) string {
	// Joined, not formatted: one copy of a long value's text.
	s := oneLine(m.Field) + " (" + oneLine(string(m.Comparison)) + "): expected " + show(m.Expected) + ", observed " + show(m.Observed)
	for _, c := range m.Changes {
		s += "\n" + indent + changeText(c)
	}
	return s
}

// changeText says one structural difference in words.
func changeText(c scenario.Change) string {
	at := oneLine(c.Path)
	if at == "" {
		at = "(value)"
	}
	switch c.Kind {
	case "missing":
		return at + ": expected " + show(c.Expected) + ", not observed"
	case "extra":
		return at + ": observed " + show(c.Observed) + ", not expected"
	}
	return at + ": expected " + show(c.Expected) + ", observed " + show(c.Observed)
}
