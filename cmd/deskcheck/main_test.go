package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// bundledDesk is what a bundled desk holds, read from the desk itself, so
// that the tests of the whole bundled suite follow the desks in cases/.
type bundledDesk struct {
	Path       string // cases/<Name>.json
	Name       string // the file name without .json
	ID         string
	Cases      []string // case ids, in desk order
	SourceOnly []string // source-only claim ids, in desk order
}

// bundledDesks returns the bundled desks in the order deskcheck reads them.
func bundledDesks(t *testing.T) []bundledDesk {
	t.Helper()
	var desks []bundledDesk
	for _, f := range all.Desks() {
		doc := gjson.ParseBytes(f.Data)
		d := bundledDesk{Path: f.Path, Name: strings.TrimSuffix(path.Base(f.Path), ".json"), ID: doc.Get("id").String()}
		for _, id := range doc.Get("cases.#.id").Array() {
			d.Cases = append(d.Cases, id.String())
		}
		for _, id := range doc.Get("sourceOnly.#.id").Array() {
			d.SourceOnly = append(d.SourceOnly, id.String())
		}
		require.NotEmpty(t, d.ID, "%s has a desk id", f.Path)
		require.Len(t, d.Cases, int(doc.Get("cases.#").Int()), "every case of %s has an id", f.Path)
		require.Len(t, d.SourceOnly, int(doc.Get("sourceOnly.#").Int()), "every source-only claim of %s has an id", f.Path)
		desks = append(desks, d)
	}
	require.NotEmpty(t, desks, "cases/ holds bundled desks")
	return desks
}

// someLimits names two limits of the registry's scenarios, of two
// scenarios, as -limit takes them: SCENARIO.NAME.
func someLimits(t *testing.T) (string, string) {
	t.Helper()
	var names []string
	reg := all.Registry()
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		if len(sc.Limits) > 0 {
			names = append(names, name+"."+sc.Limits[0].Name)
		}
	}
	require.GreaterOrEqual(t, len(names), 2, "two scenarios declare limits")
	return names[0], names[len(names)-1]
}

// flaggedLimit is the first limit of the registry's scenarios that has a
// flag of its own: the flag, and the limit as -limit names it.
func flaggedLimit(t *testing.T) (flag, name string) {
	t.Helper()
	reg := all.Registry()
	for _, n := range reg.Names() {
		sc, _, _ := reg.Lookup(n)
		for _, l := range sc.Limits {
			if l.Flag != "" {
				return l.Flag, n + "." + l.Name
			}
		}
	}
	t.Fatal("no limit has a flag of its own")
	return "", ""
}

// deskData is the bytes of a bundled desk.
func deskData(t *testing.T, d bundledDesk) []byte {
	t.Helper()
	for _, f := range all.Desks() {
		if f.Path == d.Path {
			return f.Data
		}
	}
	t.Fatalf("%s is not a bundled desk", d.Path)
	return nil
}

// bundledCaseCount is the number of cases of the bundled suite.
func bundledCaseCount(t *testing.T) int {
	t.Helper()
	n := 0
	for _, d := range bundledDesks(t) {
		n += len(d.Cases)
	}
	return n
}

