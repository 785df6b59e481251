package realhost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// Verdict is a case's outcome on the real code: the report section's.
type Verdict = reports.RealVerdict

// The verdicts.
const (
	Holds         = reports.RealHolds
	DoesNotHold   = reports.RealDoesNotHold
	Disagree      = reports.RealDisagree
	NotApplicable = reports.RealNotApplicable
	Errored       = reports.RealErrored
)

// Inertness is what every report states about what ran.
const Inertness = "host code executed: yes (the release's own modules); desk content executed: no"

// CaseResult is one case's three columns and its verdict.
type CaseResult struct {
	Case    *verifier.Case
	Verdict Verdict
	// Authored is the expected block as written.
	Authored string
	// Model and Real are what the model and the real code observed.
	Model map[string]any
	Real  map[string]any
	// RealMismatches are the authored keys that do not hold on the real
	// code; ModelMismatches those that do not hold on the model.
	RealMismatches  []verifier.Mismatch
	ModelMismatches []verifier.Mismatch
	// Differ lists the observed keys on which model and real code differ.
	Differ []string
	// Repro is a one-case desk reproducing a disagreement: the case's
	// given block and, as expected, what the real code observed.
	Repro []byte
	// Reason says why a case is not applicable or could not run.
	Reason string
	// AbsentTouched names the stand-ins for modules absent from
	// substituted dependencies that the case used (each threw).
	AbsentTouched []string
}

// Summary counts verdicts, as the report section does.
type Summary = reports.RealCodeSummary

// Run is a desk selection judged on one real host.
type Run struct {
	// Host is the family's host name.
	Host    string
	Hello   Hello
	Model   string
	Results []CaseResult
	Summary Summary
	// Dimensions are the boundary-response dimensions of the cases the
	// model and the real code both ran, on each, when the harness's
	// recorders count them (realcode.Answer.Boundary); nil otherwise.
	Dimensions *reports.RealCodeDimensions
	// Provenance is what the harness said of its run
	// (realcode.Provenanced), or nil.
	Provenance json.RawMessage
}

// Options steer Judge.
type Options struct {
	// Fault switches a deliberate fault of the model on (tests only:
	// it shows that a wrong model is reported as disagreeing).
	Fault *scenario.QualifiedFault
	// Release is the model release to compare with: the real host's
	// release when the model knows it, else "" (the model's default).
	Release string
}

// ModelRelease returns the model release to compare a real host with: its
// own release when the model knows it, else the newest modelled release.
func ModelRelease(host string, h Hello) (string, string) {
	var fam *scenario.Family
	for _, f := range all.Registry().Families() {
		if f.Host.Name == host {
			fam = &f
		}
	}
	if fam == nil {
		return "", fmt.Sprintf("deskcheck has no model of host %q", host)
	}
	if r, ok := fam.Host.Release(h.Release); ok {
		return r.Version, fmt.Sprintf("deskcheck's model of %s@%s (group %s)", host, r.Version, r.Group)
	}
	n, ok := fam.Host.Newest()
	if !ok {
		return "", fmt.Sprintf("deskcheck's model of %s", host)
	}
	return n.Version, fmt.Sprintf("deskcheck's model of %s@%s (group %s): the model has no release %q, so the newest is compared", host, n.Version, n.Group, h.Release)
}

// Harness is a running harness: it says what it runs and answers cases
// in order.
type Harness interface {
	// Host is the family's host name.
	Host() string
	Info() Hello
	RunAll(reqs []Request) ([]Answer, error)
}

// caseRunner is a harness declared through realcode: it is given each
// case's id and expected block beside its given block, and its answers
// may carry the boundary-response counts of its recorders.
type caseRunner interface {
	RunCases(cases []realcode.Case) ([]realcode.Answer, error)
	Provenance() json.RawMessage
}

