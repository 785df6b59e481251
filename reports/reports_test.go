package reports

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports/folder"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// testReg holds every host family, as the command builds it.
var testReg = all.Registry()

var update = flag.Bool("update", false, "rewrite the golden files")

// fixedTime is the time stamp of every golden report.
var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fixedOrigin is the run every golden report was made by.
var fixedOrigin = Origin{Time: fixedTime}

// suiteOf verifies case files and returns the result.
func suiteOf(t testing.TB, paths ...string) *verifier.SuiteResult {
	t.Helper()
	var inputs []verifier.Input
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		inputs = append(inputs, verifier.Input{Path: p, Data: data})
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors())
	return suite
}

// stableReport builds a report whose provenance does not depend on the
// machine or build, for goldens.
func stableReport(t testing.TB, paths ...string) *Report {
	t.Helper()
	r := Build(suiteOf(t, paths...), fixedOrigin)
	r.Provenance.Deskcheck, r.Provenance.Revision, r.Provenance.GoVersion = "test", "test", "go-test"
	// The case schema grows with every scenario added to any host; the
	// goldens hold a fixed digest so that they change only with reports.
	r.Provenance.CaseSchemaSHA256 = strings.Repeat("5c", 32)
	return r
}

// mutatedDesk writes a copy of the boundary desk with one expectation
// changed (boundary-deny-one-call expects 2 prompts) and returns its path.
func mutatedDesk(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	i := bytes.Index(data, []byte(`"id": "boundary-deny-one-call"`))
	j := i + bytes.Index(data[i:], []byte(`"prompts": 1`))
	out := append(append(append([]byte{}, data[:j]...), `"prompts": 2`...), data[j+len(`"prompts": 1`):]...)
	path := filepath.Join("testdata", "boundary-desk-mutated.json")
	if *update {
		require.NoError(t, os.WriteFile(path, out, 0o644))
	}
	return path
}

func golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./reports -update to create the goldens")
	assert.Equal(t, string(want), string(got), "golden %s differs; review and run with -update", name)
}

// withStrength is the boundary report with its suite strength measured.
func withStrength(t testing.TB) *Report {
	t.Helper()
	r := stableReport(t, "../cases/boundary-desk.json")
	suite := suiteOf(t, "../cases/boundary-desk.json")
	r.AddStrength(verifier.MeasureStrength(context.Background(), suite.Results, verifier.FaultsOf(suite.Results, testReg.Faults())))
	return r
}

// boundaryDesk is the bundled desk the goldens are made of.
const boundaryDesk = "../cases/boundary-desk.json"

// boundaryName names the goldens of the boundary desk after its file.
var boundaryName = strings.TrimSuffix(filepath.Base(boundaryDesk), "-desk.json")

// boundaryFamily is the family of the boundary desk's cases.
func boundaryFamily(t testing.TB) *scenario.Family {
	t.Helper()
	data, err := os.ReadFile(boundaryDesk)
	require.NoError(t, err)
	_, f, ok := testReg.Lookup(gjson.GetBytes(data, "cases.0.scenario").String())
	require.True(t, ok)
	require.NotEmpty(t, f.Host.Releases, "the boundary desk's family has releases")
	return f
}

// pinnedRelease is the older release of the boundary desk's family that
// the pinned goldens judge it on.
const pinnedRelease = "17.3.5"

// pinned selects the pinned release of the boundary desk's family.
func pinned(t testing.TB) verifier.Hosts {
	t.Helper()
	f := boundaryFamily(t)
	_, ok := f.Host.Release(pinnedRelease)
	require.True(t, ok, "%s is a release of %s", pinnedRelease, f.Host.Name)
	return verifier.Hosts{f.Host.Name: pinnedRelease}
}

// pinnedReport is the boundary report judged on the pinned release alone:
// one failure and three cases not applicable.
func pinnedReport(t testing.TB) *Report {
	t.Helper()
	data, err := os.ReadFile(boundaryDesk)
	require.NoError(t, err)
	suite, _, err := verifier.Verify(context.Background(), []verifier.Input{{Path: boundaryDesk, Data: data}}, verifier.Options{Registry: testReg, Hosts: pinned(t)})
	require.NoError(t, err)
	r := Build(suite, fixedOrigin)
	r.Provenance.Deskcheck, r.Provenance.Revision, r.Provenance.GoVersion = "test", "test", "go-test"
	r.Provenance.CaseSchemaSHA256 = strings.Repeat("5c", 32)
	return r
}

