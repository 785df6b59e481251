package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/verifier"
)

// memoryChild is the environment variable that makes TestMemoryChild run
// deskcheck with the arguments it holds (separated by unit separators, 0x1f) and print its
// peak resident memory.
const memoryChild = "DESKCHECK_MEMORY_CHILD"

// TestMemoryChild, in a child process, runs deskcheck as its main does
// and prints "peak N" (VmHWM, bytes) and "exit N".
func TestMemoryChild(t *testing.T) {
	args := os.Getenv(memoryChild)
	if args == "" {
		t.Skip("run as a child of a memory test")
	}
	startCollector()
	code := run(strings.Split(args, "\x1f"), io.Discard, io.Discard)
	status, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			require.NoError(t, err)
			fmt.Printf("peak %d\nexit %d\n", kb<<10, code)
		}
	}
}

// peakOf runs deskcheck with args in a child process and returns its
// peak resident memory in bytes and its exit code.
func peakOf(t *testing.T, args ...string) (peak int64, code int) {
	t.Helper()
	return peakWith(t, nil, args...)
}

// peakWith is peakOf with env added to the child's environment.
func peakWith(t *testing.T, env []string, args ...string) (peak int64, code int) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the peak is read from /proc/self/status")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), env...), memoryChild+"="+strings.Join(args, "\x1f"))
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	require.NoError(t, err, errOut.String())
	_, err = fmt.Sscanf(string(out[bytes.Index(out, []byte("peak ")):]), "peak %d\nexit %d", &peak, &code)
	require.NoError(t, err, string(out))
	return peak, code
}

// bigTraceReport writes a report whose one case holds 200,000 trace
// events and returns its path and size.
func bigTraceReport(t *testing.T) (string, int64) {
	t.Helper()
	return shapedReport(t, "../../reports/testdata/boundary.json", func(cases []any) {
		first := cases[0].(map[string]any)
		kind := first["trace"].([]any)[0].(map[string]any)["kind"] // the kind the case's trace starts with
		events := make([]any, 200000)
		for i := range events {
			events[i] = map[string]any{"seq": i/8 + 1, "kind": kind, "text": "resolve (original input): allow"}
		}
		first["trace"] = events
	})
}

// TestRenderAndDiffMemory: report render of a report whose one case holds
// 200,000 trace events, and diff of it against itself, peak within 4 and
// 3 times the report's size over what a small report takes (about 3.3 and
// 1.1 times it; the schema validator once decoded every event, 14 times
// it, diff held both reports whole and a copy of each file's text, 6
// times it, and render let the heap grow to five times what was live,
// 4.6 times it).
func TestRenderAndDiffMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies a process's memory five to ten times: the envelope is measured without it (.ci/run runs this test in a plain pass)")
	}
	path, size := bigTraceReport(t)
	small := "../../reports/testdata/boundary.json"
	for _, tc := range []struct {
		name        string
		small, args []string
		times       int64
	}{
		{"render", []string{"report", "render", small}, []string{"report", "render", path}, 4},
		{"diff", []string{"diff", small, small}, []string{"diff", path, path}, 3},
	} {
		base, code := peakOf(t, tc.small...)
		require.Equal(t, 0, code, tc.name)
		peak, code := peakOf(t, tc.args...)
		require.Equal(t, 0, code, tc.name)
		t.Logf("%s of a report of %d bytes: peak %d MB, %d MB over a small report's", tc.name, size, peak>>20, (peak-base)>>20)
		assert.Less(t, peak-base, tc.times*size, "%s within %d times the report's size", tc.name, tc.times)
	}
}

// shapedReport writes the report at path with change made to it (decoded
// with encoding/json, written back with json.Marshal: objects' keys
// sorted, as deskcheck writes them) and returns its path and size.
func shapedReport(t *testing.T, path string, change func(cases []any)) (string, int64) {
	t.Helper()
	return shapedDoc(t, path, func(doc map[string]any) { change(doc["cases"].([]any)) })
}

// shapedDoc is shapedReport of a change to the whole report.
func shapedDoc(t *testing.T, path string, change func(doc map[string]any)) (string, int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	change(doc)
	big, err := json.Marshal(doc)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "report.json")
	require.NoError(t, os.WriteFile(out, big, 0o600))
	return out, int64(len(big))
}

