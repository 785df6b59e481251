package realhost

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/reports"
)

// A run is rendered by deskcheck's reports as a "model against real code"
// section (reports.RealCode): on its own, as deskcheck-host verify prints
// it, or inside a report.json beside the model's results. Every string a
// report shows may come from a desk or from the code that ran (a
// checkout's package name, an error it threw): reports escapes each, and
// writes an unpaired surrogate a host's string holds as its escape.

// Formats are the report formats of a real-host run.
var Formats = reports.RealCodeFormats

// Write renders runs (one per host) in format.
func Write(w io.Writer, format string, runs []*Run, verbose bool) error {
	return reports.WriteRealCode(w, format, Section(runs), verbose)
}

// Section is runs as a report's real-code section.
func Section(runs []*Run) reports.RealCode {
	rc := reports.RealCode{}
	for _, run := range runs {
		rc = append(rc, run.section())
	}
	return rc
}

func (run *Run) section() reports.RealCodeRun {
	h := run.Hello
	out := reports.RealCodeRun{
		Host:      h,
		Inertness: Inertness, Substitution: substitution(h), Model: run.Model,
		Summary: run.Summary, Cases: []reports.RealCodeCase{},
		Dimensions: run.Dimensions, Provenance: run.Provenance,
	}
	// The section names every run's host, so that diff pairs runs.
	out.Host.Name = run.Host
	for _, r := range run.Results {
		c := reports.RealCodeCase{Verdict: r.Verdict, Reason: r.Reason, Authored: json.RawMessage(r.Authored),
			Model: rawJSON(r.Model, r.Model == nil), Real: rawJSON(r.Real, r.Real == nil), Differ: r.Differ,
			Releases: []string{h.Source}, Absent: r.AbsentTouched}
		if r.Case != nil {
			c.Desk, c.ID, c.Scenario = r.Case.Desk.ID, r.Case.ID, r.Case.Scenario
		}
		if r.Repro != nil {
			c.Repro = json.RawMessage(r.Repro)
		}
		for _, m := range r.RealMismatches {
			c.Mismatches = append(c.Mismatches, reports.RealMismatch{Field: m.Field, Comparison: m.Comparison,
				Expected: rawJSON(m.Expected, false), Observed: rawJSON(m.Observed, false)})
		}
		out.Cases = append(out.Cases, c)
	}
	return out
}

// substitution says how the code that ran is not the release as
// published: run on substituted dependencies, or with files changed since
// install.
func substitution(h Hello) string {
	changed := ""
	if len(h.Changed) > 0 {
		changed = fmt.Sprintf("CHANGED: %d files of the installed release differ from those recorded at install, and it was run as it is (-allow-changed-release): %s", len(h.Changed), realcode.Summarize(h.Changed))
	}
	if len(h.Substituted) == 0 {
		return changed
	}
	if changed != "" {
		changed = "; " + changed
	}
	names := make([]string, 0, len(h.Substituted))
	for n := range h.Substituted {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, n+"@"+h.Substituted[n])
	}
	return "SUBSTITUTED: run on the nearest published dependencies, not the release's own: " + strings.Join(parts, ", ") + changed
}

// rawJSON is v as JSON, an unpaired surrogate as its escape; nil for nil.
func rawJSON[V any](v V, isNil bool) json.RawMessage {
	if isNil {
		return nil
	}
	return jsonx.Append(nil, v)
}
