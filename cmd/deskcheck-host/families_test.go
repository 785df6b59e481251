package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/all/real"
	"github.com/deskcheck/deskcheck/host/arena/realarena"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
	"github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/verifier"
)

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		arg         string
		needVersion bool
		family      string
		version     string
		notOurs     bool
		err         string
	}{
		{arg: hostNewest + "@0.61.0", needVersion: true, family: hostNewest, version: "0.61.0"},
		{arg: hostNewest, family: hostNewest},
		{arg: hostNewest, needVersion: true, err: `"` + hostNewest + `": name a release, ` + hostNewest + `@VERSION; the releases are 0.40.0, `},
		{arg: hostNewest + "@0.62.0", err: hostNewest + "@0.62.0 is not a release deskcheck-host can install; the releases are 0.40.0, "},
		{arg: hostVenv, family: hostVenv},
		{arg: hostVenv, needVersion: true, family: hostVenv},
		{arg: "langgraph@1.2.11", family: hostVenv, version: "langgraph@1.2.11"},
		{arg: "openai-agents@0.22.0", family: hostVenv, version: "openai-agents@0.22.0"},
		{arg: hostVenv + ":vanilla", family: hostVenv, version: "vanilla@0.1.0"},
		{arg: hostVenv + "@langgraph", family: hostVenv, version: "langgraph@1.2.11"},
		{arg: hostVenv + "@langgraph@1.2.11", family: hostVenv, version: "langgraph@1.2.11"},
		{arg: "vanilla", family: hostVenv, version: "vanilla@0.1.0"},
		{arg: hostVenv + "@langgraph@1.0.0", err: "the langgraph adapter pins LangGraph 1.2.11"},
		{arg: "langgraph@1.0.0", err: "langgraph@1.0.0: the langgraph adapter pins LangGraph 1.2.11"},
		{arg: hostVenv + "@crewai", err: hostVenv + `@crewai: unknown adapter "crewai"; the adapters are vanilla, langgraph, openai-agents`},
		{arg: hostVenv + ":crewai", err: `unknown adapter "crewai"`},
		{arg: at("18.3.4"), family: hostDefault, version: "18.3.4"},
		{arg: "18.3.4", family: hostDefault, version: "18.3.4"},
		{arg: at("9.9.9"), err: hostDefault + "@9.9.9 is not a release deskcheck-host can install; the releases are 13.19.0, "},
		{arg: "crewai", err: hostDefault + "@crewai is not a release deskcheck-host can install; the releases are 13.19.0, "},
		{arg: "nope@1", notOurs: true},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			got, ours, err := parseTarget(tc.arg, tc.needVersion)
			if tc.notOurs {
				assert.False(t, ours)
				return
			}
			require.True(t, ours)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, got.fam)
			assert.Equal(t, tc.family, got.fam.Host)
			assert.Equal(t, tc.version, got.version)
		})
	}
}