// TestRenderAndDiffMemoryOfValueShapes: report render (as text and as
// HTML) and diff of a report whose one value is some six megabytes of many small elements —
// a list of 3,000,000 zeros, an object of 600,000 short keys, a list of
// 1,500,000 one-element lists, a list of 1,500,000 short strings, and a
// failed case whose mismatch and observed values are such lists — peak
// within 4 times the report's size over what a small report takes. Each
// value was decoded into Go values, an interface per element and a map
// entry per key, up to 15 times the text (8.8 for the zeros), and the
// schema validator decoded a mismatch's values, and the duplicate-key
// check held a map entry per key; a long value is now kept as its text
// (docs/hostile-input.md). The HTML page decoded the value again for the
// case's picture and showed it whole in its card, 12 to 23 times the
// text: a picture is drawn from at most 64 KiB, and a card shows at most
// that much of a value.
func TestRenderAndDiffMemoryOfValueShapes(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies a process's memory five to ten times: the envelope is measured without it (.ci/run runs this test in a plain pass)")
	}
	const boundary, failing = "../../reports/testdata/boundary.json", "../../reports/testdata/failing.json"
	observe := func(v any) func([]any) {
		return func(cases []any) { cases[0].(map[string]any)["observed"].(map[string]any)["effects"] = v }
	}
	list := func(n int, elem func(i int) any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = elem(i)
		}
		return out
	}
	keys := map[string]any{}
	for i := range 600000 {
		keys["k"+strconv.Itoa(i)] = 0
	}
	for _, tc := range []struct {
		name   string
		base   string
		change func([]any)
	}{
		{"3,000,000 zeros", boundary, observe(list(3000000, func(int) any { return 0 }))},
		{"600,000 keys", boundary, observe(keys)},
		{"1,500,000 tiny lists", boundary, observe(list(1500000, func(int) any { return []any{0} }))},
		{"1,500,000 short strings", boundary, observe(list(1500000, func(int) any { return "a" }))},
		{"a failed case's mismatch", failing, func(cases []any) {
			c := cases[4].(map[string]any)
			require.Equal(t, "fail", c["status"])
			m := c["mismatches"].([]any)[0].(map[string]any)
			zeros := list(1000000, func(i int) any { return i % 7 })
			m["observed"], m["expected"] = zeros, zeros[:500000]
			c["observed"].(map[string]any)[m["field"].(string)] = zeros
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, size := shapedReport(t, tc.base, tc.change)
			renderAndDiffWithin(t, tc.base, path, size, 1)
		})
	}
}

// TestRenderAndDiffMemoryOfReportSections: report render (text and
// HTML) of a report whose sections other than its cases are some six
// megabytes — 6,000 coverage lines, 30,000 diagnostics — peak within 4
// times the report's size over what a small report takes, and diff of it
// against itself within 4 times the two reports' sizes. The schema
// validator decoded the report without its cases whole, and its lists
// grew a quarter at a time, 4.6 to 5.4 times the text; its long parts are
// now validated a piece at a time and its lists made at their length. (A
// coverage line lists at most 4,096 points and a point at most
// CoverageCases cases: a report past either is refused before it is
// read, reports.TestPastPointCases.)
func TestRenderAndDiffMemoryOfReportSections(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies a process's memory five to ten times: the envelope is measured without it (.ci/run runs this test in a plain pass)")
	}
	const boundary = "../../reports/testdata/boundary.json"
	for _, tc := range []struct {
		name   string
		change func(doc map[string]any)
	}{
		{"6,000 coverage lines of ten points", func(doc map[string]any) {
			cov := doc["coverage"].(map[string]any)
			desk := cov["desks"].([]any)[0].(map[string]any)
			first := desk["list"].([]any)[0].(map[string]any) // the report's own point, its scenario's
			lines := make([]any, 6000)
			for i := range lines {
				points := make([]any, 10)
				for j := range points {
					points[j] = map[string]any{"point": first["point"].(string) + strconv.Itoa(j), "scenario": first["scenario"], "text": "a row", "reached": 1, "cases": []any{"d" + strconv.Itoa(i) + "/c" + strconv.Itoa(j)}}
				}
				lines[i] = map[string]any{"desk": "d" + strconv.Itoa(i), "host": desk["host"], "reached": 10, "points": 10, "list": points}
			}
			cov["desks"] = lines
		}},
		{"30,000 diagnostics", func(doc map[string]any) {
			diags := make([]any, 30000)
			for i := range diags {
				diags[i] = map[string]any{"severity": "warning", "file": "cases/desk-" + strconv.Itoa(i) + ".json", "line": i + 1, "col": 7, "pointer": "/cases/" + strconv.Itoa(i) + "/given", "summary": "a rule that never decides: another rule is tried first", "name": "never-decides"}
			}
			doc["diagnostics"] = diags
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, size := shapedDoc(t, boundary, tc.change)
			renderAndDiffWithin(t, boundary, path, size, 2)
		})
	}
}

