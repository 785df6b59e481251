package realhost

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/reports"
)

// Every string of a report may come from a desk or from the code that ran
// (a checkout's package name, an error it threw): each is written through
// deskcheck's own escaping (reports.OneLine), so that no control
// character, bidirectional override or byte that is not UTF-8 acts on the
// reader's terminal or page, and an unpaired surrogate a host's string
// holds is written as its escape (\ud800), in every format.
var vis = reports.OneLine

// Formats are the report formats of a real-host run.
var Formats = []string{"text", "json", "markdown", "junit", "html"}

// Write renders runs (one per host) in format.
func Write(w io.Writer, format string, runs []*Run, verbose bool) error {
	switch format {
	case "text":
		return writeText(w, runs, verbose)
	case "json":
		return writeJSON(w, runs)
	case "markdown":
		return writeMarkdown(w, runs)
	case "junit":
		return writeJUnit(w, runs)
	case "html":
		return writeHTML(w, runs)
	}
	return fmt.Errorf("unknown format %q (one of %s)", format, strings.Join(Formats, ", "))
}

// substitution says how the code that ran is not the release as
// published: run on substituted dependencies, or with files changed since
// install.
func substitution(h Hello) string {
	changed := ""
	if len(h.Changed) > 0 {
		changed = fmt.Sprintf("CHANGED: %d files of the installed release differ from those recorded at install, and it was run as it is (-allow-changed-release): %s", len(h.Changed), summarize(h.Changed))
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

func hostLine(h Hello) string {
	runtime := "bun " + h.Bun
	if h.Runtime != "" {
		runtime = h.Runtime
	}
	s := fmt.Sprintf("%s (%s %s) on %s", h.Source, h.Package, h.Release, runtime)
	if h.Commit != "" {
		s += ", commit " + h.Commit
	}
	return s
}

// jsonText writes v as compact JSON, an unpaired surrogate as its escape.
func jsonText(v any) string { return string(jsonx.Append(nil, v)) }

func writeText(w io.Writer, runs []*Run, verbose bool) error {
	for _, run := range runs {
		h := run.Hello
		fmt.Fprintf(w, "== real host: %s\n", vis(hostLine(h)))
		fmt.Fprintf(w, "   %s\n", Inertness)
		fmt.Fprintf(w, "   isolation: %s\n", vis(h.Isolation))
		if s := substitution(h); s != "" {
			fmt.Fprintf(w, "   %s\n", vis(s))
		}
		if run.Model != "" {
			fmt.Fprintf(w, "   model compared: %s\n", vis(run.Model))
		}
		if verbose {
			fmt.Fprintf(w, "   root: %s\n", vis(h.Root))
			for _, a := range h.Adaptations {
				fmt.Fprintf(w, "   adaptation: %s\n", vis(a))
			}
		}
		for _, r := range run.Results {
			fmt.Fprintf(w, "%s  %s/%s\n", mark(r.Verdict), vis(r.Case.Desk.ID), vis(r.Case.ID))
			fmt.Fprintf(w, "      %s\n", r.Verdict)
			if r.Reason != "" {
				fmt.Fprintf(w, "      %s\n", vis(r.Reason))
			}
			if len(r.AbsentTouched) > 0 {
				fmt.Fprintf(w, "      touched stand-ins for absent dependency code (substitution): %s\n", vis(strings.Join(r.AbsentTouched, ", ")))
			}
			if r.Verdict == DoesNotHold || r.Verdict == Disagree || verbose {
				fmt.Fprintf(w, "      authored: %s\n", vis(compact(r.Authored)))
				if r.Model != nil {
					fmt.Fprintf(w, "      model:    %s\n", vis(jsonText(r.Model)))
				}
				if r.Real != nil {
					fmt.Fprintf(w, "      real:     %s\n", vis(jsonText(r.Real)))
				}
			}
			for _, m := range r.RealMismatches {
				fmt.Fprintf(w, "      on the real code %s: expected %s, observed %s (%s)\n", vis(m.Field), vis(jsonText(m.Expected)), vis(jsonText(m.Observed)), vis(m.Comparison))
			}
			if r.Verdict == Disagree {
				fmt.Fprintf(w, "      model and real code differ on: %s\n", vis(strings.Join(r.Differ, ", ")))
				fmt.Fprintf(w, "      one-case desk to reproduce:\n")
				for _, line := range strings.Split(strings.TrimRight(string(r.Repro), "\n"), "\n") {
					fmt.Fprintf(w, "        %s\n", vis(line))
				}
			}
		}
		s := run.Summary
		fmt.Fprintf(w, "%s: %d cases: %d hold on the real code, %d do not hold, %d model and real code disagree, %d not applicable, %d could not run\n",
			vis(h.Source), s.Cases, s.Holds, s.DoesNotHold, s.Disagree, s.NotApplicable, s.Errored)
	}
	return nil
}

func mark(v Verdict) string {
	switch v {
	case Holds:
		return "PASS"
	case NotApplicable:
		return "N/A "
	default:
		return "FAIL"
	}
}

// compact is the block as written without its layout white space: its
// escapes stay as written.
func compact(raw string) string {
	if strings.TrimSpace(raw) == "" {
		return "{}"
	}
	if !json.Valid([]byte(raw)) {
		return raw
	}
	return string(jsonx.Compact(nil, raw))
}

// text is a string of a host or a desk in report.json: an unpaired
// surrogate is written as its escape, not as U+FFFD.
type text string

// MarshalJSON writes t as a JSON string.
func (t text) MarshalJSON() ([]byte, error) { return jsonx.AppendString(nil, string(t)), nil }

// rawJSON is v as JSON, an unpaired surrogate as its escape; nil for nil.
func rawJSON[V any](v V, isNil bool) json.RawMessage {
	if isNil {
		return nil
	}
	return jsonx.Append(nil, v)
}

type jsonCase struct {
	Desk       text            `json:"desk"`
	ID         text            `json:"id"`
	Scenario   string          `json:"scenario"`
	Verdict    Verdict         `json:"verdict"`
	Reason     text            `json:"reason,omitempty"`
	Authored   json.RawMessage `json:"authored"`
	Model      json.RawMessage `json:"model,omitempty"`
	Real       json.RawMessage `json:"real,omitempty"`
	Mismatches []jsonMismatch  `json:"realMismatches,omitempty"`
	Differ     []text          `json:"differ,omitempty"`
	Repro      json.RawMessage `json:"repro,omitempty"`
	Releases   []string        `json:"releases"`
	Absent     []string        `json:"absentTouched,omitempty"`
}

type jsonMismatch struct {
	Field      text            `json:"field"`
	Comparison string          `json:"comparison"`
	Expected   json.RawMessage `json:"expected"`
	Observed   json.RawMessage `json:"observed"`
}

type jsonRun struct {
	Host      Hello  `json:"host"`
	Inertness string `json:"inertness"`
	// Substitution says the release ran on substituted dependencies.
	Substitution string     `json:"substitution,omitempty"`
	Model        string     `json:"model,omitempty"`
	Summary      Summary    `json:"summary"`
	Cases        []jsonCase `json:"cases"`
}

func writeJSON(w io.Writer, runs []*Run) error {
	out := struct {
		RealHost []jsonRun `json:"realHost"`
	}{RealHost: []jsonRun{}}
	for _, run := range runs {
		jr := jsonRun{Host: run.Hello, Inertness: Inertness, Substitution: substitution(run.Hello), Model: run.Model, Summary: run.Summary, Cases: []jsonCase{}}
		for _, r := range run.Results {
			authored := json.RawMessage(r.Authored)
			if !json.Valid(authored) {
				authored = json.RawMessage("{}")
			}
			jc := jsonCase{Desk: text(r.Case.Desk.ID), ID: text(r.Case.ID), Scenario: r.Case.Scenario, Verdict: r.Verdict, Reason: text(r.Reason),
				Authored: authored, Model: rawJSON(r.Model, r.Model == nil), Real: rawJSON(r.Real, r.Real == nil),
				Releases: []string{run.Hello.Source}, Absent: r.AbsentTouched}
			for _, d := range r.Differ {
				jc.Differ = append(jc.Differ, text(d))
			}
			if r.Repro != nil {
				jc.Repro = json.RawMessage(r.Repro)
			}
			for _, m := range r.RealMismatches {
				jc.Mismatches = append(jc.Mismatches, jsonMismatch{text(m.Field), m.Comparison, rawJSON(m.Expected, false), rawJSON(m.Observed, false)})
			}
			jr.Cases = append(jr.Cases, jc)
		}
		out.RealHost = append(out.RealHost, jr)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	// JSON allows a C1 control or U+202E raw in a string; written as its
	// escape it is the same value and shows as itself.
	_, err := io.WriteString(w, reports.Visible(b.String()))
	return err
}

func mdCell(s string) string {
	s = vis(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

func writeMarkdown(w io.Writer, runs []*Run) error {
	fmt.Fprintf(w, "## On the real host code\n\n")
	for _, run := range runs {
		h := run.Hello
		fmt.Fprintf(w, "### %s\n\n", mdText(hostLine(h)))
		fmt.Fprintf(w, "- %s\n- isolation: %s\n", Inertness, mdText(h.Isolation))
		if s := substitution(h); s != "" {
			fmt.Fprintf(w, "- **%s**\n", mdText(s))
		}
		s := run.Summary
		fmt.Fprintf(w, "- %d cases: %d hold on the real code, %d do not hold, %d model and real code disagree, %d not applicable, %d could not run\n\n",
			s.Cases, s.Holds, s.DoesNotHold, s.Disagree, s.NotApplicable, s.Errored)
		fmt.Fprintf(w, "| case | verdict | authored | model | real |\n|---|---|---|---|---|\n")
		for _, r := range run.Results {
			v := string(r.Verdict)
			if r.Reason != "" {
				v += ": " + mdText(r.Reason)
			}
			model, real := "", ""
			if r.Model != nil {
				model = mdCell(jsonText(r.Model))
			}
			if r.Real != nil {
				real = mdCell(jsonText(r.Real))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdCell(r.Case.Desk.ID+"/"+r.Case.ID), v, mdCell(compact(r.Authored)), model, real)
		}
		for _, r := range run.Results {
			if r.Verdict == Disagree {
				fmt.Fprintf(w, "\n#### %s/%s: model and real code disagree on %s\n\n```json\n%s```\n", mdText(r.Case.Desk.ID), mdText(r.Case.ID), mdText(strings.Join(r.Differ, ", ")), reports.Visible(string(r.Repro)))
			}
		}
		fmt.Fprintln(w)
	}
	return nil
}

// mdText is a string shown in Markdown prose: escaped as in a terminal, and
// the characters Markdown acts on written as its escapes.
func mdText(s string) string {
	s = vis(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
