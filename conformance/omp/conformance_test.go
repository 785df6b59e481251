package ompconformance

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
)

// generatedCases is the size of the generated set; the seed makes it
// reproducible. Change the seed to explore; keep it fixed in CI.
const (
	generatedCases = 2400
	generatedSeed  = 20260912
	// generatedSurrogateCases of them hold an unpaired surrogate followed by
	// another escape outside safety-check text (gen.go odd).
	generatedSurrogateCases = 1085
)

const installHint = "install the release and bun with conformance/omp/install.sh (needs npm and the npm registry)"

// harnessPaths returns the bun binary and the harness, or why they cannot
// be used.
func harnessPaths() (bun, harness string, missing string) {
	dir, err := filepath.Abs(".")
	if err != nil {
		return "", "", err.Error()
	}
	harness = filepath.Join(dir, "harness.ts")
	bun = os.Getenv("DESKCHECK_BUN")
	if bun == "" {
		bun = filepath.Join(dir, "node_modules", "@oven", "bun-linux-x64-baseline", "bin", "bun")
	}
	if _, err := os.Stat(bun); err != nil {
		return "", "", "bun is not installed at " + bun
	}
	pkg, err := os.ReadFile(filepath.Join(dir, "node_modules", "@oh-my-pi", "pi-coding-agent", "package.json"))
	if err != nil {
		return "", "", "the OMP release is not installed in conformance/omp/node_modules"
	}
	var meta struct{ Version string }
	if json.Unmarshal(pkg, &meta) != nil || "@oh-my-pi/pi-coding-agent@"+meta.Version != omp.Release {
		return "", "", fmt.Sprintf("conformance/omp/node_modules holds pi-coding-agent %s, not %s", meta.Version, omp.Release)
	}
	return bun, harness, ""
}

// requireHarness skips the test when the harness is not installed, except
// in CI (CI=true), where that is a failure.
func requireHarness(t *testing.T) (bun, harness string) {
	t.Helper()
	bun, harness, missing := harnessPaths()
	if missing == "" {
		return bun, harness
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("the OMP conformance harness is missing in CI: %s; %s", missing, installHint)
	}
	t.Skipf("skipping the OMP conformance check: %s; %s", missing, installHint)
	return "", ""
}

// harnessCase is what the release observed for one case.
type harnessCase struct {
	ID       string         `json:"id"`
	Scenario string         `json:"scenario"`
	Observed jsObservations `json:"observed"`
	Error    string         `json:"error"`
}

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

