package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/all/real"
	ompreal "github.com/deskcheck/deskcheck/host/omp/realhost"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

const bundledDesk = "../../cases/boundary-desk.json"

// defaultFam is deskcheck-host's default family, the first host/all/real
// lists; the bundled desk's cases are of its host.
var defaultFam = real.Families()[0]

// at spells release v of the default family as -host and install take it.
func at(v string) string { return defaultFam.Host + "@" + v }

// requireRelease returns the installed release v, skipping the test when
// it is not installed, except in CI (CI=true), where that fails.
func requireRelease(t testing.TB, v string) *ompreal.Installed {
	t.Helper()
	cache, err := realhost.CacheDir()
	if err == nil {
		var in *ompreal.Installed
		if in, err = ompreal.Lookup(cache, v); err == nil {
			return in
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing in CI: %v", at(v), err)
	}
	t.Skipf("skipping the real-host test: %v", err)
	return nil
}

func runCmd(t testing.TB, fault *scenario.QualifiedFault, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr, fault)
	return code, stdout.String(), stderr.String()
}

func TestVerifyBundledDeskHoldsOnTheRealCode(t *testing.T) {
	for _, v := range []string{"18.1.16", "18.2.3"} {
		t.Run(v, func(t *testing.T) {
			requireRelease(t, v)
			code, out, errOut := runCmd(t, nil, "verify", "-host", at(v), bundledDesk)
			require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
			assert.Equal(t, 15, strings.Count(out, "\n      holds on the real code\n"), out)
			assert.Contains(t, out, at(v)+": 15 cases: 15 hold on the real code, 0 do not hold, 0 model and real code disagree")
			assert.Contains(t, out, realhost.Inertness)
			assert.Contains(t, out, "deskcheck's model of "+at(v))
		})
	}
}

func TestVerifyWrongExpectationDoesNotHold(t *testing.T) {
	requireRelease(t, "18.1.16")
	code, out, errOut := runCmd(t, nil, "verify", "-host", at("18.1.16"), filepath.Join("testdata", "wrong-expectation.json"))
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "FAIL  real-host-wrong/always-ask-runs-without-asking\n      does not hold on the real code\n")
	assert.Contains(t, out, `on the real code prompts: expected 0, observed 1`)
	assert.Contains(t, out, "1 do not hold, 0 model and real code disagree")
}

func TestVerifyModelFaultDisagreesWithOneCaseDesk(t *testing.T) {
	requireRelease(t, "18.1.16")
	fault, err := all.Registry().LookupFault(defaultFam.Host + "/deny-all")
	require.NoError(t, err)
	code, out, errOut := runCmd(t, &fault, "verify", "-host", at("18.1.16"), "-format", "json", bundledDesk)
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	var report struct {
		RealHost []struct {
			Inertness string
			Summary   realhost.Summary
			Cases     []struct {
				ID      string
				Verdict realhost.Verdict
				Real    map[string]any
				Differ  []string
				Repro   json.RawMessage
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report), out)
	require.Len(t, report.RealHost, 1)
	run := report.RealHost[0]
	assert.Equal(t, realhost.Inertness, run.Inertness)
	require.Positive(t, run.Summary.Disagree)
	disagreed := 0
	for _, c := range run.Cases {
		if c.Verdict != realhost.Disagree {
			continue
		}
		disagreed++
		require.NotEmpty(t, c.Differ, c.ID)
		// The one-case desk loads, and holds on the correct model: its
		// expected block is what the real code observed.
		desk, ds := verifier.Load(all.Registry(), "repro.json", c.Repro, verifier.Limits{})
		require.NotNil(t, desk, "%v\n%s", ds, c.Repro)
		require.Len(t, desk.Cases, 1)
		assert.Equal(t, c.ID, desk.Cases[0].ID)
		rs, err := verifier.Run(context.Background(), desk.Cases, verifier.RunOptions{Once: true, Release: "18.1.16"})
		require.NoError(t, err)
		assert.Equal(t, verifier.Pass, rs[0].Status, "%s: %v", c.ID, rs[0].Mismatches)
		rs, err = verifier.Run(context.Background(), desk.Cases, verifier.RunOptions{Once: true, Release: "18.1.16", Fault: &fault})
		require.NoError(t, err)
		assert.Equal(t, verifier.Fail, rs[0].Status, "%s: the one-case desk catches the fault", c.ID)
	}
	assert.Equal(t, run.Summary.Disagree, disagreed)

	code, text, _ := runCmd(t, &fault, "verify", "-host", at("18.1.16"), bundledDesk)
	require.Equal(t, exitFail, code)
	assert.Contains(t, text, "model and real code disagree\n")
	assert.Contains(t, text, "one-case desk to reproduce:\n")
}

func TestInstallRefusesUnpublishedDependencies(t *testing.T) {
	t.Setenv("DESKCHECK_CACHE", t.TempDir())
	for _, v := range []string{"18.2.9", "18.3.4"} {
		code, out, errOut := runCmd(t, nil, "install", at(v))
		assert.Equal(t, exitInvalid, code, out)
		assert.Contains(t, errOut, at(v)+": the release cannot be installed exactly as published")
		assert.Contains(t, errOut, "published")
		assert.Contains(t, errOut, "install it with -substitute")
	}
	code, _, errOut := runCmd(t, nil, "install", at("1.2.3"))
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "not a release deskcheck-host can install")
}

