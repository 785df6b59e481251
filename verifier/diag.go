package verifier

import (
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"

	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Severity of a diagnostic.
type Severity string

// Severities. A note is an error of a case outside the model that a run
// on the real code judges instead (Diagnostics.OutsideModel).
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Note    Severity = "note"
)

// Diagnostic is one problem found in a case file.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	File     string   `json:"file"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
	Pointer  string   `json:"pointer,omitempty"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail,omitempty"`
	// Name is a warning's stable name (choices-vs-prompts), by which a
	// desk or case acknowledges it.
	Name string `json:"name,omitempty"`
	// Acknowledged is the reason the desk or case gives for a warning it
	// acknowledges; "" when it is not acknowledged.
	Acknowledged string `json:"acknowledged,omitempty"`
	// Omitted is set on the line that counts the problems left out of a
	// file's list (that line sorts after the file's others), so that a
	// report read back counts them as the run did.
	Omitted *Omitted `json:"omitted,omitempty"`
	// outsideModel marks an error of a case outside the model
	// (scenario.Problem.OutsideModel).
	outsideModel bool

	// skip marks the line that says which later checks of a file were
	// skipped; it sorts after the file's located problems, before the
	// count of those left out.
	skip bool
	// at is set while the position is still to be found: the pointer
	// names a key (atKey) or a value of desk at's file.
	at    *Desk
	atKey bool
}

// Omitted counts the problems a file's list left out, by kind.
type Omitted struct {
	Errors       int `json:"errors"`
	Warnings     int `json:"warnings"`
	Acknowledged int `json:"acknowledged"`
}

// more is how many problems o counts; 0 for nil.
func (o *Omitted) more() int {
	if o == nil {
		return 0
	}
	return o.Errors + o.Warnings + o.Acknowledged
}

// moreDiagnostic says how many problems of file were left out: n, of
// which errs are errors and acked acknowledged warnings. It is an error
// when any of them is, a warning when any is an unacknowledged warning,
// and otherwise acknowledged, so that a count of acknowledged warnings
// never fails -fail-on-warn.
func moreDiagnostic(file string, n, errs, acked int) Diagnostic {
	sev := Error
	if errs == 0 {
		sev = Warning
	}
	d := Diagnostic{Severity: sev, File: file, Summary: fmt.Sprintf("… and %s more", Thousands(n)), Omitted: &Omitted{Errors: errs, Warnings: n - errs - acked, Acknowledged: acked}}
	if errs == 0 && acked == n {
		d.Acknowledged = "each of them is acknowledged"
	}
	return d
}

// LeftOut is, for the line that counts the problems left out of a file's
// list, how many of them are errors, warnings no desk acknowledges and
// acknowledged warnings; for any other diagnostic, zeros.
func (d Diagnostic) LeftOut() (errors, warnings, acknowledged int) {
	if d.Omitted == nil {
		return 0, 0, 0
	}
	return d.Omitted.Errors, d.Omitted.Warnings, d.Omitted.Acknowledged
}

// Thousands writes n with a comma between groups of three digits, as
// every message and page of deskcheck writes a count.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// String renders the diagnostic as file:line:col: severity: summary
// (pointer) [name], on one line; an acknowledged warning as
// file:line:col: acknowledged name: reason (pointer), without repeating
// what it warns about: control characters of a file name, a key in a
// pointer or a summary are written as escapes, so that no file can move
// the cursor, end the line or change the colours of a terminal.
func (d Diagnostic) String() string {
	loc := inert(d.File)
	if d.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", loc, d.Line, d.Col)
	}
	if d.Acknowledged != "" {
		s := fmt.Sprintf("%s: acknowledged %s: %s", loc, inert(d.Name), inert(d.Acknowledged))
		if d.Pointer != "" {
			s += " (" + inert(d.Pointer) + ")"
		}
		return s
	}
	s := fmt.Sprintf("%s: %s: %s", loc, d.Severity, inert(d.Summary))
	if d.Pointer != "" {
		s += " (" + inert(d.Pointer) + ")"
	}
	if d.Name != "" {
		s += " [" + inert(d.Name) + "]"
	}
	return s
}

// inert writes the C0 and C1 controls, DEL, the line and paragraph
// separators and the bidirectional controls of s as \u escapes, and a
// host's unpaired surrogate (a key of a case may hold one) as its escape.
func inert(s string) string {
	clean := !jsontext.HasSurrogate(s)
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if u, ok := jsontext.SurrogateAt(s, i); ok {
			fmt.Fprintf(&b, "\\u%04x", u)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if isControl(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 || 0x7f <= r && r <= 0x9f || r == 0x2028 || r == 0x2029 ||
		0x202a <= r && r <= 0x202e || 0x2066 <= r && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// Diagnostics is a list of diagnostics.
type Diagnostics []Diagnostic

// OutsideModel splits off the errors of cases outside the model, as
// notes, from the rest: a run on the real code judges those cases alone.
func (ds Diagnostics) OutsideModel() (rest, notes Diagnostics) {
	for _, d := range ds {
		if d.outsideModel && d.Severity == Error {
			d.Severity = Note
			notes = append(notes, d)
			continue
		}
		rest = append(rest, d)
	}
	return rest, notes
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Unacknowledged counts the warnings no desk or case acknowledges.
func (ds Diagnostics) Unacknowledged() int {
	n := 0
	for _, d := range ds {
		if d.Severity == Warning && d.Acknowledged == "" {
			n++
		}
	}
	return n
}

// Sort orders diagnostics by file, then position and summary; within a
// file, the checks-skipped line and then the count of problems left out
// come last.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if ra, rb := a.rank(), b.rank(); ra != rb {
			return ra < rb
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Summary < b.Summary
	})
}

// rank orders the lines of a file: its problems, the line that says
// which checks were skipped, the count of problems left out.
func (d *Diagnostic) rank() int {
	switch {
	case d.Omitted.more() > 0:
		return 2
	case d.skip:
		return 1
	}
	return 0
}

// capPerFile keeps at most limit diagnostics of each file, in order, and
// replaces the rest of a file's list by one line that counts them (an
// error when any of them is); the checks-skipped line is always kept.
// ds must be sorted; lines that already count
// left-out problems are kept and their counts added up.
func (ds Diagnostics) capPerFile(limit int) Diagnostics {
	var out Diagnostics
	for i := 0; i < len(ds); {
		j := i
		for j < len(ds) && ds[j].File == ds[i].File {
			j++
		}
		kept, more, errs, acked := 0, 0, 0, 0
		for _, d := range ds[i:j] {
			switch {
			case d.Omitted.more() > 0:
				more += d.Omitted.more()
				errs += d.Omitted.Errors
				acked += d.Omitted.Acknowledged
			case d.skip:
				out = append(out, d)
			case kept < limit:
				out = append(out, d)
				kept++
			default:
				more++
				if d.Severity == Error {
					errs++
				} else if d.Acknowledged != "" {
					acked++
				}
			}
		}
		if more > 0 {
			out = append(out, moreDiagnostic(ds[i].File, more, errs, acked))
		}
		i = j
	}
	return out
}