// starredDesk writes the releases desk with every case pinned to * and
// returns its path: its cases fail on some releases and hold on others.
func starredDesk(t testing.TB) string {
	t.Helper()
	host := boundaryFamily(t).Host
	desks, err := filepath.Glob(filepath.Join("..", filepath.FromSlash(host.Model), "*", "testdata", "releases-desk.json"))
	require.NoError(t, err)
	require.Len(t, desks, 1, "the boundary desk's family has a releases desk")
	data, err := os.ReadFile(desks[0])
	require.NoError(t, err)
	data = regexp.MustCompile(`"hosts": \{"`+regexp.QuoteMeta(host.Name)+`": "[^"]*"\}`).ReplaceAll(data, []byte(`"hosts": {"`+host.Name+`": "*"}`))
	path := filepath.Join(t.TempDir(), "releases-desk-starred.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// starredReport is the report of the starred releases desk, its file
// named by a path that does not change from run to run.
func starredReport(t testing.TB) *Report {
	t.Helper()
	r := stableReport(t, starredDesk(t))
	r.Provenance.Files[0].Path = "testdata/releases-desk-starred.json"
	return r
}

func TestGoldens(t *testing.T) {
	for _, desk := range []struct {
		name   string
		report *Report
	}{
		{boundaryName, stableReport(t, boundaryDesk)},
		{"failing", stableReport(t, mutatedDesk(t))},
		{"strength", withStrength(t)},
		{"pinned", pinnedReport(t)},
		{"releases", starredReport(t)},
	} {
		r := desk.report
		for _, f := range Formats(Text{}) {
			ext := map[string]string{"text": "txt", "json": "json", "html": "html", "markdown": "md", "junit": "junit.xml", "github": "github.txt", "sarif": "sarif"}[f.Name]
			t.Run(desk.name+"."+ext, func(t *testing.T) {
				var buf bytes.Buffer
				require.NoError(t, f.Reporter.Write(&buf, r))
				golden(t, desk.name+"."+ext, buf.Bytes())
			})
		}
	}
}

func TestJSONMatchesItsSchema(t *testing.T) {
	var withS bytes.Buffer
	require.NoError(t, JSON{}.Write(&withS, withStrength(t)))
	require.NoError(t, CheckJSON(withS.Bytes()), "a report with a strength section")
	for _, paths := range [][]string{
		{"../cases/boundary-desk.json"},
		{mutatedDesk(t)},
		bundledDesks,
		{starredDesk(t)},
	} {
		var buf bytes.Buffer
		require.NoError(t, JSON{}.Write(&buf, Build(suiteOf(t, paths...), Origin{Time: time.Now()})))
		require.NoError(t, CheckJSON(buf.Bytes()), paths)
		back, err := ReadJSON(buf.Bytes())
		require.NoError(t, err)
		var again bytes.Buffer
		require.NoError(t, JSON{}.Write(&again, back))
		assert.Equal(t, buf.String(), again.String(), "saved evidence reads back to the same report")
	}
	assert.ErrorContains(t, CheckJSON([]byte(`{"formatVersion":1}`)), "not deskcheck evidence")
	assert.ErrorContains(t, CheckJSON([]byte(`{`)), "not JSON")
	_, err := ReadJSON([]byte(`[]`))
	assert.Error(t, err)
}

// What a report says of the run comes from the Origin it is given, never
// from the environment: the time in UTC, paths under the home folder as
// ~/…, command-line paths inside the working folder relative to it, and
// the build.
func TestOrigin(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	t.Setenv("HOME", "/elsewhere")
	home := t.TempDir()
	wd := filepath.Join(home, "work")
	desk := filepath.Join(home, "desks", "d.json")
	data, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(desk), 0o700))
	require.NoError(t, os.WriteFile(desk, data, 0o600))
	suite := suiteOf(t, desk)
	tests := []struct {
		reason  string
		o       Origin
		stamp   string
		file    string
		command []string
		build   [3]string
	}{
		{"everything known", Origin{Time: fixedTime.In(time.FixedZone("x", 3600)), Home: home, Wd: wd, Deskcheck: "v1.2.3", Revision: "abc", GoVersion: "go9"},
			"2026-01-02T03:04:05Z", filepath.Join("~", "desks", "d.json"),
			[]string{"deskcheck", "verify", filepath.Join("~", "desks", "d.json"), "out"}, [3]string{"v1.2.3", "abc", "go9"}},
		{"inside the working folder", Origin{Time: time.Unix(0, 0), Home: home, Wd: filepath.Dir(desk)},
			"1970-01-01T00:00:00Z", filepath.Join("~", "desks", "d.json"),
			[]string{"deskcheck", "verify", "d.json", "out"}, [3]string{"(devel)", "unknown", ""}},
		{"no home or working folder: paths as given", Origin{Time: time.Unix(1, 0)},
			"1970-01-01T00:00:01Z", desk,
			[]string{"deskcheck", "verify", desk, "out"}, [3]string{"(devel)", "unknown", ""}},
		{"the root is no home folder", Origin{Time: time.Unix(1, 0), Home: "/"},
			"1970-01-01T00:00:01Z", desk,
			[]string{"deskcheck", "verify", desk, "out"}, [3]string{"(devel)", "unknown", ""}},
	}
	for _, tt := range tests {
		r := Build(suite, tt.o)
		r.Stamp([]string{"deskcheck", "verify", desk, "out"}, nil)
		assert.Equal(t, tt.stamp, r.GeneratedAt, tt.reason)
		assert.Equal(t, tt.file, r.Provenance.Files[0].Path, tt.reason)
		assert.Equal(t, tt.command, r.Provenance.Command, tt.reason)
		assert.Equal(t, tt.build, [3]string{r.Provenance.Deskcheck, r.Provenance.Revision, r.Provenance.GoVersion}, tt.reason)
	}
}

