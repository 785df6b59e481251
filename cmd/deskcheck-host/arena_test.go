package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/recorders"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestArenaInEveryFormat: an arena adapter is judged through the same
// driver as every declared family: each -format, -run, and -out's report
// folder, with the seed's figures on the model and on the real code and
// the run's provenance.
func TestArenaInEveryFormat(t *testing.T) {
	fam := venvFamily(t)
	desk := bundledDeskOf(t, fam.Host)
	requireFamily(t, fam.Host, "vanilla@0.1.0")
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, errOut := runCmd(t, nil, "verify", "-host", fam.Host+"@vanilla", "-format", "json", "-out", out, desk)
	require.Equal(t, exitPass, code, "%s\n%s", stdout, errOut)
	run := gjson.Get(stdout, "realHost.0")
	assert.Equal(t, fam.Host+"@vanilla@0.1.0", run.Get("host.source").String())
	assert.Equal(t, int64(16), run.Get("summary.holds").Int())
	assert.True(t, run.Get("host.sandboxed").Bool(), "the adapter runs in the sandbox")
	for _, side := range []string{"real", "model"} {
		d := run.Get("dimensions." + side)
		assert.Equal(t, "10/10 14/14 16/16 16/16 1.00 0", strings.Join([]string{
			d.Get("denialPropagation.numerator").String() + "/" + d.Get("denialPropagation.denominator").String(),
			d.Get("allowedWork.numerator").String() + "/" + d.Get("allowedWork.denominator").String(),
			d.Get("failClosed.numerator").String() + "/" + d.Get("failClosed.denominator").String(),
			d.Get("traceCompleteness.numerator").String() + "/" + d.Get("traceCompleteness.denominator").String(),
			d.Get("retryAmplification.ratio").String(), d.Get("extraEffects").String()}, " "), side)
	}
	assert.Equal(t, "vanilla 0.1.0 (openai 3.0.0)", run.Get("dimensions.column").String())
	assert.Equal(t, recorders.Contract, run.Get("provenance.contract").String())
	assert.Equal(t, "3.0.0", run.Get("provenance.packages.openai").String())

	// The folder: one report, its real-code section with the table, in
	// every rendering; render reads report.json back to the same text.
	saved, err := os.ReadFile(filepath.Join(out, "report.json"))
	require.NoError(t, err)
	require.NoError(t, reports.CheckJSON(saved))
	assert.Equal(t, int64(14), gjson.GetBytes(saved, "realCode.0.dimensions.real.allowedWork.denominator").Int())
	back, err := reports.ReadJSON(saved)
	require.NoError(t, err)
	var again strings.Builder
	require.NoError(t, reports.Text{}.Write(&again, back))
	text, err := os.ReadFile(filepath.Join(out, "report.txt"))
	require.NoError(t, err)
	assert.Equal(t, string(text), again.String())
	seed := regexp.MustCompile(`(?m)^vanilla 0\.1\.0 \(openai 3\.0\.0\) +10/10 +14/14 +16/16 +16/16 +1\.00 \(24/24\) +0$`)
	assert.Regexp(t, seed, string(text))
	assert.Regexp(t, regexp.MustCompile(`(?m)^model of vanilla 0\.1\.0 \(openai 3\.0\.0\) \(Go\) +10/10 +14/14 +16/16 +16/16 +1\.00 \(24/24\) +0$`), string(text))
	for name, want := range map[string]string{
		"report.md":        "| vanilla 0.1.0 (openai 3.0.0) | 10/10 | 14/14 | 16/16 | 16/16 | 1.00 (24/24) | 0 |",
		"report.junit.xml": `<property name="boundary.allowedWork" value="14/14"></property>`,
		"report.html":      "<td>vanilla 0.1.0 (openai 3.0.0)</td><td>10/10</td><td>14/14</td>",
	} {
		b, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err, name)
		assert.Contains(t, string(b), want, name)
	}

	// -run selects; the other formats print the section on its own.
	for format, want := range map[string]string{
		"text":     fam.Host + "@vanilla@0.1.0: 1 cases: 1 hold on the real code",
		"markdown": "| vanilla 0.1.0 (openai 3.0.0) | 1/1 | n/a | 1/1 | 1/1 | 1.00 (1/1) | 0 |",
		"junit":    `<property name="boundary.denialPropagation" value="1/1"></property>`,
		"html":     "<td>vanilla 0.1.0 (openai 3.0.0)</td><td>1/1</td><td>n/a</td>",
	} {
		code, stdout, errOut := runCmd(t, nil, "verify", "-host", fam.Host+"@vanilla@0.1.0", "-format", format, "-run", "-protected-file-denied$", desk)
		require.Equal(t, exitPass, code, "%s\n%s", stdout, errOut)
		assert.Contains(t, stdout, want, format)
	}
}