func TestVerifyBundledSuite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "private")
	code, out, errOut := runCLI(t, "verify", "-out", dir)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	total := bundledCaseCount(t)
	assert.Contains(t, lines, fmt.Sprintf("%d passed, 0 failed", total), "the closing summary line")
	assert.Equal(t, total, strings.Count(out, "\nPASS ")+boolInt(strings.HasPrefix(out, "PASS ")))
	passed := map[string]int{}
	notExecuted := map[string]int{}
	for _, line := range lines {
		if rest, ok := strings.CutPrefix(line, "PASS "); ok {
			id, _, _ := strings.Cut(rest, "  ")
			passed[id]++
		}
		if rest, ok := strings.CutPrefix(line, "NOT EXECUTED "); ok {
			id, _, _ := strings.Cut(rest, "  ")
			notExecuted[id]++
		}
	}
	claims := 0
	for _, d := range bundledDesks(t) {
		assert.Contains(t, out, "PASS "+d.ID+"/", "every bundled desk runs: %s", d.Path)
		for _, id := range d.Cases {
			assert.Equal(t, 1, passed[d.ID+"/"+id], "%s/%s of %s passes once", d.ID, id, d.Path)
		}
		for _, id := range d.SourceOnly {
			assert.Equal(t, 1, notExecuted[d.ID+"/"+id], "%s/%s of %s is listed as not executed", d.ID, id, d.Path)
		}
		claims += len(d.SourceOnly)
	}
	assert.Len(t, notExecuted, claims, "only the source-only claims of the bundled desks are listed as not executed")
	assert.NotContains(t, out, "\x1b[", "no colour when stdout is not a terminal")

	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "report folder is private")
	info, err = os.Stat(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "report file is private")
	assert.Contains(t, errOut, "reports: "+filepath.Join(dir, "report.json")+", "+filepath.Join(dir, "report.html"))
	for _, f := range []string{"report.json", "report.html", "report.md", "report.junit.xml"} {
		info, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), f)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestVerifyMutatedDeskFails(t *testing.T) {
	data, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	// boundary-deny-one-call expects one prompt; claim two.
	i := bytes.Index(data, []byte(`"id": "boundary-deny-one-call"`))
	require.Greater(t, i, 0)
	j := i + bytes.Index(data[i:], []byte(`"prompts": 1`))
	mutated := append(append(append([]byte{}, data[:j]...), `"prompts": 2`...), data[j+len(`"prompts": 1`):]...)
	dir := t.TempDir()
	path := filepath.Join(dir, "cases", "desk.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, mutated, 0o644))

	_, fam, ok := all.Registry().Lookup(gjson.GetBytes(data, `cases.#(id=="boundary-deny-one-call").scenario`).String())
	require.True(t, ok)
	release := ""
	if newest, ok := fam.Host.Newest(); ok {
		release = "  [" + fam.Host.Name + " " + newest.Version + "]"
	}

	code, out, _ := runCLI(t, "verify", "-out", filepath.Join(dir, "out"), path)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL boundary-desk/boundary-deny-one-call  Deny stops execution"+release+"\n    prompts (exact): expected 2, observed 1\n")
	assert.Contains(t, out, "14 passed, 1 failed")
	assert.Contains(t, out, "      [call 1] select \"Allow tool: seed_note\" [Approve, Deny] → \"Deny\"", "a failure shows its trace")
}

func TestVerifyJSONFormat(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	dir := t.TempDir()
	d := bundledDesks(t)[0]
	code, out, _ := runCLI(t, "verify", "-format", "json", "-run", "^"+regexp.QuoteMeta(d.ID)+"/", "-out", dir)
	require.Equal(t, 0, code)
	var report struct {
		GeneratedAt string
		Verdict     string
		Summary     struct{ Cases, Passed int }
		Cases       []struct{ ID, Status string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	assert.Equal(t, "1970-01-01T00:00:00Z", report.GeneratedAt)
	assert.Equal(t, "pass", report.Verdict)
	assert.Equal(t, len(d.Cases), report.Summary.Cases)
	saved, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	assert.Equal(t, out, string(saved), "stdout and the saved evidence are the same bytes")

	code, again, _ := runCLI(t, "verify", "-format", "json", "-run", "^"+regexp.QuoteMeta(d.ID)+"/", "-out", dir)
	require.Equal(t, 0, code)
	assert.Equal(t, out, again, "two runs with SOURCE_DATE_EPOCH are byte-identical")
}

func TestValidate(t *testing.T) {
	code, out, errOut := runCLI(t, "validate")
	assert.Equal(t, 0, code, errOut)
	var want strings.Builder
	for _, d := range bundledDesks(t) {
		fmt.Fprintf(&want, "%s: ok (desk %s: %d cases, %d source-only claims)\n", d.Path, d.ID, len(d.Cases), len(d.SourceOnly))
	}
	assert.Equal(t, want.String(), out, "one line per bundled desk, in file order")

	for _, f := range []string{"malformed", "duplicate-key", "unknown-scenario", "unknown-given-key", "misspelled-expected", "wrong-type"} {
		path := "../../verifier/testdata/invalid/" + f + ".json"
		code, _, errOut := runCLI(t, "validate", path)
		assert.Equal(t, 2, code, f)
		assert.Regexp(t, `^`+regexpQuote(path)+`:\d+:\d+: error: `, errOut, f)
	}
}

func regexpQuote(s string) string {
	return strings.NewReplacer(".", `\.`, "/", `/`).Replace(s)
}

func TestUsageAndInputErrors(t *testing.T) {
	lim, other := someLimits(t)
	flag, flagged := flaggedLimit(t)
	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"no command", nil, 2, "Usage:"},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"bad flag", []string{"verify", "-nope"}, 2, "flag provided but not defined: -nope"},
		{"an invalid file first: nothing runs", []string{"verify", "-out", "none", "../../verifier/testdata/invalid/malformed.json", "../../cases/boundary-desk.json"}, 2, "deskcheck: invalid case files; nothing was run\n"},
		{"an invalid file after a valid one, which ran", []string{"verify", "-out", "none", "../../cases/boundary-desk.json", "../../verifier/testdata/invalid/malformed.json"}, 2,
			"deskcheck: invalid case files; nothing is reported (the 15 cases of the 1 file read before the first invalid one had already run)\n"},
		{"bad format", []string{"verify", "-format", "xml"}, 2, `-format must be text, json, markdown, junit, html, github or sarif, not "xml"`},
		{"report without a subcommand", []string{"report"}, 2, "usage: deskcheck report render"},
		{"render a file that is not evidence", []string{"report", "render", "../../cases/boundary-desk.json"}, 2, "not deskcheck evidence"},
		{"render a missing file", []string{"report", "render", "nope.json"}, 2, "no such file"},
		{"render in an unknown format", []string{"report", "render", "-format", "pdf", "x.json"}, 2, `-format must be text, json, markdown, junit, html, github or sarif, not "pdf"`},
		{"the report folder is a file", []string{"verify", "-out", "main.go"}, 2, "not a directory"},
		{"bad -run", []string{"verify", "-run", "("}, 2, "-run: error parsing regexp"},
		{"a -limit of 2^63", []string{"validate", "-limit", lim + "=9223372036854775808"}, 2, lim + " is too large: 9223372036854775808 is over the largest value, 9223372036854775807"},
		{"a -limit of 10^21", []string{"validate", "-limit", other + "=1000000000000000000000"}, 2, other + " is too large: 1000000000000000000000 is over the largest value, 9223372036854775807"},
		{"a limit's own flag of 10^21", []string{"validate", "-" + flag, "1000000000000000000000"}, 2, flagged + " is too large"},
		{"a -max-work of 10^21", []string{"validate", "-max-work", "1000000000000000000000"}, 2, "-max-work is too large: 1000000000000000000000 is over the largest value, 9223372036854775807"},
		{"a -max-file-size of 2^63", []string{"validate", "-max-file-size", "9223372036854775808"}, 2, "-max-file-size is too large"},
		{"a -limit that is not a number", []string{"validate", "-limit", lim + "=1e3"}, 2, lim + ` must be a positive whole number, not "1e3"`},
		{"a -max-work of zero", []string{"validate", "-max-work", "0"}, 2, `-max-work must be a positive whole number, not "0"`},
		{"no case selected", []string{"verify", "-run", "no-such-case", "-out", "%TMP%"}, 2, "no cases"},
		{"missing path", []string{"validate", "does/not/exist.json"}, 2, "does/not/exist.json: no such file or directory"},
		{"a folder without case files", []string{"verify", "%TMP%"}, 2, "no cases: no *.json file found"},
		{"invalid files are not run", []string{"verify", "../../verifier/testdata/invalid/wrong-type.json"}, 2, "invalid case files; nothing was run"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			args := make([]string, len(tt.args))
			tmp := t.TempDir()
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "%TMP%", tmp)
			}
			code, _, errOut := runCLI(t, args...)
			assert.Equal(t, tt.code, code)
			assert.Contains(t, errOut, tt.stderr)
		})
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCLI(t, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "deskcheck verify")
}

