package verifier

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/scenario"
)

// uniquePoints sorts the points a run reached and drops repeats.
func uniquePoints(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	out := append([]string(nil), names...)
	sort.Strings(out)
	k := 1
	for i := 1; i < len(out); i++ {
		if out[i] != out[k-1] {
			out[k] = out[i]
			k++
		}
	}
	return out[:k]
}

// Made is a case the tool made from one of a family's generated inputs:
// to reach a point no case reaches, or to kill a surviving mutant. Its
// expected block is what the correct model observes.
type Made struct {
	ID       string
	Title    string
	Why      string
	Scenario string
	// Given is the JSON of the given block.
	Given    string
	Expected []Suggestion
	// Point is the point the case reaches, Mutant the mutant it kills
	// (one of them is set).
	Point  string
	Mutant string
	// Hosts is the case's release range of its host ("" for none).
	Hosts string

	host     string
	mutantID int
}

// ListedCases bounds the cases a PointStatus lists; Count counts them all.
const ListedCases = 10

// PointStatus is one point of a family with the cases that reach it.
type PointStatus struct {
	Point scenario.Point
	// Count is how many cases reach it; Cases lists the <desk-id>/<case-id>
	// of the first ListedCases of them.
	Count int
	Cases []string
	// Made, for a point no case reaches, is a case that does (nil when no
	// generated input reaches it).
	Made *Made
}

// PointCoverage is the coverage of one family's points, by the cases of
// one desk (Desk set) or of every desk read (Desk empty).
type PointCoverage struct {
	Desk   string
	Host   string
	Points []PointStatus
}

// Reached counts the points at least one case reaches.
func (c PointCoverage) Reached() int {
	n := 0
	for _, p := range c.Points {
		if p.Count > 0 {
			n++
		}
	}
	return n
}

// Percent is the share of points reached, 0 to 100 (100 with no point).
func (c PointCoverage) Percent() float64 {
	if len(c.Points) == 0 {
		return 100
	}
	return 100 * float64(c.Reached()) / float64(len(c.Points))
}

// Coverage is the boundary coverage of a run: per desk and family, and
// per family over every desk.
type Coverage struct {
	Desks    []PointCoverage
	Families []PointCoverage
}

// Missing lists the coverages below min percent.
func (c Coverage) Missing(min float64) []PointCoverage {
	var out []PointCoverage
	for _, d := range c.Desks {
		if d.Percent() < min {
			out = append(out, d)
		}
	}
	return out
}

// MeasureCoverage says, for every family that has a case among results,
// which of its points each desk's cases reach (a case that ran counts,
// passed or not: the points come from what the recorders saw), and makes a
// case for each point no case reaches from the family's generated inputs,
// kept only once running it on the model has shown that it reaches the
// point (when makeCases is set; otherwise nothing more is run).
func MeasureCoverage(ctx context.Context, results []Result, makeCases bool) Coverage {
	var t CoverageTally
	t.Add(results)
	return t.Coverage(ctx, makeCases)
}

// CoverageTally adds up, results after results, the boundary points the
// cases reach, keeping for each point its count and the first ListedCases
// cases; its Coverage is MeasureCoverage of all the results added.
type CoverageTally struct {
	reached map[coverKey]map[string]*coverCount
	order   []coverKey
	fams    map[string]*scenario.Family
}

type coverKey struct{ desk, host string }

type coverCount struct {
	n     int
	cases []string
}

// Add counts the points the results reached.
func (t *CoverageTally) Add(results []Result) {
	if t.reached == nil {
		t.reached, t.fams = map[coverKey]map[string]*coverCount{}, map[string]*scenario.Family{}
	}
	for _, r := range results {
		_, fam := r.Case.Spec()
		if fam == nil || len(fam.Points) == 0 {
			continue
		}
		t.fams[fam.Host.Name] = fam
		keys := []coverKey{{r.Case.Desk.ID, fam.Host.Name}, {"", fam.Host.Name}}
		for _, k := range keys {
			if t.reached[k] == nil {
				k.desk = strings.Clone(k.desk) // kept: nothing of the file may stay
				t.reached[k] = map[string]*coverCount{}
				t.order = append(t.order, k)
			}
		}
		if len(r.Points) == 0 {
			continue
		}
		id := "" // made for the first list that keeps it: most lists are full
		for _, k := range keys {
			m := t.reached[k]
			for _, p := range r.Points {
				c := m[p]
				if c == nil {
					c = &coverCount{}
					m[strings.Clone(p)] = c
				}
				c.n++
				if len(c.cases) < ListedCases {
					if id == "" {
						id = r.Case.FullID()
					}
					c.cases = append(c.cases, id)
				}
			}
		}
	}
}

