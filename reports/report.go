package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
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
	// Coverage is the boundary-coverage section: which of each family's
	// boundary points the cases reach.
	Coverage   *Coverage `json:"coverage,omitempty"`
	Cases      []Case    `json:"cases"`
	SourceOnly []Claim   `json:"sourceOnly"`
	// Strength is present when the suite was run under the host faults.
	Strength *Strength `json:"strength,omitempty"`
	// Diagnostics are the warnings found in the case files of the run
	// (acknowledged or not), so that a format rendered again from the
	// saved report says what the run's own output said.
	Diagnostics verifier.Diagnostics `json:"diagnostics,omitempty"`
	// Lessons are the lessons asked of several hosts (see Lesson); absent
	// when no case names one.
	Lessons []Lesson `json:"lessons,omitempty"`
	// RealCode is the model-against-real-code section (realcode.go).
	RealCode RealCode `json:"realCode,omitempty"`
	// origin is what Build was told of the run, for Stamp.
	origin Origin
	// registry holds the scenarios of the run the report was built from.
	registry *scenario.Registry
	// spill, when set, holds each case's JSON line (see Stream): Cases
	// then holds lean copies, which the JSON writer does not read.
	spill *spill
	// hold, when set, holds the evidence of the cases kept whole (see
	// Stream).
	hold *hold
}

// ReleaseAsWritten makes the next writing of report.json (JSON.Write)
// the last that a streamed report allows: the cases' lines, which only
// that file holds in full, are given back to the machine as they are
// copied out, rather than kept to the end beside the copy. A later JSON
// writing of the report fails. A report made by Build holds its cases and
// is not changed.
func (r *Report) ReleaseAsWritten() {
	if r.spill != nil {
		r.spill.release = true
	}
}

// Origin is what a report says about the process that made it: when, where
// and by which build. The command reads it from its environment once and
// passes it in; nothing that builds or renders a report reads the
// environment itself.
type Origin struct {
	// Time is the time stamp (SOURCE_DATE_EPOCH, when the command was
	// given one, already applied); written in UTC.
	Time time.Time
	// Home is the user's home folder: a path under it is shown as ~/…
	// so that no report names it. "" or "/" shows every path as given.
	Home string
	// Wd is the working folder: a path of the command line inside it is
	// shown relative to it. "" keeps the command line's paths.
	Wd string
	// Deskcheck and Revision are the module version and VCS revision
	// deskcheck was built from; "" is written (devel) and unknown.
	Deskcheck, Revision string
	// GoVersion is the Go version deskcheck was built with.
	GoVersion string
}

// Strength says which deliberate boundary bugs the suite catches.
type Strength struct {
	Caught int `json:"caught"`
	Faults int `json:"faults"`
	// NotAddressed counts the faults the selection has no case to
	// address; they are neither caught nor missed.
	NotAddressed int           `json:"notAddressed,omitempty"`
	Excluded     []string      `json:"excluded"`
	Results      []FaultResult `json:"results"`
}

// Pass is the strength verdict: every fault the selection addresses is
// caught, and it addresses at least one when there are any.
func (s *Strength) Pass() bool {
	addressed := s.Faults - s.NotAddressed
	return s.Caught == addressed && (addressed > 0 || s.Faults == 0)
}

// Tally is the strength's counts in words: "19 of 22 faults caught", or
// "19 of 19 addressed faults caught, 3 not addressed".
func (s *Strength) Tally() string {
	if s.NotAddressed == 0 {
		return strconv.Itoa(s.Caught) + " of " + strconv.Itoa(s.Faults) + " faults caught"
	}
	return strconv.Itoa(s.Caught) + " of " + strconv.Itoa(s.Faults-s.NotAddressed) + " addressed faults caught, " + strconv.Itoa(s.NotAddressed) + " not addressed"
}