// Judge runs cases on the model and on the real host and gives each its
// verdict. Cases of other hosts than the harness's are not applicable.
func Judge(ctx context.Context, h Harness, cases []*verifier.Case, opts Options) (*Run, error) {
	hello := h.Info()
	host := h.Host()
	release, modelName := ModelRelease(host, hello)
	if opts.Release != "" {
		release = opts.Release
	}
	run := &Run{Host: host, Hello: hello, Model: modelName, Results: make([]CaseResult, len(cases))}
	var reqs []Request
	var idx []int
	for i, c := range cases {
		r := &run.Results[i]
		r.Case, r.Authored = c, c.ExpectedRaw
		_, fam := c.Spec()
		if fam == nil || fam.Host.Name != host {
			r.Verdict, r.Reason = NotApplicable, fmt.Sprintf("not a %s case: it is judged on the real code of its own host", host)
			continue
		}
		reqs = append(reqs, Request{Scenario: c.Scenario, Given: c.Given.Raw})
		idx = append(idx, i)
	}
	answers, bounds, err := runRequests(h, reqs, idx, cases)
	if err != nil {
		return nil, err
	}
	var realTally, modelTally verifier.DimensionTally
	counted := false
	for j, a := range answers {
		r := &run.Results[idx[j]]
		c := r.Case
		sc, _ := c.Spec()
		// The model judges the case pinned to the release, as
		// deskcheck verify -host NAME@V does: a case whose hosts range
		// excludes the release, or whose scenario the release lacks, is
		// not applicable there.
		ms, err := verifier.Run(ctx, []*verifier.Case{c}, verifier.RunOptions{Pin: verifier.Hosts{host: release}, Fault: opts.Fault})
		if err != nil {
			return nil, err
		}
		m := ms[0]
		r.AbsentTouched = a.AbsentTouched
		if m.Status == verifier.NotApplicable {
			switch {
			case a.Error != "":
				r.Verdict, r.Reason = Errored, a.Error
			case a.NotApplicable != "":
				r.Verdict, r.Reason = NotApplicable, fmt.Sprintf("%s: %s (the model: %s)", hello.Source, a.NotApplicable, m.Reason)
			case c.OutsideModel() != "" || modelRunsOn(ctx, c, release):
				// The case's own range leaves the release out (a case
				// outside the model is judged by its range alone).
				r.Verdict, r.Reason = NotApplicable, m.Reason
			default:
				r.Verdict, r.Reason = Disagree, fmt.Sprintf("the model: %s, but %s runs the case", m.Reason, hello.Source)
				r.Real = a.Observed
			}
			continue
		}
		switch {
		case a.Error != "":
			r.Verdict, r.Reason = Errored, a.Error
			continue
		case a.Inexpressible:
			r.Verdict, r.Reason = NotApplicable, fmt.Sprintf("%s: %s (the model runs it; the release cannot be given it)", hello.Source, a.NotApplicable)
			r.Model = plain(m.Observed)
			continue
		case a.NotApplicable != "":
			r.Verdict, r.Reason = Disagree, fmt.Sprintf("%s: %s, but the model runs the case", hello.Source, a.NotApplicable)
			r.Model = plain(m.Observed)
			continue
		}
		for k, v := range a.Observed {
			a.Observed[k] = scenario.Normalize(v)
		}
		r.Real = a.Observed
		r.RealMismatches = verifier.Compare(c.Expected, r.Real, sc)
		if why := c.OutsideModel(); why != "" && m.Status == verifier.Errored {
			// The real code alone judges a case outside the model.
			r.Verdict, r.Reason = Holds, "outside the model, judged on the real code alone: "+why
			if len(r.RealMismatches) > 0 {
				r.Verdict = DoesNotHold
			}
			continue
		}
		if m.Status == verifier.Errored {
			r.Verdict, r.Reason = Errored, "the model could not run the case: "+m.Err
			continue
		}
		r.Model = plain(m.Observed)
		r.ModelMismatches = m.Mismatches
		r.Differ = differ(r.Model, r.Real)
		switch {
		case len(r.Differ) > 0:
			r.Verdict = Disagree
			r.Repro = reproDesk(c, r.Real, r.Differ, host, hello)
		case len(r.RealMismatches) > 0:
			r.Verdict = DoesNotHold
		default:
			r.Verdict = Holds
		}
		if bounds != nil && bounds[j] != nil {
			status := verifier.Pass
			if r.Verdict != Holds {
				status = verifier.Fail
			}
			realTally.Add([]verifier.Result{{Case: c, Status: status, Boundary: bounds[j]}})
			modelTally.Add([]verifier.Result{{Case: c, Status: m.Status, Boundary: m.Boundary}})
			counted = true
		}
	}
	for _, r := range run.Results {
		run.Summary.Add(r.Verdict)
	}
	if counted {
		run.Dimensions = &reports.RealCodeDimensions{Column: column(host, hello), Real: realTally.Dimensions(), Model: modelTally.Dimensions()}
	}
	if cr, ok := h.(caseRunner); ok {
		run.Provenance = cr.Provenance()
	}
	return run, nil
}

