package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
	ompreal "github.com/deskcheck/deskcheck/host/omp/realhost"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/realcode"
	driver "github.com/deskcheck/deskcheck/realhost"
)

// generatedCases is the size of the generated set; the seed makes it
// reproducible. Change the seed to explore; keep it fixed in CI. Of them,
// about 60% are wrapper cases, the only scenario G0 and G1 have: 3,600
// make more than 2,000 for every group.
const (
	generatedCases = 3600
	generatedSeed  = 20260912
	minPerGroup    = 2000
	// generatedSurrogateCases of them hold an unpaired surrogate followed by
	// another escape outside safety-check text (gen.go odd).
	generatedSurrogateCases = 1623
)

// jsObservations are observations decoded as JSON.parse decodes them: an
// unpaired surrogate the release wrote as its escape stays one, where
// encoding/json would make it U+FFFD and hide a difference.
type jsObservations map[string]any

func (o *jsObservations) UnmarshalJSON(b []byte) error {
	v, ok := jsontext.DecodeJS(b)
	m, isObject := v.(map[string]any)
	if !ok || !isObject && v != nil {
		return fmt.Errorf("observations are not a JSON object: %.80s", b)
	}
	*o = m
	return nil
}

// representatives are the releases driven for each behaviour group; the
// group's other members are proven identical by the hashes of the driven
// modules (TestGroupMembersIdentical) or, where a module differs, run too.
var representatives = map[omp.Group]string{omp.G0: "14.9.9", omp.G1: "17.3.5", omp.G2: "18.1.16", omp.G3: "18.2.3"}

// substituted are the releases that cannot be installed exactly as
// published; they are run on the nearest published dependencies, and
// every result says so.
var substituted = []string{"18.2.9", "18.3.4"}

func installHint(v string) string {
	sub := ""
	for _, s := range substituted {
		if s == v {
			sub = " -substitute"
		}
	}
	return fmt.Sprintf("go run ./cmd/deskcheck-host install%s omp@%s, which needs npm and the npm registry", sub, v)
}

// requireInstalled returns the installed release v, skipping the test when
// it is missing, except in CI (CI=true), where that is a failure.
func requireInstalled(t *testing.T, v string) *ompreal.Installed {
	t.Helper()
	cache, err := driver.CacheDir()
	if err == nil {
		var in *ompreal.Installed
		if in, err = ompreal.Lookup(cache, v); err == nil {
			return in
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("omp@%s is missing in CI: %v (from the repository: %s)", v, err, installHint(v))
	}
	t.Skipf("skipping omp@%s: %v (from the repository: %s)", v, err, installHint(v))
	return nil
}

// hosts keeps one harness process per release for the whole test binary.
var hosts struct {
	mu   sync.Mutex
	byV  map[string]*driver.FamilyHost
	runs map[string]map[string]driver.Answer
}

func host(t *testing.T, in *ompreal.Installed) *driver.FamilyHost {
	t.Helper()
	hosts.mu.Lock()
	defer hosts.mu.Unlock()
	if h, ok := hosts.byV[in.Version]; ok {
		return h
	}
	h, err := driver.OpenFamily(context.Background(), ompreal.Family, realcode.OpenOptions{Cache: filepath.Dir(in.Dir), Version: in.Version}, driver.Bounds{})
	if err != nil {
		t.Fatalf("omp@%s: %v", in.Version, err)
	}
	if hosts.byV == nil {
		hosts.byV = map[string]*driver.FamilyHost{}
	}
	hosts.byV[in.Version] = h
	if len(in.Substituted) > 0 {
		t.Logf("omp@%s RUN ON SUBSTITUTED DEPENDENCIES (the nearest published, not the release's own): %v", in.Version, in.Substituted)
	}
	return h
}

// closeHost ends release v's harness process, when one is running; the
// answers it gave stay cached.
func closeHost(v string) {
	hosts.mu.Lock()
	defer hosts.mu.Unlock()
	if h, ok := hosts.byV[v]; ok {
		h.Close()
		delete(hosts.byV, v)
	}
}

// realObserve runs a desk's cases through the release's own code.
func realObserve(t *testing.T, h *driver.FamilyHost, data []byte) (map[string]driver.Answer, []string) {
	t.Helper()
	var reqs []driver.Request
	var ids []string
	for _, c := range gjson.GetBytes(data, "cases").Array() {
		ids = append(ids, c.Get("id").Str)
		reqs = append(reqs, driver.Request{Scenario: c.Get("scenario").Str, Given: c.Get("given").Raw})
	}
	answers, err := h.RunAll(reqs)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]driver.Answer, len(ids))
	for i, id := range ids {
		a := answers[i]
		if a.Error != "" {
			t.Fatalf("%s: the harness could not run %s: %s", h.Info().Source, id, a.Error)
		}
		out[id] = a
	}
	return out, ids
}

