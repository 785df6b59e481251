package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/verifier"
)

// The "model against real code" section: a desk selection run on the
// model and on a host's own released code, one entry per real host. The
// real-host driver (deskcheck-host verify) fills it; every format renders
// it after the model's own results, and diff compares its verdicts.

// RealVerdict is a case's outcome on the real code.
type RealVerdict string

// The verdicts of a case on the real code.
const (
	RealHolds         RealVerdict = "holds on the real code"
	RealDoesNotHold   RealVerdict = "does not hold on the real code"
	RealDisagree      RealVerdict = "model and real code disagree"
	RealNotApplicable RealVerdict = "not applicable"
	RealErrored       RealVerdict = "could not run on the real code"
)

// failing says whether the verdict fails the real-code run.
func (v RealVerdict) failing() bool {
	return v == RealDoesNotHold || v == RealDisagree || v == RealErrored
}

// RealCode is the section: one run per real host.
type RealCode []RealCodeRun

// RealCodeRun is a desk selection judged on one real host.
type RealCodeRun struct {
	Host RealCodeHost `json:"host"`
	// Inertness states what ran: the host's code, never the desk's.
	Inertness string `json:"inertness"`
	// Substitution says how the code that ran is not the release as
	// published (substituted dependencies, files changed since install).
	Substitution string `json:"substitution,omitempty"`
	// Model names the model release the real host was compared with.
	Model   string          `json:"model,omitempty"`
	Summary RealCodeSummary `json:"summary"`
	Cases   []RealCodeCase  `json:"cases"`
	// Dimensions are the boundary-response dimensions on the real code
	// and on the model, for a harness whose recorders count them.
	Dimensions *RealCodeDimensions `json:"dimensions,omitempty"`
	// Provenance is what the harness said of its run (a JSON object).
	Provenance json.RawMessage `json:"provenance,omitempty"`
}

// RealCodeDimensions are a run's boundary-response dimensions over the
// cases both the model and the real code ran: each on its own, never
// one score, reported and not judged.
type RealCodeDimensions struct {
	// Column is the run's row heading: the release's column.
	Column string              `json:"column"`
	Real   verifier.Dimensions `json:"real"`
	Model  verifier.Dimensions `json:"model"`
}

// RealCodeHost is what the harness said of the code it ran, as a family
// declares it to the driver; its Name is the host family's name, under
// which the verdicts of two reports are compared per case.
type RealCodeHost = realcode.Hello

// RealCodeSummary counts a run's verdicts.
type RealCodeSummary struct {
	Cases         int `json:"cases"`
	Holds         int `json:"holds"`
	DoesNotHold   int `json:"doesNotHold"`
	Disagree      int `json:"disagree"`
	NotApplicable int `json:"notApplicable"`
	Errored       int `json:"errored"`
}

// Add counts one case of verdict v.
func (s *RealCodeSummary) Add(v RealVerdict) {
	s.Cases++
	*s.count(v)++
}

// OK reports whether the run passes: some case ran and every case that
// could run holds with the model agreeing.
func (s RealCodeSummary) OK() bool {
	return s.Holds > 0 && s.DoesNotHold == 0 && s.Disagree == 0 && s.Errored == 0
}

// count is the summary's count of v.
func (s *RealCodeSummary) count(v RealVerdict) *int {
	switch v {
	case RealHolds:
		return &s.Holds
	case RealDoesNotHold:
		return &s.DoesNotHold
	case RealDisagree:
		return &s.Disagree
	case RealNotApplicable:
		return &s.NotApplicable
	}
	return &s.Errored
}

