package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/host/omp/realhost"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

const bundledDesk = "../../cases/boundary-desk.json"

// requireRelease returns the installed release v, skipping the test when
// it is not installed, except in CI (CI=true), where that fails.
func requireRelease(t testing.TB, v string) *realhost.Installed {
	t.Helper()
	cache, err := realhost.CacheDir()
	if err == nil {
		var in *realhost.Installed
		if in, err = realhost.Lookup(cache, v); err == nil {
			return in
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("omp@%s is missing in CI: %v", v, err)
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
			code, out, errOut := runCmd(t, nil, "verify", "-host", "omp@"+v, bundledDesk)
			require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
			assert.Equal(t, 15, strings.Count(out, "\n      holds on the real code\n"), out)
			assert.Contains(t, out, "omp@"+v+": 15 cases: 15 hold on the real code, 0 do not hold, 0 model and real code disagree")
			assert.Contains(t, out, realhost.Inertness)
			assert.Contains(t, out, "deskcheck's model of omp@"+v)
		})
	}
}

func TestVerifyWrongExpectationDoesNotHold(t *testing.T) {
	requireRelease(t, "18.1.16")
	code, out, errOut := runCmd(t, nil, "verify", "-host", "omp@18.1.16", filepath.Join("testdata", "wrong-expectation.json"))
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "FAIL  real-host-wrong/always-ask-runs-without-asking\n      does not hold on the real code\n")
	assert.Contains(t, out, `on the real code prompts: expected 0, observed 1`)
	assert.Contains(t, out, "1 do not hold, 0 model and real code disagree")
}

func TestVerifyModelFaultDisagreesWithOneCaseDesk(t *testing.T) {
	requireRelease(t, "18.1.16")
	fault, err := all.Registry().LookupFault("omp/deny-all")
	require.NoError(t, err)
	code, out, errOut := runCmd(t, &fault, "verify", "-host", "omp@18.1.16", "-format", "json", bundledDesk)
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

	code, text, _ := runCmd(t, &fault, "verify", "-host", "omp@18.1.16", bundledDesk)
	require.Equal(t, exitFail, code)
	assert.Contains(t, text, "model and real code disagree\n")
	assert.Contains(t, text, "one-case desk to reproduce:\n")
}

func TestInstallRefusesUnpublishedDependencies(t *testing.T) {
	t.Setenv("DESKCHECK_CACHE", t.TempDir())
	for _, v := range []string{"18.2.9", "18.3.4"} {
		code, out, errOut := runCmd(t, nil, "install", "omp@"+v)
		assert.Equal(t, exitInvalid, code, out)
		assert.Contains(t, errOut, "omp@"+v+": the release cannot be installed exactly as published")
		assert.Contains(t, errOut, "published")
		assert.Contains(t, errOut, "install it with -substitute")
	}
	code, _, errOut := runCmd(t, nil, "install", "omp@1.2.3")
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "not a release deskcheck can install")
}

func TestListAndRemove(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DESKCHECK_CACHE", cache)
	code, out, _ := runCmd(t, nil, "list")
	require.Equal(t, exitPass, code)
	assert.Contains(t, out, "no release is installed")
	// A finished install is a folder with its marker file.
	dir := filepath.Join(cache, "omp@18.2.3")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "deskcheck-install.json"), []byte(`{"version":"18.2.3","bytes":536870912,"installedAt":"2026-12-01T00:00:00Z"}`), 0o644))
	code, out, _ = runCmd(t, nil, "list")
	require.Equal(t, exitPass, code)
	assert.Regexp(t, regexp.MustCompile(`omp@18\.2\.3 +512 MB  2026-12-01`), out)
	code, out, _ = runCmd(t, nil, "remove", "omp@18.2.3")
	require.Equal(t, exitPass, code)
	assert.Contains(t, out, "removed omp@18.2.3")
	assert.NoDirExists(t, dir)
	code, _, errOut := runCmd(t, nil, "remove", "omp@18.2.3")
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "not installed")
	code, _, errOut = runCmd(t, nil, "verify", "-host", "omp@18.2.3", bundledDesk)
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, errOut, "install it with: deskcheck-host install omp@18.2.3")
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"install"}, {"verify", "-format", "xml"}, {"verify", "-host", "omp@1.0.0"}, {"verify", "-host", "omp@18.1.16", "-host-src", "x"}} {
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
	nm := filepath.Join(repo, "node_modules")
	require.NoError(t, os.MkdirAll(filepath.Join(nm, "@oh-my-pi"), 0o755))
	top, err := os.ReadDir(filepath.Join(in.Dir, "node_modules"))
	require.NoError(t, err)
	for _, e := range top {
		if e.Name() == "@oh-my-pi" {
			continue
		}
		require.NoError(t, os.Symlink(filepath.Join(in.Dir, "node_modules", e.Name()), filepath.Join(nm, e.Name())))
	}
	scoped, err := os.ReadDir(filepath.Join(in.Dir, "node_modules", "@oh-my-pi"))
	require.NoError(t, err)
	for _, e := range scoped {
		target := filepath.Join(in.Dir, "node_modules", "@oh-my-pi", e.Name())
		if e.Name() == "pi-coding-agent" {
			target = pkg
		}
		require.NoError(t, os.Symlink(target, filepath.Join(nm, "@oh-my-pi", e.Name())))
	}
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

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// BenchmarkVerifyBundledDesk is the cost of one real-host run of the
// bundled desk: a bun process started, the release's modules loaded, 15
// cases on both sides.
func BenchmarkVerifyBundledDesk(b *testing.B) {
	requireRelease(b, "18.1.16")
	for b.Loop() {
		code, out, errOut := runCmd(b, nil, "verify", "-host", "omp@18.1.16", bundledDesk)
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
	for _, in := range []*realhost.Installed{g1, g2} {
		require.NoError(t, os.Symlink(in.Dir, filepath.Join(cache, "omp@"+in.Version)))
	}
	t.Setenv("DESKCHECK_CACHE", cache)
	code, out, errOut := runCmd(t, nil, "drift", bundledDesk)
	require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "drift on the real code of 2 installed releases, against the newest, omp@18.1.16\n")
	assert.Contains(t, out, "boundary-desk/boundary-approve-one-call: same on all\n")
	assert.Contains(t, out, "boundary-desk/boundary-deny-before-handler:\n  omp@17.3.5 errorIncludes: \"Tool \\\"seed_note\\\" is blocked by user policy.")
	assert.Contains(t, out, "boundary-desk/boundary-fallback-no-handler:\n  omp@17.3.5: not applicable")
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
	assert.Equal(t, "omp@18.1.16", report.Newest)
	assert.Len(t, report.Cases, 15)
}

// TestReleasePinnedDeskHoldsOnEveryGroup: the model's desk of lessons
// pinned per case to each group's releases holds on the real code of each
// group's representative, the cases whose range leaves it out not
// applicable.
func TestReleasePinnedDeskHoldsOnEveryGroup(t *testing.T) {
	desk := filepath.Join("..", "..", "host", "omp", "ompcheck", "testdata", "releases-desk.json")
	for _, v := range []string{"14.9.9", "17.3.5", "18.1.16", "18.2.3"} {
		t.Run(v, func(t *testing.T) {
			requireRelease(t, v)
			code, out, errOut := runCmd(t, nil, "verify", "-host", "omp@"+v, desk)
			require.Equal(t, exitPass, code, "%s\n%s", out, errOut)
			assert.Contains(t, out, " 0 do not hold, 0 model and real code disagree")
			assert.Regexp(t, regexp.MustCompile(`[1-9]\d* not applicable`), out)
		})
	}
}
