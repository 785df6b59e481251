package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShowStopsAtAnInvalidFile: explain and observe print each case as it
// has run, so a file read after the valid ones that does not load stops
// the run with the cases before it printed, exit 2 and a line saying
// nothing more is shown; observe -w then writes nothing. An invalid file
// read first runs nothing.
func TestShowStopsAtAnInvalidFile(t *testing.T) {
	valid, invalid := "../../cases/boundary-desk.json", "../../verifier/testdata/invalid/malformed.json"
	for _, args := range [][]string{{"explain"}, {"observe"}, {"observe", "-w"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Setenv("CI", "")
			desk := valid
			if len(args) > 1 {
				// A copy, whose blocks a run would rewrite were the
				// run not stopped.
				data, err := os.ReadFile(valid)
				require.NoError(t, err)
				data = []byte(strings.Replace(string(data), `"prompts": 2,`, `"prompts": 41,`, 1))
				desk = filepath.Join(t.TempDir(), "desk.json")
				require.NoError(t, os.WriteFile(desk, data, 0o600))
				code, out, _ := runCLI(t, "observe", desk)
				require.Equal(t, 0, code)
				require.Contains(t, out, "~ prompts", "the copy has a block to rewrite")
			}
			before, err := os.ReadFile(desk)
			require.NoError(t, err)

			code, out, errOut := runCLI(t, append(append([]string{}, args...), desk, invalid)...)
			assert.Equal(t, 2, code)
			assert.Contains(t, out, "boundary-desk/", "the cases of the valid file are printed")
			assert.Contains(t, errOut, "deskcheck: invalid case files; nothing more is shown (the 15 cases of the 1 file read before the first invalid one had already run)\n")
			after, err := os.ReadFile(desk)
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after), "nothing is written")

			code, out, errOut = runCLI(t, append(append([]string{}, args...), invalid, desk)...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out, "nothing runs")
			assert.Contains(t, errOut, "deskcheck: invalid case files; nothing was run\n")
		})
	}
}

// TestShowStopsAtTheTraceLimit: a run of explain or observe stopped by the
// trace limit has printed the cases before the stop, so it says nothing
// more is shown; verify, which prints nothing before the end, says
// nothing is reported.
func TestShowStopsAtTheTraceLimit(t *testing.T) {
	desk := "../../cases/boundary-desk.json"
	for _, cmd := range []string{"explain", "observe"} {
		code, out, errOut := runCLI(t, cmd, "-max-events", "50", desk)
		assert.Equal(t, 2, code, cmd)
		assert.Contains(t, out, "boundary-desk/", "%s printed the cases before the stop", cmd)
		assert.Contains(t, errOut, "deskcheck: the cases recorded more than 50 trace events, the limit per run, so the run was stopped and nothing more is shown; select fewer cases with -run or raise the limit with -max-events N\n", cmd)
	}
	code, out, errOut := runCLI(t, "verify", "-out", "none", "-max-events", "50", desk)
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "so the run was stopped and nothing is reported;")
}