// runHarness runs the desk at path through the release and returns its
// observations by case id.
func runHarness(t testing.TB, bun, harness, path string) map[string]harnessCase {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, bun, harness, path)
	cmd.Dir = filepath.Dir(harness)
	// The harness writes nothing; should anything try, it lands in a
	// temporary home. Bun's transpiler cache is off.
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+home, "PI_CODING_AGENT_DIR="+filepath.Join(home, "agent"),
		"BUN_RUNTIME_TRANSPILER_CACHE_PATH=0", "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the harness failed: %v\n%s", err, stderr.String())
	}
	out := map[string]harnessCase{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
	for sc.Scan() {
		var hc harnessCase
		if err := json.Unmarshal(sc.Bytes(), &hc); err != nil {
			t.Fatalf("the harness printed a line that is not JSON: %v\n%s", err, sc.Text())
		}
		if hc.Error != "" {
			t.Fatalf("the harness could not run %s: %s", hc.ID, hc.Error)
		}
		out[hc.ID] = hc
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
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
	compared      int
	disagreements []Disagreement
}

func compare(t testing.TB, release map[string]harnessCase, model map[string]goCase, ids []string) comparison {
	t.Helper()
	var c comparison
	for _, id := range ids {
		m := model[id]
		r, ok := release[id]
		if !ok {
			t.Fatalf("the harness printed nothing for %s", id)
		}
		if r.Scenario != m.Scenario {
			t.Fatalf("%s: scenario %q on the release side, %q on deskcheck's", id, r.Scenario, m.Scenario)
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
	t.Logf("%s: compared %d cases between deskcheck's model and %s", what, c.compared, omp.Release)
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
		t.Errorf("%s: the model disagrees with %s on %s:\n%sAs a desk, ready to add to the tests:\n%s", what, omp.Release, d.ID, diff.String(), DisagreementDesk(d))
	}
}

// compareDesk runs one desk through both sides.
func compareDesk(t *testing.T, bun, harness, path string, data []byte, fault string) comparison {
	release := runHarness(t, bun, harness, path)
	model, ids := goObserve(t, path, data, fault)
	return compare(t, release, model, ids)
}

func TestBundledDeskAgrees(t *testing.T) {
	bun, harness := requireHarness(t)
	path := filepath.Join("..", "..", "cases", "boundary-desk.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := compareDesk(t, bun, harness, path, data, "")
	c.report(t, "bundled desk")
	if c.compared == 0 {
		t.Fatal("the bundled desk has no cases")
	}
}

// generated runs the generated set through the release once per test
// binary; the fault test reuses it.
var generated struct {
	once    sync.Once
	path    string
	data    []byte
	release map[string]harnessCase
	dir     string
}

func generatedRelease(t *testing.T, bun, harness string) (string, []byte, map[string]harnessCase) {
	generated.once.Do(func() {
		dir, err := os.MkdirTemp("", "omp-conformance-")
		if err != nil {
			t.Fatal(err)
		}
		generated.dir = dir
		generated.data = Generate(generatedSeed, generatedCases)
		generated.path = filepath.Join(dir, "generated.json")
		if err := os.WriteFile(generated.path, generated.data, 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		generated.release = runHarness(t, bun, harness, generated.path)
		t.Logf("the release ran %d generated cases in %v", len(generated.release), time.Since(start).Round(time.Millisecond))
	})
	if generated.release == nil {
		t.Fatal("the generated set could not be run through the release")
	}
	return generated.path, generated.data, generated.release
}

func TestMain(m *testing.M) {
	code := m.Run()
	if generated.dir != "" {
		os.RemoveAll(generated.dir)
	}
	os.Exit(code)
}

func TestGeneratedCasesAgree(t *testing.T) {
	bun, harness := requireHarness(t)
	path, data, release := generatedRelease(t, bun, harness)
	model, ids := goObserve(t, path, data, "")
	if len(ids) < 2000 {
		t.Fatalf("only %d generated cases", len(ids))
	}
	c := compare(t, release, model, ids)
	c.report(t, fmt.Sprintf("generated set (seed %d)", generatedSeed))
}

// TestConformanceDetectsFaults shows the check has teeth: with each fault
// of host/omp switched on, the model must disagree with the release on at
// least one generated case. The generated set is taken in slices, so that a
// fault caught early costs little.
func TestConformanceDetectsFaults(t *testing.T) {
	bun, harness := requireHarness(t)
	_, data, release := generatedRelease(t, bun, harness)
	slices := sliceDesk(data, 300)
	for _, f := range omp.FaultList {
		if omp.ToolDeclarationFault(f.Fault) {
			// The faults of the bash and write tools' own declarations are
			// held to the releases' real tools by conformance/omptools.
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			compared := 0
			for i, slice := range slices {
				model, ids := goObserve(t, fmt.Sprintf("generated-%d.json", i), slice, f.Name)
				c := compare(t, release, model, ids)
				compared += c.compared
				if len(c.disagreements) > 0 {
					d := c.disagreements[0]
					t.Logf("%s: %d of %d cases in slice %d disagree, first %s on %v", f.Name, len(c.disagreements), c.compared, i, d.ID, d.Keys)
					return
				}
			}
			t.Fatalf("with fault %s on, the model still agrees with the release on all %d generated cases; %s", f.Name, compared, f.Hint)
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
