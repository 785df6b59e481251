package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withStdin runs the CLI with data on standard input.
func withStdin(t *testing.T, data string, args ...string) (int, string, string) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(data)
	defer func() { stdin = old }()
	return runCLI(t, args...)
}

func TestDashReadsStandardInput(t *testing.T) {
	seed, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	broken := strings.Replace(string(seed), `"prompts"`, `"promts"`, 1)
	desks := bundledDesks(t)
	second := desks[len(desks)-1]
	other := filepath.Join(t.TempDir(), "other.json")
	require.NoError(t, os.WriteFile(other, deskData(t, second), 0o600))
	tests := []struct {
		reason string
		input  string
		args   []string
		code   int
		stdout string // a part of stdout
		stderr string // a part of stderr
	}{
		{"validate - reads the desk from standard input", string(seed), []string{"validate", "-"}, 0, "<stdin>: ok (desk boundary-desk: 15 cases", ""},
		{"verify - runs it", string(seed), []string{"verify", "-out", "OUT", "-"}, 0, "15 passed, 0 failed", ""},
		{"- beside a file keeps the order given", string(seed), []string{"validate", other, "-"}, 0, "other.json: ok (desk " + second.ID, ""},
		{"a problem is located in <stdin>", broken, []string{"validate", "-"}, 2, "", "<stdin>:"},
		{"the problem names the key", broken, []string{"validate", "-"}, 2, "", `expected key "promts"`},
		{"- twice is a usage error", string(seed), []string{"validate", "-", "-"}, 2, "", "named more than once"},
		{"over the size limit", string(seed), []string{"validate", "-max-file-size", "100", "-"}, 2, "", "<stdin>: cannot be read"},
		{"empty standard input is an empty file", "", []string{"validate", "-"}, 2, "", "<stdin>"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			args := append([]string{}, tt.args...)
			for i, a := range args {
				if a == "OUT" {
					args[i] = filepath.Join(t.TempDir(), "out")
				}
			}
			code, out, errOut := withStdin(t, tt.input, args...)
			assert.Equal(t, tt.code, code, errOut)
			assert.Contains(t, out, tt.stdout)
			assert.Contains(t, errOut, tt.stderr)
		})
	}
	_, out, _ := withStdin(t, string(seed), "validate", other, "-")
	assert.Less(t, strings.Index(out, "other.json"), strings.Index(out, "<stdin>"), "files come in the order named")
}