// renderAndDiffWithin holds report render (text and HTML) of the report
// at path, size bytes, and diff of it against itself, each over what the
// same command takes of the small report, within 4 times the report's
// size; diff within 4 times diffSizes times it (1: one report's size, 2:
// both reports').
func renderAndDiffWithin(t *testing.T, small, path string, size, diffSizes int64) {
	t.Helper()
	for _, run := range []struct {
		name        string
		small, args []string
		sizes       int64
	}{
		{"render", []string{"report", "render", small}, []string{"report", "render", path}, 1},
		{"render html", []string{"report", "render", "-format", "html", small}, []string{"report", "render", "-format", "html", path}, 1},
		{"diff", []string{"diff", small, small}, []string{"diff", path, path}, diffSizes},
	} {
		base, code := peakOf(t, run.small...)
		require.Contains(t, []int{0, 1}, code, run.name)
		peak, code := peakOf(t, run.args...)
		require.Contains(t, []int{0, 1}, code, run.name)
		read := run.sizes * size
		t.Logf("%s of a report of %d bytes: peak %d MB, %.1f times %d reports' size over a small report's", run.name, size, peak>>20, float64(peak-base)/float64(read), run.sizes)
		assert.Less(t, peak-base, 4*read, "%s within 4 times %d reports' size", run.name, run.sizes)
	}
}

// envelope is the most memory a command may take on a worst case at the
// default limits (docs/hostile-input.md).
const envelope = 512 << 20

// TestWorstCaseMemory: on each family's worst case at the default limits
// (gen.WorstCases, each desk just under the file size limit or at a limit
// of a run), every command that runs desks peaks within the envelope —
// verify, explain, observe, observe -w, cover, faults, mutants and drift
// of the desk, and try of its first case's given block — and report
// render and diff of the report.json verify wrote peak within the
// envelope and, over what a small report takes, within 4 times the
// report's size. Peaks are the child process's resident memory (VmHWM),
// not times.
func TestWorstCaseMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies a process's memory five to ten times: the envelope is measured without it (.ci/run runs this test in a plain pass)")
	}
	if testing.Short() {
		t.Skip("runs every command on every family's worst case, a few minutes of processor time")
	}
	small := "../../reports/testdata/boundary.json"
	baseRender, code := peakOf(t, "report", "render", "-format", "html", small)
	require.Equal(t, 0, code)
	baseDiff, code := peakOf(t, "diff", small, small)
	require.Equal(t, 0, code)
	for _, w := range gen.WorstCases() {
		t.Run(w.Name, func(t *testing.T) {
			// Each desk's commands run in child processes whose peaks
			// are their own: two desks at once keep both processors
			// busy.
			t.Parallel()
			data, err := gen.Worst(w.Name)
			require.NoError(t, err)
			dir := t.TempDir()
			desk := filepath.Join(dir, "worst.json")
			require.NoError(t, os.WriteFile(desk, data, 0o600))
			out := filepath.Join(dir, "out")
			peak, code := peakOf(t, "verify", "-out", out, desk)
			require.Contains(t, []int{0, 1}, code, "the worst case runs and is reported")
			saved := filepath.Join(out, "report.json")
			info, err := os.Stat(saved)
			require.NoError(t, err)
			size := info.Size()
			t.Logf("verify of %d bytes of desk: peak %d MiB, report.json %d MiB", len(data), peak>>20, size>>20)
			assert.LessOrEqual(t, peak, int64(envelope), "verify within the envelope")

			scenarioName, given := firstGiven(t, data)
			block := filepath.Join(dir, "given.json")
			require.NoError(t, os.WriteFile(block, given, 0o600))
			for _, args := range [][]string{
				{"explain", desk},
				{"observe", desk},
				{"cover", desk},
				{"faults", "-out", "none", desk},
				{"mutants", desk},
				{"drift", desk},
				{"try", scenarioName, "@" + block},
			} {
				peak, code := peakOf(t, args...)
				// Each runs, or refuses (exit 2) a desk whose cases,
				// counted once per fault, mutant or release group, are
				// over the run's limits.
				require.Contains(t, []int{0, 1, 2}, code, args[0])
				t.Logf("%s: peak %d MiB (exit %d)", args[0], peak>>20, code)
				assert.LessOrEqual(t, peak, int64(envelope), "%s within the envelope", args[0])
			}
			// observe -w rewrites a copy of the desk (or says why it
			// cannot); it never writes where CI is set.
			own := filepath.Join(dir, "own.json")
			require.NoError(t, os.WriteFile(own, data, 0o600))
			peak, code = peakWith(t, []string{"CI="}, "observe", "-w", own)
			require.Contains(t, []int{0, 1, 2}, code, "observe -w")
			t.Logf("observe -w: peak %d MiB (exit %d)", peak>>20, code)
			assert.LessOrEqual(t, peak, int64(envelope), "observe -w within the envelope")

			for _, tc := range []struct {
				name  string
				args  []string
				base  int64
				times int64
			}{
				{"report render", []string{"report", "render", "-format", "html", saved}, baseRender, 4},
				{"diff", []string{"diff", saved, saved}, baseDiff, 4},
			} {
				peak, code := peakOf(t, tc.args...)
				require.Equal(t, 0, code, tc.name)
				t.Logf("%s: peak %d MiB, %.1f times the report over a small report's", tc.name, peak>>20, float64(peak-tc.base)/float64(size))
				assert.LessOrEqual(t, peak, int64(envelope), "%s within the envelope", tc.name)
				assert.LessOrEqual(t, peak-tc.base, tc.times*size, "%s within %d times the report's size", tc.name, tc.times)
			}
		})
	}
}

