package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/gemini/geminicheck"
	"github.com/deskcheck/deskcheck/host/gemini/realhost"
	"github.com/deskcheck/deskcheck/internal/realcode"
	driver "github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/scenario"
)

// hashClasses are the releases the differential drives: one per hash class
// of the policy modules (0.55.0 and 0.59.0 hash like 0.52.0 and 0.58.0).
var hashClasses = []string{"0.40.0", "0.44.1", "0.45.0", "0.50.0", "0.52.0", "0.58.0", "0.60.0", "0.61.0"}

// randomCases is how many seeded random cases each release runs. Beside
// them, testdata/edges.jsonl holds 599 drawn with a wider hand (every tool
// the engine names, settings lists, MCP servers, extension and admin
// files, broken policy files, saved answers, odd shell syntax).
const randomCases = 1500

func cacheDir() string {
	if d := os.Getenv("DESKCHECK_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "deskcheck")
}

// installed returns the unpacked release, or skips the test (fails it on
// CI) when it is not installed.
func installed(t *testing.T, version string) (core, node string) {
	t.Helper()
	core = filepath.Join(cacheDir(), "gemini", version, "package")
	_, err := os.Stat(filepath.Join(core, "dist", "src", "policy", "policy-engine.js"))
	node, nerr := exec.LookPath("node")
	if err != nil || nerr != nil {
		msg := fmt.Sprintf("gemini %s is not installed in %s (deskcheck-host install gemini@%s), or node is missing", version, cacheDir(), version)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return core, node
}

// deskCase is one policy-check case of a desk the real code is held to.
type deskCase struct {
	id    string // desk-id/case-id
	hosts string // its gemini range: its own hosts' key, else its desk's
	given []byte
	// expected is the expected block, by key.
	expected map[string]json.RawMessage
}

// releasesDesk is the desk of the family's own tests whose cases teach the
// group boundaries.
const releasesDesk = "../geminicheck/testdata/releases-desk.json"

// deskCases returns the policy-check cases of every bundled desk (a desk
// that teaches several hosts holds some) and of the releases desk, in file
// order.
func deskCases(t *testing.T) []deskCase {
	t.Helper()
	var out []deskCase
	add := func(data []byte, path string) {
		var d struct {
			ID    string            `json:"id"`
			Hosts map[string]string `json:"hosts"`
			Cases []struct {
				ID       string                     `json:"id"`
				Scenario string                     `json:"scenario"`
				Hosts    map[string]string          `json:"hosts"`
				Given    json.RawMessage            `json:"given"`
				Expected map[string]json.RawMessage `json:"expected"`
			} `json:"cases"`
		}
		require.NoError(t, json.Unmarshal(data, &d), path)
		for _, c := range d.Cases {
			if c.Scenario != geminicheck.PolicyCheck.Name {
				continue
			}
			r, ok := c.Hosts[geminicheck.Family.Host.Name]
			if !ok {
				r = d.Hosts[geminicheck.Family.Host.Name]
			}
			out = append(out, deskCase{id: d.ID + "/" + c.ID, hosts: r, given: c.Given, expected: c.Expected})
		}
	}
	for _, f := range cases.Files() {
		add(f.Data, f.Path)
	}
	for _, path := range []string{releasesDesk, problemsDesk, savedAnswersDesk, tomlDesk, regexDesk, pathsDesk, shellDesk, extensionNamesDesk, lineTerminatorsDesk} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		add(data, path)
	}
	return out
}

// savedAnswersDesk is the desk of the family's own tests whose saved
// answers repeat a rule the CLI's updater has already written.
const savedAnswersDesk = "../geminicheck/testdata/saved-answers-desk.json"

// problemsDesk is the desk of the family's own tests whose cases make the
// loader report policy-file problems, tomlDesk the one whose policy files
// the TOML reader refuses or reads as only @iarna/toml does, and
// regexDesk the one whose argsPattern V8 reads without flags (its
// refusals in V8's words): the desks whose texts the differential holds
// equal to the release's, word for word.
const (
	problemsDesk = "../geminicheck/testdata/problems-desk.json"
	tomlDesk     = "../geminicheck/testdata/toml-desk.json"
	regexDesk    = "../geminicheck/testdata/regex-desk.json"
)

// wordsHeld reports whether the differential holds the problems' texts of
// the case id (desk-id/case-id) equal to the release's.
func wordsHeld(id string) bool {
	return strings.HasPrefix(id, "problems-desk/") || strings.HasPrefix(id, "toml-desk/") || strings.HasPrefix(id, "regex-desk/")
}

// pathsDesk holds the workspace's paths, percent-encoded paths and
// JavaScript's lowercasing; shellDesk the shell wrappers and the parser's
// corners; extensionNamesDesk an extension's name read as a JavaScript
// replacement string; lineTerminatorsDesk the four line terminators,
// which JavaScript's `.` does not match, in MCP tool names, tools.allowed
// and tools.core entries and the nested-quantifier check.
const (
	pathsDesk           = "../geminicheck/testdata/paths-desk.json"
	shellDesk           = "../geminicheck/testdata/shell-desk.json"
	extensionNamesDesk  = "../geminicheck/testdata/extension-names-desk.json"
	lineTerminatorsDesk = "../geminicheck/testdata/line-terminators-desk.json"
)

// compared are the observed keys the differential holds equal; the texts
// of policy-file problems are the release's own words, compared by count
// but on the desks wordsHeld names, whose texts are the model's too.
var compared = []string{"decision", "outcome", "rule", "heuristics", "subcommands", "policyErrors", "policyWarnings"}

// differences lists the keys on which the model and the real answer part;
// with words, the problems' texts too.
func differences(model, real map[string]any, words bool) []string {
	var out []string
	keys := compared
	if words {
		keys = append(slices.Clone(compared), "policyErrorIncludes")
	}
	for _, k := range keys {
		if !scenario.Equal(scenario.Normalize(model[k]), scenario.Normalize(real[k])) {
			m, _ := json.Marshal(model[k])
			r, _ := json.Marshal(real[k])
			out = append(out, fmt.Sprintf("%s: model %s, real %s", k, m, r))
		}
	}
	return out
}

type corpusCase struct {
	id    string
	given []byte
}

func corpus(t *testing.T) []corpusCase {
	var out []corpusCase
	for _, c := range deskCases(t) {
		out = append(out, corpusCase{c.id, c.given})
	}
	for i, g := range Random(1, randomCases) {
		out = append(out, corpusCase{fmt.Sprintf("random-%04d", i), g})
	}
	data, err := os.ReadFile("testdata/edges.jsonl")
	require.NoError(t, err)
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		out = append(out, corpusCase{fmt.Sprintf("edge-%03d", i), []byte(line)})
	}
	return out
}