func TestListAndRemove(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DESKCHECK_CACHE", cache)
	code, out, _ := runCmd(t, nil, "list")
	require.Equal(t, exitPass, code)
	assert.Contains(t, out, "no release is installed")
	// A finished install is a folder with its marker file.
	dir := filepath.Join(cache, at("18.2.3"))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "deskcheck-install.json"), []byte(`{"version":"18.2.3","bytes":536870912,"installedAt":"2026-12-01T00:00:00Z"}`), 0o644))
	code, out, _ = runCmd(t, nil, "list")
	require.Equal(t, exitPass, code)
	assert.Regexp(t, regexp.MustCompile(regexp.QuoteMeta(at("18.2.3"))+` +512 MB  2026-12-01  own \d+ kB\n`), out)
	assert.Contains(t, out, "shared by two releases or more: 0 kB, counted once")
	assert.Contains(t, out, "the cache folder takes ")
	code, out, _ = runCmd(t, nil, "remove", at("18.2.3"))
	require.Equal(t, exitPass, code)
	assert.Contains(t, out, "removed "+at("18.2.3"))
	assert.NoDirExists(t, dir)
	code, _, errOut := runCmd(t, nil, "remove", at("18.2.3"))
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "not installed")
	code, _, errOut = runCmd(t, nil, "verify", "-host", at("18.2.3"), bundledDesk)
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "install it with: deskcheck-host install "+at("18.2.3"))
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"install"}, {"verify", "-format", "xml"}, {"verify", "-host", at("1.0.0")}, {"verify", "-host", at("18.1.16"), "-host-src", "x"}} {
		code, _, _ := runCmd(t, nil, args...)
		assert.Equal(t, exitInvalid, code, "%v", args)
	}
}

