package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProvenanceRecordsTheRun(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	wd, err := os.Getwd()
	require.NoError(t, err)
	out := filepath.Join(wd, "testdata", "out-provenance")
	t.Cleanup(func() { os.RemoveAll(out) })
	d := bundledDesks(t)[0]
	desk, err := filepath.Abs(filepath.Join("../..", d.Path))
	require.NoError(t, err)
	lim, _ := someLimits(t)
	read := func() (p struct {
		Command []string
		Limits  map[string]int64
		RunID   string
	}) {
		data, err := os.ReadFile(filepath.Join(out, "report.json"))
		require.NoError(t, err)
		var r struct{ Provenance json.RawMessage }
		require.NoError(t, json.Unmarshal(data, &r))
		require.NoError(t, json.Unmarshal(r.Provenance, &p))
		return p
	}
	code, _, errOut := runCLI(t, "verify", "-out", out, "-limit", lim+"=7", desk)
	require.Equal(t, 0, code, errOut)
	p := read()
	require.Len(t, p.Command, 7)
	assert.Equal(t, []string{"deskcheck", "verify", "-out", filepath.Join("testdata", "out-provenance"), "-limit", lim + "=7"}, p.Command[:6], "a path inside the working folder is written relative to it")
	assert.Equal(t, displayHome(desk), p.Command[6], "one outside it stays absolute (~/… under the home folder)")
	assert.Equal(t, int64(7), p.Limits[lim], "the limits in force")
	assert.Equal(t, int64(16<<20), p.Limits["max-file-size"])
	assert.Regexp(t, `^[0-9a-f]{16}$`, p.RunID)
	first := p.RunID
	code, _, _ = runCLI(t, "verify", "-out", out, "-limit", lim+"=7", desk)
	require.Equal(t, 0, code)
	assert.Equal(t, first, read().RunID, "the same run with SOURCE_DATE_EPOCH has the same id")
	t.Setenv("SOURCE_DATE_EPOCH", "1")
	code, _, _ = runCLI(t, "verify", "-out", out, "-limit", lim+"=7", desk)
	require.Equal(t, 0, code)
	assert.NotEqual(t, first, read().RunID, "another time, another id")
	_, out2, _ := runCLI(t, "report", "render", filepath.Join(out, "report.json"))
	assert.Contains(t, out2, fmt.Sprintf("%d passed, 0 failed", len(d.Cases)), "a stamped report renders again")
}

// displayHome is p with the home folder written ~.
func displayHome(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return p
}

// The command reads what its reports say about the run from the process,
// once: SOURCE_DATE_EPOCH over the clock, the home and working folders,
// the build. (A SOURCE_DATE_EPOCH that is not a whole number of seconds
// stops every command that writes a time stamp with exit 2 before this is
// read: TestSourceDateEpoch.)
func TestOriginReadsTheProcess(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	o := origin()
	assert.Equal(t, "2023-11-14T22:13:20Z", o.Time.UTC().Format(time.RFC3339))
	assert.Equal(t, home, o.Home)
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, wd, o.Wd)
	version, revision := buildVersion()
	assert.Equal(t, [3]string{version, revision, runtime.Version()}, [3]string{o.Deskcheck, o.Revision, o.GoVersion})

	t.Setenv("SOURCE_DATE_EPOCH", "")
	assert.NotEqual(t, int64(1700000000), origin().Time.Unix(), "without SOURCE_DATE_EPOCH the clock's time")
}
