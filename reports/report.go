package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/schema"
	"github.com/deskcheck/deskcheck/verifier"
)

// FormatVersion is the version of the JSON evidence format. Version 2
// lists every host family in provenance and has each case carry its trace
// unit, its comparers and its suggested expected block.
const FormatVersion = 2

// Report is the JSON evidence of one verification run.
type Report struct {
	FormatVersion int    `json:"formatVersion"`
	GeneratedAt   string `json:"generatedAt"`
	Verdict       string `json:"verdict"`
	// StrengthVerdict is set when the suite was run under the host
	// faults: pass when every fault run was caught, fail when any was
	// missed. Verdict stays the verdict of the cases.
	StrengthVerdict string           `json:"strengthVerdict,omitempty"`
	Provenance      Provenance       `json:"provenance"`
	Summary         verifier.Summary `json:"summary"`
	// Dimensions is the boundary-response section: reported, never
	// judged.
	Dimensions *Boundary `json:"dimensions"`
	Cases      []Case    `json:"cases"`
	SourceOnly []Claim   `json:"sourceOnly"`
	// Strength is present when the suite was run under the host faults.
	Strength *Strength `json:"strength,omitempty"`
}

// Strength says which deliberate boundary bugs the suite catches.
type Strength struct {
	Caught   int           `json:"caught"`
	Faults   int           `json:"faults"`
	Excluded []string      `json:"excluded"`
	Results  []FaultResult `json:"results"`
}

// FaultResult is one fault and the cases that caught it.
type FaultResult struct {
	Fault    string   `json:"fault"`
	Bug      string   `json:"bug"`
	Caught   bool     `json:"caught"`
	CaughtBy []string `json:"caughtBy"`
	// Hint says what a case needs to catch a missed fault.
	Hint string `json:"hint,omitempty"`
}

// AddStrength records a strength measurement in the report.
func (r *Report) AddStrength(s verifier.Strength) {
	st := &Strength{Caught: s.Caught(), Faults: len(s.Faults), Excluded: append([]string{}, s.Excluded...), Results: []FaultResult{}}
	for _, f := range s.Faults {
		fr := FaultResult{Fault: f.Fault.FullName(), Bug: f.Fault.Bug, Caught: f.Caught(), CaughtBy: append([]string{}, f.CaughtBy...)}
		if !fr.Caught {
			fr.Hint = f.Fault.Hint
		}
		st.Results = append(st.Results, fr)
	}
	r.Strength = st
	r.StrengthVerdict = "fail"
	if st.Caught == st.Faults {
		r.StrengthVerdict = "pass"
	}
}

// Provenance says what produced a report from what.
type Provenance struct {
	Deskcheck        string `json:"deskcheck"`
	Revision         string `json:"revision"`
	GoVersion        string `json:"goVersion"`
	Hosts            []Host `json:"hosts"`
	CaseSchemaSHA256 string `json:"caseSchemaSha256"`
	Files            []File `json:"files"`
}

// Host is one host model the suite's cases ran against.
type Host struct {
	Name      string `json:"name"`
	Model     string `json:"model"`
	Reference string `json:"reference"`
	// Releases are the host releases the model follows, oldest first;
	// absent for a host without releases.
	Releases []string `json:"releases,omitempty"`
	// Pinned is the one release -host judged the cases on.
	Pinned string `json:"pinned,omitempty"`
}

// File is one case file that was read.
type File struct {
	Path          string `json:"path"`
	Desk          string `json:"desk"`
	SHA256        string `json:"sha256"`
	SchemaVersion int    `json:"schemaVersion"`
}

