package all

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// The scope of the seam test: the Go files outside host/ of the kinds in
// seamHeld, except those under the paths of seamPending.
var (
	// seamHeld are the kinds of file the rule holds in: "source" for the
	// non-test files, "test" for the _test.go files. It holds in both: a
	// test outside host/ reaches a family through the registry too.
	seamHeld = []string{"source", "test"}
	// seamPending are the paths outside host/ whose code still names a
	// family, each until it moves beside its family or reaches it through
	// the registry; remove a path once it names none (the test says so).
	seamPending = []string{
		"recorders", // the arena's recorders, the design card's top-level folder: their literals are the words of the arena contract's wire (its id, the mock model's name, a completion's finish reason, the endpoint names), not the registry's
	}
	// seamShared are trace kinds that are also words of the engine's own,
	// which a string literal outside host/ may say.
	seamShared = []string{
		"why",         // a case's why key
		"release",     // the release a report's case was judged on
		"result",      // a SARIF result, a text report's result line
		"denied",      // a boundary-response control
		"diagnostics", // the limit on problems listed per file
		"model",       // the model a real host's results are compared with
	}
)

// seamRoot is the repository's root, from this package's folder.
const seamRoot = "../.."

// seamName is a name the rule keeps inside host/: a host's, a scenario's
// or a trace kind's, with what it names.
type seamName struct {
	name, what string
}