// FaultResult is one fault and the cases that caught it.
type FaultResult struct {
	Fault    string   `json:"fault"`
	Bug      string   `json:"bug"`
	Caught   bool     `json:"caught"`
	CaughtBy []string `json:"caughtBy"`
	// Hint says what a case needs to catch a missed fault.
	Hint string `json:"hint,omitempty"`
	// NotAddressed says why the selection cannot catch the fault: it
	// has no case of a scenario that could expose it.
	NotAddressed string `json:"notAddressed,omitempty"`
	// Exposed lists the boundary-response dimensions that differ under
	// the fault from the correct run ("allowed work 17/17 → 0/17").
	Exposed []string `json:"exposed,omitempty"`
}

// AddStrength records a strength measurement in the report.
func (r *Report) AddStrength(s verifier.Strength) {
	st := &Strength{Caught: s.Caught(), Faults: len(s.Faults), NotAddressed: s.NotAddressed(), Excluded: append([]string{}, s.Excluded...), Results: []FaultResult{}}
	for _, f := range s.Faults {
		fr := FaultResult{Fault: f.Fault.FullName(), Bug: f.Fault.Bug, Caught: f.Caught(), CaughtBy: append([]string{}, f.CaughtBy...),
			NotAddressed: f.NotAddressed, Exposed: append([]string(nil), f.Exposed...)}
		if !fr.Caught {
			fr.Hint = f.Fault.Hint
		}
		st.Results = append(st.Results, fr)
	}
	r.Strength = st
	r.StrengthVerdict = "fail"
	if st.Pass() {
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
	// Command is the command line that made the report, its paths
	// relative to the working folder (or ~/…); set by Stamp.
	Command []string `json:"command,omitempty"`
	// Limits are the limits in force, by flag (max-file-size) or
	// scenario limit (wrapper.repeat) name; set by Stamp.
	Limits map[string]int64 `json:"limits,omitempty"`
	// RunID tells runs apart: a digest of the time stamp, the command
	// line and the files read, so that two runs with the same
	// SOURCE_DATE_EPOCH and inputs have the same id; set by Stamp.
	RunID string `json:"runId,omitempty"`
}

// Stamp records in the report's provenance the command line, the limits
// in force and the run id they make with the time stamp and the files.
func (r *Report) Stamp(command []string, limits map[string]int64) {
	shown := make([]string, len(command))
	for i, a := range command {
		shown[i] = r.origin.relativePath(a)
	}
	r.Provenance.Command, r.Provenance.Limits = shown, limits
	h := sha256.New()
	h.Write([]byte(r.GeneratedAt))
	for _, a := range shown {
		h.Write([]byte{0})
		h.Write([]byte(a))
	}
	for _, f := range r.Provenance.Files {
		h.Write([]byte{0})
		h.Write([]byte(f.SHA256))
	}
	r.Provenance.RunID = hex.EncodeToString(h.Sum(nil))[:16]
}

// relativePath writes an absolute path as relative to the working folder
// when it lies inside it, else as displayPath does; anything else is kept.
func (o Origin) relativePath(a string) string {
	if !filepath.IsAbs(a) {
		return a
	}
	if o.Wd != "" {
		if rel, err := filepath.Rel(o.Wd, a); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return o.displayPath(a)
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
	Arena      string              `json:"family,omitempty"` // the case's boundary-response arena
	Lesson     string              `json:"lesson,omitempty"` // the case's lesson key
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
	// lesson is the case's row of its lesson (nil when it names none).
	lesson *LessonCase
	// held is where a streamed report set aside the case's trace,
	// observed values, mismatches and suggestions (see whole); nil when
	// it holds them.
	held *heldAt
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

// Build turns a suite result into a report made by the run o describes.
func Build(s *verifier.SuiteResult, o Origin) *Report {
	r := &Report{
		FormatVersion: FormatVersion,
		GeneratedAt:   o.Time.UTC().Format(time.RFC3339),
		Verdict:       "fail",
		Provenance:    o.provenance(s.Registry, s.Desks, s.Hosts),
		Summary:       s.Summary,
		Dimensions:    buildBoundary(s),
		Coverage:      buildCoverage(s),
		Cases:         make([]Case, len(s.Results)),
		SourceOnly:    make([]Claim, 0, len(s.Claims)),
		origin:        o,
		registry:      s.Registry,
	}
	if s.Passed() {
		r.Verdict = "pass"
	}
	parallel.For(len(s.Results), func(i int) { r.Cases[i] = newCase(&s.Results[i], s.Unshown) })
	locate(s.Results, r.Cases, locatedCases, locateBudget)
	r.Lessons = lessonsOf(r.Cases)
	for _, cl := range s.Claims {
		r.SourceOnly = append(r.SourceOnly, newClaim(cl))
	}
	return r
}

// newCase is the evidence of one result; its suggestions are computed
// unless nothing will show them.
func newCase(res *verifier.Result, unshown bool) Case {
	out, _ := newCaseIn(res, unshown, nil)
	return out
}

// newCaseIn is newCase with the case's given and expected blocks
// compacted into buf (appended); it returns buf as it grew.
func newCaseIn(res *verifier.Result, unshown bool, buf []byte) (Case, []byte) {
	c := res.Case
	var suggested []verifier.Suggestion
	if !unshown {
		suggested = res.Suggestions()
	}
	out := Case{
		Desk: c.Desk.ID, ID: c.ID, Title: c.Title, Scenario: c.Scenario, Arena: c.Arena, Lesson: c.Lesson, Status: res.Status, Why: c.Why,
		SourceRefs: resolve(c.Desk, c.SourceRefs), Observed: res.Observed,
		Mismatches: nonNil(res.Mismatches), Comparisons: asserted(c, res.Comparisons), Suggested: nonNilSuggested(suggested),
		Unit: res.Unit, Dimensions: caseBoundary(*res), Trace: nonNilEvents(res.Trace), Error: res.Err,
		Range: c.Range, Releases: res.Releases, Release: res.Release, Reason: res.Reason,
	}
	if buf == nil {
		out.Given, out.Expected = compact(c.Given.Raw), compact(c.ExpectedRaw)
	} else {
		start := len(buf)
		buf = compactIn(buf, c.Given.Raw)
		mid := len(buf)
		buf = compactIn(buf, c.ExpectedRaw)
		// Each block's capacity ends where it ends: appending to one
		// cannot write over the next.
		out.Given, out.Expected = buf[start:mid:mid], buf[mid:len(buf):len(buf)]
	}
	out.lesson = lessonCase(res, &out)
	return out, buf
}

func newClaim(cl *verifier.Claim) Claim {
	return Claim{Desk: cl.Desk.ID, ID: cl.ID, Claim: cl.Claim, NotExecuted: cl.NotExecuted, SourceRefs: resolve(cl.Desk, cl.SourceRefs)}
}

// LocatedCases is how many failed or errored cases get their line and
// column in the report: the cases a reader is sent to by the page's cards,
// the annotations and the SARIF results (at most 5,000 of which are
// written). They are chosen as those are, the first of each desk before
// the second of any.
//
// All the cases located in one file are found by one walk of it, so the
// time is that of reading the files with failures once. Locating also
// stops before a walk would take the files walked past locateBudget cases
// in all, which bounds the time a few huge files can take.
const LocatedCases = 5000

// locateBudget bounds the cases of the files walked to locate failures.
// It and locatedCases (LocatedCases) are variables only so that tests can
// try the bounds on small suites.
var (
	locateBudget = 400_000
	locatedCases = LocatedCases
)

// locate sets the line and column of the first failed or errored cases,
// the first of each desk before the second of any: at most most of them,
// and only in desks whose sizes, added up, stay within budget cases.
func locate(results []verifier.Result, cases []Case, most, budget int) {
	var failed []failure
	desks := map[*verifier.Desk]int{}
	var byOrdinal []*verifier.Desk
	for i := range results {
		if s := results[i].Status; s != verifier.Pass && s != verifier.NotApplicable {
			d := results[i].Case.Desk
			k, ok := desks[d]
			if !ok {
				k = len(byOrdinal)
				desks[d] = k
				byOrdinal = append(byOrdinal, d)
			}
			failed = append(failed, failure{i: i, desk: k, size: len(d.Cases)})
		}
	}
	order, todo := locatePlan(failed, most, budget)
	parallel.For(len(order), func(j int) { locateIn(byOrdinal[order[j]], results, todo[order[j]], cases) })
}

// locateIn sets the line and column of the cases at idx, all of desk d,
// with one walk of its text.
func locateIn(d *verifier.Desk, results []verifier.Result, idx []int, cases []Case) {
	ptrs := make([]string, len(idx))
	for k, i := range idx {
		ptrs[k] = results[i].Case.Pointer
	}
	lines, cols := d.LocateAll(ptrs)
	for k, i := range idx {
		cases[i].Line, cases[i].Column = lines[k], cols[k]
	}
}

// failure is a failed or errored case as locatePlan sees it: its index,
// its desk (numbered in the order desks first fail) and how many cases
// that desk holds.
type failure struct {
	i, desk, size int
}

// locatePlan chooses the failures locate locates, given in file order:
// the desks to walk, in order, and in each the indexes of the cases to
// locate, which are always its first failures.
func locatePlan(failed []failure, most, budget int) ([]int, map[int][]int) {
	failed = spread(failed, func(f failure) string { return strconv.Itoa(f.desk) })
	var desks []int
	todo := map[int][]int{}
	work := 0
	for _, f := range failed {
		if most == 0 {
			break
		}
		if _, walked := todo[f.desk]; !walked {
			if work+f.size > budget {
				continue
			}
			work += f.size
			desks = append(desks, f.desk)
		}
		todo[f.desk] = append(todo[f.desk], f.i)
		most--
	}
	return desks, todo
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

// compactIn appends compact(raw) to b.
func compactIn(b []byte, raw string) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return jsonx.Compact(b, raw)
}

func (o Origin) provenance(reg *scenario.Registry, desks []*verifier.Desk, pin verifier.Hosts) Provenance {
	used := map[string]bool{}
	var files []File
	for _, d := range desks {
		usedHosts(d, used)
		files = append(files, o.file(d))
	}
	return o.provenanceOf(reg, used, files, pin)
}

// usedHosts marks the host families the desk's cases run on.
func usedHosts(d *verifier.Desk, used map[string]bool) {
	for _, c := range d.Cases {
		if _, fam := c.Spec(); fam != nil {
			used[fam.Host.Name] = true
		}
	}
}

// file is the provenance entry of a desk read.
func (o Origin) file(d *verifier.Desk) File {
	return File{Path: o.displayPath(d.Path), Desk: d.ID, SHA256: d.SHA256, SchemaVersion: d.SchemaVersion}
}

func (o Origin) provenanceOf(reg *scenario.Registry, used map[string]bool, files []File, pin verifier.Hosts) Provenance {
	p := Provenance{Deskcheck: o.Deskcheck, Revision: o.Revision, GoVersion: o.GoVersion,
		Hosts: []Host{}, CaseSchemaSHA256: schema.SHA256(reg.CaseSchema()), Files: []File{}}
	if p.Deskcheck == "" {
		p.Deskcheck = "(devel)"
	}
	if p.Revision == "" {
		p.Revision = "unknown"
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
	p.Files = append(p.Files, files...)
	return p
}

// displayPath keeps a path as given, but shows a path under the home
// folder as ~/..., so that no report names a home folder.
func (o Origin) displayPath(p string) string {
	if o.Home == "" || o.Home == "/" || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(o.Home, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.Join("~", rel)
	}
	return p
}
