package realhost

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

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

func substitution(h Hello) string {
	if len(h.Substituted) == 0 {
		return ""
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
	return "SUBSTITUTED: run on the nearest published dependencies, not the release's own: " + strings.Join(parts, ", ")
}

func hostLine(h Hello) string {
	s := fmt.Sprintf("%s (%s %s) on bun %s", h.Source, h.Package, h.Release, h.Bun)
	if h.Commit != "" {
		s += ", commit " + h.Commit
	}
	return s
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func writeText(w io.Writer, runs []*Run, verbose bool) error {
	for _, run := range runs {
		h := run.Hello
		fmt.Fprintf(w, "== real host: %s\n", hostLine(h))
		fmt.Fprintf(w, "   %s\n", Inertness)
		fmt.Fprintf(w, "   isolation: %s\n", h.Isolation)
		if s := substitution(h); s != "" {
			fmt.Fprintf(w, "   %s\n", s)
		}
		if run.Model != "" {
			fmt.Fprintf(w, "   model compared: %s\n", run.Model)
		}
		if verbose {
			fmt.Fprintf(w, "   root: %s\n", h.Root)
			for _, a := range h.Adaptations {
				fmt.Fprintf(w, "   adaptation: %s\n", a)
			}
		}
		for _, r := range run.Results {
			fmt.Fprintf(w, "%s  %s/%s\n", mark(r.Verdict), r.Case.Desk.ID, r.Case.ID)
			fmt.Fprintf(w, "      %s\n", r.Verdict)
			if r.Reason != "" {
				fmt.Fprintf(w, "      %s\n", r.Reason)
			}
			if len(r.AbsentTouched) > 0 {
				fmt.Fprintf(w, "      touched stand-ins for absent dependency code (substitution): %s\n", strings.Join(r.AbsentTouched, ", "))
			}
			if r.Verdict == DoesNotHold || r.Verdict == Disagree || verbose {
				fmt.Fprintf(w, "      authored: %s\n", compact(r.Authored))
				if r.Model != nil {
					fmt.Fprintf(w, "      model:    %s\n", jsonText(r.Model))
				}
				if r.Real != nil {
					fmt.Fprintf(w, "      real:     %s\n", jsonText(r.Real))
				}
			}
			for _, m := range r.RealMismatches {
				fmt.Fprintf(w, "      on the real code %s: expected %s, observed %s (%s)\n", m.Field, jsonText(m.Expected), jsonText(m.Observed), m.Comparison)
			}
			if r.Verdict == Disagree {
				fmt.Fprintf(w, "      model and real code differ on: %s\n", strings.Join(r.Differ, ", "))
				fmt.Fprintf(w, "      one-case desk to reproduce:\n")
				for _, line := range strings.Split(strings.TrimRight(string(r.Repro), "\n"), "\n") {
					fmt.Fprintf(w, "        %s\n", line)
				}
			}
		}
		s := run.Summary
		fmt.Fprintf(w, "%s: %d cases: %d hold on the real code, %d do not hold, %d model and real code disagree, %d not applicable, %d could not run\n",
			h.Source, s.Cases, s.Holds, s.DoesNotHold, s.Disagree, s.NotApplicable, s.Errored)
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

func compact(raw string) string {
	if strings.TrimSpace(raw) == "" {
		return "{}"
	}
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return raw
	}
	return jsonText(v)
}

type jsonCase struct {
	Desk       string          `json:"desk"`
	ID         string          `json:"id"`
	Scenario   string          `json:"scenario"`
	Verdict    Verdict         `json:"verdict"`
	Reason     string          `json:"reason,omitempty"`
	Authored   json.RawMessage `json:"authored"`
	Model      map[string]any  `json:"model,omitempty"`
	Real       map[string]any  `json:"real,omitempty"`
	Mismatches []jsonMismatch  `json:"realMismatches,omitempty"`
	Differ     []string        `json:"differ,omitempty"`
	Repro      json.RawMessage `json:"repro,omitempty"`
	Releases   []string        `json:"releases"`
	Absent     []string        `json:"absentTouched,omitempty"`
}

type jsonMismatch struct {
	Field      string `json:"field"`
	Comparison string `json:"comparison"`
	Expected   any    `json:"expected"`
	Observed   any    `json:"observed"`
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
			jc := jsonCase{Desk: r.Case.Desk.ID, ID: r.Case.ID, Scenario: r.Case.Scenario, Verdict: r.Verdict, Reason: r.Reason,
				Authored: authored, Model: r.Model, Real: r.Real, Differ: r.Differ, Releases: []string{run.Hello.Source}, Absent: r.AbsentTouched}
			if r.Repro != nil {
				jc.Repro = json.RawMessage(r.Repro)
			}
			for _, m := range r.RealMismatches {
				jc.Mismatches = append(jc.Mismatches, jsonMismatch{m.Field, m.Comparison, m.Expected, m.Observed})
			}
			jr.Cases = append(jr.Cases, jc)
		}
		out.RealHost = append(out.RealHost, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

func writeMarkdown(w io.Writer, runs []*Run) error {
	fmt.Fprintf(w, "## On the real host code\n\n")
	for _, run := range runs {
		h := run.Hello
		fmt.Fprintf(w, "### %s\n\n", hostLine(h))
		fmt.Fprintf(w, "- %s\n- isolation: %s\n", Inertness, h.Isolation)
		if s := substitution(h); s != "" {
			fmt.Fprintf(w, "- **%s**\n", s)
		}
		s := run.Summary
		fmt.Fprintf(w, "- %d cases: %d hold on the real code, %d do not hold, %d model and real code disagree, %d not applicable, %d could not run\n\n",
			s.Cases, s.Holds, s.DoesNotHold, s.Disagree, s.NotApplicable, s.Errored)
		fmt.Fprintf(w, "| case | verdict | authored | model | real |\n|---|---|---|---|---|\n")
		for _, r := range run.Results {
			v := string(r.Verdict)
			if r.Reason != "" {
				v += ": " + r.Reason
			}
			model, real := "", ""
			if r.Model != nil {
				model = mdCell(jsonText(r.Model))
			}
			if r.Real != nil {
				real = mdCell(jsonText(r.Real))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdCell(r.Case.Desk.ID+"/"+r.Case.ID), strings.ReplaceAll(v, "|", `\|`), mdCell(compact(r.Authored)), model, real)
		}
		for _, r := range run.Results {
			if r.Verdict == Disagree {
				fmt.Fprintf(w, "\n#### %s/%s: model and real code disagree on %s\n\n```json\n%s```\n", r.Case.Desk.ID, r.Case.ID, strings.Join(r.Differ, ", "), r.Repro)
			}
		}
		fmt.Fprintln(w)
	}
	return nil
}
