package arenacheck

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

var update = flag.Bool("update", false, "rewrite the goldens under testdata/")

// adapterDesk is a desk of one denied item whose case names hosts (none
// when empty).
func adapterDesk(hosts string) []byte {
	h := ""
	if hosts != "" {
		h = `"hosts": {"arena": "` + hosts + `"},`
	}
	return []byte(`{
  "schemaVersion": 1, "id": "adapters", "title": "t", "label": "TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS",
  "domain": "d", "executionPolicy": "Inert cases: nothing in this file is executed.", "sources": {"arena": "s"},
  "cases": [
    {"id": "denied", "title": "t", "scenario": "arena", "family": "protected-file", ` + h + `
     "given": {"turns": [[{"action": "file.read.protected"}]]},
     "expected": {"decisions": ["deny"], "reasons": ["protected_path"], "effects": 0, "visibleDenials": 1,
                  "serviceRequests": 1, "modelRequests": 2, "traceComplete": true},
     "why": "w", "sourceRefs": ["arena"]}
  ],
  "sourceOnly": []
}`)
}

func arenaRegistry(t *testing.T) *scenario.Registry {
	t.Helper()
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	return reg
}

func judgedOn(r verifier.Result) []string {
	var out []string
	for _, v := range r.Releases {
		if v.Status != verifier.NotApplicable {
			out = append(out, v.Release)
		}
	}
	return out
}

// TestCaseNamesItsAdapters: a case is run on the model of each adapter
// its hosts range names, on every adapter when it names none, and -host
// pins one.
func TestCaseNamesItsAdapters(t *testing.T) {
	reg := arenaRegistry(t)
	all := []string{"vanilla@0.1.0", "langgraph@1.2.11", "openai-agents@0.22.0"}
	tests := []struct {
		name, hosts string
		pin         verifier.Hosts
		want        []string
		status      verifier.Status
	}{
		{"no range: every adapter", "", nil, all, verifier.Pass},
		{"one adapter runs only there", "langgraph", nil, []string{"langgraph@1.2.11"}, verifier.Pass},
		{"name and version", "openai-agents@0.22.0", nil, []string{"openai-agents@0.22.0"}, verifier.Pass},
		{"a list, in the host's order", "openai-agents vanilla", nil, []string{"vanilla@0.1.0", "openai-agents@0.22.0"}, verifier.Pass},
		{"every one", "*", nil, all, verifier.Pass},
		{"-host pins a case with no range", "", verifier.Hosts{"arena": "langgraph@1.2.11"}, []string{"langgraph@1.2.11"}, verifier.Pass},
		{"-host inside the range", "vanilla langgraph", verifier.Hosts{"arena": "langgraph@1.2.11"}, []string{"langgraph@1.2.11"}, verifier.Pass},
		{"-host outside the range", "vanilla", verifier.Hosts{"arena": "langgraph@1.2.11"}, nil, verifier.NotApplicable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ds := verifier.Load(reg, "adapters.json", adapterDesk(tt.hosts), verifier.Limits{})
			require.False(t, ds.HasErrors(), "%v", ds)
			res, err := verifier.Run(context.Background(), d.Cases, verifier.RunOptions{Pin: tt.pin})
			require.NoError(t, err)
			assert.Equal(t, tt.status, res[0].Status)
			assert.Equal(t, tt.want, judgedOn(res[0]))
		})
	}
}

// TestPinParsesAnAdapter: -host names an adapter by name or by name and
// version, and stands for the release itself.
func TestPinParsesAnAdapter(t *testing.T) {
	reg := arenaRegistry(t)
	for _, tt := range []struct{ value, want, problem string }{
		{"arena@langgraph", "langgraph@1.2.11", ""},
		{"arena@langgraph@1.2.11", "langgraph@1.2.11", ""},
		{"arena@vanilla", "vanilla@0.1.0", ""},
		{"arena@crewai", "", "is not a modelled release (modelled arena releases: vanilla@0.1.0, langgraph@1.2.11, openai-agents@0.22.0)"},
		{"arena@langgraph@1.3.0", "", "is not a modelled release"},
	} {
		_, v, err := verifier.ParseHost(reg, tt.value)
		if tt.problem != "" {
			require.Error(t, err, tt.value)
			assert.Contains(t, err.Error(), tt.problem, tt.value)
			continue
		}
		require.NoError(t, err, tt.value)
		assert.Equal(t, tt.want, v, tt.value)
	}
}