// TestVerifyLocalCheckout makes an OMP checkout from an installed
// release's sources (its packages/coding-agent, the workspace's
// node_modules linking the package to itself, a .git naming a commit) and
// runs the bundled desk on it.
func TestVerifyLocalCheckout(t *testing.T) {
	in := requireRelease(t, "18.1.16")
	repo := t.TempDir()
	pkg := filepath.Join(repo, "packages", "coding-agent")
	installed := filepath.Join(in.Dir, "node_modules", "@oh-my-pi", "pi-coding-agent")
	require.NoError(t, copyTree(installed, pkg))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "package.json"), []byte(`{"private": true, "workspaces": ["packages/*"]}`), 0o644))
	// The dependencies inside the checkout, as an install makes them
	// (the sandbox shows the checkout's folder and nothing it links to
	// outside): hard links to the installed release's files, its native
	// addon whole.
	whole := filepath.Join(t.TempDir(), "whole")
	require.NoError(t, ompreal.WholeTree(in.Dir, whole))
	nm := filepath.Join(repo, "node_modules")
	require.NoError(t, linkTree(filepath.Join(whole, "node_modules"), nm))
	require.NoError(t, os.RemoveAll(filepath.Join(nm, "@oh-my-pi", "pi-coding-agent")))
	require.NoError(t, os.Symlink(filepath.Join("..", "..", "packages", "coding-agent"), filepath.Join(nm, "@oh-my-pi", "pi-coding-agent")))
	const commit = "0123456789abcdef0123456789abcdef01234567"
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git", "refs", "heads"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".git", "refs", "heads", "main"), []byte(commit+"\n"), 0o644))

	code, out, errOut := runCmd(t, nil, "verify", "-v", "-host-src", repo, bundledDesk)
	require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "== real host: checkout "+pkg+" (@oh-my-pi/pi-coding-agent 18.1.16) on bun 1.4.2, commit "+commit)
	assert.Contains(t, out, "15 hold on the real code")
	assert.Contains(t, out, "root: "+pkg)
}

// linkTree makes to a copy of from whose files are hard links (copies
// across file systems); links are made again as they are.
func linkTree(from, to string) error { return realcode.CopyTree(from, to, 0o755, 0o644, true) }

// copyTree makes to a copy of from's folders and regular files.
func copyTree(from, to string) error { return realcode.CopyTree(from, to, 0o755, 0o644, false) }

// BenchmarkVerifyBundledDesk is the cost of one real-host run of the
// bundled desk: a bun process started, the release's modules loaded, 15
// cases on both sides.
func BenchmarkVerifyBundledDesk(b *testing.B) {
	requireRelease(b, "18.1.16")
	for b.Loop() {
		code, out, errOut := runCmd(b, nil, "verify", "-host", at("18.1.16"), bundledDesk)
		if code != exitPass {
			b.Fatalf("%s\n%s", out, errOut)
		}
	}
}