// Coverage is the coverage of the results added, making a case for each
// point none reached when makeCases is set.
func (t *CoverageTally) Coverage(ctx context.Context, makeCases bool) Coverage {
	reached, order, fams := t.reached, t.order, t.fams
	// Make one case per unreached point of each family, once, in parallel.
	type want struct {
		host  string
		point scenario.Point
	}
	var wants []want
	seen := map[want]bool{}
	for _, k := range order {
		for _, p := range fams[k.host].Points {
			w := want{k.host, p}
			if makeCases && reached[k][p.Name] == nil && !seen[w] {
				seen[w] = true
				wants = append(wants, w)
			}
		}
	}
	searches := map[string]*Search{}
	for _, w := range wants {
		if searches[w.host] == nil {
			searches[w.host] = NewSearch(fams[w.host])
		}
	}
	made := make([]*Made, len(wants))
	parallel.For(len(wants), func(i int) { made[i] = searches[wants[i].host].Reach(ctx, wants[i].point) })
	madeFor := map[want]*Made{}
	for i, w := range wants {
		madeFor[w] = made[i]
	}
	var cov Coverage
	for _, k := range order {
		pc := PointCoverage{Desk: k.desk, Host: k.host}
		for _, p := range fams[k.host].Points {
			st := PointStatus{Point: p}
			if t := reached[k][p.Name]; t != nil {
				st.Count, st.Cases = t.n, t.cases
			}
			if st.Count == 0 {
				st.Made = madeFor[want{k.host, p}]
			}
			pc.Points = append(pc.Points, st)
		}
		if k.desk == "" {
			cov.Families = append(cov.Families, pc)
		} else {
			cov.Desks = append(cov.Desks, pc)
		}
	}
	return cov
}

// probe is one run of a generated input on the model.
type probe struct {
	sc       *scenario.Scenario
	compiled *scenario.Compiled
	observed map[string]any
	points   []string
	expected []Suggestion
	fields   []Field
	ok       bool
}

// compileProbe decodes a candidate of the family once, for every run of
// it; a probe without a scenario is not ok.
func compileProbe(fam *scenario.Family, c scenario.Candidate) (p probe) {
	for _, sc := range fam.Scenarios {
		if sc.Name == c.Scenario {
			p.sc = sc
		}
	}
	if p.sc != nil {
		p.compiled = p.sc.Compile([]byte(c.Given), nil)
	}
	return p
}

// runProbe runs a compiled candidate on the model with mutant switched on
// (zero: the correct model). A candidate that cannot run, or panics, is
// not ok.
func runProbe(ctx context.Context, p probe, mutant int) probe {
	p.observed, p.points, p.expected, p.fields, p.ok = nil, nil, nil, nil, false
	if p.sc == nil {
		return p
	}
	defer func() {
		if recover() != nil {
			p.ok = false
		}
	}()
	obs, err := p.compiled.Run(ctx, scenario.Env{Mutant: mutant, Trace: &scenario.Trace{}})
	if err != nil {
		return p
	}
	for k, v := range obs.Values {
		obs.Values[k] = scenario.Normalize(v)
	}
	p.observed, p.points, p.ok = obs.Values, uniquePoints(obs.Points), true
	if mutant == 0 {
		p.expected = suggestions(p.sc, p.compiled, obs.Values)
		p.fields = fieldsOf(p.expected)
	}
	return p
}

func fieldsOf(s []Suggestion) []Field {
	out := make([]Field, len(s))
	for i, x := range s {
		out[i] = Field{Key: x.Key, Value: gjson.Parse(jsonValue(x.Value))}
	}
	return out
}

func (p probe) reaches(point string) bool {
	i := sort.SearchStrings(p.points, point)
	return i < len(p.points) && p.points[i] == point
}