// runRequests answers the requests on h: through RunCases, with each
// case's id and expected block and the recorders' counts, for a harness
// declared through realcode; through RunAll otherwise (bounds is nil).
func runRequests(h Harness, reqs []Request, idx []int, cases []*verifier.Case) ([]Answer, []*scenario.Boundary, error) {
	cr, ok := h.(caseRunner)
	if !ok {
		answers, err := h.RunAll(reqs)
		return answers, nil, err
	}
	rc := make([]realcode.Case, len(reqs))
	for j, r := range reqs {
		c := cases[idx[j]]
		rc[j] = realcode.Case{ID: c.Desk.ID + "/" + c.ID, Scenario: r.Scenario, Given: []byte(r.Given), Expected: []byte(c.ExpectedRaw)}
	}
	as, err := cr.RunCases(rc)
	if err != nil {
		return nil, nil, err
	}
	answers := make([]Answer, len(as))
	bounds := make([]*scenario.Boundary, len(as))
	for j, a := range as {
		answers[j], bounds[j] = a, a.Boundary
	}
	return answers, bounds, nil
}

// column is the heading of a run's row in the boundary-response table:
// the release's own column when the model gives it one, else the source.
func column(host string, h Hello) string {
	for _, f := range all.Registry().Families() {
		if f.Host.Name != host {
			continue
		}
		if r, ok := f.Host.Release(h.Release); ok && r.Column != "" {
			return r.Column
		}
	}
	return h.Source
}

// plain turns observations into plain JSON values, as the harness's are
// once decoded: written as the reports write them (an unpaired surrogate
// as its escape) and read as JSON.parse reads them.
func plain(obs map[string]any) map[string]any {
	v, ok := jsontext.DecodeJS(jsonx.Append(nil, obs))
	if m, isObject := v.(map[string]any); ok && isObject {
		return m
	}
	return obs
}

// differ returns the keys whose values differ between a and b.
func differ(a, b map[string]any) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if !reflect.DeepEqual(a[k], b[k]) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// reproDesk is a one-case desk for a disagreement: the given block as
// written and, as expected, the block the scenario suggests from what the
// real code observed (as observe would print it), so that the desk holds on
// the real code and fails on the model as it is.
func reproDesk(c *verifier.Case, real map[string]any, keys []string, host string, hello Hello) []byte {
	given := json.RawMessage(c.Given.Raw)
	if len(bytes.TrimSpace(given)) == 0 {
		given = json.RawMessage("{}")
	}
	sugg := verifier.SuggestionsFrom(c, real)
	expected := json.RawMessage(verifier.FormatExpected(sugg, "      "))
	desk := map[string]any{
		"schemaVersion": 1,
		"id":            "real-host-" + c.Desk.ID + "-" + c.ID,
		"title":         fmt.Sprintf("deskcheck's model of %s and the real code disagree", host),
		"cases": []any{map[string]any{
			"id":       c.ID,
			"title":    fmt.Sprintf("The model and %s disagree on %v", hello.Source, keys),
			"scenario": c.Scenario,
			"given":    given,
			"expected": expected,
			"why":      fmt.Sprintf("Found by deskcheck-host verify; expected is what %s (%s) observed.", hello.Source, hello.Release),
		}},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(desk)
	return b.Bytes()
}

// modelRunsOn says whether the model runs c once as release without
// erring, whatever releases c selects.
func modelRunsOn(ctx context.Context, c *verifier.Case, release string) bool {
	rs, err := verifier.Run(ctx, []*verifier.Case{c}, verifier.RunOptions{Once: true, Release: release})
	return err == nil && rs[0].Status != verifier.Errored
}