func TestVerifyFolder(t *testing.T) {
	dir := t.TempDir()
	d := bundledDesks(t)[0]
	data := deskData(t, d)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "desks", "nested"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "desks", "nested", "s.json"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "desks", "notes.txt"), []byte("not a desk"), 0o644))
	code, out, errOut := runCLI(t, "verify", "-out", filepath.Join(dir, "out"), filepath.Join(dir, "desks"))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, fmt.Sprintf("%d passed, 0 failed", len(d.Cases)))
}

func TestFormatsAndRender(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	dir := t.TempDir()
	outputs := map[string]string{}
	for _, f := range []string{"markdown", "junit", "html", "json"} {
		code, out, errOut := runCLI(t, "verify", "-format", f, "-out", dir)
		require.Equal(t, 0, code, errOut)
		outputs[f] = out
	}
	assert.True(t, strings.HasPrefix(outputs["markdown"], fmt.Sprintf("## deskcheck: PASS — %d passed, 0 failed", bundledCaseCount(t))))
	assert.Contains(t, outputs["junit"], `<testsuite name="boundary-desk" tests="18" failures="0" errors="0" skipped="3"`)
	assert.Contains(t, outputs["html"], `<span class="verdict pass" id="verdict">PASS</span>`)

	evidence := filepath.Join(dir, "report.json")
	for _, f := range []string{"markdown", "junit", "html", "json"} {
		code, out, errOut := runCLI(t, "report", "render", evidence, "-format", f)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, outputs[f], out, "re-rendering the saved evidence gives the same %s", f)
		saved := map[string]string{"markdown": "report.md", "junit": "report.junit.xml", "html": "report.html", "json": "report.json"}[f]
		b, err := os.ReadFile(filepath.Join(dir, saved))
		require.NoError(t, err)
		assert.Equal(t, string(b), out, "stdout matches the saved %s", saved)
	}

	code, out, _ := runCLI(t, "report", "-schema")
	assert.Equal(t, 0, code)
	assert.True(t, json.Valid([]byte(out)))
	assert.Contains(t, out, `"title": "deskcheck JSON evidence (report.json)"`)
}