// RealCodeCase is one case's three columns and its verdict. The JSON
// blocks are as the JSON writer of deskcheck writes them (an unpaired
// surrogate as its escape).
type RealCodeCase struct {
	Desk     string      `json:"desk"`
	ID       string      `json:"id"`
	Scenario string      `json:"scenario"`
	Verdict  RealVerdict `json:"verdict"`
	// Reason says why a case is not applicable, could not run, or why
	// model and real code disagree on whether it runs.
	Reason string `json:"reason,omitempty"`
	// Authored is the expected block as written; Model and Real what the
	// model and the real code observed (absent when one did not run it).
	Authored json.RawMessage `json:"authored"`
	Model    json.RawMessage `json:"model,omitempty"`
	Real     json.RawMessage `json:"real,omitempty"`
	// Mismatches are the authored keys that do not hold on the real code.
	Mismatches []RealMismatch `json:"realMismatches,omitempty"`
	// Differ lists the observed keys on which model and real code differ.
	Differ []string `json:"differ,omitempty"`
	// Repro is a one-case desk reproducing a disagreement.
	Repro    json.RawMessage `json:"repro,omitempty"`
	Releases []string        `json:"releases"`
	// Absent names the stand-ins for modules absent from substituted
	// dependencies that the case used.
	Absent []string `json:"absentTouched,omitempty"`
}

// RealMismatch is an authored key that does not hold on the real code.
type RealMismatch struct {
	Field      string          `json:"field"`
	Comparison string          `json:"comparison"`
	Expected   json.RawMessage `json:"expected"`
	Observed   json.RawMessage `json:"observed"`
}

// jsonString is a string written as deskcheck writes one: an unpaired
// surrogate as its escape, not as U+FFFD.
type jsonString string

func (t jsonString) MarshalJSON() ([]byte, error) { return jsonx.AppendString(nil, string(t)), nil }

func jsonStrings(s []string) []jsonString {
	var out []jsonString
	for _, x := range s {
		out = append(out, jsonString(x))
	}
	return out
}