// TestDriftAcrossInstalledReleases runs drift over a cache holding two
// installed releases of different groups: the deny text of 17.x and its
// missing fallback show, the rest is the same on both.
func TestDriftAcrossInstalledReleases(t *testing.T) {
	g1, g2 := requireRelease(t, "17.3.5"), requireRelease(t, "18.1.16")
	cache := t.TempDir()
	for _, in := range []*ompreal.Installed{g1, g2} {
		require.NoError(t, os.Symlink(in.Dir, filepath.Join(cache, at(in.Version))))
	}
	t.Setenv("DESKCHECK_CACHE", cache)
	code, out, errOut := runCmd(t, nil, "drift", bundledDesk)
	require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "drift on the real code of 2 installed releases, against the newest, "+at("18.1.16")+"\n")
	assert.Contains(t, out, "boundary-desk/boundary-approve-one-call: same on all\n")
	assert.Contains(t, out, "boundary-desk/boundary-deny-before-handler:\n  "+at("17.3.5")+" errorIncludes: \"Tool \\\"seed_note\\\" is blocked by user policy.")
	// The releases run side by side (-jobs, one per processor by default)
	// say what they say one at a time.
	code, one, errOne := runCmd(t, nil, "drift", "-jobs", "1", bundledDesk)
	require.Equal(t, exitPass, code, errOne)
	assert.Equal(t, out, one, "-jobs 1 and the default print the same")
	cases, code := loadCases([]string{bundledDesk}, "", verifier.Limits{}, io.Discard)
	require.Equal(t, exitPass, code)
	old, err := verifier.Run(context.Background(), cases, verifier.RunOptions{Pin: verifier.Hosts{defaultFam.Host: "17.3.5"}})
	require.NoError(t, err)
	notApplicable := 0
	for _, r := range old {
		if r.Status == verifier.NotApplicable {
			notApplicable++
			assert.Contains(t, out, r.Case.FullID()+":\n  "+at("17.3.5")+": not applicable")
		}
	}
	assert.Positive(t, notApplicable, "a case of the bundled desk does not apply to 17.3.5")
	code, out, _ = runCmd(t, nil, "drift", "-format", "json", bundledDesk)
	require.Equal(t, exitPass, code)
	var report struct {
		Newest string
		Cases  []struct {
			Case    string
			Changes []struct{ Host, Key string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	assert.Equal(t, at("18.1.16"), report.Newest)
	assert.Len(t, report.Cases, 15)
}

// TestReleasePinnedDeskHoldsOnEveryGroup: the model's desk of lessons
// pinned per case to each group's releases holds on the real code of each
// group's representative, the cases whose range leaves it out not
// applicable.
func TestReleasePinnedDeskHoldsOnEveryGroup(t *testing.T) {
	desk := filepath.Join("..", "..", "host", defaultFam.Host, defaultFam.Host+"check/testdata/releases-desk.json")
	for _, v := range []string{"14.9.9", "17.3.5", "18.1.16", "18.2.3"} {
		t.Run(v, func(t *testing.T) {
			requireRelease(t, v)
			code, out, errOut := runCmd(t, nil, "verify", "-host", at(v), desk)
			require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
			assert.Contains(t, out, " 0 do not hold, 0 model and real code disagree")
			assert.Regexp(t, regexp.MustCompile(`[1-9]\d* not applicable`), out)
		})
	}
}

// TestToolsDeskHoldsOnTheRealCode: the bundled tools desk holds on the
// releases' own bash and write tools, sandboxed, compound commands among
// them: the release's bash tool is made only where the shell its
// settings name exists, and the sandbox shows it as the null device. On
// 18.3.4, on substituted dependencies, the write tool's URL router is
// supplied as upstream defines it, so its cases run.
func TestToolsDeskHoldsOnTheRealCode(t *testing.T) {
	deskID := defaultFam.Host + "-tools-desk"
	desk := filepath.Join("..", "..", "cases", deskID+".json")
	for _, v := range []string{"17.3.5", "18.1.16", "18.2.3", "18.3.4"} {
		t.Run(v, func(t *testing.T) {
			requireRelease(t, v)
			code, out, errOut := runCmd(t, nil, "verify", "-host", at(v), desk)
			require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
			assert.Contains(t, out, " 0 do not hold, 0 model and real code disagree")
			if strings.HasPrefix(v, "18.") {
				// -v shows the holding cases; the compound chain is judged from 18.1.16.
				_, vout, _ := runCmd(t, nil, "verify", "-host", at(v), "-v", "-run", "tools-compound-chain-allowed", desk)
				assert.True(t, strings.Contains(vout, "PASS  "+deskID+"/tools-compound-chain-allowed\n      holds on the real code\n"), "the compound chain does not hold on %s", v)
			}
			if strings.Contains(out, "isolation: sandbox (bubblewrap)") {
				assert.Contains(t, out, "the null device, which nothing can run, is seen at /bin/bash")
			} else if os.Getenv("CI") == "true" {
				t.Fatalf("not sandboxed in CI: %.400s", out)
			}
		})
	}
}

// TestSignalHelper is the deskcheck-host process TestSignalsEndTheHarness
// signals: a verify of the hanging checkout.
func TestSignalHelper(t *testing.T) {
	if os.Getenv("DESKCHECK_SIGNAL_HELPER") != "1" {
		t.Skip("only run by TestSignalsEndTheHarness")
	}
	in := requireRelease(t, "18.1.16")
	os.Exit(runWithSignals([]string{"verify", "-host-src", "testdata/hanging-checkout", "-bun", filepath.Join(in.Dir, "node_modules", "@oven", "bun-linux-x64-baseline", "bin", "bun"), bundledDesk}, endSignals...))
}

// TestSignalsEndTheHarness: SIGTERM, SIGINT and SIGHUP sent to
// deskcheck-host while the harness runs end the harness and everything
// it started, remove its temporary folder, and exit 1.
func TestSignalsEndTheHarness(t *testing.T) {
	requireRelease(t, "18.1.16")
	self, err := os.Executable()
	require.NoError(t, err)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(self, "-test.run=^TestSignalHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), "DESKCHECK_SIGNAL_HELPER=1", "TMPDIR="+tmp)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, cmd.Start())
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// Wait for the state "the checkout is running": its file in the
			// run's temporary folder.
			var running []string
			for len(running) == 0 {
				select {
				case err := <-exited:
					t.Fatalf("deskcheck-host ended before the harness ran: %v\n%s", err, out.String())
				default:
				}
				running, _ = filepath.Glob(filepath.Join(tmp, "deskcheck-host-*", "running"))
				time.Sleep(5 * time.Millisecond) // a pause between looks, not a deadline
			}
			require.NoError(t, cmd.Process.Signal(sig))
			err := <-exited
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, out.String())
			assert.Equal(t, exitFail, exit.ExitCode(), out.String())
			assert.Contains(t, out.String(), "stopped by a signal")
			left, _ := os.ReadDir(tmp)
			assert.Empty(t, left, "the harness's temporary folder is left")
			assert.Empty(t, processesIn(t, tmp), "a process of the run is still running")
		})
	}
}

