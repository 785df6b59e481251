package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/gemini/geminicheck"
	"github.com/deskcheck/deskcheck/host/gemini/realhost"
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

func deskGivens(t *testing.T, path string) (ids []string, givens [][]byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var d struct {
		Cases []struct {
			ID    string          `json:"id"`
			Given json.RawMessage `json:"given"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &d))
	for _, c := range d.Cases {
		ids = append(ids, c.ID)
		givens = append(givens, c.Given)
	}
	return ids, givens
}

// compared are the observed keys the differential holds equal; the texts
// of policy-file problems are the release's own words, compared by count.
var compared = []string{"decision", "outcome", "rule", "heuristics", "subcommands", "policyErrors", "policyWarnings"}

// differences lists the keys on which the model and the real answer part.
func differences(model, real map[string]any) []string {
	var out []string
	for _, k := range compared {
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
	for _, path := range []string{"../../cases/gemini-desk.json", "../../host/gemini/geminicheck/testdata/releases-desk.json"} {
		ids, givens := deskGivens(t, path)
		for i := range ids {
			out = append(out, corpusCase{ids[i], givens[i]})
		}
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

// answers keeps each release's answers to the corpus: both tests read
// them, and a release runs once per process.
var answers = struct {
	sync.Mutex
	byRelease map[string][]map[string]any
}{byRelease: map[string][]map[string]any{}}

// runReal answers every case of the corpus on the installed release.
func runReal(t *testing.T, version string, cases []corpusCase) []map[string]any {
	answers.Lock()
	defer answers.Unlock()
	if got, ok := answers.byRelease[version]; ok && len(got) == len(cases) {
		return got
	}
	installed(t, version)
	// The release runs as deskcheck-host verify runs it: in the sandbox.
	h, err := driver.OpenFamily(context.Background(), realhost.Family, cacheDir(), version, 0)
	require.NoError(t, err)
	defer h.Close()
	assert.Equal(t, version, h.Info().Release)
	if os.Getenv("CI") == "true" {
		require.True(t, h.Info().Sandboxed, h.Info().Isolation)
	}
	reqs := make([]driver.Request, len(cases))
	for i, c := range cases {
		reqs[i] = driver.Request{Scenario: geminicheck.PolicyCheck.Name, Given: string(c.given)}
	}
	as, err := h.RunAll(reqs)
	require.NoError(t, err, "gemini %s", version)
	out := make([]map[string]any, len(cases))
	for i, a := range as {
		require.Empty(t, a.Error, "%s on gemini %s: %s", cases[i].id, version, cases[i].given)
		require.Empty(t, a.NotApplicable, cases[i].id)
		out[i] = a.Observed
	}
	answers.byRelease[version] = out
	return out
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
				if d := differences(model, real[i]); len(d) > 0 {
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
				if err == nil && len(differences(model, real[v][i])) > 0 {
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

// TestDesksPassOnRealCode: every case of the bundled desk and of the
// releases desk holds, as authored, on the real code of every hash class
// its range selects.
func TestDesksPassOnRealCode(t *testing.T) {
	cases := corpus(t)
	index := map[string]int{}
	for i, c := range cases {
		index[c.id] = i
	}
	for _, path := range []string{"../../cases/gemini-desk.json", "../../host/gemini/geminicheck/testdata/releases-desk.json"} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var d struct {
			Cases []struct {
				ID       string                     `json:"id"`
				Hosts    map[string]string          `json:"hosts"`
				Expected map[string]json.RawMessage `json:"expected"`
			} `json:"cases"`
		}
		require.NoError(t, json.Unmarshal(data, &d))
		for _, c := range d.Cases {
			selected, err := geminicheck.Family.Host.SelectReleases(c.Hosts["gemini"])
			require.NoError(t, err)
			for _, r := range selected {
				if !slices.Contains(hashClasses, r.Version) {
					continue // proven identical to its class's release by TestHashClasses
				}
				real := runReal(t, r.Version, cases)[index[c.ID]]
				for key, raw := range c.Expected {
					var want any
					require.NoError(t, json.Unmarshal(raw, &want))
					cmp, _ := geminicheck.PolicyCheck.Expected.Comparer(key)
					assert.True(t, cmp.Match(want, real[key]), "%s on gemini %s: %s expected %s, real %v", c.ID, r.Version, key, raw, real[key])
				}
			}
		}
	}
}