func TestDeterministicAtOneTime(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		_, err := folder.Writer{}.Write(d, FolderFiles(Build(suiteOf(t, "../cases/boundary-desk.json"), Origin{Time: time.Unix(0, 0)})))
		require.NoError(t, err)
	}
	for _, f := range []string{"report.json", "report.html", "report.md", "report.junit.xml"} {
		a, err := os.ReadFile(filepath.Join(dirs[0], f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dirs[1], f))
		require.NoError(t, err)
		assert.Equal(t, a, b, "%s is byte-identical across runs", f)
	}
}

func TestNoEnvironmentOrHomeInReports(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	data, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	path := filepath.Join(home, "desks", "boundary-desk.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
	suite := suiteOf(t, path)
	r := Build(suite, Origin{Time: fixedTime, Home: home})
	assert.Equal(t, filepath.Join("~", "desks", "boundary-desk.json"), r.Provenance.Files[0].Path)
	for _, f := range Formats(Text{Verbose: true}) {
		var buf bytes.Buffer
		require.NoError(t, f.Reporter.Write(&buf, r))
		assert.NotContains(t, buf.String(), home, f.Name)
	}
	assert.Equal(t, path, Build(suite, fixedOrigin).Provenance.Files[0].Path, "the home folder is what the Origin says, not $HOME")
}

func TestLookup(t *testing.T) {
	f, err := Lookup("junit", Text{})
	require.NoError(t, err)
	assert.Equal(t, "report.junit.xml", f.File)
	_, err = Lookup("xml", Text{})
	assert.EqualError(t, err, `unknown format "xml" (known: [github html json junit markdown sarif text])`)
	f, err = Lookup("github", Text{})
	require.NoError(t, err)
	assert.Empty(t, f.File, "annotations go to stdout only, never into the report folder")
}

func TestTextColour(t *testing.T) {
	r := stableReport(t, mutatedDesk(t))
	var plain, colour bytes.Buffer
	require.NoError(t, Text{}.Write(&plain, r))
	require.NoError(t, Text{Color: true}.Write(&colour, r))
	assert.NotContains(t, plain.String(), "\x1b[")
	assert.Contains(t, colour.String(), "\x1b[31mFAIL\x1b[0m boundary-desk/boundary-deny-one-call")
}

func TestErroredCaseInEveryFormat(t *testing.T) {
	r := stableReport(t, "../cases/boundary-desk.json")
	r.Cases[0].Status, r.Cases[0].Error, r.Cases[0].Observed = verifier.Errored, "panic while running the case: boom\nstack", nil
	r.Summary.Passed--
	r.Summary.Errored++
	r.Verdict = "fail"
	var buf bytes.Buffer
	require.NoError(t, JSON{}.Write(&buf, r))
	require.NoError(t, CheckJSON(buf.Bytes()))
	for _, f := range Formats(Text{}) {
		var out bytes.Buffer
		require.NoError(t, f.Reporter.Write(&out, r))
		assert.Contains(t, out.String(), "boom", f.Name)
	}
	var text bytes.Buffer
	require.NoError(t, Text{}.Write(&text, r))
	assert.Contains(t, text.String(), "14 passed, 0 failed, 1 errored")
}

func TestJUnitShape(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JUnit{}.Write(&buf, stableReport(t, mutatedDesk(t))))
	s := buf.String()
	assert.Contains(t, s, `<testsuite name="boundary-desk" tests="18" failures="1" errors="0" skipped="3" time="0" timestamp="2026-01-02T03:04:05Z" file="testdata/boundary-desk-mutated.json">`)
	assert.Contains(t, s, `<testcase classname="boundary-desk" name="boundary-deny-one-call" file="testdata/boundary-desk-mutated.json" line="140" time="0">`,
		"classname is the desk id, not a path ending in .json; the line is the case's")
	assert.Contains(t, s, `<testcase classname="boundary-desk" name="boundary-approve-one-call" file="testdata/boundary-desk-mutated.json" time="0"></testcase>`,
		"a passing case has its file; only failures are located")
	assert.Contains(t, s, `<failure message="mismatched: prompts"><![CDATA[prompts (exact): expected 2, observed 1`)
	assert.Contains(t, s, `<skipped message="source-only claim; not executed: Full RPC process initialization and real stdin/stdout client">`)
}