// Search makes cases from one family's generated inputs. It runs each
// input on the correct model at most once, however many points and
// mutants it is searched for; it is safe for concurrent use.
type Search struct {
	fam        *scenario.Family
	candidates []scenario.Candidate
	correct    []probeOnce
}

type probeOnce struct {
	once sync.Once
	p    probe
}

// NewSearch generates the family's inputs.
func NewSearch(fam *scenario.Family) *Search {
	s := &Search{fam: fam}
	if fam.Generate != nil {
		s.candidates = fam.Generate()
	}
	s.correct = make([]probeOnce, len(s.candidates))
	return s
}

func (s *Search) correctRun(ctx context.Context, i int) probe {
	slot := &s.correct[i]
	slot.once.Do(func() { slot.p = runProbe(ctx, compileProbe(s.fam, s.candidates[i]), 0) })
	return slot.p
}

// Reach makes a case that reaches point from the generated inputs aimed at
// it, or returns nil when none does.
func (s *Search) Reach(ctx context.Context, point scenario.Point) *Made {
	for i, c := range s.candidates {
		if !aims(c, point.Name) {
			continue
		}
		if p := s.correctRun(ctx, i); p.ok && p.reaches(point.Name) {
			return &Made{
				ID: "reach-" + slug(point.Name), Title: "Reaches " + point.Name + ": " + c.Title,
				Why:      "No case of the desk reaches " + point.Name + " (" + point.Text + "); this one does, with the expected block the correct model observes.",
				Scenario: c.Scenario, Given: c.Given, Expected: p.expected, Point: point.Name, Hosts: c.Hosts, host: s.fam.Host.Name,
			}
		}
	}
	return nil
}

