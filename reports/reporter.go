package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/recorders"
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

// trace prints events one per line after indent, each numbered by its
// call; the continuation lines of a multi-line event stay indented under it.
func (p *printer) trace(events []recorders.Event, indent string) {
	for _, e := range events {
		prefix := indent
		if e.Call > 0 {
			prefix = fmt.Sprintf("%s[call %d] ", indent, e.Call)
		}
		p.printf("%s%s\n", prefix, strings.ReplaceAll(e.Text, "\n", "\n"+strings.Repeat(" ", len(prefix)+2)))
	}
}