func TestJUnitClassname(t *testing.T) {
	for _, tt := range []struct {
		desk, want, why string
	}{
		{"boundary-desk", "boundary-desk", "a plain desk id is the classname"},
		{"team.payments.v2", "team_payments_v2", "Jenkins would read team.payments as a package and v2 as the class"},
		{"a\x1bb", `a\u001bb`, "a control character is shown escaped"},
	} {
		assert.Equal(t, tt.want, junitClass(tt.desk), tt.why)
	}
}

func TestMarkdownShape(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Markdown{}.Write(&buf, stableReport(t, mutatedDesk(t))))
	s := buf.String()
	assert.True(t, strings.HasPrefix(s, "## deskcheck: FAIL — 14 passed, 1 failed\n"))
	assert.Equal(t, 1, strings.Count(s, "<details>\n<summary><b>FAIL</b>"), "one block per failure")
	assert.Contains(t, s, "## Boundary response\n")
	assert.Contains(t, s, "<tr><td>prompts</td><td>exact</td><td><code>2</code></td><td><code>1</code></td></tr>")
	assert.Contains(t, s, "<tr><td><code>prompts</code> mismatched</td><td align=\"right\">1</td><td>boundary-desk/boundary-deny-one-call</td></tr>")
	data, err := os.ReadFile(mutatedDesk(t))
	require.NoError(t, err)
	assert.Contains(t, s, "<p><code>testdata/boundary-desk-mutated.json:140</code> · scenario "+gjson.GetBytes(data, `cases.#(id=="boundary-deny-one-call").scenario`).String()+"</p>")
}

func TestReadJSONRejectsOtherDocuments(t *testing.T) {
	var v map[string]any
	var buf bytes.Buffer
	require.NoError(t, JSON{}.Write(&buf, stableReport(t, "../cases/boundary-desk.json")))
	require.NoError(t, json.Unmarshal(buf.Bytes(), &v))
	v["verdict"] = "maybe"
	b, _ := json.Marshal(v)
	_, err := ReadJSON(b)
	assert.ErrorContains(t, err, "/verdict: must be one of")
}

// TestCaseJSONMatchesEncodingJSON keeps the hand-written case encoder equal
// to what encoding/json writes for the same struct.
func TestCaseJSONMatchesEncodingJSON(t *testing.T) {
	r := stableReport(t, mutatedDesk(t))
	r.Cases[0].Status, r.Cases[0].Error, r.Cases[0].Observed = verifier.Errored, "boom <\u2028>", nil
	r.Cases[1].Why = ""
	r.Cases[2].Line, r.Cases[2].Column = 40, 5
	r.Cases[3].Line = 41
	for _, c := range r.Cases {
		want, err := marshal(c, "")
		require.NoError(t, err)
		assert.Equal(t, string(want), string(c.appendJSON(nil)), c.ID)
	}
}