// answers keeps each hash class's answers to the corpus: every test reads
// them, and the corpus runs once per process, on as many releases at once
// as there are processors.
var answers struct {
	once      sync.Once
	byRelease map[string][]map[string]any
	errs      map[string]error
}

// runReal answers every case of the corpus on the installed release, one
// of the hash classes.
func runReal(t *testing.T, version string, cases []corpusCase) []map[string]any {
	t.Helper()
	for _, v := range hashClasses {
		installed(t, v)
	}
	answers.once.Do(func() {
		answers.byRelease = map[string][]map[string]any{}
		answers.errs = map[string]error{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for _, v := range hashClasses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				out, err := answerOn(v, cases)
				mu.Lock()
				defer mu.Unlock()
				answers.byRelease[v], answers.errs[v] = out, err
			}()
		}
		wg.Wait()
	})
	require.NoError(t, answers.errs[version], "gemini %s", version)
	got, ok := answers.byRelease[version]
	require.True(t, ok, "gemini %s is no hash class", version)
	require.Len(t, got, len(cases))
	return got
}

// answerOn runs the corpus on one release as deskcheck-host verify runs
// it: in the sandbox.
func answerOn(version string, cases []corpusCase) ([]map[string]any, error) {
	h, err := driver.OpenFamily(context.Background(), realhost.Family, realcode.OpenOptions{Cache: cacheDir(), Version: version}, driver.Bounds{})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	if h.Info().Release != version {
		return nil, fmt.Errorf("the harness loaded %s", h.Info().Release)
	}
	if os.Getenv("CI") == "true" && !h.Info().Sandboxed {
		return nil, fmt.Errorf("not sandboxed in CI: %s", h.Info().Isolation)
	}
	reqs := make([]driver.Request, len(cases))
	for i, c := range cases {
		reqs[i] = driver.Request{Scenario: geminicheck.PolicyCheck.Name, Given: string(c.given)}
	}
	as, err := h.RunAll(reqs)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, len(cases))
	for i, a := range as {
		if a.Error != "" || a.NotApplicable != "" {
			return nil, fmt.Errorf("%s: %s%s\n  given %s", cases[i].id, a.Error, a.NotApplicable, cases[i].given)
		}
		out[i] = a.Observed
	}
	return out, nil
}

