package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/gen"
)

// TestParallelOutputEqualsSerial verifies a generated suite with one
// processor and with several, and requires byte-identical output and
// report files.
func TestParallelOutputEqualsSerial(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	dir := filepath.Join(t.TempDir(), "desks")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, f := range gen.Suite(3000, 700) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644))
	}
	// One case fails, so that failure output is compared too.
	data, err := os.ReadFile(filepath.Join(dir, "generated-0001.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "generated-0001.json"), []byte(strings.Replace(string(data), `"effects":1`, `"effects":7`, 1)), 0o644))

	outputs := map[int]map[string]string{}
	// One report folder for both runs: the report records the command
	// line, -out included.
	out := filepath.Join(t.TempDir(), "out")
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		code, stdout, _ := runCLI(t, "verify", "-out", out, dir)
		runtime.GOMAXPROCS(prev)
		require.Equal(t, 1, code)
		files := map[string]string{"stdout": stdout}
		for _, name := range []string{"report.json", "report.html", "report.md", "report.junit.xml"} {
			b, err := os.ReadFile(filepath.Join(out, name))
			require.NoError(t, err)
			files[name] = string(b)
		}
		outputs[procs] = files
	}
	for name, serial := range outputs[1] {
		assert.True(t, serial == outputs[4][name], "%s differs between 1 and 4 processors", name)
	}
	assert.Contains(t, outputs[1]["stdout"], "2999 passed, 1 failed")
}
