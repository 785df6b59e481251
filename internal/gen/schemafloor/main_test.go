package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/gen"
)

// folder writes a generated suite of n cases, 1,000 to a file, and any
// extra files given by name, into a new folder.
func folder(t *testing.T, n int, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range gen.Suite(n, 1000) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644))
	}
	for name, text := range extra {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

func TestFloor(t *testing.T) {
	good := folder(t, 3000, map[string]string{"notes.txt": "not a case file"})
	bad := folder(t, 2000, map[string]string{
		"a-first.json": `{"version": 1}`,
		"z-last.json":  `[]`,
	})
	for _, tt := range []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderrIn []string // in this order
	}{
		{"every file valid, on every processor", []string{good}, 0,
			"3 files validated on " + goroutines(runtime.GOMAXPROCS(0)) + ", 0 with problems\n", nil},
		{"every file valid, one after another", []string{"-serial", good}, 0,
			"3 files validated on 1 goroutine, 0 with problems\n", nil},
		{"invalid files reported in file order", []string{bad}, 1,
			"4 files validated on " + goroutines(runtime.GOMAXPROCS(0)) + ", 2 with problems\n",
			[]string{"a-first.json: ", "z-last.json: "}},
		{"a missing folder", []string{filepath.Join(good, "absent")}, 2, "", []string{"no such file"}},
		{"no folder", nil, 2, "", []string{"usage: schemafloor"}},
		{"an unknown flag", []string{"-fast", good}, 2, "", []string{"-fast"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tt.code, run(tt.args, &stdout, &stderr), stderr.String())
			assert.Equal(t, tt.stdout, stdout.String())
			rest := stderr.String()
			for _, want := range tt.stderrIn {
				i := strings.Index(rest, want)
				if assert.GreaterOrEqual(t, i, 0, "%q in %q", want, stderr.String()) {
					rest = rest[i+len(want):]
				}
			}
		})
	}
}

// TestFloorUsesEveryProcessor holds the floor to as many goroutines as
// verify uses: GOMAXPROCS, whatever it is set to.
func TestFloorUsesEveryProcessor(t *testing.T) {
	dir := folder(t, 1000, nil)
	for _, procs := range []int{1, 2, 3} {
		prev := runtime.GOMAXPROCS(procs)
		var stdout, stderr bytes.Buffer
		code := run([]string{dir}, &stdout, &stderr)
		runtime.GOMAXPROCS(prev)
		assert.Equal(t, 0, code, stderr.String())
		assert.Equal(t, "1 files validated on "+goroutines(procs)+", 0 with problems\n", stdout.String())
	}
}

func goroutines(n int) string {
	if n == 1 {
		return "1 goroutine"
	}
	return fmt.Sprintf("%d goroutines", n)
}