func TestFamilyUsageErrors(t *testing.T) {
	t.Setenv("DESKCHECK_CACHE", t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"install", hostNewest + "@0.62.0"}, hostNewest + "@0.62.0 is not a release"},
		{[]string{"install", hostNewest}, "name a release"},
		{[]string{"install", "-substitute", hostNewest + "@0.61.0"}, "-substitute is for " + hostDefault + " releases only"},
		{[]string{"remove", hostNewest + "@0.61.0"}, hostNewest + "@0.61.0 is not installed"},
		{[]string{"verify", "-host", hostNewest + "@0.61.0"}, hostNewest + "@0.61.0 is not installed in"},
		{[]string{"verify", "-host", hostNewest}, "no " + hostNewest + " release is installed"},
		{[]string{"verify", "-host", hostVenv, "-format", "json"}, "-host " + hostVenv + ": no " + hostVenv + " release is installed in"},
		{[]string{"verify", "-host", hostVenv + "@langgraph"}, hostVenv + "@langgraph@1.2.11 is not installed in"},
		{[]string{"verify", "-host", hostVenv + "@crewai"}, `unknown adapter "crewai"; the adapters are vanilla, langgraph, openai-agents`},
		{[]string{"install", hostVenv + "@crewai"}, `unknown adapter "crewai"`},
		{[]string{"remove", hostVenv}, "no " + hostVenv + " release is installed in"},
		{[]string{"verify", "-host", hostNewest + "@0.61.0", "-host-src", "x"}, "give -host or -host-src, not both"},
		{[]string{"remove", "vanilla"}, "the vanilla adapter is not installed"},
	} {
		code, _, errOut := runCmd(t, nil, tc.args...)
		assert.Equal(t, exitInvalid, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

func TestListShowsEveryFamily(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DESKCHECK_CACHE", cache)
	pkg := filepath.Join(cache, hostNewest, "0.50.0", "package")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "package.json"), make([]byte, 3<<20), 0o644))
	code, out, _ := runCmd(t, nil, "list")
	require.Equal(t, exitPass, code)
	assert.Regexp(t, regexp.MustCompile(`(?m)^`+hostNewest+`@0\.50\.0 +3 MB  \d{4}-\d\d-\d\d$`), out)
	assert.Contains(t, out, "installable: "+hostNewest+"@0.40.0, "+hostNewest+"@0.44.1")
	assert.Contains(t, out, "installable: "+hostVenv+"@vanilla@0.1.0, "+hostVenv+"@langgraph@1.2.11, "+hostVenv+"@openai-agents@0.22.0 (or "+hostVenv+": all of them)")
	code, out, _ = runCmd(t, nil, "remove", hostNewest+"@0.50.0")
	require.Equal(t, exitPass, code)
	assert.Contains(t, out, "removed "+hostNewest+"@0.50.0")
	assert.NoDirExists(t, pkg)
}

// requireFamily skips (outside CI) unless release v of host is installed.
func requireFamily(t *testing.T, host, v string) {
	t.Helper()
	cache, err := realhost.CacheDir()
	require.NoError(t, err)
	for _, f := range real.Families() {
		if f.Host != host {
			continue
		}
		in, _ := f.List(cache)
		for _, r := range in {
			if r.Version == v {
				return
			}
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s@%s is missing in CI", host, v)
	}
	t.Skipf("skipping the real-code test: %s@%s is not installed (deskcheck-host install %s@%s)", host, v, host, v)
}

// TestVerifyGeminiDeskOnTheRealEngine: the bundled Gemini desk holds on
// the release's own policy engine, run in the sandbox; a wrong expectation
// does not hold; a model fault disagrees, with a one-case desk.
func TestVerifyGeminiDeskOnTheRealEngine(t *testing.T) {
	requireFamily(t, hostNewest, "0.61.0")
	code, out, errOut := runCmd(t, nil, "verify", "-host", hostNewest+"@0.61.0", bundledDeskOf(t, hostNewest))
	require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "== real host: "+hostNewest+"@0.61.0 ("+familyWhere(t, "named "+hostNewest, func(f realcode.Family) bool { return f.Host == hostNewest }).Package+" 0.61.0) on node v")
	assert.Contains(t, out, "model compared: deskcheck's model of "+hostNewest+"@0.61.0 (group G6)")
	assert.Contains(t, out, hostNewest+"@0.61.0: 25 cases: 25 hold on the real code, 0 do not hold, 0 model and real code disagree, 0 not applicable, 0 could not run")
	if os.Getenv("CI") == "true" {
		assert.Contains(t, out, "isolation: sandbox (bubblewrap)")
	}

	code, out, errOut = runCmd(t, nil, "verify", "-host", hostNewest+"@0.61.0", filepath.Join("testdata", hostNewest+"-wrong.json"))
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "FAIL  "+hostNewest+"-wrong/deny-does-not-beat-allow\n      does not hold on the real code\n")
	assert.Contains(t, out, `on the real code decision: expected "deny", observed "allow"`)

	fault, err := all.Registry().LookupFault(hostNewest + "/deny-beats-allow")
	require.NoError(t, err)
	code, out, errOut = runCmd(t, &fault, "verify", "-host", hostNewest+"@0.61.0", "-format", "json", bundledDeskOf(t, hostNewest))
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	var report struct {
		RealHost []struct {
			Summary realhost.Summary
			Cases   []struct {
				Verdict realhost.Verdict
				Repro   json.RawMessage
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report), out)
	require.Positive(t, report.RealHost[0].Summary.Disagree, "fault %s", fault.Name)
	for _, c := range report.RealHost[0].Cases {
		if c.Verdict == realhost.Disagree {
			desk, ds := verifier.Load(all.Registry(), "repro.json", c.Repro, verifier.Limits{})
			require.NotNil(t, desk, "%v", ds)
		}
	}
}

