package gemini

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// toolNameWarningEveryName is toolNameWarning as the host writes it:
// the least distance to every built-in name, then all of them sorted by
// distance (a stable sort) and the first three suggested. The pruned
// search must give what this gives.
func toolNameWarningEveryName(name string, i int, builtins []string) string {
	if strings.Contains(name, "__") {
		return fmt.Sprintf("Rule #%d: The \"__\" syntax for MCP tools is strictly deprecated. Please use the 'mcpName = \"...\"' property or the 'mcp_server_tool' format instead.", i+1)
	}
	if validToolName(name, builtins) {
		return ""
	}
	best := math.MaxInt
	for _, b := range builtins {
		best = min(best, levenshtein(name, b))
	}
	if best > 3 {
		return ""
	}
	sorted := slices.Clone(builtins)
	slices.SortStableFunc(sorted, func(a, b string) int { return levenshtein(name, a) - levenshtein(name, b) })
	return fmt.Sprintf("Rule #%d: Unrecognized tool name \"%s\". Did you mean one of: \"%s\", \"%s\", \"%s\"?", i+1, name, sorted[0], sorted[1], sorted[2])
}

// nameVariants are names near and far from the built-in ones: each with
// characters dropped, added, changed and cut, in ASCII and beyond.
func nameVariants() []string {
	out := []string{"", "x", "*", "mcp_", "mcp_a_b", "mcp__a", "a__b", "😀", "read_fil😀", "reäd_file", "\xff\xfe", "gl😀b", "globb😀"}
	for _, b := range builtinToolsG1 {
		out = append(out, b, strings.ToUpper(b), b+"s", b+"😀", b[1:], b[:len(b)-1], b[:len(b)/2], "x"+b, b+"xyz", b+"wxyz", strings.ReplaceAll(b, "_", ""), strings.ReplaceAll(b, "_", "-"))
		for i := 0; i < len(b); i++ {
			out = append(out, b[:i]+"é"+b[i+1:], b[:i]+b[i+1:])
		}
	}
	return out
}

func TestToolNameWarningAsEveryName(t *testing.T) {
	warned := 0
	for _, name := range nameVariants() {
		for _, builtins := range [][]string{builtinTools, builtinToolsG1} {
			want := toolNameWarningEveryName(name, 2, builtins)
			assert.Equal(t, want, toolNameWarning(name, 2, builtins), "%q", name)
			if want != "" {
				warned++
			}
		}
	}
	assert.Greater(t, warned, 100)
}

func FuzzToolNameWarning(f *testing.F) {
	for _, name := range nameVariants() {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if len(name) > 200 {
			return
		}
		for _, builtins := range [][]string{builtinTools, builtinToolsG1} {
			assert.Equal(t, toolNameWarningEveryName(name, 0, builtins), toolNameWarning(name, 0, builtins), "%q", name)
		}
	})
}

// TestSafeRegExpAsThePattern: the checks made before the pattern (the
// length in bytes, a parenthesis) answer as the pattern and the UTF-16
// length do.
func TestSafeRegExpAsThePattern(t *testing.T) {
	long := strings.Repeat("a", 2049)
	for _, p := range []string{"", "a+", "(a+)+", "(a)", "(a+)b+", "[(]a*)+", "a)+", "((a))*", "(?:x)*", "(a|b)?", "(a", "x{2}(y*){3}",
		long, "(" + long[:2040] + ")", strings.Repeat("é", 1025), strings.Repeat("é", 2049), strings.Repeat("😀", 1024), strings.Repeat("😀", 1025)} {
		want := utf16Len(p) <= 2048 && !nestedQuantifier.MatchString(p)
		assert.Equal(t, want, isSafeRegExp(p), "%.40q", p)
	}
}

// TestMCPServerNameFolding: an mcp_<server>_<tool> name is valid when the
// server's name is ASCII letters (either case), digits and _.:- only;
// JavaScript's /i folds no other letter into that set.
func TestMCPServerNameFolding(t *testing.T) {
	tests := []struct {
		name  string
		valid bool
	}{
		{"mcp_srv_tool", true},
		{"mcp_SRV_tool", true},
		{"mcp_a.b:c-d_tool", true},
		{"mcp_ſrv_tool", false},       // ſ uppercases to S
		{"mcp_\u212Asrv_tool", false}, // the Kelvin sign lowercases to k
		{"mcp_srvé_tool", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.valid, validToolName(tt.name, builtinTools), tt.name)
	}
}