// processesIn lists the processes whose command line names dir.
func processesIn(t *testing.T, dir string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), dir) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestOutWritesAsDeskcheckDoes: -out is deskcheck's report folder: private
// files swapped in as a whole; a folder holding other files, a link, or a
// folder inside a desk folder read is refused with exit 2 and left as it
// was; -out none writes nothing.
func TestOutWritesAsDeskcheckDoes(t *testing.T) {
	requireRelease(t, "18.1.16")
	one := []string{"verify", "-host", at("18.1.16"), "-run", "boundary-deny-before-handler"}

	t.Run("private and whole", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "reports")
		code, out, errOut := runCmd(t, nil, append(one, "-out", dir, bundledDesk)...)
		require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
		info, err := os.Stat(dir)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
			info, err := e.Info()
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), e.Name())
		}
		assert.Equal(t, []string{"report.html", "report.json", "report.junit.xml", "report.md", "report.txt"}, names)
		// A second run replaces the folder's reports.
		code, _, _ = runCmd(t, nil, append(one, "-out", dir, bundledDesk)...)
		assert.Equal(t, exitPass, code)
	})

	t.Run("other files", func(t *testing.T) {
		dir := t.TempDir()
		notes := filepath.Join(dir, "notes.txt")
		require.NoError(t, os.WriteFile(notes, []byte("mine"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "report.txt"), []byte("mine too"), 0o644))
		code, _, errOut := runCmd(t, nil, append(one, "-out", dir, bundledDesk)...)
		assert.Equal(t, exitInvalid, code, errOut)
		assert.Contains(t, errOut, "the report folder was not written")
		data, _ := os.ReadFile(filepath.Join(dir, "report.txt"))
		assert.Equal(t, "mine too", string(data))
	})

	t.Run("a link", func(t *testing.T) {
		dir := t.TempDir()
		notes := filepath.Join(t.TempDir(), "notes.md")
		require.NoError(t, os.WriteFile(notes, []byte("mine"), 0o644))
		require.NoError(t, os.Symlink(notes, filepath.Join(dir, "report.md")))
		code, _, errOut := runCmd(t, nil, append(one, "-out", dir, bundledDesk)...)
		assert.Equal(t, exitInvalid, code, errOut)
		data, _ := os.ReadFile(notes)
		assert.Equal(t, "mine", string(data))
	})

	t.Run("inside the desk folder", func(t *testing.T) {
		desks := t.TempDir()
		data, err := os.ReadFile(bundledDesk)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(desks, "desk.json"), data, 0o644))
		code, _, errOut := runCmd(t, nil, append(one, "-out", filepath.Join(desks, "reports"), desks)...)
		assert.Equal(t, exitInvalid, code, errOut)
		assert.NoDirExists(t, filepath.Join(desks, "reports"))
	})

	t.Run("none", func(t *testing.T) {
		wd := t.TempDir()
		t.Chdir(wd)
		desk, err := filepath.Abs(filepath.Join(origWD, bundledDesk))
		require.NoError(t, err)
		code, _, errOut := runCmd(t, nil, append(one, "-out", "none", desk)...)
		assert.Equal(t, exitPass, code, errOut)
		entries, _ := os.ReadDir(wd)
		assert.Empty(t, entries)
	})
}

