package reports

import (
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/verifier"
)

// The boundary-response table of a real-code section: for each run whose
// harness counts the dimensions, a row for the model of its release and
// a row for the real code, every dimension with its own denominator.

// realDimHeads are the table's headings after the first.
var realDimHeads = []string{"denials", "allowed", "fail closed", "complete", "amplification", "extra effects"}

// realDimTable returns the table's heading and rows; nil when no run
// counts the dimensions.
func realDimTable(rc RealCode) [][]string {
	var rows [][]string
	basis, mixed := "", false
	for _, run := range rc {
		d := run.Dimensions
		if d == nil {
			continue
		}
		for _, x := range []verifier.Dimensions{d.Model, d.Real} {
			b := x.RetryAmplification.Basis
			switch {
			case !x.RetryAmplification.Applicable:
			case basis == "" && !mixed:
				basis = b
			case b != basis:
				mixed = true
			}
		}
		rows = append(rows,
			append([]string{"model of " + oneLine(d.Column) + " (Go)"}, realDimCells(d.Model)...),
			append([]string{oneLine(d.Column)}, realDimCells(d.Real)...))
	}
	if rows == nil {
		return nil
	}
	head := append([]string{"release"}, realDimHeads...)
	if basis != "" && !mixed {
		head[5] += " (" + basis + ")"
	}
	return append([][]string{head}, rows...)
}

// realDimCells are one row's cells: n/d, n/a for a zero denominator.
func realDimCells(d verifier.Dimensions) []string {
	ratio := func(x verifier.Dimension) string {
		if !x.Applicable {
			return "n/a"
		}
		return strconv.Itoa(x.Numerator) + "/" + strconv.Itoa(x.Denominator)
	}
	amp := "n/a"
	if a := d.RetryAmplification; a.Applicable {
		amp = a.Ratio + " (" + ratio(a.Dimension) + ")"
	}
	return []string{ratio(d.DenialPropagation), ratio(d.AllowedWork), ratio(d.FailClosed), ratio(d.TraceCompleteness), amp, strconv.Itoa(d.ExtraEffects)}
}

// realDimNote is the line under the table.
const realDimNote = "Separate dimensions, not a combined score; reported, not judged; n/a = zero denominator."

// realDimTitle heads the table.
const realDimTitle = "Boundary response on the real code, by release"

// writeRealDimText prints the table in columns.
func writeRealDimText(p *printer, rc RealCode) {
	rows := realDimTable(rc)
	if rows == nil {
		return
	}
	p.printf("%s\n", realDimTitle)
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c + strings.Repeat(" ", widths[i]-len([]rune(c))+2))
		}
		p.printf("%s\n", b.String())
	}
	p.printf("%s\n", realDimNote)
}

// writeRealDimMarkdown writes the table under a heading of level.
func writeRealDimMarkdown(p *printer, rc RealCode, level string) {
	rows := realDimTable(rc)
	if rows == nil {
		return
	}
	p.printf("%s# %s\n\n", level, realDimTitle)
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = rcText(c)
		}
		p.printf("| %s |\n", strings.Join(cells, " | "))
		if i == 0 {
			p.printf("|---%s|\n", strings.Repeat("|---", len(r)-1))
		}
	}
	p.printf("\n%s\n\n", realDimNote)
}

// realDimProperties are a run's JUnit properties of the dimensions: its
// row heading as boundary.column, the real code's as boundary.NAME, the
// model's as model.boundary.NAME.
func realDimProperties(d *RealCodeDimensions) []rcProperty {
	if d == nil {
		return nil
	}
	names := []string{"denialPropagation", "allowedWork", "failClosed", "traceCompleteness", "retryAmplification", "extraEffects"}
	out := []rcProperty{{"boundary.column", oneLine(d.Column)}}
	for _, side := range []struct {
		prefix string
		d      verifier.Dimensions
	}{{"boundary.", d.Real}, {"model.boundary.", d.Model}} {
		for i, c := range realDimCells(side.d) {
			out = append(out, rcProperty{side.prefix + names[i], c})
		}
	}
	return out
}

// realProvenance is a run's provenance as one line of compact JSON; ""
// for none.
func realProvenance(run RealCodeRun) string {
	if len(run.Provenance) == 0 {
		return ""
	}
	return oneLine(string(jsonx.Compact(nil, run.Provenance)))
}