// TestVerifyArenaDeskOnARealFramework: the bundled arena desk gives the
// seed's figures on LangGraph, run in the sandbox.
func TestVerifyArenaDeskOnARealFramework(t *testing.T) {
	if _, err := realarena.Python("langgraph"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("skipping the real-framework test: %v", err)
	}
	code, out, errOut := runCmd(t, nil, "verify", "-host", "langgraph@1.2.11", bundledDeskOf(t, hostVenv))
	require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
	assert.Regexp(t, regexp.MustCompile(`(?m)^LangGraph 1\.2\.11 +10/10 +14/14 +16/16 +16/16 +1\.00 \(24/24\) +0$`), out)
	assert.Contains(t, out, `"network":"sandbox (bubblewrap)`)
}

func TestExpandHosts(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DESKCHECK_CACHE", cache)
	for _, v := range []string{"0.50.0", "0.61.0"} {
		pkg := filepath.Join(cache, hostNewest, v, "package")
		require.NoError(t, os.MkdirAll(pkg, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte("{}"), 0o644))
	}
	for _, tc := range []struct {
		flag string
		want []string
		err  string
	}{
		{flag: "", want: nil},
		{flag: hostNewest + "@0.61.0", want: []string{hostNewest + "@0.61.0"}},
		{flag: hostNewest + "@*", want: []string{hostNewest + "@0.50.0", hostNewest + "@0.61.0"}},
		{flag: hostNewest + "@0.61.0, " + hostNewest + "@*", want: []string{hostNewest + "@0.61.0", hostNewest + "@0.50.0"}},
		{flag: hostDefault + "@18.3.4," + hostNewest + "@0.50.0", want: []string{at("18.3.4"), hostNewest + "@0.50.0"}},
		{flag: hostVenv + "@langgraph", want: []string{hostVenv + "@langgraph@1.2.11"}},
		{flag: hostVenv, err: "-host " + hostVenv + ": no " + hostVenv + " release is installed in"},
		{flag: hostVenv + "@*", err: "-host " + hostVenv + "@*: no " + hostVenv + " release is installed in"},
		{flag: hostDefault + "@*", err: "-host " + hostDefault + "@*: no " + hostDefault + " release is installed in"},
		{flag: "nope@*", err: `"nope" is no host with releases; the hosts are ` + hostDefault + `, ` + hostNewest},
		{flag: hostNewest + "@0.61.0,", err: "an empty value"},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			var stderr bytes.Buffer
			got, code := expandHosts(tc.flag, &stderr)
			if tc.err != "" {
				assert.Equal(t, exitInvalid, code)
				assert.Contains(t, stderr.String(), tc.err)
				return
			}
			require.Equal(t, exitPass, code, stderr.String())
			assert.Equal(t, tc.want, got)
		})
	}
	// Installed adapters: the bare arena is each of them, in report order.
	for _, a := range []string{"openai-agents", "vanilla"} {
		require.NoError(t, os.MkdirAll(filepath.Join(cache, hostVenv, a), 0o755))
		rec, err := json.Marshal(realarena.Installed{Adapter: a, Python: "3.11.7", InstalledAt: "2026-12-01T10:00:00Z"})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(cache, hostVenv, a, "installed.json"), rec, 0o644))
	}
	for flag, want := range map[string][]string{
		hostVenv:                           {hostVenv + "@vanilla@0.1.0", hostVenv + "@openai-agents@0.22.0"},
		hostVenv + "@*":                    {hostVenv + "@vanilla@0.1.0", hostVenv + "@openai-agents@0.22.0"},
		hostNewest + "@0.61.0," + hostVenv: {hostNewest + "@0.61.0", hostVenv + "@vanilla@0.1.0", hostVenv + "@openai-agents@0.22.0"},
		"vanilla," + hostVenv + "@vanilla": {hostVenv + "@vanilla@0.1.0"},
	} {
		var stderr bytes.Buffer
		got, code := expandHosts(flag, &stderr)
		require.Equal(t, exitPass, code, stderr.String())
		assert.Equal(t, want, got, flag)
	}
	code, _, errOut := runCmd(t, nil, "verify", "-host", hostNewest+"@*", "-jobs", "0")
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "-jobs must be at least 1, not 0")
}

