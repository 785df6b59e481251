package realhost

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linkTree copies the tree from into to with hard links (copies across
// file systems), links made again as they are.
func linkTree(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case !d.Type().IsRegular():
			return nil
		}
		if os.Link(p, dst) == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	}))
}

// copiedInstall is release v installed in a cache of the test's own (its
// files hard links to the real install's; a file the test changes is
// replaced, never written through).
func copiedInstall(t *testing.T, v string) (string, *Installed) {
	t.Helper()
	in := installedForTest(t, v)
	cache := t.TempDir()
	linkTree(t, in.Dir, installDir(cache, v))
	copied, err := Lookup(cache, v)
	require.NoError(t, err)
	return cache, copied
}

// TestChangedReleaseIsRefused: a release whose wrapper.ts was changed
// after install is refused; run with AllowChanged, every report says
// which files changed.
func TestChangedReleaseIsRefused(t *testing.T) {
	_, in := copiedInstall(t, "18.1.16")
	wrapper := filepath.Join(in.Dir, "node_modules", "@oh-my-pi", "pi-coding-agent", "src", "extensibility", "extensions", "wrapper.ts")
	data, err := os.ReadFile(wrapper)
	require.NoError(t, err)
	require.NoError(t, os.Remove(wrapper)) // the hard link, not the real install's file
	require.NoError(t, os.WriteFile(wrapper, append(data, "\n// changed after install\n"...), 0o644))

	h, err := Start(context.Background(), ForInstalled(in))
	assert.Nil(t, h)
	require.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "node_modules/@oh-my-pi/pi-coding-agent/src/extensibility/extensions/wrapper.ts")

	spec := ForInstalled(in)
	spec.AllowChanged = true
	h, err = Start(context.Background(), spec)
	require.NoError(t, err)
	defer h.Close()
	require.Len(t, h.Hello.Changed, 1)
	run := &Run{Hello: h.Hello}
	for _, f := range Formats {
		var b bytes.Buffer
		require.NoError(t, Write(&b, f, []*Run{run}, true))
		assert.Contains(t, b.String(), "CHANGED: 1 files of the installed release differ", f)
	}
}

// TestInstallWithoutRecordIsRefused: an install with no record of its
// files is not run.
func TestInstallWithoutRecordIsRefused(t *testing.T) {
	_, in := copiedInstall(t, "18.1.16")
	require.NoError(t, os.Remove(filepath.Join(in.Dir, filesRecord)))
	_, err := Start(context.Background(), ForInstalled(in))
	assert.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "no record of its files")
}

// fakeNPM writes an npm that runs script (sh) in the install folder.
func fakeNPM(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "npm")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	return p
}

// TestFailedInstallLeavesNothing: an npm that fails half way leaves no
// install, complete or not, and no partial folder.
func TestFailedInstallLeavesNothing(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake npm")
	}
	cache := t.TempDir()
	npm := fakeNPM(t, "mkdir -p node_modules/half && echo partial > node_modules/half/file && echo 'npm error ENOSPC: no space left on device' >&2 && exit 1")
	_, err := Install(context.Background(), cache, "18.1.16", InstallOptions{NPM: npm})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ENOSPC")
	_, err = Lookup(cache, "18.1.16")
	assert.Error(t, err)
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	for _, e := range entries {
		assert.True(t, strings.HasSuffix(e.Name(), ".lock"), "left in the cache: %s", e.Name())
	}
}

// TestInstallProgressCloses: the count of packages fetched ends with a
// line that accounts for every package of the lock, also when npm took
// some from its cache.
func TestInstallProgressCloses(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake npm")
	}
	npm := fakeNPM(t, "for p in a b c; do echo \"npm http fetch GET 200 https://registry.example/$p/-/$p-1.0.0.tgz 5ms\" >&2; done; exit 1")
	var out bytes.Buffer
	_, err := Install(context.Background(), t.TempDir(), "18.1.16", InstallOptions{NPM: npm, Progress: &out})
	require.Error(t, err)
	assert.Regexp(t, `(?m)^  3/\d+ packages fetched \(\d+s\); the other \d+ were in npm's cache or are optional for another platform$`, out.String())
}

// syncWriter is a writer safe for two installs at once.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestConcurrentInstallsTakeTurns: two installs of one release at once
// take turns on the release's lock; the second finds the first's install
// complete, and it runs.
func TestConcurrentInstallsTakeTurns(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake npm")
	}
	in := installedForTest(t, "18.1.16")
	cache := t.TempDir()
	// The fake npm installs the real install's packages, as hard links.
	npm := fakeNPM(t, fmt.Sprintf("cp -al %q node_modules", filepath.Join(in.Dir, "node_modules")))
	var out syncWriter
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Install(context.Background(), cache, "18.1.16", InstallOptions{NPM: npm, Progress: &out})
		}()
	}
	wg.Wait()
	require.NoError(t, errs[0], out.String())
	require.NoError(t, errs[1], out.String())
	assert.Equal(t, 1, strings.Count(out.String(), "installing omp@18.1.16"), out.String())
	assert.Contains(t, out.String(), "omp@18.1.16 is already installed")
	got, err := Lookup(cache, "18.1.16")
	require.NoError(t, err)
	h, err := Start(context.Background(), ForInstalled(got))
	require.NoError(t, err, "the install's own record holds")
	assert.Empty(t, h.Hello.Changed)
	require.NoError(t, h.Close())
}

// TestLockWaits: a second taker of a release's lock waits until the
// first lets go.
func TestLockWaits(t *testing.T) {
	cache := t.TempDir()
	unlock, err := lockRelease(cache, "18.1.16", nil)
	require.NoError(t, err)
	waiting := make(chan string, 1)
	got := make(chan func(), 1)
	go func() {
		u, err := lockRelease(cache, "18.1.16", writerFunc(func(p []byte) { waiting <- string(p) }))
		if err == nil {
			got <- u
		}
	}()
	assert.Contains(t, <-waiting, "waiting for another install or removal of omp@18.1.16")
	select {
	case <-got:
		t.Fatal("the lock was taken twice")
	default:
	}
	unlock()
	(<-got)()
}

// writerFunc is an io.Writer calling f.
type writerFunc func([]byte)

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

// TestInstallChecksAnExistingInstall: install of a release already
// installed checks its files, and says to install it again when one
// changed.
func TestInstallChecksAnExistingInstall(t *testing.T) {
	cache, in := copiedInstall(t, "18.1.16")
	var out bytes.Buffer
	_, err := Install(context.Background(), cache, "18.1.16", InstallOptions{Progress: &out})
	require.NoError(t, err)
	assert.Contains(t, out.String(), "its files are those recorded at install")

	pkg := filepath.Join(in.Dir, "node_modules", "@oh-my-pi", "pi-coding-agent", "package.json")
	require.NoError(t, os.Remove(pkg))
	require.NoError(t, os.WriteFile(pkg, []byte(`{"name": "@oh-my-pi/pi-coding-agent", "version": "18.1.16"}`), 0o644))
	_, err = Install(context.Background(), cache, "18.1.16", InstallOptions{})
	require.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "remove it and install it again")
}