// differ returns the observation keys on which the two sides differ.
func differ(release, model map[string]any) []string {
	keys := map[string]bool{}
	for k := range release {
		keys[k] = true
	}
	for k := range model {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if !reflect.DeepEqual(release[k], model[k]) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// comparison is the outcome of comparing a desk on both sides.
type comparison struct {
	release       string
	compared      int
	notApplicable int
	// inexpressible counts cases the release cannot be given at all: a
	// lone surrogate, or a "<<" key, in a value it takes only from a
	// settings file.
	inexpressible int
	disagreements []Disagreement
}

func compare(t testing.TB, v string, real map[string]driver.Answer, model map[string]goCase, ids []string) comparison {
	t.Helper()
	c := comparison{release: v}
	for _, id := range ids {
		m := model[id]
		r, ok := real[id]
		if !ok {
			t.Fatalf("the harness printed nothing for %s", id)
		}
		switch {
		case r.NotApplicable != "" && m.NotApplicable != "":
			c.notApplicable++
			continue
		case r.Inexpressible && m.NotApplicable == "":
			c.inexpressible++
			continue
		case r.NotApplicable != "" || m.NotApplicable != "":
			c.disagreements = append(c.disagreements, Disagreement{ID: id, Scenario: m.Scenario, Given: m.Given, Release: map[string]any{"notApplicable": r.NotApplicable}, Model: map[string]any{"notApplicable": m.NotApplicable}, Keys: []string{"notApplicable"}})
			continue
		}
		c.compared++
		if keys := differ(r.Observed, m.Observed); len(keys) > 0 {
			c.disagreements = append(c.disagreements, Disagreement{ID: id, Scenario: m.Scenario, Given: m.Given, Release: r.Observed, Model: m.Observed, Keys: keys})
		}
	}
	return c
}

// report fails the test for every disagreement, printing it as a desk.
func (c comparison) report(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: compared %d cases between deskcheck's model of omp@%s and the release's own code (%d not applicable on both)", what, c.compared, c.release, c.notApplicable)
	if c.inexpressible > 0 {
		t.Logf("%s: %d cases could not be given to omp@%s: it takes an unknown mode only from a settings file, which cannot hold their lone surrogate or \"<<\" key; counted apart", what, c.inexpressible, c.release)
	}
	for i, d := range c.disagreements {
		if i == 10 {
			t.Errorf("... and %d more disagreements", len(c.disagreements)-10)
			break
		}
		var diff strings.Builder
		for _, k := range d.Keys {
			rb, _ := json.Marshal(d.Release[k])
			mb, _ := json.Marshal(d.Model[k])
			fmt.Fprintf(&diff, "  %s: release %s, model %s\n", k, rb, mb)
		}
		t.Errorf("%s: the model disagrees with omp@%s on %s:\n%sAs a desk, ready to add to the tests:\n%s", what, c.release, d.ID, diff.String(), DisagreementDesk(d, c.release))
	}
}

// edgeCases is the size of the generated edge set (GenerateEdges): tools
// named like inherited members and indexes, policies as arrays and
// strings, long reasons, more than three calls and answers.
const edgeCases = 600

// edges is the generated edge set, made once per test binary.
var edges = sync.OnceValue(func() []byte { return GenerateEdges(generatedSeed, edgeCases) })

// generated is the generated set, made once per test binary.
var generated = sync.OnceValue(func() []byte { return Generate(generatedSeed, generatedCases) })

// bundledDesk is the seed desk.
func bundledDesk(t *testing.T) []byte {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "cases", "boundary-desk.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// realGenerated runs the generated set through release v once per test
// binary; the fault test reuses it.
func realGenerated(t *testing.T, h *driver.FamilyHost, v string) (map[string]driver.Answer, []string) {
	hosts.mu.Lock()
	if r, ok := hosts.runs[v]; ok {
		hosts.mu.Unlock()
		return r, generatedIDs()
	}
	hosts.mu.Unlock()
	r, ids := realObserve(t, h, generated())
	hosts.mu.Lock()
	if hosts.runs == nil {
		hosts.runs = map[string]map[string]driver.Answer{}
	}
	hosts.runs[v] = r
	hosts.mu.Unlock()
	return r, ids
}

func generatedIDs() []string {
	var ids []string
	for _, c := range gjson.GetBytes(generated(), "cases").Array() {
		ids = append(ids, c.Get("id").Str)
	}
	return ids
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, h := range hosts.byV {
		h.Close()
	}
	os.Exit(code)
}

// checkRelease runs the bundled desk and the generated set through release
// v and through the model of v, requiring every observed key to agree.
func checkRelease(t *testing.T, v string) {
	in := requireInstalled(t, v)
	h := host(t, in)
	if len(in.Substituted) > 0 {
		t.Logf("NOTE: omp@%s was run on substituted dependencies (spec §1 notes): %v", v, in.Substituted)
	}
	if v == "18.3.4" {
		hello := strings.Join(h.Info().Adaptations, "\n")
		if !strings.Contains(hello, fmt.Sprintf("%d modules (", absentModules)) || !strings.Contains(hello, fmt.Sprintf("%d named exports (", absentExports)) {
			t.Errorf("the harness finds other absent modules or exports in 18.3.4's substitution than the %d and %d the READMEs state:\n%s", absentModules, absentExports, hello)
		}
	}
	t.Run("bundled", func(t *testing.T) {
		data := bundledDesk(t)
		real, ids := realObserve(t, h, data)
		model, _ := goObserve(t, "boundary-desk.json", data, v, "")
		compare(t, v, real, model, ids).report(t, "bundled desk")
	})
	t.Run("generated", func(t *testing.T) {
		real, ids := realGenerated(t, h, v)
		model, _ := goObserve(t, "generated.json", generated(), v, "")
		c := compare(t, v, real, model, ids)
		c.report(t, fmt.Sprintf("generated set (seed %d)", generatedSeed))
		if c.compared < minPerGroup {
			t.Errorf("only %d generated cases compared on omp@%s; at least %d are required", c.compared, v, minPerGroup)
		}
	})
	t.Run("edges", func(t *testing.T) {
		data := edges()
		real, ids := realObserve(t, h, data)
		model, _ := goObserve(t, "edges.json", data, v, "")
		c := compare(t, v, real, model, ids)
		c.report(t, fmt.Sprintf("generated edge set (seed %d)", generatedSeed))
		if c.compared < edgeCases/2 {
			t.Errorf("only %d generated edge cases compared on omp@%s; at least %d are required", c.compared, v, edgeCases/2)
		}
	})
}

// TestGroupsAgree drives one representative release of each behaviour
// group.
func TestGroupsAgree(t *testing.T) {
	for _, g := range omp.Groups() {
		v := representatives[g]
		t.Run(g.String()+"/"+v, func(t *testing.T) {
			if ver, grp, err := omp.Lookup(v); err != nil || grp != g {
				t.Fatalf("the representative %s of %s is in group %v of the model (%v)", ver, g, grp, err)
			}
			checkRelease(t, v)
		})
	}
}

// TestSubstitutedReleasesAgree drives 18.2.9 and 18.3.4, which can only be
// installed on the nearest published dependencies: the results say so.
func TestSubstitutedReleasesAgree(t *testing.T) {
	for _, v := range substituted {
		t.Run(v, func(t *testing.T) { checkRelease(t, v) })
	}
}

// TestConformanceDetectsFaults shows the check has teeth: with each fault
// of host/omp switched on, the model must disagree with the real code of at
// least one group's representative on the generated set. It is taken in
// slices, so that a fault caught early costs little.
func TestConformanceDetectsFaults(t *testing.T) {
	type side struct {
		v    string
		real map[string]driver.Answer
	}
	var sides []side
	for _, g := range []omp.Group{omp.G2, omp.G3, omp.G1, omp.G0} {
		v := representatives[g]
		in := requireInstalled(t, v)
		real, _ := realGenerated(t, host(t, in), v)
		sides = append(sides, side{v, real})
	}
	slices := sliceDesk(generated(), 300)
	for _, f := range omp.FaultList {
		if omp.ToolDeclarationFault(f.Fault) {
			// The faults of the bash and write tools' own declarations are
			// held to the releases' real tools by host/omp/conformance/tools.
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			compared := 0
			for _, s := range sides {
				for i, slice := range slices {
					model, ids := goObserve(t, fmt.Sprintf("generated-%d.json", i), slice, s.v, f.Name)
					c := compare(t, s.v, s.real, model, ids)
					compared += c.compared
					if len(c.disagreements) > 0 {
						d := c.disagreements[0]
						t.Logf("%s: caught on omp@%s: %d of %d cases in slice %d disagree, first %s on %v", f.Name, s.v, len(c.disagreements), c.compared, i, d.ID, d.Keys)
						return
					}
				}
			}
			t.Fatalf("with fault %s on, the model still agrees with the real code of every group on all %d comparisons; %s", f.Name, compared, f.Hint)
		})
	}
}

// sliceDesk splits a desk into desks of at most n cases each.
func sliceDesk(data []byte, n int) [][]byte {
	cases := gjson.GetBytes(data, "cases").Array()
	var out [][]byte
	for start := 0; start < len(cases); start += n {
		end := min(start+n, len(cases))
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"schemaVersion":1,"id":"omp-conformance-slice-%d","title":"A slice of the generated set","cases":[`, start/n)
		for i, c := range cases[start:end] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(c.Raw)
		}
		b.WriteString("]}\n")
		out = append(out, b.Bytes())
	}
	return out
}