func TestFlagsAfterPaths(t *testing.T) {
	code, out, errOut := runCLI(t, "verify", "../../cases/boundary-desk.json", "-run", "rpc", "-out", t.TempDir())
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "2 passed, 0 failed")
}

func TestHostileFilesExitTwo(t *testing.T) {
	paths, err := filepath.Glob("../../verifier/testdata/hostile/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		for _, cmd := range []string{"validate", "verify"} {
			out := filepath.Join(t.TempDir(), "out")
			args := []string{cmd, p}
			if cmd == "verify" {
				args = append(args, "-out", out)
			}
			code, stdout, errOut := runCLI(t, args...)
			assert.Equal(t, 2, code, "%s %s", cmd, p)
			assert.Regexp(t, "(?m)^"+regexpQuote(p)+`:\d+:\d+: error: `, errOut, p)
			assert.Empty(t, stdout, "nothing printed as a result")
			_, statErr := os.Stat(out)
			assert.True(t, os.IsNotExist(statErr), "no report written for %s", p)
		}
	}
}

// TestFaults: the bundled desks of each family catch every fault of its
// host and name no fault of another; -fault selects one fault, which a
// selection of cases that address it but do not catch it misses.
func TestFaults(t *testing.T) {
	reg := all.Registry()
	// host → its bundled cases, as -run patterns: a desk's id when all its
	// cases are the host's, else each of the host's cases.
	byHost := map[string][]string{}
	for _, d := range bundledDesks(t) {
		cases := gjson.GetBytes(deskData(t, d), "cases").Array()
		hosts := map[string][]string{}
		for _, c := range cases {
			_, fam, ok := reg.Lookup(c.Get("scenario").String())
			require.True(t, ok, c.Get("scenario").String())
			hosts[fam.Host.Name] = append(hosts[fam.Host.Name], regexp.QuoteMeta(d.ID+"/"+c.Get("id").String())+"$")
		}
		for host, ids := range hosts {
			if len(hosts) == 1 {
				ids = []string{regexp.QuoteMeta(d.ID) + "/"}
			}
			byHost[host] = append(byHost[host], ids...)
		}
	}
	for _, fam := range reg.Families() {
		ids := byHost[fam.Host.Name]
		require.NotEmpty(t, ids, "family %s has bundled desks", fam.Host.Name)
		code, out, errOut := runCLI(t, "faults", "-run", "^("+strings.Join(ids, "|")+")", "-out", t.TempDir())
		assert.Equal(t, 0, code, "the bundled desks of %s catch every fault of their host: %s", fam.Host.Name, errOut)
		assert.NotContains(t, out, "MISSED")
		assert.Contains(t, out, fmt.Sprintf("%d of %d faults caught\n", len(fam.Faults), len(fam.Faults)))
		for _, other := range reg.Families() {
			if other.Host.Name != fam.Host.Name {
				assert.NotContains(t, out, "\n"+other.Host.Name+"/", "only the faults of the hosts whose cases run")
			}
		}
	}

	// One fault of each family, alone: caught by the bundled suite, and
	// written to the page.
	for _, fam := range reg.Families() {
		name := fam.Host.Name + "/" + fam.Faults[0].Name
		dir := t.TempDir()
		code, out, _ := runCLI(t, "faults", "-format", "json", "-fault", name, "-out", dir)
		assert.Equal(t, 0, code, name)
		assert.Equal(t, int64(1), gjson.Get(out, "strength.caught").Int(), name)
		assert.Equal(t, int64(1), gjson.Get(out, "strength.faults").Int(), name)
		html, err := os.ReadFile(filepath.Join(dir, "report.html"))
		require.NoError(t, err)
		assert.Contains(t, string(html), `id="fault-`+name+`"`, "the page has the strength section")
	}

	// A fault the selected cases address and miss.
	_, js, _ := runCLI(t, "faults", "-format", "json", "-out", "none")
	missed := false
	for _, f := range reg.Faults() {
		caughtBy := map[string]bool{}
		for _, id := range gjson.Get(js, `strength.results.#(fault=="`+f.FullName()+`").caughtBy`).Array() {
			caughtBy[id.String()] = true
		}
		var others []string
		for _, c := range gjson.Get(js, "cases").Array() {
			_, fam, _ := reg.Lookup(c.Get("scenario").String())
			id := c.Get("desk").String() + "/" + c.Get("id").String()
			if fam.Host.Name == f.Host && (len(f.Scenarios) == 0 || slices.Contains(f.Scenarios, c.Get("scenario").String())) && !caughtBy[id] {
				others = append(others, regexp.QuoteMeta(id))
			}
		}
		if len(others) == 0 {
			continue
		}
		code, out, _ := runCLI(t, "faults", "-fault", f.FullName(), "-run", "^("+strings.Join(others, "|")+")$", "-out", t.TempDir())
		assert.Equal(t, 1, code, "the selected cases do not catch %s", f.FullName())
		assert.Contains(t, out, "0 of 1 faults caught")
		missed = true
		break
	}
	assert.True(t, missed, "some fault is addressed by cases that do not catch it")

	for _, args := range [][]string{
		{"faults", "-fault", "no-such"},
		{"faults", "-format", "xml"},
		{"faults", "../../verifier/testdata/invalid/wrong-type.json"},
		{"faults", "-run", "nothing-matches"},
	} {
		code, _, errOut := runCLI(t, append(args, "-out", t.TempDir())...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
	}
}

func TestGitHubFormatAnnotatesBrokenFiles(t *testing.T) {
	code, out, errOut := runCLI(t, "verify", "-format", "github", "-out", t.TempDir(), "../../verifier/testdata/invalid/misspelled-expected.json")
	assert.Equal(t, 2, code)
	assert.Regexp(t, `(?m)^::error file=\.\./\.\./verifier/testdata/invalid/misspelled-expected\.json,line=\d+,col=\d+`, out, "the problem becomes an annotation on its line")
	assert.Contains(t, errOut, "error:", "and stays on stderr as a plain line")
}

// The -out name is printed with its control characters escaped, on one
// line, and an empty -out is refused before anything is written.
func TestOutNamePrintedEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep\x1b[2J\nx")
	code, _, errOut := runCLI(t, "verify", "-run", "^boundary-desk/boundary-deny-one-call$", "-out", dir, "../../cases/boundary-desk.json")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, errOut, "\x1b")
	assert.Contains(t, errOut, `rep\u001b[2J\nx`)
	line := errOut[strings.Index(errOut, "reports: "):]
	assert.Equal(t, 1, strings.Count(line, "\n"), "one line: %q", line)

	for _, cmd := range []string{"verify", "faults"} {
		code, out, errOut := runCLI(t, cmd, "-run", "^boundary-desk/boundary-deny-one-call$", "-out", "", "../../cases/boundary-desk.json")
		assert.Equal(t, 2, code)
		assert.Contains(t, errOut, "the report folder name is empty")
		assert.Empty(t, out, "%s: refused before any case runs", cmd)
	}
}

