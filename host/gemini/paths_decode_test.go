package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeURIComponent decodes as JavaScript's does and refuses where it
// throws URIError (each value checked on node 20).
func TestDecodeURIComponentIsJavaScripts(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"plain", "plain", true},
		{"%2e%2E", "..", true},
		{"a%20b", "a b", true},
		{"sub%2F..%2F..", "sub/../..", true},
		{"%E2%82%AC", "€", true},
		{"%EF%BF%BD", "\uFFFD", true},
		{"%00", "\x00", true},
		{"%25%32%45", "%2E", true},
		{"%", "", false},
		{"%4", "", false},
		{"a%ZZ", "", false},
		{"%C3", "", false},
		{"%C3%28", "", false},
		{"%C3x", "", false},
		{"%ED%A0%80", "", false},
		{"%F4%90%80%80", "", false},
		{"%C0%80", "", false},
		{"%80", "", false},
		{"%F8%80%80%80%80", "", false},
		{"sub%E0%A4%A", "", false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := decodeURIComponent(tt.in)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

// fileURLToPath is node 20's on POSIX for the URLs isBuildFile may see.
func TestFileURLToPathIsNodes(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"file:///a/b%2Ejson", "/a/b.json", true},
		{"file:///a/package.json?x", "/a/package.json", true},
		{"file:///a/x#y", "/a/x", true},
		{"file://localhost/a/Makefile", "/a/Makefile", true},
		{"file://LocalHost/a", "/a", true},
		{"file:///a/%2e%2e/Makefile", "/Makefile", true},
		{"file:///a/%25%32%45", "/a/%2E", true},
		{"file://C:/x", "/C:/x", true},
		{"file:///a\\b", "/a/b", true},
		{"file:///a/\tb", "/a/b", true},
		{"file:///a/b/..", "/a/", true},
		{"file:///a/./b/.", "/a/b/", true},
		{"file://", "/", true},
		{"file:///a/%00x", "/a/\x00x", true},
		{"file://host/a", "", false},
		{"file:///a/b%2Fc", "", false},
		{"file:///a/%ZZ", "", false},
		{"file:///a/%FF", "", false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := fileURLToPath(tt.in)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

// realPath is resolveToRealPath in the empty workspace: decoded, resolved
// against /workspace, and refused (the callers keep their own path) on a
// NUL given or decoded.
func TestRealPathDecodes(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"/workspace/%2E%2E", "/", true},
		{"/workspace/sub%2F..%2F..", "/", true},
		{"/workspace/sub%E0%A4%A", "/workspace/sub%E0%A4%A", true},
		{"package%2Ejson", "/workspace/package.json", true},
		{"file:///x/Makefile?y", "/x/Makefile", true},
		{"file:///a/package%252Ejson", "/a/package.json", true},
		{"file://host/x/Makefile.bak", "/workspace/file:/host/x/Makefile.bak", true},
		{"/workspace/%2E%2E%2Fx%00", "", false},
		{"/workspace/x%00%2F..", "/workspace", true},
		{"/workspace/a\x00", "", false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := realPath(tt.in)
			assert.Equal(t, tt.ok, ok)
			if tt.ok {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

// buildFileBase is the base name isBuildFile tests.
func TestBuildFileBaseDecodes(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"package%2Ejson", "package.json"},
		{"a%2Fgo.mod", "go.mod"},
		{`dir\Makefile`, "Makefile"},
		{"package%2Ejson%00", "package%2Ejson%00"},
		{"pack\x00age.json", "package.json"},
		{"file:///x/Makefile?y", "Makefile"},
		{"file://host/x/Makefile.bak", "Makefile.bak"},
		{"%ZZ/Cargo.toml", "Cargo.toml"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, buildFileBase(tt.in))
		})
	}
}

// jsLowerCase is JavaScript's toLowerCase (each value checked on node
// 20), not Go's strings.ToLower.
func TestJSLowerCase(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"GIT", "git"},
		{"GİT", "gi\u0307t"},
		{"İ", "i\u0307"},
		{"mcp_srv_WRİTE", "mcp_srv_wri\u0307te"},
		{"ΑΣ", "ας"},
		{"Σ", "σ"},
		{"ΑΣΑ", "ασα"},
		{"ΑΣ.", "ας."},
		{"Α.Σ", "α.ς"},
		{"Σ.Α", "σ.α"},
		{"ΑΣ\u0301", "ας\u0301"},
		{"A\u00adΣ", "a\u00adς"},
		{"ΑΣ1", "ας1"},
		{"1Σ", "1σ"},
		{"aΣ:b", "aσ:b"},
		{"ΑΣʰ", "αςʰ"},
		{"ǅ", "ǆ"},
		{"\u212a", "k"},
		{"ẞ", "ß"},
		{"a\xffB", "a\xffb"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, jsLowerCase(tt.in))
		})
	}
}

// The model's decisions where the working folder is percent-encoded or a
// command's name lowercases apart in JavaScript, as the real releases
// decide them (testdata/paths-desk.json holds them on every release).
func TestPathsAndLowercaseDecide(t *testing.T) {
	allowShell := []PolicyInput{{Tier: TierUser, Name: "user.toml", Text: "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 100\n"}}
	for _, tt := range []struct {
		name, version string
		args          map[string]any
		trusted       bool
		policies      []PolicyInput
		want          string
	}{
		{"encoded parent, 0.60.0", "0.60.0", map[string]any{"command": "ls", "dir_path": "%2E%2E"}, true, nil, AskUser},
		{"encoded parent, 0.61.0", "0.61.0", map[string]any{"command": "ls", "dir_path": "%2E%2E"}, true, nil, AskUser},
		{"encoded parent, 0.59.0", "0.59.0", map[string]any{"command": "ls", "dir_path": "%2E%2E"}, true, nil, Allow},
		{"encoded slashes", "0.61.0", map[string]any{"command": "cat a.txt", "dir_path": "sub%2F..%2F.."}, true, nil, AskUser},
		{"malformed escape", "0.61.0", map[string]any{"command": "cat a.txt", "dir_path": "sub%E0%A4%A"}, true, nil, Allow},
		{"decoded NUL", "0.61.0", map[string]any{"command": "cat a.txt", "dir_path": "%2E%2E%2Fx%00"}, true, nil, Allow},
		{"reader relative to the decoded folder", "0.61.0", map[string]any{"command": "cat ../../a.txt", "dir_path": "a%2Fb"}, true, nil, Allow},
		{"reader past the decoded folder", "0.61.0", map[string]any{"command": "cat ../../a.txt", "dir_path": "a%2Eb"}, true, nil, AskUser},
		{"dotted capital I is no git", "0.58.0", map[string]any{"command": "GİT status"}, false, allowShell, Allow},
		{"dotted capital I is no git, 0.61.0", "0.61.0", map[string]any{"command": "GİT status"}, false, allowShell, Allow},
		{"capital GIT is git", "0.61.0", map[string]any{"command": "GIT status"}, false, allowShell, AskUser},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rel, err := Lookup(tt.version)
			require.NoError(t, err)
			e, err := NewEngine(Config{Release: rel, Mode: ModeDefault, Interactive: true, Trusted: tt.trusted, Policies: tt.policies})
			require.NoError(t, err)
			args := map[string]any{}
			for k, v := range tt.args {
				args[k] = v
			}
			res, err := e.Check(Call{Name: "run_shell_command", Args: args, HasArgs: true})
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Decision)
		})
	}
}