// TestArenaWrongExpectationAndModelFault: a wrong expectation does not
// hold on the adapter; a model fault disagrees, with a one-case desk
// whose expected block is what the adapter observed.
func TestArenaWrongExpectationAndModelFault(t *testing.T) {
	fam := venvFamily(t)
	bundled := bundledDeskOf(t, fam.Host)
	requireFamily(t, fam.Host, "vanilla@0.1.0")
	desk, err := os.ReadFile(bundled)
	require.NoError(t, err)
	wrong := strings.Replace(string(desk), `"effects": 0`, `"effects": 1`, 1)
	require.NotEqual(t, string(desk), wrong)
	path := filepath.Join(t.TempDir(), "wrong.json")
	require.NoError(t, os.WriteFile(path, []byte(wrong), 0o600))
	code, stdout, errOut := runCmd(t, nil, "verify", "-host", "vanilla", path)
	require.Equal(t, exitFail, code, "%s\n%s", stdout, errOut)
	assert.Contains(t, stdout, "      does not hold on the real code\n")
	assert.Contains(t, stdout, "on the real code effects: expected 1, observed 0")

	fault, err := all.Registry().LookupFault(fam.Host + "/deny-all")
	require.NoError(t, err)
	code, stdout, errOut = runCmd(t, &fault, "verify", "-host", fam.Host+"@vanilla", "-format", "json", "-run", "-protected-file-allowed$", bundled)
	require.Equal(t, exitFail, code, "%s\n%s", stdout, errOut)
	c := gjson.Get(stdout, "realHost.0.cases.0")
	assert.Equal(t, string(realhost.Disagree), c.Get("verdict").String())
	assert.Contains(t, c.Get("differ").String(), "effects")
	repro := []byte(c.Get("repro").Raw)
	d, ds := verifier.Load(all.Registry(), "repro.json", repro, verifier.Limits{})
	require.NotNil(t, d, "%v", ds)
	assert.Equal(t, int64(1), gjson.GetBytes(repro, "cases.0.expected.effects").Int(), "the adapter's observation")
	work := gjson.Get(stdout, "realHost.0.dimensions")
	assert.Equal(t, []int64{0, 1, 1, 1}, []int64{work.Get("model.allowedWork.numerator").Int(), work.Get("model.allowedWork.denominator").Int(),
		work.Get("real.allowedWork.numerator").Int(), work.Get("real.allowedWork.denominator").Int()}, "the model under the fault loses the work the adapter did")
}

// TestArenaFaultSwitchedOn: -fault NAME switches the adapter's fault on
// and the model's of the same name beside it, says so above everything,
// and is refused for a host whose harness has no faults, for an unknown
// name and with -host-src.
func TestArenaFaultSwitchedOn(t *testing.T) {
	fam := venvFamily(t)
	desk := bundledDeskOf(t, fam.Host)
	t.Run("refused", func(t *testing.T) {
		t.Setenv("DESKCHECK_CACHE", t.TempDir())
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"verify", "-host", at("18.1.16"), "-fault", "drop-denial", bundledDeskOf(t, hostDefault)}, "-fault is accepted with " + fam.Host + " hosts only, not with -host " + at("18.1.16")},
			{[]string{"verify", "-fault", "drop-denial", bundledDeskOf(t, hostDefault)}, "-fault is accepted with " + fam.Host + " hosts only, not with the default host, " + hostDefault},
			{[]string{"verify", "-host", fam.Host + "@vanilla", "-fault", "nope", desk}, `-fault "nope": no fault of the ` + fam.Host + " harness; the faults are drop-denial, "},
			{[]string{"verify", "-host-src", "x", "-fault", "drop-denial", bundledDeskOf(t, hostDefault)}, "-fault is accepted with " + fam.Host + " hosts only, not with -host-src"},
		} {
			code, out, errOut := runCmd(t, nil, tc.args...)
			assert.Equal(t, exitInvalid, code, "%v: %s", tc.args, errOut)
			assert.Empty(t, out, "%v", tc.args)
			assert.Contains(t, errOut, tc.want, "%v", tc.args)
		}
	})
	requireFamily(t, fam.Host, "vanilla@0.1.0")
	for _, name := range []string{"drop-denial", fam.Host + "/drop-denial"} {
		code, stdout, errOut := runCmd(t, nil, "verify", "-host", fam.Host+"@vanilla", "-fault", name, desk)
		require.Equal(t, exitFail, code, "%s\n%s", stdout, errOut)
		assert.True(t, strings.HasPrefix(stdout, "FAULT SWITCHED ON: drop-denial — results do not describe the adapter\n"), stdout)
		// The denials the adapter drops are the model's too: they do not
		// hold, and the two agree.
		assert.Contains(t, stdout, "16 cases: 8 hold on the real code, 8 do not hold, 0 model and real code disagree")
	}
	code, stdout, errOut := runCmd(t, nil, "verify", "-host", fam.Host+"@vanilla", "-fault", "drop-denial", "-format", "json", desk)
	require.Equal(t, exitFail, code, errOut)
	assert.True(t, gjson.Valid(stdout), "the JSON stays a document")
	assert.True(t, strings.HasPrefix(errOut, "FAULT SWITCHED ON: drop-denial"), errOut)
}
