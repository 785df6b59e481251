package all

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

// parsePackage parses the Go files of dir but its tests.
func parsePackage(t *testing.T, dir string) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	require.NotEmpty(t, files, dir)
	return fset, files
}

// stringValue is the value of a string literal, or of a package constant
// that is one; false for anything else.
func stringValue(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.Ident:
		s, ok := consts[e.Name]
		return s, ok
	}
	return "", false
}

// stringConsts maps the package's string constants to their values.
func stringConsts(files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						if v, ok := stringValue(vs.Values[i], nil); ok {
							out[n.Name] = v
						}
					}
				}
			}
		}
	}
	return out
}

// field returns the value of key in a keyed composite literal.
func field(lit *ast.CompositeLit, key string) ast.Expr {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == key {
				return kv.Value
			}
		}
	}
	return nil
}

// namesOf returns the warning names a composite literal's Name field can
// hold: a string, or a parameter of the function around it, whose every
// call in the package passes a string. ok is false when one cannot be
// read from the source.
func namesOf(files []*ast.File, stack []ast.Node, name ast.Expr, consts map[string]string) (names []string, ok bool) {
	if s, ok := stringValue(name, consts); ok {
		return []string{s}, true
	}
	id, isIdent := name.(*ast.Ident)
	if !isIdent {
		return nil, false
	}
	// The innermost function whose parameter id is, and the name it is
	// called by: the variable a function literal is assigned to, or the
	// declared function's name.
	for i := len(stack) - 1; i >= 0; i-- {
		var params *ast.FieldList
		var callee string
		switch fn := stack[i].(type) {
		case *ast.FuncLit:
			params = fn.Type.Params
			if i > 0 {
				if as, ok := stack[i-1].(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
					if v, ok := as.Lhs[0].(*ast.Ident); ok {
						callee = v.Name
					}
				}
			}
		case *ast.FuncDecl:
			params, callee = fn.Type.Params, fn.Name.Name
		default:
			continue
		}
		index, n := -1, 0
		for _, f := range params.List {
			for _, p := range f.Names {
				if p.Name == id.Name {
					index = n
				}
				n++
			}
		}
		if index < 0 {
			continue
		}
		if callee == "" {
			return nil, false
		}
		// Every call by that name, and by a parameter of another function
		// of the package the function is handed to under the same name.
		ok = true
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, isCall := n.(*ast.CallExpr)
				if !isCall {
					return true
				}
				if fn, isIdent := call.Fun.(*ast.Ident); isIdent && fn.Name == callee && index < len(call.Args) {
					s, lit := stringValue(call.Args[index], consts)
					if !lit {
						ok = false
					}
					names = append(names, s)
				}
				return true
			})
		}
		return names, ok && len(names) > 0
	}
	return nil, false
}

// TestEveryWarningHasAName reads the lint code of every family the
// registry holds (its adapter, beside its model) and of the engine, and
// holds that every warning it can raise carries a name the scenarios (or
// the engine) declare: a warning without one can never be acknowledged,
// so a desk that has it never passes -fail-on-warn.
func TestEveryWarningHasAName(t *testing.T) {
	reg := Registry()
	engine := map[string]bool{}
	for _, w := range verifier.EngineWarnings {
		engine[w.Name] = true
	}
	for _, f := range reg.Families() {
		declared := map[string]bool{}
		for _, sc := range f.Scenarios {
			for _, w := range sc.Warnings {
				assert.NotEmpty(t, w.Help, "%s: warning %s says nothing", sc.Name, w.Name)
				declared[w.Name] = true
			}
		}
		dir := filepath.Join("..", "..", filepath.FromSlash(f.Host.Model), path.Base(f.Host.Model)+"check")
		fset, files := parsePackage(t, dir)
		consts := stringConsts(files)
		found := 0
		for _, file := range files {
			var stack []ast.Node
			ast.Inspect(file, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, n)
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				sel, ok := lit.Type.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Problem" {
					return true
				}
				w := field(lit, "Warning")
				if w == nil {
					return true
				}
				if id, ok := w.(*ast.Ident); ok && id.Name == "false" {
					return true
				}
				found++
				at := fset.Position(lit.Pos())
				name := field(lit, "Name")
				if !assert.NotNil(t, name, "%s: a warning without a name", at) {
					return true
				}
				names, ok := namesOf(files, stack, name, consts)
				if !assert.True(t, ok, "%s: the warning's name cannot be read from the source: name it with a string", at) {
					return true
				}
				for _, n := range names {
					assert.True(t, declared[n], "%s: warning %q is not one of %s's scenarios' Warnings", at, n, f.Host.Name)
					assert.False(t, engine[n], "%s: warning %q is also an engine warning", at, n)
				}
				return true
			})
		}
		assert.Positive(t, found, "%s: no warning found in %s", f.Host.Name, dir)
	}

	// The engine's own warnings: each Warn call and each Diagnostic of
	// severity Warning names one of EngineWarnings.
	for _, dir := range []string{"../../verifier"} {
		fset, files := parsePackage(t, dir)
		consts := stringConsts(files)
		for _, file := range files {
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok || (sel.Sel.Name != "Warn" && sel.Sel.Name != "warn") || len(n.Args) == 0 {
						return true
					}
					if arg, ok := n.Args[0].(*ast.SelectorExpr); ok && arg.Sel.Name == "Name" {
						return true // a scenario's problem, checked above
					}
					s, ok := stringValue(n.Args[0], consts)
					if assert.True(t, ok, "%s: Warn with a name that is not a string", fset.Position(n.Pos())) {
						assert.True(t, engine[s], "%s: warning %q is not in EngineWarnings", fset.Position(n.Pos()), s)
					}
				case *ast.CompositeLit:
					sev := field(n, "Severity")
					if sev == nil || exprName(sev) != "Warning" {
						return true
					}
					name := field(n, "Name")
					if assert.NotNil(t, name, "%s: a warning without a name", fset.Position(n.Pos())) {
						s, ok := stringValue(name, consts)
						assert.True(t, ok && engine[s], "%s: warning %q is not in EngineWarnings", fset.Position(n.Pos()), s)
					}
				}
				return true
			})
		}
	}
}

// exprName is the name an identifier or a selector ends in.
func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}