// TestVerifyEveryInstalledRelease: -host NAME@* runs the desk on every
// installed release at once, with the verdicts of one run per release,
// in the order of the releases.
func TestVerifyEveryInstalledRelease(t *testing.T) {
	requireFamily(t, hostNewest, "0.58.0")
	requireFamily(t, hostNewest, "0.61.0")
	desk := filepath.Join("..", "..", "host", hostNewest, "geminicheck", "testdata", "releases-desk.json")
	code, together, errOut := runCmd(t, nil, "verify", "-host", hostNewest+"@0.58.0,"+hostNewest+"@0.61.0", "-jobs", "2", desk)
	require.Equal(t, exitPass, code, "%s\n%s", together, errOut)
	var apart string
	for _, v := range []string{"0.58.0", "0.61.0"} {
		code, out, errOut := runCmd(t, nil, "verify", "-host", hostNewest+"@"+v, desk)
		require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
		apart += out
	}
	assert.Equal(t, maskRoots(apart), maskRoots(together))
}

// maskRoots hides the temporary folders a run names.
func maskRoots(s string) string {
	return regexp.MustCompile(`deskcheck-host-[0-9]+`).ReplaceAllString(s, "deskcheck-host-N")
}

// TestArenaInstallKeepsAVenvOfTheSameLock: installing an adapter that is
// installed from the same lock changes nothing; list shows it.
func TestArenaInstallKeepsAVenvOfTheSameLock(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DESKCHECK_CACHE", cache)
	lock, err := realarena.File("vanilla/requirements.lock")
	require.NoError(t, err)
	venv := filepath.Join(cache, hostVenv, "vanilla", "venv")
	require.NoError(t, os.MkdirAll(filepath.Join(venv, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(venv, "bin", "python"), nil, 0o755))
	rec, err := json.Marshal(realarena.Installed{Adapter: "vanilla", Python: "3.11.7", Lock: sha256Hex(lock), Packages: 16, Bytes: 47 << 20, InstalledAt: "2026-12-01T10:00:00Z"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(cache, hostVenv, "vanilla", "installed.json"), rec, 0o644))
	code, out, errOut := runCmd(t, nil, "install", "vanilla@0.1.0")
	require.Equal(t, exitPass, code, errOut)
	assert.Contains(t, out, "vanilla: already installed from this lock (16 packages on Python 3.11.7)")
	assert.FileExists(t, filepath.Join(venv, "bin", "python"))
	// A second adapter, whose name is longer: the sizes stay in one column.
	other := filepath.Join(cache, hostVenv, "openai-agents")
	require.NoError(t, os.MkdirAll(filepath.Join(other, "venv", "bin"), 0o755))
	rec, err = json.Marshal(realarena.Installed{Adapter: "openai-agents", Python: "3.11.7", Lock: "sha256:00", Packages: 40, Bytes: 88 << 20, InstalledAt: "2026-12-01T10:00:00Z"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(other, "installed.json"), rec, 0o644))
	code, out, _ = runCmd(t, nil, "list")
	require.Equal(t, exitPass, code)
	assert.Regexp(t, regexp.MustCompile(`(?m)^`+hostVenv+`@vanilla@0\.1\.0 +47 MB  2026-12-01  own 47 MB  \(Python 3\.11\.7\)$`), out)
	var columns []int
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, hostVenv+"@") {
			columns = append(columns, strings.Index(line, " MB  "))
		}
	}
	if assert.Len(t, columns, 2, out) {
		assert.Equal(t, columns[0], columns[1], "the sizes of the adapters are one column:\n%s", out)
	}
	assert.NotContains(t, out, "wheel cache", "no wheel cache yet")
	wheels := filepath.Join(cache, hostVenv, "wheels")
	require.NoError(t, os.MkdirAll(wheels, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(wheels, "openai-3.0.0-py3-none-any.whl"), make([]byte, 2<<20), 0o644))
	code, out, _ = runCmd(t, nil, "list")
	require.Equal(t, exitPass, code)
	assert.Contains(t, out, "\n"+hostVenv+": the wheel cache "+wheels+" holds 2 MB, shared by every adapter's install\n")
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestUnknownHostNamesTheHosts(t *testing.T) {
	t.Setenv("DESKCHECK_CACHE", t.TempDir())
	for _, args := range [][]string{{"install", "claude@1.0.0"}, {"remove", "claude@1.0.0"}, {"verify", "-host", "claude@1.0.0"}} {
		code, _, errOut := runCmd(t, nil, args...)
		assert.Equal(t, exitInvalid, code, "%v", args)
		assert.Contains(t, errOut, `"claude@1.0.0": no host is named "claude"; the hosts are `+hostDefault+`@V, `+hostNewest+`@V, `+hostVenv+`, `+hostVenv+`@V`, "%v", args)
	}
}

