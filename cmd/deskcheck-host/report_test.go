package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestOutIsOneReport: -out writes one deskcheck report: report.json holds
// the model's results for the selected cases, as deskcheck verify -host
// writes them, and the real host's as its real-code section, the same run
// the standard output shows; each other file of the folder is that
// report rendered, as deskcheck report render renders it.
func TestOutIsOneReport(t *testing.T) {
	requireRelease(t, "18.1.16")
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	fault, err := all.Registry().LookupFault(defaultFam.Host + "/deny-all")
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "reports")
	code, out, errOut := runCmd(t, &fault, "verify", "-host", at("18.1.16"), "-format", "json", "-out", dir, bundledDesk)
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
	assert.Equal(t, defaultFam.Host, s["host"].(map[string]any)["name"], "the section names the host")
	delete(s["host"].(map[string]any), "name")
	assert.Equal(t, a, s, "the section is the run the standard output shows")
	require.Positive(t, rep.RealCode[0].Summary.Disagree, "the fault makes the model disagree with the real code")

	assert.Equal(t, 15, rep.Summary.Cases, "the model's results for the selected cases")
	assert.Positive(t, rep.Summary.Failed, "judged under the same fault as the section's model column")
	assert.Equal(t, "fail", rep.Verdict)
	require.Len(t, rep.Provenance.Hosts, 1)
	assert.Equal(t, "18.1.16", rep.Provenance.Hosts[0].Pinned, "judged on the model release compared")
	assert.Equal(t, []string{"deskcheck-host", "verify", "-host", at("18.1.16"), "-format", "json", "-out", dir, bundledDesk}, rep.Provenance.Command)

	for _, f := range []struct {
		file string
		r    reports.Reporter
	}{{"report.txt", reports.Text{}}, {"report.md", reports.Markdown{}}, {"report.junit.xml", reports.JUnit{}}, {"report.html", reports.HTML{Registry: all.Registry()}}} {
		want, err := os.ReadFile(filepath.Join(dir, f.file))
		require.NoError(t, err)
		var got bytes.Buffer
		require.NoError(t, f.r.Write(&got, rep))
		assert.True(t, string(want) == got.String(), "%s is report.json rendered", f.file)
		assert.True(t, strings.Contains(got.String(), at("18.1.16")+" ("+defaultFam.Package+" 18.1.16) on bun"), "%s shows the real host", f.file)
	}
}

// TestModelResultsOnEveryRelease: where the real code ran on several
// releases of a host, each case of that host is judged on the model of
// each, oldest first in its releases; one that fails on one release fails
// and shows that release's run; one that passes on all shows the newest;
// cases of other hosts are judged as before.
func TestModelResultsOnEveryRelease(t *testing.T) {
	cases, code := loadCases([]string{bundledDesk}, "", verifier.Limits{}, io.Discard)
	require.Equal(t, exitPass, code)
	_, fam := cases[0].Spec()
	require.NotNil(t, fam)
	host := fam.Host.Name
	one, err := modelResults(context.Background(), cases, map[string][]string{host: {"18.1.16"}}, verifier.RunOptions{})
	require.NoError(t, err)
	pinned, err := verifier.Run(context.Background(), cases, verifier.RunOptions{Pin: verifier.Hosts{host: "18.1.16"}})
	require.NoError(t, err)
	assert.Equal(t, pinned, one, "one release: as deskcheck verify -host pins it")

	both, err := modelResults(context.Background(), cases, map[string][]string{host: {"18.1.16", "17.3.5"}}, verifier.RunOptions{})
	require.NoError(t, err)
	old, err := verifier.Run(context.Background(), cases, verifier.RunOptions{Pin: verifier.Hosts{host: "17.3.5"}})
	require.NoError(t, err)
	failedOnOld := 0
	for i, r := range both {
		var on []string
		for _, v := range r.Releases {
			on = append(on, v.Release)
		}
		assert.Equal(t, []string{"17.3.5", "18.1.16"}, on, r.Case.FullID())
		switch {
		case old[i].Status == verifier.Fail && pinned[i].Status == verifier.Pass:
			failedOnOld++
			assert.Equal(t, verifier.Fail, r.Status, r.Case.FullID())
			assert.Equal(t, "17.3.5", r.Release, "the run shown is the one that failed")
		case old[i].Status == verifier.Pass && pinned[i].Status == verifier.Pass:
			assert.Equal(t, verifier.Pass, r.Status, r.Case.FullID())
			assert.Equal(t, "18.1.16", r.Release, "the newest is shown when all pass")
		case old[i].Status == verifier.NotApplicable && pinned[i].Status == verifier.Pass:
			assert.Equal(t, verifier.Pass, r.Status, r.Case.FullID())
			assert.Equal(t, "18.1.16", r.Release)
		}
	}
	assert.Positive(t, failedOnOld, "some case of the bundled desk fails on 17.3.5's model")
}

// TestOutOnSeveralReleases: -host with two releases of a host writes one
// report whose model results hold each case's verdict on both, and whose
// provenance pins neither.
func TestOutOnSeveralReleases(t *testing.T) {
	requireRelease(t, "18.1.16")
	requireRelease(t, "17.3.5")
	dir := filepath.Join(t.TempDir(), "reports")
	code, _, errOut := runCmd(t, nil, "verify", "-host", at("18.1.16")+","+at("17.3.5"), "-out", dir, bundledDesk)
	require.Equal(t, exitFail, code, "17.3.5 does not hold every case: %s", errOut)
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	rep, err := reports.ReadJSON(data)
	require.NoError(t, err)
	require.Len(t, rep.RealCode, 2)
	require.NotEmpty(t, rep.Cases)
	for _, c := range rep.Cases {
		var on []string
		for _, v := range c.Releases {
			on = append(on, v.Release)
		}
		assert.Equal(t, []string{"17.3.5", "18.1.16"}, on, c.ID)
	}
	for _, h := range rep.Provenance.Hosts {
		assert.Empty(t, h.Pinned, h.Name)
	}
}
