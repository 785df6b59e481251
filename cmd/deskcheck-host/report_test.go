package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
)

// TestOutIsOneReport: -out writes one deskcheck report: report.json holds
// the model's results for the selected cases, as deskcheck verify -host
// writes them, and the real host's as its real-code section, the same run
// the standard output shows; each other file of the folder is that
// report rendered, as deskcheck report render renders it.
func TestOutIsOneReport(t *testing.T) {
	requireRelease(t, "18.1.16")
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	fault, err := all.Registry().LookupFault("omp/deny-all")
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "reports")
	code, out, errOut := runCmd(t, &fault, "verify", "-host", "omp@18.1.16", "-format", "json", "-out", dir, bundledDesk)
	require.Equal(t, exitFail, code, errOut)
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	rep, err := reports.ReadJSON(data)
	require.NoError(t, err, "report.json is deskcheck evidence")

	var alone struct {
		RealHost []json.RawMessage `json:"realHost"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &alone))
	var section struct {
		RealCode []json.RawMessage `json:"realCode"`
	}
	require.NoError(t, json.Unmarshal(data, &section))
	require.Len(t, section.RealCode, 1)
	require.Len(t, alone.RealHost, 1)
	var a, s map[string]any
	require.NoError(t, json.Unmarshal(alone.RealHost[0], &a))
	require.NoError(t, json.Unmarshal(section.RealCode[0], &s))
	assert.Equal(t, "omp", s["host"].(map[string]any)["name"], "the section names the host")
	delete(s["host"].(map[string]any), "name")
	assert.Equal(t, a, s, "the section is the run the standard output shows")
	require.Positive(t, rep.RealCode[0].Summary.Disagree, "the fault makes the model disagree with the real code")

	assert.Equal(t, 15, rep.Summary.Cases, "the model's results for the selected cases")
	assert.Positive(t, rep.Summary.Failed, "judged under the same fault as the section's model column")
	assert.Equal(t, "fail", rep.Verdict)
	require.Len(t, rep.Provenance.Hosts, 1)
	assert.Equal(t, "18.1.16", rep.Provenance.Hosts[0].Pinned, "judged on the model release compared")
	assert.Equal(t, []string{"deskcheck-host", "verify", "-host", "omp@18.1.16", "-format", "json", "-out", dir, bundledDesk}, rep.Provenance.Command)

	for _, f := range []struct {
		file string
		r    reports.Reporter
	}{{"report.txt", reports.Text{}}, {"report.md", reports.Markdown{}}, {"report.junit.xml", reports.JUnit{}}, {"report.html", reports.HTML{Registry: all.Registry()}}} {
		want, err := os.ReadFile(filepath.Join(dir, f.file))
		require.NoError(t, err)
		var got bytes.Buffer
		require.NoError(t, f.r.Write(&got, rep))
		assert.True(t, string(want) == got.String(), "%s is report.json rendered", f.file)
		assert.True(t, strings.Contains(got.String(), "omp@18.1.16 (@oh-my-pi/pi-coding-agent 18.1.16) on bun"), "%s shows the real host", f.file)
	}
}