func aims(c scenario.Candidate, point string) bool {
	for _, a := range c.Aims {
		if a == point {
			return true
		}
	}
	return false
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			b.WriteRune(r)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// MutantResult says which cases killed one generated mutant.
type MutantResult struct {
	Host   string
	Mutant scenario.Mutant
	// Cases is how many cases of the mutant's family ran under it.
	Cases int
	// KilledBy lists the cases that did not pass under the mutant.
	KilledBy []string
	// Made, for a survivor, is a case that kills it (nil when no
	// generated input does).
	Made *Made
}

// FullName is <host>/<mutant>, e.g. omp/cap/write/raise.
func (m MutantResult) FullName() string { return m.Host + "/" + m.Mutant.Name }

// Killed reports whether a case noticed the mutant.
func (m MutantResult) Killed() bool { return len(m.KilledBy) > 0 }

// MutantScore is the mutation score of one family's mutants against the
// cases of one desk (Desk set) or of every desk (Desk empty).
type MutantScore struct {
	Desk, Host string
	Killed     int
	Total      int
	// Survivors are the full names of the mutants no case of the desk
	// kills, in declaration order.
	Survivors []string
}

// Mutants is the outcome of a mutant run.
type Mutants struct {
	Results []MutantResult
	// Equivalent are the mutants left out: each behaves like the correct
	// host on every input, for the reason it declares.
	Equivalent []MutantResult
	Desks      []MutantScore
	Families   []MutantScore
	// Excluded lists cases that do not pass on the correct model.
	Excluded []string
}

// Survived counts the mutants no case kills.
func (m Mutants) Survived() int {
	n := 0
	for _, r := range m.Results {
		if !r.Killed() {
			n++
		}
	}
	return n
}

// MeasureMutants runs every generated mutant of the families with a case
// among baseline (a verify run's results) whose full name matches keep
// (nil: all), against the cases of its own family that pass on the
// correct model, scores them per desk and family, and makes a killing case
// for each survivor. Mutants declared equivalent are not run.
func MeasureMutants(ctx context.Context, baseline []Result, keep func(string) bool) Mutants {
	var out Mutants
	sound := map[string][]*Case{}
	fams := map[string]*scenario.Family{}
	var hosts []string
	desksOf := map[string][]string{}
	for _, r := range baseline {
		_, fam := r.Case.Spec()
		if fam == nil {
			continue
		}
		if fams[fam.Host.Name] == nil {
			fams[fam.Host.Name] = fam
			hosts = append(hosts, fam.Host.Name)
		}
		if r.Status != Pass {
			out.Excluded = append(out.Excluded, r.Case.FullID())
			continue
		}
		sound[fam.Host.Name] = append(sound[fam.Host.Name], r.Case)
		if d := desksOf[fam.Host.Name]; len(d) == 0 || d[len(d)-1] != r.Case.Desk.ID {
			desksOf[fam.Host.Name] = append(desksOf[fam.Host.Name], r.Case.Desk.ID)
		}
	}
	type job struct {
		host string
		m    scenario.Mutant
	}
	var jobs []job
	for _, h := range hosts {
		for _, m := range fams[h].Mutants {
			if keep != nil && !keep(h+"/"+m.Name) {
				continue
			}
			if m.Equivalent != "" {
				out.Equivalent = append(out.Equivalent, MutantResult{Host: h, Mutant: m})
				continue
			}
			jobs = append(jobs, job{h, m})
		}
	}
	results := make([]MutantResult, len(jobs))
	parallel.For(len(jobs), func(i int) {
		j := jobs[i]
		q := scenario.QualifiedFault{Host: j.host, Fault: scenario.Fault{Name: j.m.Name, Bug: j.m.Text, Mutant: j.m.ID}}
		r := MutantResult{Host: j.host, Mutant: j.m, Cases: len(sound[j.host])}
		for _, c := range sound[j.host] {
			if res := judge(ctx, c, nil, &q); res.Status != Pass {
				r.KilledBy = append(r.KilledBy, c.FullID())
			}
		}
		results[i] = r
	})
	// Score per desk: a mutant is killed on a desk when one of its cases
	// kills it.
	for _, h := range hosts {
		for _, desk := range append(desksOf[h], "") {
			s := MutantScore{Desk: desk, Host: h}
			for _, r := range results {
				if r.Host != h {
					continue
				}
				s.Total++
				killed := false
				for _, id := range r.KilledBy {
					if desk == "" || strings.HasPrefix(id, desk+"/") {
						killed = true
						break
					}
				}
				if killed {
					s.Killed++
				} else {
					s.Survivors = append(s.Survivors, r.FullName())
				}
			}
			if desk == "" {
				out.Families = append(out.Families, s)
			} else {
				out.Desks = append(out.Desks, s)
			}
		}
	}
	// A killing case for every mutant some desk lets survive.
	var survivors []int
	for i, r := range results {
		for _, d := range out.Desks {
			if d.Host == r.Host && slices.Contains(d.Survivors, r.FullName()) {
				survivors = append(survivors, i)
				break
			}
		}
	}
	searches := map[string]*Search{}
	for _, i := range survivors {
		if h := results[i].Host; searches[h] == nil {
			searches[h] = NewSearch(fams[h])
		}
	}
	parallel.For(len(survivors), func(k int) {
		r := &results[survivors[k]]
		r.Made = searches[r.Host].Kill(ctx, r.Mutant)
	})
	out.Results = results
	return out
}

// Distinguishes returns the first of the family's generated inputs whose
// case (its expected block from the correct model) fails under the mutant,
// and whether there is one.
func (s *Search) Distinguishes(ctx context.Context, m scenario.Mutant) (scenario.Candidate, bool) {
	c, _, ok := s.distinguish(ctx, m)
	return c, ok
}

func (s *Search) distinguish(ctx context.Context, m scenario.Mutant) (scenario.Candidate, probe, bool) {
	for i, c := range s.candidates {
		good := s.correctRun(ctx, i)
		if !good.ok {
			continue
		}
		bad := runProbe(ctx, good, m.ID)
		if !bad.ok || len(Compare(good.fields, bad.observed, good.sc)) > 0 {
			return c, good, true
		}
	}
	return scenario.Candidate{}, probe{}, false
}

// Kill makes a case that kills the mutant, or returns nil when no
// generated input does.
func (s *Search) Kill(ctx context.Context, m scenario.Mutant) *Made {
	fam := s.fam
	c, good, ok := s.distinguish(ctx, m)
	if !ok {
		return nil
	}
	return &Made{
		ID: "kill-" + slug(fam.Host.Name+"/"+m.Name), Title: "Kills " + fam.Host.Name + "/" + m.Name + ": " + c.Title,
		Why:      "A host where " + m.Text + " passes every case of the desk; this case fails on it and passes on the correct host.",
		Scenario: c.Scenario, Given: c.Given, Expected: good.expected, Mutant: fam.Host.Name + "/" + m.Name,
		Hosts: c.Hosts, host: fam.Host.Name, mutantID: m.ID,
	}
}

// MadeDesk renders made cases as one complete desk, ready to save: every
// case with its given and the expected block the correct model observes.
func MadeDesk(reg *scenario.Registry, id, title string, made []*Made) []byte {
	var b strings.Builder
	sources := map[string]string{}
	for _, m := range made {
		if sc, fam, ok := reg.Lookup(m.Scenario); ok {
			sources[sc.SourceKey] = fam.Host.Model + " (" + fam.Host.Reference + ")"
		}
	}
	keys := make([]string, 0, len(sources))
	for k := range sources {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, "{\n  \"schemaVersion\": 1,\n  \"id\": %s,\n  \"title\": %s,\n", jsonValue(id), jsonValue(title))
	b.WriteString("  \"label\": \"TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS\",\n")
	b.WriteString("  \"domain\": \"Cases deskcheck made from its host models' generated inputs; nothing in them names a real system.\",\n")
	b.WriteString("  \"executionPolicy\": \"Inert cases: nothing in this file is executed.\",\n  \"sources\": {")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    %s: %s", jsonValue(k), jsonValue(sources[k]))
	}
	b.WriteString("\n  },\n  \"cases\": [")
	for i, m := range made {
		if i > 0 {
			b.WriteString(",")
		}
		sc, _, _ := reg.Lookup(m.Scenario)
		src := ""
		if sc != nil {
			src = jsonValue(sc.SourceKey)
		}
		hosts := ""
		if m.Hosts != "" {
			hosts = fmt.Sprintf("\n      \"hosts\": {%s: %s},", jsonValue(m.host), jsonValue(m.Hosts))
		}
		fmt.Fprintf(&b, "\n    {\n      \"id\": %s,\n      \"title\": %s,\n      \"scenario\": %s,%s\n      \"given\": %s,\n      \"expected\": %s,\n      \"why\": %s,\n      \"sourceRefs\": [%s]\n    }",
			jsonValue(m.ID), jsonValue(m.Title), jsonValue(m.Scenario), hosts, indentJSON(m.Given, "      "), FormatExpected(m.Expected, "      "), jsonValue(m.Why), src)
	}
	b.WriteString("\n  ],\n  \"sourceOnly\": []\n}\n")
	return []byte(b.String())
}