// MarshalJSON writes the case with its desk's strings as deskcheck
// writes them.
func (c RealCodeCase) MarshalJSON() ([]byte, error) {
	type mismatch struct {
		Field      jsonString      `json:"field"`
		Comparison string          `json:"comparison"`
		Expected   json.RawMessage `json:"expected"`
		Observed   json.RawMessage `json:"observed"`
	}
	var ms []mismatch
	for _, m := range c.Mismatches {
		ms = append(ms, mismatch{jsonString(m.Field), m.Comparison, orNull(m.Expected), orNull(m.Observed)})
	}
	authored := c.Authored
	if !json.Valid(authored) {
		authored = json.RawMessage("{}")
	}
	releases := c.Releases
	if releases == nil {
		releases = []string{}
	}
	return marshal(struct {
		Desk       jsonString      `json:"desk"`
		ID         jsonString      `json:"id"`
		Scenario   string          `json:"scenario"`
		Verdict    RealVerdict     `json:"verdict"`
		Reason     jsonString      `json:"reason,omitempty"`
		Authored   json.RawMessage `json:"authored"`
		Model      json.RawMessage `json:"model,omitempty"`
		Real       json.RawMessage `json:"real,omitempty"`
		Mismatches []mismatch      `json:"realMismatches,omitempty"`
		Differ     []jsonString    `json:"differ,omitempty"`
		Repro      json.RawMessage `json:"repro,omitempty"`
		Releases   []string        `json:"releases"`
		Absent     []string        `json:"absentTouched,omitempty"`
	}{jsonString(c.Desk), jsonString(c.ID), c.Scenario, c.Verdict, jsonString(c.Reason), authored, c.Model, c.Real, ms,
		jsonStrings(c.Differ), c.Repro, releases, c.Absent}, "")
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// MarshalJSON writes the section as a JSON array of runs; a C1 control
// or a bidirectional override a host's string holds is written as its
// escape (the same value, shown as itself).
func (rc RealCode) MarshalJSON() ([]byte, error) {
	runs := []RealCodeRun(rc)
	if runs == nil {
		runs = []RealCodeRun{}
	}
	b, err := marshal(runs, "")
	if err != nil {
		return nil, err
	}
	return []byte(Visible(string(b))), nil
}

// hostLine names the code that ran: "omp@18.3.4 (@oh-my-pi/pi-coding-agent
// 18.3.4) on bun 1.4.2".
func hostLine(h RealCodeHost) string {
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

// hostName is the name a run's verdicts are compared under: the family's
// name, else the source up to its release.
func hostName(h RealCodeHost) string {
	if h.Name != "" {
		return h.Name
	}
	if i := strings.IndexByte(h.Source, '@'); i > 0 {
		return h.Source[:i]
	}
	return h.Source
}

// tally is the summary in words.
func (s RealCodeSummary) tally() string {
	return fmt.Sprintf("%d cases: %d hold on the real code, %d do not hold, %d model and real code disagree, %d not applicable, %d could not run",
		s.Cases, s.Holds, s.DoesNotHold, s.Disagree, s.NotApplicable, s.Errored)
}

// realJSON is a JSON block as one line: compact, its escapes as written;
// "null" for none.
func realJSON(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "null"
	}
	if !json.Valid(raw) {
		return string(raw)
	}
	return string(jsonx.Compact(nil, raw))
}

// realAuthored is the authored block as one line: "{}" for none.
func realAuthored(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	return realJSON(raw)
}

// reproText is the one-case desk as written: indented by two spaces, with
// a final newline, whether it was read from a report (where it is nested
// in the report's own indentation) or made by the run.
func reproText(raw json.RawMessage) string {
	if !json.Valid(raw) {
		return string(raw)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, jsonx.Compact(nil, raw), "", "  "); err != nil {
		return string(raw)
	}
	b.WriteByte('\n')
	return b.String()
}

// checkRealCode refuses a section that contradicts itself: a case twice
// in one run, a verdict its mismatches or differing keys contradict, a
// summary its cases do not add up to. Each problem names where it is.
func checkRealCode(rc RealCode) error {
	for i, run := range rc {
		at := "/realCode/" + strconv.Itoa(i)
		first := map[string]int{}
		var seen RealCodeSummary
		for j, c := range run.Cases {
			where := at + "/cases/" + strconv.Itoa(j)
			id := c.Desk + "/" + c.ID
			if k, twice := first[id]; twice {
				return contradiction(where, "case %s is listed twice on %s (first at %s/cases/%d)", id, run.Host.Source, at, k)
			}
			first[id] = j
			if err := checkRealVerdict(c); err != "" {
				return contradiction(where, "case %s %s", id, err)
			}
			seen.Add(c.Verdict)
		}
		if seen != run.Summary {
			return contradiction(at+"/summary", "the summary counts %s, but the cases are %s", run.Summary.tally(), seen.tally())
		}
	}
	return nil
}

// checkRealVerdict says how a case's verdict contradicts the rest of it,
// or "".
func checkRealVerdict(c RealCodeCase) string {
	m, d := len(c.Mismatches), len(c.Differ)
	switch c.Verdict {
	case RealHolds:
		switch {
		case m > 0:
			return "holds on the real code, yet lists " + plural(m, "mismatch", "mismatches") + " there"
		case d > 0:
			return "holds on the real code, yet model and real code differ on " + strings.Join(c.Differ, ", ")
		}
	case RealDoesNotHold:
		switch {
		case m == 0:
			return "does not hold on the real code, yet lists no mismatch there"
		case d > 0:
			return "does not hold on the real code, yet model and real code differ on " + strings.Join(c.Differ, ", ") + " (that is a disagreement)"
		}
	case RealDisagree:
		if d == 0 && c.Reason == "" {
			return "has model and real code disagree, yet names no key they differ on and no reason"
		}
	case RealNotApplicable, RealErrored:
		switch {
		case m > 0:
			return "is " + string(c.Verdict) + ", yet lists " + plural(m, "mismatch", "mismatches") + " on the real code"
		case d > 0:
			return "is " + string(c.Verdict) + ", yet model and real code differ on " + strings.Join(c.Differ, ", ")
		}
	}
	return ""
}
