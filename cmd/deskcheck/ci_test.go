package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plainPass is a line of .ci/run that runs named tests of one package
// without the race detector: go test -count=1 -run 'REGEX' ./PKG.
var plainPass = regexp.MustCompile(`(?m)^go test -count=1 -run '([^']+)' \./(\S+)\s*$`)

// TestRaceSkipsRunInThePlainPass: a test that skips itself under the race
// detector is run by one of .ci/run's plain passes, whose -run pattern
// names it, in its own package. CI runs every package under the race
// detector, so a skipped test that no plain pass names never runs there.
func TestRaceSkipsRunInThePlainPass(t *testing.T) {
	const root = "../.."
	script, err := os.ReadFile(filepath.Join(root, ".ci/run"))
	require.NoError(t, err)
	skipped := raceSkippedTests(t, root)
	require.NotEmpty(t, skipped, "the memory envelope tests skip under the race detector")
	passes := plainPass.FindAllStringSubmatch(string(script), -1)
	require.NotEmpty(t, passes, ".ci/run has a plain pass")
	for _, name := range skipped {
		dir, fn, _ := strings.Cut(name, ".")
		run := false
		for _, p := range passes {
			run = run || (p[2] == dir && regexp.MustCompile(p[1]).MatchString(fn))
		}
		assert.True(t, run, "%s skips under the race detector and no plain pass of .ci/run runs it", name)
	}
}

// TestRaceSkippedTestsFound: the scan finds a test whose body skips when
// raceEnabled is set, and only such a test.
func TestRaceSkippedTestsFound(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "pkg"), 0o755))
	src := `package pkg

import "testing"

func TestSkips(t *testing.T) {
	if raceEnabled {
		t.Skip("heavy under race")
	}
}

func TestTunes(t *testing.T) {
	budget := 1
	if raceEnabled {
		budget = 9
	}
	_ = budget
}

func helper(t *testing.T) {
	if raceEnabled {
		t.Skip("not a test")
	}
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pkg", "x_test.go"), []byte(src), 0o644))
	assert.Equal(t, []string{"pkg.TestSkips"}, raceSkippedTests(t, dir))
}

// raceSkippedTests returns, as DIR.TestName with DIR relative to root,
// every test function under root whose body holds an if on raceEnabled
// that calls t.Skip.
func raceSkippedTests(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			if skipsUnderRace(fn.Body) {
				out = append(out, filepath.ToSlash(rel)+"."+fn.Name.Name)
			}
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// skipsUnderRace reports whether body has an if on raceEnabled whose
// branch calls a Skip method.
func skipsUnderRace(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		s, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		if id, ok := s.Cond.(*ast.Ident); !ok || id.Name != "raceEnabled" {
			return true
		}
		ast.Inspect(s.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "Skip") {
					found = true
				}
			}
			return !found
		})
		return !found
	})
	return found
}