// TestCrossAgentDeskOnTheRealCode: the cross-agent desk holds on the real
// code of both hosts, OMP's cases on a release of each of its groups and
// Gemini's on its newest, in one run of several releases.
func TestCrossAgentDeskOnTheRealCode(t *testing.T) {
	omp := []string{"17.3.5", "18.1.16", "18.2.3", "18.3.4"}
	var hosts []string
	for _, v := range omp {
		requireRelease(t, v)
		hosts = append(hosts, at(v))
	}
	requireFamily(t, hostNewest, "0.61.0")
	hosts = append(hosts, hostNewest+"@0.61.0")
	code, out, errOut := runCmd(t, nil, "verify", "-host", strings.Join(hosts, ","), "-jobs", "2", "../../cases/cross-agent-desk.json")
	require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
	for _, h := range hosts {
		assert.Regexp(t, regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(h)+`: 18 cases: 9 hold on the real code, 0 do not hold, 0 model and real code disagree, 9 not applicable, 0 could not run$`), out)
	}
}

// TestHostWithoutCasesIsNotStarted: a -host value (or the default host)
// none of whose family's cases is selected is named with the hosts the
// selected cases are of, and the run is invalid before any release is
// started: the cache here is empty, and no message says a release is
// not installed.
func TestHostWithoutCasesIsNotStarted(t *testing.T) {
	t.Setenv("DESKCHECK_CACHE", t.TempDir())
	other := bundledDeskOf(t, hostNewest)
	mine := bundledDeskOf(t, hostDefault)
	none := func(label, host, theirs string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^deskcheck-host: ` + regexp.QuoteMeta(label) + `: none of the \d+ selected cases is a case of host ` +
			regexp.QuoteMeta(host) + ` \(\d+ of ` + regexp.QuoteMeta(theirs) + `\), so its real code was not started and there is no evidence; -host names the host whose real code to run$`)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []*regexp.Regexp
	}{
		{"named release", []string{"verify", "-host", hostNewest + "@0.61.0", mine},
			[]*regexp.Regexp{none("-host "+hostNewest+"@0.61.0", hostNewest, hostDefault)}},
		{"the default host", []string{"verify", other},
			[]*regexp.Regexp{none("the default host, "+hostDefault, hostDefault, hostNewest)}},
		{"two releases of one host, one line", []string{"verify", "-host", at("18.1.16") + "," + at("18.3.4"), other},
			[]*regexp.Regexp{none("-host "+at("18.1.16")+" to "+at("18.3.4")+" (2 releases)", hostDefault, hostNewest)}},
		{"one host of two", []string{"verify", "-host", at("18.1.16") + "," + hostNewest + "@0.61.0", other},
			[]*regexp.Regexp{none("-host "+at("18.1.16"), hostDefault, hostNewest)}},
		{"-run leaves none", []string{"verify", "-host", hostNewest + "@0.61.0", "-run", "^" + strings.TrimSuffix(filepath.Base(mine), ".json") + "/", mine, other},
			[]*regexp.Regexp{none("-host "+hostNewest+"@0.61.0", hostNewest, hostDefault)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, nil, tc.args...)
			assert.Equal(t, exitInvalid, code, errOut)
			assert.Empty(t, out)
			for _, re := range tc.want {
				assert.Regexp(t, re, errOut)
			}
			assert.Equal(t, len(tc.want), strings.Count(errOut, "was not started"), errOut)
			assert.NotContains(t, errOut, "is not installed", "nothing was opened")
		})
	}
	// drift runs the default host's releases: none is started for a desk
	// of another host's cases.
	code, out, errOut := runCmd(t, nil, "drift", other)
	assert.Equal(t, exitInvalid, code)
	assert.Empty(t, out)
	assert.Regexp(t, none("the default host, "+hostDefault, hostDefault, hostNewest), errOut)
	assert.NotContains(t, errOut, "no release is installed")
	code, _, errOut = runCmd(t, nil, "drift", "-jobs", "0", mine)
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "-jobs must be at least 1, not 0")
	// A host that has cases goes on to its release: here, not installed.
	code, _, errOut = runCmd(t, nil, "verify", "-host", hostNewest+"@0.61.0", other)
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, hostNewest+"@0.61.0 is not installed in")
	assert.NotContains(t, errOut, "was not started")
}

// TestScenarioLimitFlag: -limit SCENARIO.NAME=N, which the loader's
// message names for a value over a scenario's limit, raises it as
// deskcheck's does; a name no scenario declares is refused.
func TestScenarioLimitFlag(t *testing.T) {
	t.Setenv("DESKCHECK_CACHE", t.TempDir())
	var limit string // the venv family's scenario's limit on turns
	for _, n := range verifier.LimitNames(all.Registry()) {
		if strings.HasSuffix(n, ".turns") {
			limit = n
		}
	}
	require.NotEmpty(t, limit)
	data, err := os.ReadFile(bundledDeskOf(t, hostVenv))
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	first := doc["cases"].([]any)[0].(map[string]any)
	turn := first["given"].(map[string]any)["turns"].([]any)[0]
	var nine []any
	for range 9 {
		nine = append(nine, turn)
	}
	first["given"].(map[string]any)["turns"] = nine
	doc["cases"] = []any{first}
	changed, err := json.Marshal(doc)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "nine.json")
	require.NoError(t, os.WriteFile(path, changed, 0o600))

	code, _, errOut := runCmd(t, nil, "verify", "-host", hostVenv+"@vanilla", path)
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "raise it with -limit "+limit+"=N")
	code, _, errOut = runCmd(t, nil, "verify", "-host", hostVenv+"@vanilla", "-limit", limit+"=9", path)
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "is not installed in", "loaded: the run goes on to the adapter")
	code, _, errOut = runCmd(t, nil, "verify", "-host", hostVenv+"@vanilla", "-limit", limit+"x=9", path)
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, `no scenario declares the limit "`+limit+`x"`)
}

// TestOpenFailure: a run that cannot be made as asked, or a release the
// cache does not hold as installed, is invalid input and says why; any
// other failure to open is a failure.
func TestOpenFailure(t *testing.T) {
	noBind := fmt.Errorf("%w: %w", realcode.ErrNoBind, sandbox.ErrNoBind)
	tests := []struct {
		name     string
		err      error
		checkout bool
		code     int
		why      string
	}{
		{"folders at fixed paths without the sandbox", noBind, false, exitInvalid, ""},
		{"the same from a checkout", noBind, true, exitInvalid, ""},
		{"a checkout without the sandbox", fmt.Errorf("x: %w", sandbox.ErrUnavailable), true, exitInvalid, "unknown origin"},
		{"the sandbox unavailable, not a checkout", fmt.Errorf("x: %w", sandbox.ErrUnavailable), false, exitFail, ""},
		{"a changed install", fmt.Errorf("x: %w", realcode.ErrChanged), false, exitInvalid, ""},
		{"an answer over the limit", fmt.Errorf("x: %w", realhost.ErrAnswerLimit), false, exitInvalid, ""},
		{"anything else", errors.New("the harness said no hello"), false, exitFail, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			why, code := openFailure(tt.err, tt.checkout)
			assert.Equal(t, tt.code, code)
			if tt.why == "" {
				assert.Empty(t, why)
			} else {
				assert.Contains(t, why, tt.why)
			}
		})
	}
}