// seamNames collects every host, scenario and trace-kind name from the
// registry: the hosts and scenarios it lists, the kinds each scenario
// declares Deciding, and the kinds of every event of a run of every
// bundled desk.
func seamNames(t *testing.T) []seamName {
	t.Helper()
	reg := Registry()
	var out []seamName
	kinds := map[string]bool{}
	for _, f := range reg.Families() {
		out = append(out, seamName{f.Host.Name, "host"})
	}
	for _, n := range reg.Names() {
		out = append(out, seamName{n, "scenario"})
		sc, _, _ := reg.Lookup(n)
		for _, k := range sc.Deciding {
			kinds[k] = true
		}
	}
	var inputs []verifier.Input
	for _, d := range Desks() {
		inputs = append(inputs, verifier.Input{Path: d.Path, Data: d.Data})
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	for _, r := range suite.Results {
		for _, e := range r.Trace {
			kinds[e.Kind] = true
		}
	}
	require.NotEmpty(t, kinds)
	for k := range kinds {
		if !slices.Contains(seamShared, k) {
			out = append(out, seamName{k, "trace kind"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// seamHit is a string literal outside host/ that names one of the names.
type seamHit struct {
	at, name, what string
}

// seamHits reads every held Go file under root outside host/ and returns
// the string literals that name a name: a host's or a scenario's anywhere
// in the literal as a word of its own ("gateway-desk" names gateway), a
// trace kind's as the whole literal (kinds are common words). Generated
// files, and lines between "// Code generated" and "// End of generated
// code." markers, are skipped.
func seamHits(t *testing.T, root string, names []seamName) []seamHit {
	t.Helper()
	words := map[string]*regexp.Regexp{}
	for _, n := range names {
		if n.what != "trace kind" {
			words[n.name] = regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(n.name) + `($|[^A-Za-z0-9_])`)
		}
	}
	var hits []seamHit
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, p := range seamPending {
			if rel == p || strings.HasPrefix(rel, p+"/") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if d.IsDir() {
			if rel == "host" || d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		kind := "source"
		if strings.HasSuffix(path, "_test.go") {
			kind = "test"
		}
		if !strings.HasSuffix(path, ".go") || !slices.Contains(seamHeld, kind) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		generated := generatedLines(fset, f)
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.ImportSpec); ok {
				return false
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			pos := fset.Position(lit.Pos())
			if generated(pos.Line) {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, nm := range names {
				if s == nm.name || (words[nm.name] != nil && words[nm.name].MatchString(s)) {
					hits = append(hits, seamHit{at: rel + ":" + strconv.Itoa(pos.Line), name: nm.name, what: nm.what})
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	return hits
}

// generatedLines says whether a line of f lies in a generated block, from
// a "// Code generated" comment to a "// End of generated code." one.
func generatedLines(fset *token.FileSet, f *ast.File) func(int) bool {
	var spans [][2]int
	start := 0
	for _, g := range f.Comments {
		for _, c := range g.List {
			line := fset.Position(c.Pos()).Line
			switch {
			case strings.HasPrefix(c.Text, "// Code generated"):
				start = line
			case strings.HasPrefix(c.Text, "// End of generated code.") && start > 0:
				spans = append(spans, [2]int{start, line})
				start = 0
			}
		}
	}
	return func(line int) bool {
		for _, s := range spans {
			if line >= s[0] && line <= s[1] {
				return true
			}
		}
		return false
	}
}

// TestNothingOutsideHostNamesAFamily holds the plug-in seam: no Go file
// outside host/ names a host, a scenario or a trace kind in a string
// literal. The engine, the reports and the generators reach a family only
// through the registry, so that adding one touches its own packages and
// one line of all.go.
func TestNothingOutsideHostNamesAFamily(t *testing.T) {
	names := seamNames(t)
	for _, h := range seamHits(t, seamRoot, names) {
		hint := ""
		if h.what == "trace kind" {
			hint = "; or, where the literal is a word of the engine's own that only spells the same, give the family's trace kind a name of its own (or add the word to seamShared, saying whose word it is)"
		}
		t.Errorf("%s: a string literal names the %s %q; reach it through the registry (host/all) instead%s", h.at, h.what, h.name, hint)
	}
	for _, p := range seamPending {
		if len(seamHits(t, filepath.Join(seamRoot, p), names)) == 0 {
			t.Logf("%s names no family now: remove it from seamPending", p)
		}
	}
}

// TestSeamHitsWhatItShould runs the scan on a folder of its own: it finds
// a name in a literal, as a word of a longer one and as a trace kind, and
// passes over imports, comments, generated blocks and files, host/
// and words that only contain a name.
func TestSeamHitsWhatItShould(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"engine/a.go": `package engine

import "context" // a trace kind's name as an import

// gateway, in a comment
var (
	_ = context.Background
	a = "gateway"
	b = []string{"see gateway-desk.json", "the gatewayed one", "omp/approval"}
	c = map[string]bool{"check": true, "why": true, "a check of it": true}
)
`,
		"engine/gen.go": `package engine

// Code generated by hand for this test.
var d = "gateway"
// End of generated code.

var e = "household"
`,
		"engine/whole.go":  "// Code generated by a tool. DO NOT EDIT.\n\npackage engine\n\nvar f = \"gateway\"\n",
		"engine/a_test.go": "package engine\n\nvar g = \"gateway\"\n",
		"host/x/x.go":      "package x\n\nvar h = \"gateway\"\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	names := []seamName{{"gateway", "scenario"}, {"household", "host"}, {"omp", "host"}, {"check", "trace kind"}}
	var got []string
	for _, h := range seamHits(t, root, names) {
		got = append(got, h.at+" "+h.name)
	}
	assert.ElementsMatch(t, []string{
		"engine/a.go:8 gateway",
		"engine/a.go:9 gateway",
		"engine/a.go:9 omp",
		"engine/a.go:10 check",
		"engine/gen.go:7 household",
		"engine/a_test.go:3 gateway",
	}, got)
}

// TestEveryScenarioDeclaresWhatTheEngineShows: every scenario declares
// its picture and the trace kinds that decide its runs, each of those
// kinds is recorded by a run of its bundled cases (a misspelt kind would
// decide nothing), and every bundled case that ran is drawn.
func TestEveryScenarioDeclaresWhatTheEngineShows(t *testing.T) {
	reg := Registry()
	var inputs []verifier.Input
	for _, d := range Desks() {
		inputs = append(inputs, verifier.Input{Path: d.Path, Data: d.Data})
	}
	suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: reg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	seen := map[string]map[string]bool{}
	for _, r := range suite.Results {
		sc, _, ok := reg.Lookup(r.Case.Scenario)
		require.True(t, ok)
		if seen[sc.Name] == nil {
			seen[sc.Name] = map[string]bool{}
		}
		for _, e := range r.Trace {
			seen[sc.Name][e.Kind] = true
		}
		if sc.Picture != nil && r.Status != verifier.Errored {
			d := sc.Picture(scenario.Seen{Observed: r.Observed, Trace: r.Trace, Unit: sc.Unit})
			if assert.NotNil(t, d, "%s (%s) is drawn", r.Case.FullID(), sc.Name) {
				assert.NotEmpty(t, d.Title, r.Case.FullID())
				assert.NotEmpty(t, d.Text, r.Case.FullID())
			}
		}
	}
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		assert.NotNil(t, sc.Picture, "%s declares its picture", name)
		assert.NotEmpty(t, sc.Deciding, "%s declares the trace kinds that decide its runs", name)
		for _, k := range sc.Deciding {
			assert.True(t, seen[name][k], "%s declares %q deciding, but no bundled run of it records one", name, k)
		}
	}
}