// origWD is the package folder the tests start in.
var origWD, _ = os.Getwd()

// smallCheckout copies the smallest OMP checkout the harness starts on
// (testdata/small-checkout), named name, with code in place of the
// "/* code */" its first module holds; its permission-error module
// answers with the text a module left in globalThis.secret, if any.
func smallCheckout(t *testing.T, name, code string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "checkout")
	require.NoError(t, copyTree(filepath.Join("testdata", "small-checkout"), dir))
	pkg, err := json.Marshal(map[string]string{"name": name, "version": "18.1.16"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644))
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, bytes.ReplaceAll(data, []byte("/* code */"), []byte(code)), 0o644)
	}))
	return dir
}

// TestNothingFromInsideReachesTheTerminalRaw: a checkout's package name,
// its answers and what it writes on standard error reach the terminal
// only through deskcheck's escaping.
func TestNothingFromInsideReachesTheTerminalRaw(t *testing.T) {
	in := requireRelease(t, "18.1.16")
	bun := filepath.Join(in.Dir, "node_modules", "@oven", "bun-linux-x64-baseline", "bin", "bun")
	desk := filepath.Join("testdata", "classify.json")
	raw := []string{"\x1b", "\u202e", "\u009b"}
	name := "evil\x1b[2J\u202e\u009b31m\nPASS forged summary"

	for _, format := range []string{"text", "markdown"} {
		code, out, errOut := runCmd(t, nil, "verify", "-v", "-format", format, "-host-src", smallCheckout(t, name, ""), "-bun", bun, desk)
		assert.Equal(t, exitFail, code, "%s\n%s", out, errOut)
		assert.Contains(t, out, `u001b`, format)
		for _, r := range raw {
			assert.NotContains(t, out, r, format)
			assert.NotContains(t, errOut, r, format)
		}
		assert.NotContains(t, out, "\nPASS forged", format)
	}

	code, out, errOut := runCmd(t, nil, "verify", "-host-src",
		smallCheckout(t, "plain", `process.stderr.write("\u001b]0;title\u0007\u001b[2J\u202e"); throw new Error("\u001b[31mthrown");`), "-bun", bun, desk)
	assert.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	assert.Contains(t, errOut, `\u001b[31mthrown`)
	for _, r := range append(raw, "\x07") {
		assert.NotContains(t, errOut, r)
	}
}

// TestToolsNamedLikeInheritedMembers: tools named constructor, __proto__,
// valueOf, toString and hasOwnProperty, with no approval of their own, get
// a verdict on the real code of every group (the harness's lookups read
// no inherited member).
func TestToolsNamedLikeInheritedMembers(t *testing.T) {
	for _, v := range []string{"14.9.9", "17.3.5", "18.1.16", "18.3.4"} {
		t.Run(v, func(t *testing.T) {
			requireRelease(t, v)
			code, out, errOut := runCmd(t, nil, "verify", "-host", at(v), "testdata/member-names.json")
			require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
			assert.Contains(t, out, "5 cases: 5 hold on the real code")
		})
	}
}