// TestUnknownAdapterIsALocatedError: a range naming an adapter the
// arena does not have, or a version it does not model, is a load error at
// the range's place in the file.
func TestUnknownAdapterIsALocatedError(t *testing.T) {
	reg := arenaRegistry(t)
	for _, tt := range []struct{ hosts, problem string }{
		{"langraph", `"langraph" names no modelled arena release (modelled arena releases: vanilla@0.1.0, langgraph@1.2.11, openai-agents@0.22.0); did you mean "langgraph"?`},
		{"vanilla crewai", `"crewai" names no modelled arena release`},
		{"langgraph@1.3.0", `"langgraph@1.3.0" is not modelled: langgraph models langgraph@1.2.11`},
		{">=1.0.0", `">=1.0.0" names no modelled arena release`},
	} {
		data := adapterDesk(tt.hosts)
		_, ds := verifier.Load(reg, "adapters.json", data, verifier.Limits{})
		require.True(t, ds.HasErrors(), tt.hosts)
		var hit *verifier.Diagnostic
		for i := range ds {
			if ds[i].Pointer == "/cases/0/hosts/arena" {
				hit = &ds[i]
			}
		}
		require.NotNil(t, hit, "%s: %v", tt.hosts, ds)
		assert.Contains(t, hit.Summary, tt.problem, tt.hosts)
		line := 1 + bytes.Count(data[:bytes.Index(data, []byte(`"hosts"`))], []byte("\n"))
		assert.Equal(t, line, hit.Line, "%s: located at the range", tt.hosts)
		assert.Greater(t, hit.Col, 0, tt.hosts)
		assert.Contains(t, hit.String(), "adapters.json:", tt.hosts)
	}
}

// bundledDesk loads cases/arena-desk.json.
func bundledDesk(t *testing.T, reg *scenario.Registry) *verifier.Desk {
	t.Helper()
	data, err := os.ReadFile("../../../cases/arena-desk.json")
	require.NoError(t, err)
	d, ds := verifier.Load(reg, "cases/arena-desk.json", data, verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	return d
}

// reportOf runs the desk's cases (under fault, when named) and builds the
// report.
func reportOf(t *testing.T, reg *scenario.Registry, d *verifier.Desk, fault string) *reports.Report {
	t.Helper()
	var opts verifier.RunOptions
	if fault != "" {
		for _, f := range reg.Faults() {
			if f.Host+"/"+f.Fault.Name == fault {
				opts.Fault = &f
			}
		}
		require.NotNil(t, opts.Fault, fault)
	}
	res, err := verifier.Run(context.Background(), d.Cases, opts)
	require.NoError(t, err)
	s := &verifier.SuiteResult{Registry: reg, Desks: []*verifier.Desk{d}, Results: res, Summary: verifier.Summarize(res, nil)}
	return reports.Build(s, reports.Origin{Time: time.Unix(0, 0)})
}

// columnTexts reads each adapter column's six figures from the report.
func columnTexts(r *reports.Report) map[string]string {
	out := map[string]string{}
	for _, c := range r.Dimensions.Releases {
		d := c.Dimensions
		amp := "n/a"
		if d.RetryAmplification.Applicable {
			amp = d.RetryAmplification.Ratio + " " + d.RetryAmplification.Basis
		}
		out[c.Release] = strings.Join([]string{frac(d.DenialPropagation), frac(d.AllowedWork), frac(d.FailClosed), amp, frac(d.TraceCompleteness)}, " ")
	}
	return out
}

func frac(d verifier.Dimension) string {
	if !d.Applicable {
		return "n/a"
	}
	return strconv.Itoa(d.Numerator) + "/" + strconv.Itoa(d.Denominator)
}

// TestAdapterColumns: the bundled desk gives the seed's table on every
// adapter's model, each column stating its provenance; a fault whose
// effect depends on the framework moves only the columns of the adapters
// where it shows.
func TestAdapterColumns(t *testing.T) {
	reg := arenaRegistry(t)
	d := bundledDesk(t, reg)
	seed := "10/10 14/14 16/16 1.00 scripted 16/16"
	tests := []struct {
		fault string
		want  map[string]string
	}{
		{"", map[string]string{"vanilla@0.1.0": seed, "langgraph@1.2.11": seed, "openai-agents@0.22.0": seed}},
		// The plain loop and LangGraph end the item at the raise; the
		// Agents SDK hands the model the message, body and all.
		{"arena/raise-on-denial", map[string]string{
			"vanilla@0.1.0":        "0/10 12/14 16/16 0.83 scripted 8/16",
			"langgraph@1.2.11":     "0/10 13/14 16/16 0.88 scripted 8/16",
			"openai-agents@0.22.0": seed,
		}},
		{"arena/drop-denial", map[string]string{
			"vanilla@0.1.0": "0/10 14/14 16/16 1.00 scripted 16/16", "langgraph@1.2.11": "0/10 14/14 16/16 1.00 scripted 16/16",
			"openai-agents@0.22.0": "0/10 14/14 16/16 1.00 scripted 16/16",
		}},
	}
	for _, tt := range tests {
		t.Run(cmp.Or(tt.fault, "correct"), func(t *testing.T) {
			r := reportOf(t, reg, d, tt.fault)
			assert.Equal(t, tt.want, columnTexts(r))
			require.Len(t, r.Dimensions.Releases, 3)
			for i, name := range []string{"vanilla 0.1.0 (openai 3.0.0)", "LangGraph 1.2.11", "OpenAI Agents 0.22.0"} {
				c := r.Dimensions.Releases[i]
				assert.Equal(t, name, c.Column)
				facts := map[string]string{}
				for _, f := range c.Provenance {
					facts[f.Name] = f.Value
				}
				assert.Equal(t, name, facts["framework"])
				assert.Equal(t, "mock", facts["mode"])
				assert.Equal(t, "6 model requests", facts["turn limit"])
				assert.Equal(t, "60 s per model request, 120 s per item", facts["timeout"])
			}
		})
	}
}

// TestAdapterTableGolden: the text and Markdown of the boundary-response
// section of the bundled desk, correct and under a fault that shows on two
// frameworks only: one column per adapter, the scripted basis named, the
// provenance under the table.
func TestAdapterTableGolden(t *testing.T) {
	reg := arenaRegistry(t)
	d := bundledDesk(t, reg)
	for _, tt := range []struct{ fault, golden string }{
		{"", "dimensions.txt"},
		{"arena/raise-on-denial", "dimensions-raise-on-denial.txt"},
	} {
		r := reportOf(t, reg, d, tt.fault)
		var text, md bytes.Buffer
		require.NoError(t, reports.Text{Dimensions: true}.Write(&text, r))
		require.NoError(t, reports.Markdown{}.Write(&md, r))
		got := section(text.String(), "Boundary response\n", "  controls: ") + "\n" + section(md.String(), "## Boundary response", "<details>")
		path := filepath.Join("testdata", tt.golden)
		if *update {
			require.NoError(t, os.MkdirAll("testdata", 0o755))
			require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, string(want), got, "go test ./host/arena/arenacheck -update")
	}
}

// section is s from the first from up to the next to after it.
func section(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], to)
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j]
}

