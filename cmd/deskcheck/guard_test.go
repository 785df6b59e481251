package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFileNamesNeverAct: a file name is the user's and may hold anything;
// what deskcheck prints of it, on standard output or error, shows every
// acting character as an escape.
func TestFileNamesNeverAct(t *testing.T) {
	// observe -w refuses to write under CI; these tests write on purpose.
	t.Setenv("CI", "")
	seed, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	dir := t.TempDir()
	name := "a\x1b[31m\u202e\nb.json"
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, seed, 0o600))
	for _, args := range [][]string{
		{"validate", path},
		{"validate", path + "x"},
		{"report", "render", path},
		{"observe", "-w", "-run", "none-such", path},
	} {
		_, out, errOut := runCLI(t, args...)
		for _, s := range []string{out, errOut} {
			assert.NotContains(t, s, "\x1b", "%v", args)
			assert.NotContains(t, s, "\u202e", "%v", args)
		}
		// A line of results names the file on one line; a message on
		// standard error may go on to a second line, but nothing in it acts.
		assert.NotContains(t, out, "\nb.json", "%v: no raw line feed from the name in a result line", args)
		assert.True(t, strings.Contains(out+errOut, `\u001b[31m\u202e`), "%v: the name is shown escaped: %q %q", args, out, errOut)
	}
}

// TestHelpHelp: help is a command the usage lists, so its own help is the
// usage, exit 0.
func TestHelpHelp(t *testing.T) {
	code, out, errOut := runCLI(t, "help", "help")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "deskcheck help     [COMMAND]")
}