// Case is the evidence of one case.
type Case struct {
	Desk string `json:"desk"`
	ID   string `json:"id"`
	// Line and Column locate the case object in its file (1-based); zero
	// when the case was not located (see LocatedCases).
	Line       int                 `json:"line,omitempty"`
	Column     int                 `json:"column,omitempty"`
	Title      string              `json:"title"`
	Scenario   string              `json:"scenario"`
	Family     string              `json:"family,omitempty"`
	Status     verifier.Status     `json:"status"`
	Why        string              `json:"why,omitempty"`
	SourceRefs []SourceRef         `json:"sourceRefs"`
	Given      json.RawMessage     `json:"given"`
	Expected   json.RawMessage     `json:"expected"`
	Observed   map[string]any      `json:"observed"`
	Mismatches []verifier.Mismatch `json:"mismatches"`
	// Comparisons names the comparer of each asserted key.
	Comparisons map[string]string `json:"comparisons"`
	// Suggested is the expected block worth asserting, from what was
	// observed.
	Suggested []verifier.Suggestion `json:"suggested"`
	// Unit is what the trace's seq counts: call, step or request.
	Unit string `json:"unit"`
	// Dimensions is the case's part in the boundary-response dimensions.
	Dimensions CaseBoundary     `json:"dimensions"`
	Trace      []scenario.Event `json:"trace"`
	Error      string           `json:"error,omitempty"`
	// Range is the release range that applies to the case, as written
	// (its own hosts or the desk's); absent when none names its host.
	Range string `json:"range,omitempty"`
	// Releases is the case's verdict on each release it was judged on or
	// found not applicable to; absent for a host without releases.
	Releases []verifier.ReleaseVerdict `json:"releases,omitempty"`
	// Release is the release whose run observed, mismatches and trace
	// come from.
	Release string `json:"release,omitempty"`
	// Reason says why a not-applicable case was not judged.
	Reason string `json:"reason,omitempty"`
}

// SourceRef is a sourceRefs key resolved to its source text.
type SourceRef struct {
	Key    string `json:"key"`
	Source string `json:"source"`
}

// Claim is a source-only claim: never executed, never a pass.
type Claim struct {
	Desk        string      `json:"desk"`
	ID          string      `json:"id"`
	Claim       string      `json:"claim"`
	NotExecuted string      `json:"notExecuted"`
	SourceRefs  []SourceRef `json:"sourceRefs"`
}

// Build turns a suite result into a report. now is used unless
// SOURCE_DATE_EPOCH is set.
func Build(s *verifier.SuiteResult, now time.Time) *Report {
	r := &Report{
		FormatVersion: FormatVersion,
		GeneratedAt:   timestamp(now),
		Verdict:       "fail",
		Provenance:    provenance(s.Registry, s.Desks, s.Hosts),
		Summary:       s.Summary,
		Dimensions:    buildBoundary(s),
		Cases:         make([]Case, len(s.Results)),
		SourceOnly:    make([]Claim, 0, len(s.Claims)),
	}
	if s.Passed() {
		r.Verdict = "pass"
	}
	parallel.For(len(s.Results), func(i int) {
		res := s.Results[i]
		c := res.Case
		r.Cases[i] = Case{
			Desk: c.Desk.ID, ID: c.ID, Title: c.Title, Scenario: c.Scenario, Family: c.Family, Status: res.Status, Why: c.Why,
			SourceRefs: resolve(c.Desk, c.SourceRefs), Given: compact(c.Given.Raw), Expected: compact(c.ExpectedRaw), Observed: res.Observed,
			Mismatches: nonNil(res.Mismatches), Comparisons: asserted(c, res.Comparisons), Suggested: nonNilSuggested(res.Suggested),
			Unit: res.Unit, Dimensions: caseBoundary(res), Trace: nonNilEvents(res.Trace), Error: res.Err,
			Range: c.Range, Releases: res.Releases, Release: res.Release, Reason: res.Reason,
		}
	})
	locate(s.Results, r.Cases, LocatedCases, locateBudget)
	for _, cl := range s.Claims {
		r.SourceOnly = append(r.SourceOnly, Claim{Desk: cl.Desk.ID, ID: cl.ID, Claim: cl.Claim, NotExecuted: cl.NotExecuted, SourceRefs: resolve(cl.Desk, cl.SourceRefs)})
	}
	return r
}