// TestModelAgreesWithRealCode: on every hash class, every case of the
// corpus observes on the model what the release's own engine answers.
func TestModelAgreesWithRealCode(t *testing.T) {
	cases := corpus(t)
	for _, v := range hashClasses {
		t.Run(v, func(t *testing.T) {
			real := runReal(t, v, cases)
			bad := 0
			for i, c := range cases {
				model, err := geminicheck.Check(c.given, v, gemini.Faults{})
				require.NoError(t, err, c.id)
				if d := differences(model, real[i], wordsHeld(c.id)); len(d) > 0 {
					bad++
					if bad <= 10 {
						t.Errorf("%s on gemini %s: %v\n  given %s", c.id, v, d, c.given)
					}
				}
			}
			assert.Zero(t, bad, "cases on which the model and gemini %s part", v)
		})
	}
}

// TestEveryFaultPartsFromRealCode: switching on any fault of the model
// makes it part from the real code of at least one hash class.
func TestEveryFaultPartsFromRealCode(t *testing.T) {
	cases := corpus(t)
	real := map[string][]map[string]any{}
	for _, v := range hashClasses {
		real[v] = runReal(t, v, cases)
	}
	for _, f := range gemini.FaultList {
		caught := false
		for _, v := range hashClasses {
			for i, c := range cases {
				model, err := geminicheck.Check(c.given, v, gemini.Faults{}.With(f.Fault))
				if err == nil && len(differences(model, real[v][i], false)) > 0 {
					caught = true
					break
				}
			}
			if caught {
				break
			}
		}
		assert.True(t, caught, "fault %s leaves the model equal to the real code on every case", f.Name)
	}
}

// TestCorpusReachesEveryDecision: the seeded corpus is no one-sided
// sample: on the model of 0.61.0 each decision is a fair share of it.
func TestCorpusReachesEveryDecision(t *testing.T) {
	counts := map[string]int{}
	for _, g := range Random(1, randomCases) {
		obs, err := geminicheck.Check(g, "0.61.0", gemini.Faults{})
		require.NoError(t, err, "%s", g)
		counts[obs["decision"].(string)]++
	}
	t.Logf("seed 1 on 0.61.0: %v", counts)
	for _, d := range []string{gemini.Allow, gemini.Deny, gemini.AskUser} {
		assert.Greater(t, counts[d], randomCases/10, d)
	}
}

// TestDesksPassOnRealCode: every policy-check case of every bundled desk
// and of the releases desk holds, as authored, on the real code of every
// hash class its range selects.
func TestDesksPassOnRealCode(t *testing.T) {
	cases := corpus(t)
	index := map[string]int{}
	for i, c := range cases {
		index[c.id] = i
	}
	desk := deskCases(t)
	require.NotEmpty(t, desk)
	for _, c := range desk {
		selected, err := geminicheck.Family.Host.SelectReleases(c.hosts)
		require.NoError(t, err, c.id)
		for _, r := range selected {
			if !slices.Contains(hashClasses, r.Version) {
				continue // proven identical to its class's release by TestHashClasses
			}
			real := runReal(t, r.Version, cases)[index[c.id]]
			for key, raw := range c.expected {
				var want any
				require.NoError(t, json.Unmarshal(raw, &want))
				cmp, _ := geminicheck.PolicyCheck.Expected.Comparer(key)
				assert.True(t, cmp.Match(want, real[key]), "%s on gemini %s: %s expected %s, real %v", c.id, r.Version, key, raw, real[key])
			}
		}
	}
}