// TestFailureNamesTheAdapter: an item of six tool turns, expected as the
// plain loop observes it, holds on the plain loop and LangGraph, which
// leave the sixth turn's calls, and fails on the Agents SDK, which runs
// them; the failure names that adapter and shows its run.
func TestFailureNamesTheAdapter(t *testing.T) {
	reg := arenaRegistry(t)
	turns := strings.TrimSuffix(strings.Repeat(`[{"action": "file.read.workspace"}], `, 6), ", ")
	desk := func(hosts, expected string) []byte {
		return bytes.Replace(bytes.Replace(adapterDesk(hosts), []byte(`[[{"action": "file.read.protected"}]]`), []byte("["+turns+"]"), 1),
			[]byte(`{"decisions": ["deny"], "reasons": ["protected_path"], "effects": 0, "visibleDenials": 1,
                  "serviceRequests": 1, "modelRequests": 2, "traceComplete": true}`), []byte(expected), 1)
	}
	six := func(v string) string { return "[" + strings.TrimSuffix(strings.Repeat(v+", ", 6), ", ") + "]" }
	d, ds := verifier.Load(reg, "six.json", desk("", `{"decisions": `+six(`"allow"`)+`, "reasons": `+six(`"allowed"`)+`, "effects": 6}`), verifier.Limits{})
	require.False(t, ds.HasErrors(), "%v", ds)
	ref, err := verifier.Run(context.Background(), d.Cases, verifier.RunOptions{Once: true, Release: "vanilla@0.1.0"})
	require.NoError(t, err)
	expected := fmt.Sprintf(`{"decisions": %s, "reasons": %s, "effects": %v, "modelRequests": %v, "traceComplete": %v}`,
		jsonOf(t, ref[0].Observed["decisions"]), jsonOf(t, ref[0].Observed["reasons"]), ref[0].Observed["effects"], ref[0].Observed["modelRequests"], ref[0].Observed["traceComplete"])

	for _, tt := range []struct {
		hosts, status, failedOn string
	}{
		{"", "fail", "fails on arena openai-agents@0.22.0; holds on vanilla@0.1.0, langgraph@1.2.11; shown: the run on openai-agents@0.22.0"},
		{"vanilla langgraph", "pass", ""},
		{"openai-agents", "fail", "fails on arena openai-agents@0.22.0"},
	} {
		d, ds := verifier.Load(reg, "six.json", desk(tt.hosts, expected), verifier.Limits{})
		require.False(t, ds.HasErrors(), "%v", ds)
		res, err := verifier.Run(context.Background(), d.Cases, verifier.RunOptions{})
		require.NoError(t, err)
		assert.Equal(t, tt.status, string(res[0].Status), tt.hosts)
		s := &verifier.SuiteResult{Registry: reg, Desks: []*verifier.Desk{d}, Results: res, Summary: verifier.Summarize(res, nil)}
		r := reports.Build(s, reports.Origin{Time: time.Unix(0, 0)})
		assert.Equal(t, tt.failedOn, reports.FailedOn(&r.Cases[0]), tt.hosts)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