// LocatedCases is how many failed or errored cases, in report order, get
// their line and column in the report: the cases a reader is sent to by
// the page's cards and the annotations.
//
// Finding a case's position walks its file from the top, so locating every
// case of a large file would take time quadratic in its size. Locating
// also stops once the walks would pass over locateBudget cases in all,
// which bounds the time a few huge files can take (about half a second).
const LocatedCases = 200

// locateBudget bounds the cases passed over by the walks, counted as the
// size of the desk walked for each located case.
const locateBudget = 400_000

// locate sets the line and column of the first failed or errored cases:
// at most most of them, and no more once the desks walked hold budget
// cases in all.
func locate(results []verifier.Result, cases []Case, most, budget int) {
	var todo []int
	work := 0
	for i := range results {
		if results[i].Status == verifier.Pass {
			continue
		}
		work += len(results[i].Case.Desk.Cases)
		if len(todo) == most || work > budget {
			break
		}
		todo = append(todo, i)
	}
	parallel.For(len(todo), func(j int) {
		i := todo[j]
		c := results[i].Case
		cases[i].Line, cases[i].Column = c.Desk.Locate(c.Pointer, false)
	})
}

func resolve(d *verifier.Desk, keys []string) []SourceRef {
	out := make([]SourceRef, 0, len(keys))
	for _, k := range keys {
		out = append(out, SourceRef{Key: k, Source: d.Sources[k]})
	}
	return out
}

func nonNil(m []verifier.Mismatch) []verifier.Mismatch {
	if m == nil {
		return []verifier.Mismatch{}
	}
	return m
}

func nonNilEvents(e []scenario.Event) []scenario.Event {
	if e == nil {
		return []scenario.Event{}
	}
	return e
}

func nonNilSuggested(s []verifier.Suggestion) []verifier.Suggestion {
	if s == nil {
		return []verifier.Suggestion{}
	}
	return s
}

// asserted keeps the comparers of the keys the case asserts.
func asserted(c *verifier.Case, all map[string]string) map[string]string {
	out := make(map[string]string, len(c.Expected))
	for _, f := range c.Expected {
		if name, ok := all[f.Key]; ok {
			out[f.Key] = name
		}
	}
	return out
}

func compact(raw string) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return jsonx.Compact(make([]byte, 0, len(raw)), raw)
}

func provenance(reg *scenario.Registry, desks []*verifier.Desk, pin verifier.Hosts) Provenance {
	p := Provenance{Deskcheck: "(devel)", Revision: "unknown", GoVersion: runtime.Version(),
		Hosts: []Host{}, CaseSchemaSHA256: schema.SHA256(reg.CaseSchema()), Files: []File{}}
	used := map[string]bool{}
	for _, d := range desks {
		for _, c := range d.Cases {
			if _, fam := c.Spec(); fam != nil {
				used[fam.Host.Name] = true
			}
		}
	}
	for _, f := range reg.Families() {
		if used[f.Host.Name] {
			h := Host{Name: f.Host.Name, Model: f.Host.Model, Reference: f.Host.Reference, Pinned: pin[f.Host.Name]}
			for _, r := range f.Host.Releases {
				h.Releases = append(h.Releases, r.Version)
			}
			p.Hosts = append(p.Hosts, h)
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			p.Deskcheck = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				p.Revision = s.Value
			}
		}
	}
	for _, d := range desks {
		p.Files = append(p.Files, File{Path: displayPath(d.Path), Desk: d.ID, SHA256: d.SHA256, SchemaVersion: d.SchemaVersion})
	}
	return p
}

// timestamp is now in UTC (RFC 3339), or SOURCE_DATE_EPOCH when set.
func timestamp(now time.Time) string {
	if v := os.Getenv("SOURCE_DATE_EPOCH"); v != "" {
		if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
			now = time.Unix(secs, 0)
		}
	}
	return now.UTC().Format(time.RFC3339)
}

// displayPath keeps a path as given, but shows a path under the user's home
// folder as ~/..., so that no report names a home folder.
func displayPath(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.Join("~", rel)
	}
	return p
}