// indentJSON re-indents a compact JSON value for a desk.
func indentJSON(raw, indent string) string {
	return strings.TrimSpace(gjson.Parse(raw).Get("@pretty:{\"prefix\":" + jsonValue(indent) + ",\"indent\":\"  \"}").Raw)
}

// CheckMade loads a made desk as a case file and runs it: every case must
// pass on the correct model, reach its point, and fail under its mutant.
// It returns what does not hold.
func CheckMade(ctx context.Context, reg *scenario.Registry, desk []byte, made []*Made) error {
	d, ds := Load(reg, "suggested.json", desk, DefaultLimits)
	if ds.HasErrors() || d == nil {
		return fmt.Errorf("the suggested desk does not load: %v", ds)
	}
	if len(d.Cases) != len(made) {
		return fmt.Errorf("the suggested desk holds %d cases, want %d", len(d.Cases), len(made))
	}
	var problems []string
	for i, c := range d.Cases {
		m := made[i]
		res := judge(ctx, c, nil, nil)
		if res.Status != Pass {
			problems = append(problems, c.ID+" does not pass on the correct model")
		}
		if m.Point != "" && !slices.Contains(res.Points, m.Point) {
			problems = append(problems, c.ID+" does not reach "+m.Point)
		}
		if m.mutantID != 0 {
			q := scenario.QualifiedFault{Host: m.host, Fault: scenario.Fault{Name: m.Mutant, Mutant: m.mutantID}}
			if judge(ctx, c, nil, &q).Status == Pass {
				problems = append(problems, c.ID+" passes under "+m.Mutant)
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}