// firstGiven is the scenario and given block of the first case of desk.
func firstGiven(t *testing.T, desk []byte) (string, []byte) {
	t.Helper()
	var d struct {
		Cases []struct {
			Scenario string          `json:"scenario"`
			Given    json.RawMessage `json:"given"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(desk, &d))
	require.NotEmpty(t, d.Cases)
	return d.Cases[0].Scenario, d.Cases[0].Given
}

// TestSchemaInvalidDeskMemory: a desk of as many cases as the limits
// allow, each breaking the schema (its required keys missing, an unknown
// one added), is refused, by validate and by verify, within the envelope — for
// the first scenario of every family. The cases are held to their own
// scenario's part of the schema one at a time; held together to the whole
// schema, such a desk of 99,999 Gemini cases took 616 MiB.
func TestSchemaInvalidDeskMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector multiplies a process's memory five to ten times: the envelope is measured without it (.ci/run runs this test in a plain pass)")
	}
	if testing.Short() {
		t.Skip("validates and verifies a desk of up to 16 MiB for every family, a minute of processor time")
	}
	limits := verifier.Limits{}.WithDefaults()
	for _, f := range all.Registry().Families() {
		name := f.Scenarios[0].Name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(t, "new", name)
			require.Equal(t, 0, code, errOut)
			var desk map[string]any
			require.NoError(t, json.Unmarshal([]byte(out), &desk))
			// The least a case of the scenario can be, every required
			// key but id and scenario missing, and an unknown one.
			template := map[string]any{"scenario": name, "given": map[string]any{}, "expected": map[string]any{}, "zzUnknown": true}
			one, err := json.Marshal(template)
			require.NoError(t, err)
			n := min(limits.Cases-1, int(limits.FileSize-(1<<20))/(len(one)+16))
			cases := make([]any, n)
			for i := range cases {
				c := maps.Clone(template)
				c["id"] = fmt.Sprintf("c%d", i)
				cases[i] = c
			}
			desk["cases"] = cases
			data, err := json.Marshal(desk)
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "invalid.json")
			require.NoError(t, os.WriteFile(path, data, 0o600))
			for _, args := range [][]string{{"validate", path}, {"verify", "-out", "none", path}} {
				peak, code := peakOf(t, args...)
				t.Logf("%s of %d cases (%d bytes): peak %d MiB", args[0], n, len(data), peak>>20)
				assert.Equal(t, 2, code, "%s refuses the desk", args[0])
				assert.LessOrEqual(t, peak, int64(envelope), "%s within the envelope", args[0])
			}
		})
	}
}