// TestWriteLinesBatches: an array longer than a batch comes out whole and
// in order, and an element that fails stops the writing with its error.
func TestWriteLinesBatches(t *testing.T) {
	n := 2*casesPerBatch + 7
	render := func(failAt int) (string, error) {
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		err := writeLines(w, "xs", n, func(b []byte, i int) ([]byte, error) {
			if i == failAt {
				return b, fmt.Errorf("element %d cannot be written", i)
			}
			return strconv.AppendInt(b, int64(i), 10), nil
		})
		w.Flush()
		return buf.String(), err
	}
	out, err := render(-1)
	require.NoError(t, err)
	var doc map[string][]int
	require.NoError(t, json.Unmarshal([]byte("{"+out+"}"), &doc))
	require.Len(t, doc["xs"], n)
	for i, v := range doc["xs"] {
		require.Equal(t, i, v)
	}
	assert.Equal(t, n, strings.Count(out, "\n    "), "one element per line")

	for _, failAt := range []int{0, casesPerBatch + 3, n - 1} {
		_, err := render(failAt)
		assert.EqualError(t, err, fmt.Sprintf("element %d cannot be written", failAt))
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	require.NoError(t, writeLines(w, "none", 0, nil))
	w.Flush()
	assert.Equal(t, `  "none": []`, buf.String())
}

// TestSavedReportObservesAsItWas: suggestions are written without the
// values they share with the observation, and a report read back suggests
// exactly what the run did.
func TestSavedReportObservesAsItWas(t *testing.T) {
	r := stableReport(t, mutatedDesk(t))
	var saved, direct, again bytes.Buffer
	require.NoError(t, JSON{}.Write(&saved, r))
	assert.NotContains(t, saved.String(), `{"key":"outcome","value":`, "an unshaped suggestion carries no value")
	back, err := ReadJSON(saved.Bytes())
	require.NoError(t, err)
	require.NoError(t, Observe{}.Write(&direct, r))
	require.NoError(t, Observe{}.Write(&again, back))
	assert.Equal(t, direct.String(), again.String())
}

// TestHTMLCompactNotApplicable: in the compact table of a large suite a
// case not applicable is marked so, and not counted as passed.
func TestHTMLCompactNotApplicable(t *testing.T) {
	// A case of the boundary desk that holds on the pinned release, repeated.
	pinnedRun := pinnedReport(t)
	data, err := os.ReadFile(boundaryDesk)
	require.NoError(t, err)
	var held gjson.Result
	for _, c := range pinnedRun.Cases {
		if c.Status == verifier.Pass {
			held = gjson.GetBytes(data, `cases.#(id=="`+c.ID+`")`)
			break
		}
	}
	require.True(t, held.Exists(), "a boundary case holds on %s", pinnedRelease)
	host := boundaryFamily(t).Host.Name
	var b strings.Builder
	b.WriteString(`{"schemaVersion": 1, "id": "big", "title": "t", "cases": [`)
	for i := 0; i <= PassingCards; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		hosts := ""
		if i == 0 {
			hosts = `"hosts": {"` + host + `": ">=18.1.16"},`
		}
		fmt.Fprintf(&b, `{"id": "c%d", "title": "t", "scenario": %s, %s "given": %s, "expected": %s}`, i, held.Get("scenario").Raw, hosts, held.Get("given").Raw, held.Get("expected").Raw)
	}
	b.WriteString("]}")
	suite, _, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "big.json", Data: []byte(b.String())}}, verifier.Options{Registry: testReg, Hosts: pinned(t)})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, HTML{}.Write(&out, Build(suite, fixedOrigin)))
	page := out.String()
	assert.Contains(t, page, fmt.Sprintf("%d cases passed, 1 not applicable to the release asked for (marked N/A)", PassingCards))
	assert.Contains(t, page, `<td>N/A — not applicable: `+host+` `+pinnedRelease+` is outside the case&#39;s releases (range &#34;&gt;=18.1.16&#34;) — t</td>`)
}