// TestRunLimits: deskcheck's limits of a run are counted before anything
// runs, and the bound on what the harness answers stops a run; each is
// exit 2 naming its flag.
func TestRunLimits(t *testing.T) {
	for _, tc := range []struct {
		flag, value string
	}{{"-max-run-work", "1"}, {"-max-copy-bytes", "1"}, {"-max-answer-bytes", "100"}} {
		t.Run(tc.flag, func(t *testing.T) {
			if tc.flag == "-max-answer-bytes" {
				requireRelease(t, "18.1.16")
			}
			code, out, errOut := runCmd(t, nil, "verify", "-host", at("18.1.16"), tc.flag, tc.value, bundledDesk)
			assert.Equal(t, exitInvalid, code, "%s\n%s", out, errOut)
			assert.NotContains(t, errOut, "not defined")
			assert.Contains(t, errOut, "limit")
			assert.Contains(t, errOut, tc.flag)
		})
	}
}

// TestChangedReleaseExitsTwo: verify refuses a release changed since its
// install with exit 2, and runs it with -allow-changed-release, saying so.
func TestChangedReleaseExitsTwo(t *testing.T) {
	in := requireRelease(t, "18.1.16")
	cache := t.TempDir()
	dir := filepath.Join(cache, at("18.1.16"))
	require.NoError(t, linkTree(in.Dir, dir))
	var wrapper string
	require.NoError(t, filepath.WalkDir(filepath.Join(dir, "node_modules", defaultFam.Package, "src"), func(p string, d os.DirEntry, err error) error {
		if err == nil && wrapper == "" && strings.HasSuffix(p, ".ts") {
			wrapper = p
		}
		return err
	}))
	require.NotEmpty(t, wrapper, "a module of the release's code")
	data, err := os.ReadFile(wrapper)
	require.NoError(t, err)
	require.NoError(t, os.Remove(wrapper))
	require.NoError(t, os.WriteFile(wrapper, append(data, "\n// changed\n"...), 0o644))
	t.Setenv("DESKCHECK_CACHE", cache)

	code, out, errOut := runCmd(t, nil, "verify", "-host", at("18.1.16"), bundledDesk)
	assert.Equal(t, exitInvalid, code, "%s\n%s", out, errOut)
	assert.Contains(t, errOut, "-allow-changed-release")
	code, out, errOut = runCmd(t, nil, "verify", "-host", at("18.1.16"), "-allow-changed-release", bundledDesk)
	assert.Equal(t, exitPass, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "CHANGED: 1 files of the installed release differ")
}

// TestCheckoutReadsNothingIntoTheReports: a checkout that reads a file of
// the user's and answers with its text puts nothing of it into any of the
// five report files.
func TestCheckoutReadsNothingIntoTheReports(t *testing.T) {
	in := requireRelease(t, "18.1.16")
	bun := filepath.Join(in.Dir, "node_modules", "@oven", "bun-linux-x64-baseline", "bin", "bun")
	secret := filepath.Join(t.TempDir(), "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("the user's secret 51c2"), 0o600))
	dir := smallCheckout(t, "@oh-my-pi/pi-coding-agent", fmt.Sprintf(`import * as fs from "node:fs";
try { (globalThis as any).secret = fs.readFileSync(%q, "utf8"); } catch { (globalThis as any).secret = "unreadable"; }`, secret))
	out := filepath.Join(t.TempDir(), "reports")
	code, stdout, errOut := runCmd(t, nil, "verify", "-v", "-host-src", dir, "-bun", bun, "-out", out, "testdata/classify.json")
	assert.Equal(t, exitFail, code, "%s\n%s", stdout, errOut)
	assert.NotContains(t, stdout, "51c2")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	require.Len(t, entries, 5)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(out, e.Name()))
		require.NoError(t, err)
		assert.NotContains(t, string(data), "51c2", e.Name())
		assert.Contains(t, string(data), "unreadable", e.Name())
	}
}