// deepDesk is the desk try -desk prints for the first scenario's template
// that takes deep in place of one of its given keys and runs.
func deepDesk(t *testing.T, deep string) string {
	t.Helper()
	reg := all.Registry()
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		var given map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(sc.Template), &given), name)
		keys := slices.Sorted(maps.Keys(given))
		for _, k := range keys {
			was := given[k]
			given[k] = json.RawMessage(deep)
			g, err := json.Marshal(given)
			require.NoError(t, err)
			given[k] = was
			if code, desk, _ := runCLI(t, "try", "-desk", "-max-depth", "200", name, string(g)); code == 0 {
				return desk
			}
		}
	}
	t.Fatal("no scenario's given block takes a deep value in place of one of its keys")
	return ""
}

// A report that verify wrote renders, however deep the -max-depth it was
// written with let its case data nest.
func TestRenderFollowsTheDepthReportsAreWrittenWith(t *testing.T) {
	dir := t.TempDir()
	deep := strings.Repeat(`{"a":`, 190) + "1" + strings.Repeat("}", 190)
	desk := deepDesk(t, deep)
	path := filepath.Join(dir, "deep.json")
	require.NoError(t, os.WriteFile(path, []byte(desk), 0o600))
	out := filepath.Join(dir, "out")
	code, _, errOut := runCLI(t, "verify", "-max-depth", "200", "-out", out, path)
	require.Equal(t, 0, code, errOut)
	code, text, errOut := runCLI(t, "report", "render", filepath.Join(out, "report.json"))
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "1 passed")
}
