package realhost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linkTree copies the tree from into to with hard links (copies across
// file systems), links made again as they are.
func linkTree(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, realcode.CopyTree(from, to, 0o755, 0o644, true))
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

	h, err := startInstalled(t, in, false)
	assert.Nil(t, h)
	require.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "node_modules/@oh-my-pi/pi-coding-agent/src/extensibility/extensions/wrapper.ts")

	h, err = startInstalled(t, in, true)
	require.NoError(t, err)
	defer h.Close()
	assert.Equal(t, []string{"node_modules/@oh-my-pi/pi-coding-agent/src/extensibility/extensions/wrapper.ts"}, h.Hello().Changed)
}

// TestInstallWithoutRecordIsRefused: an install with no record of its
// files is not run.
func TestInstallWithoutRecordIsRefused(t *testing.T) {
	_, in := copiedInstall(t, "18.1.16")
	require.NoError(t, os.Remove(filepath.Join(in.Dir, filesRecord)))
	_, err := startInstalled(t, in, false)
	assert.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "no record of its files")
}

// fakePNPM writes a pnpm whose import does nothing and whose install
// runs script (sh) in the install folder.
func fakePNPM(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pnpm")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n[ \"$1\" = import ] && exit 0\n"+script+"\n"), 0o755))
	return p
}

// TestFailedInstallLeavesNothing: a pnpm that fails half way leaves no
// install, complete or not, and no partial folder.
func TestFailedInstallLeavesNothing(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake pnpm")
	}
	cache := t.TempDir()
	pnpm := fakePNPM(t, "mkdir -p node_modules/half && echo partial > node_modules/half/file && echo 'ERR_PNPM_ENOSPC: no space left on device' >&2 && exit 1")
	_, err := Install(context.Background(), cache, "18.1.16", InstallOptions{PNPM: pnpm})
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

// TestInstallProgress: the install names each package it downloads once
// and closes with how many packages came from the store.
func TestInstallProgress(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake pnpm")
	}
	pnpm := fakePNPM(t, `for s in 0.00 1.00; do echo "Downloading a@1.0.0: $s MB/2.00 MB"; done
echo "Progress: resolved 3, reused 1, downloaded 2, added 3, done"; exit 1`)
	var out bytes.Buffer
	_, err := Install(context.Background(), t.TempDir(), "18.1.16", InstallOptions{PNPM: pnpm, Progress: &out, Start: sandboxStart})
	require.Error(t, err)
	assert.Equal(t, 1, strings.Count(out.String(), "downloading a@1.0.0 ("), out.String())
	assert.Regexp(t, `(?m)^  3 packages: 1 already in the store, 2 downloaded \(\d+s\)$`, out.String())
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
		t.Skip("no /bin/sh for the fake pnpm")
	}
	in := installedForTest(t, "18.1.16")
	cache := t.TempDir()
	// The fake pnpm installs the real install's packages, as hard links.
	whole := filepath.Join(t.TempDir(), "whole")
	require.NoError(t, WholeTree(in.Dir, whole))
	pnpm := fakePNPM(t, fmt.Sprintf("cp -al %q node_modules", filepath.Join(whole, "node_modules")))
	var out syncWriter
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Install(context.Background(), cache, "18.1.16", InstallOptions{PNPM: pnpm, Progress: &out, Start: sandboxStart})
		}()
	}
	wg.Wait()
	require.NoError(t, errs[0], out.String())
	require.NoError(t, errs[1], out.String())
	assert.Equal(t, 1, strings.Count(out.String(), "installing omp@18.1.16"), out.String())
	assert.Contains(t, out.String(), "omp@18.1.16 is already installed")
	got, err := Lookup(cache, "18.1.16")
	require.NoError(t, err)
	h, err := startInstalled(t, got, false)
	require.NoError(t, err, "the install's own record holds")
	assert.Empty(t, h.Hello().Changed)
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
	_, err := Install(context.Background(), cache, "18.1.16", InstallOptions{Progress: &out, Start: sandboxStart})
	require.NoError(t, err)
	assert.Contains(t, out.String(), "its files are those recorded at install")

	pkg := filepath.Join(in.Dir, "node_modules", "@oh-my-pi", "pi-coding-agent", "package.json")
	require.NoError(t, os.Remove(pkg))
	require.NoError(t, os.WriteFile(pkg, []byte(`{"name": "@oh-my-pi/pi-coding-agent", "version": "18.1.16"}`), 0o644))
	_, err = Install(context.Background(), cache, "18.1.16", InstallOptions{})
	require.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "remove it and install it again")
}

// storePNPM writes a pnpm that runs the pinned one with mode: --offline
// (only the store can give it packages) or --prefer-offline (it
// downloads only what the store lacks).
func storePNPM(t *testing.T, mode string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pnpm")
	script := fmt.Sprintf("#!/bin/sh\nexec npm exec --yes --prefer-offline --package=pnpm@%s -- pnpm \"$@\" %s\n", PNPMVersion, mode)
	require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

// inodeOf is the file system and inode of path.
func inodeOf(t *testing.T, path string) inode {
	t.Helper()
	info, err := os.Stat(path)
	require.NoError(t, err)
	key, _, ok := blocks(info)
	require.True(t, ok)
	return key
}

// pnpmInstalled is release v as the cache holds it, installed from the
// store; in CI, where .ci/run installs every release so, its absence fails.
func pnpmInstalled(t *testing.T, v string) *Installed {
	t.Helper()
	in := installedForTest(t, v)
	if in.PNPM == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("omp@%s was installed by npm ci, not from the store", v)
		}
		t.Skipf("skipping: omp@%s was installed by npm ci, not from the store", v)
	}
	return in
}

// TestInstallFromTheStore: a release installed a second time, into
// another cache from the first's store, downloads nothing but the
// package of the native addon the first packed (the store no longer
// holds its file), and every file of its packages but that addon is the
// first install's own file, hard-linked; what is new is only its records,
// pnpm's lock, bun's transpiler cache and its packed addon. It runs (the
// install starts its harness) and its record holds.
func TestInstallFromTheStore(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the offline pnpm")
	}
	first := pnpmInstalled(t, "18.1.16")
	store := StoreDir(filepath.Dir(first.Dir))
	cache := t.TempDir()
	if inodeOf(t, cache).dev != inodeOf(t, store).dev {
		t.Skipf("skipping: %s and the store %s are on two file systems, which hard links cannot join", cache, store)
	}
	var out bytes.Buffer
	// The store keeps no native addon the first install packed: that one
	// package is downloaded again, and nothing else.
	firstAddons, err := readAddons(first.Dir)
	require.NoError(t, err)
	pnpm, downloads := storePNPM(t, "--offline"), "0"
	if firstAddons != nil {
		pnpm, downloads = storePNPM(t, "--prefer-offline"), "1"
	}
	second, err := Install(context.Background(), cache, "18.1.16", InstallOptions{PNPM: pnpm, Store: store, Progress: &out, Start: sandboxStart})
	require.NoError(t, err, out.String())
	assert.Regexp(t, `packages: \d+ already in the store, `+downloads+` downloaded`, out.String())
	packed := map[string]bool{}
	if firstAddons != nil {
		for _, e := range firstAddons.Addons {
			packed[e.Path] = true
		}
	}

	// The stub package is copied into each install from its absent/, and
	// pnpm's own state files (.modules.yaml, .pnpm/) are each install's.
	stubFiles := map[string]bool{}
	for _, name := range []string{"index.js", "package.json"} {
		data, err := harnessFiles.ReadFile("harness/absent/" + name)
		require.NoError(t, err)
		stubFiles[string(data)] = true
	}
	linked := 0
	require.NoError(t, filepath.WalkDir(filepath.Join(first.Dir, "node_modules"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		// pnpm's own state (a name starting with a dot inside the
		// install; the cache folder's own path may hold one, as
		// ~/.cache does).
		rel, _ := filepath.Rel(first.Dir, p)
		if strings.Contains(string(filepath.Separator)+rel, string(filepath.Separator)+".") {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil && stubFiles[string(data)] {
			return nil
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			if r, err := filepath.Rel(first.Dir, real); err == nil && packed[r] {
				return nil // an empty file where the packed addon was
			}
		}
		assert.Equal(t, inodeOf(t, p), inodeOf(t, filepath.Join(second.Dir, rel)), "%s is a copy, not a link", rel)
		linked++
		return nil
	}))
	assert.Greater(t, linked, 1000)
	fresh, err := newBytes(second.Dir)
	require.NoError(t, err)
	// Its own files are its records, bun's transpiler cache and its
	// packed addon (packed again: the first is in another cache).
	secondAddons, err := readAddons(second.Dir)
	require.NoError(t, err)
	if secondAddons != nil {
		for _, e := range secondAddons.Addons {
			if e.Pack != "" {
				info, err := os.Stat(filepath.Join(second.Dir, e.Pack))
				require.NoError(t, err)
				fresh -= info.Size()
			}
		}
	}
	assert.Less(t, fresh, second.Bytes/10, "the second install's own files are a small part of it")

	h, err := startInstalled(t, second, false)
	require.NoError(t, err)
	assert.Empty(t, h.Hello().Changed)
	require.NoError(t, h.Close())
}

// fakeStore makes a cache with two releases, A and B, whose files
// shared.js are one file of the store, A's native.node another, A's
// own.txt its own, and a store file neither links.
func fakeStore(t *testing.T) (string, []*Installed) {
	t.Helper()
	cache := t.TempDir()
	store := filepath.Join(StoreDir(cache), "files")
	require.NoError(t, os.MkdirAll(store, 0o755))
	write := func(p string, n int) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, bytes.Repeat([]byte{'x'}, n), 0o644))
	}
	write(filepath.Join(store, "shared"), 300<<10)
	write(filepath.Join(store, "native"), 200<<10)
	write(filepath.Join(store, "unlinked"), 100<<10)
	var installed []*Installed
	for _, v := range []string{"18.1.16", "18.1.17"} {
		dir := installDir(cache, v)
		mod := filepath.Join(dir, "node_modules", "pkg")
		require.NoError(t, os.MkdirAll(mod, 0o755))
		require.NoError(t, os.Link(filepath.Join(store, "shared"), filepath.Join(mod, "shared.js")))
		installed = append(installed, &Installed{Version: v, Dir: dir})
	}
	a := installed[0].Dir
	require.NoError(t, os.Link(filepath.Join(store, "native"), filepath.Join(a, "node_modules", "pkg", "native.node")))
	write(filepath.Join(a, "own.txt"), 40<<10)
	return cache, installed
}

// onDisk is what the file at p takes on disk.
func onDisk(t *testing.T, p string) int64 {
	t.Helper()
	info, err := os.Stat(p)
	require.NoError(t, err)
	_, n, _ := blocks(info)
	return n
}

// TestDiskUsage: a file two releases link counts once, as shared; a file
// one release links, with the store, is that release's own; a store file
// no release links is counted apart; the total is the folder's, each file
// once.
func TestDiskUsage(t *testing.T) {
	cache, installed := fakeStore(t)
	store := filepath.Join(StoreDir(cache), "files")
	a := installed[0].Dir
	u, err := DiskUsage(cache, installed)
	require.NoError(t, err)
	assert.Equal(t, onDisk(t, filepath.Join(store, "shared")), u.Shared)
	assert.Equal(t, onDisk(t, filepath.Join(store, "native"))+onDisk(t, filepath.Join(a, "own.txt")), u.Own["18.1.16"])
	assert.Zero(t, u.Own["18.1.17"])
	assert.Equal(t, onDisk(t, filepath.Join(store, "unlinked")), u.Unlinked)
	files := onDisk(t, filepath.Join(store, "shared")) + onDisk(t, filepath.Join(store, "native")) + onDisk(t, filepath.Join(store, "unlinked"))
	assert.GreaterOrEqual(t, u.Store, files, "the store's files and folders")
	assert.GreaterOrEqual(t, u.Total, files+onDisk(t, filepath.Join(a, "own.txt")))

	fresh, err := newBytes(a)
	require.NoError(t, err)
	assert.Equal(t, int64(200<<10+40<<10), fresh, "what A alone links: its native.node and own.txt")

	// Without the other release, what it shared is the one left's own.
	u, err = DiskUsage(cache, installed[1:])
	require.NoError(t, err)
	assert.Zero(t, u.Shared)
	assert.Equal(t, onDisk(t, filepath.Join(store, "shared")), u.Own["18.1.17"])
}

// TestChangedLinkedFileIsCaught: a file that two releases link, written
// through one of them, is changed in both; each release's record of its
// files catches it, and both are refused.
func TestChangedLinkedFileIsCaught(t *testing.T) {
	_, installed := fakeStore(t)
	for _, in := range installed {
		require.NoError(t, writeRecord(in.Dir))
		changed, err := changedFiles(in.Dir)
		require.NoError(t, err)
		assert.Empty(t, changed)
	}
	f, err := os.OpenFile(filepath.Join(installed[0].Dir, "node_modules", "pkg", "shared.js"), os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("changed"), 0)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	for _, in := range installed {
		changed, err := changedFiles(in.Dir)
		require.NoError(t, err)
		assert.Equal(t, []string{"node_modules/pkg/shared.js"}, changed, in.Version)
	}
}

// TestWorkspaceYAML: pnpm's settings for a release hold the flat layout,
// hard links and the release's overrides, sorted; a package.json that
// cannot be read, or an override that YAML's quotes cannot hold, is an
// error rather than a settings file that says something else.
func TestWorkspaceYAML(t *testing.T) {
	for _, tc := range []struct {
		name, pkg, want, err string
	}{
		{"overrides", `{"overrides": {"react": "file:./absent", "@a/b": "1.2.3"}}`,
			"nodeLinker: hoisted\npackageImportMethod: hardlink\nupdateNotifier: false\noverrides:\n  '@a/b': '1.2.3'\n  'react': 'file:./absent'\n", ""},
		{"none", `{}`, "nodeLinker: hoisted\npackageImportMethod: hardlink\nupdateNotifier: false\n", ""},
		{"not JSON", `{"overrides": `, "", "the release's package.json"},
		{"a quote", `{"overrides": {"x": "1' evil: 'y"}}`, "", "cannot be written"},
		{"a line break", `{"overrides": {"x\ny": "1"}}`, "", "cannot be written"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := workspaceYAML([]byte(tc.pkg))
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, strings.SplitN(string(got), "\n", 2)[1])
		})
	}
	for _, r := range Releases() {
		pkg, err := releaseFiles.ReadFile("releases/" + r.Version + "/package.json")
		require.NoError(t, err)
		_, err = workspaceYAML(pkg)
		assert.NoError(t, err, r.Version)
	}
}

// TestRecordCheckReadsOnlyWhatChanged: a check reads again only the files
// whose size, time or inode differ from the record's (and those modified
// near the record's time); a record without them is read whole once and
// then kept with them; a file changed and one replaced are caught.
func TestRecordCheckReadsOnlyWhatChanged(t *testing.T) {
	_, installed := fakeStore(t)
	dir := installed[0].Dir
	old := time.Now().Add(-time.Hour)
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			return os.Chtimes(p, old, old)
		}
		return err
	}))
	require.NoError(t, writeRecord(dir))
	count := func() int64 {
		before := hashed.Load()
		changed, err := changedFiles(dir)
		require.NoError(t, err)
		require.Empty(t, changed)
		return hashed.Load() - before
	}
	assert.Zero(t, count(), "every file is as recorded")

	// A record of hashes only (made before stats were kept) is read whole,
	// then written with them.
	data, err := os.ReadFile(filepath.Join(dir, filesRecord))
	require.NoError(t, err)
	var rec record
	require.NoError(t, json.Unmarshal(data, &rec))
	files := len(rec.Files)
	require.Positive(t, files)
	rec.Stats, rec.RecordedAt = nil, 0
	data, err = json.Marshal(rec)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, filesRecord), data, 0o644))
	assert.Equal(t, int64(files), count())
	assert.Zero(t, count(), "the record was kept with the files' stats")

	// A write keeps the size and changes the time; a file put in place
	// with the old time changes the inode.
	target := filepath.Join(dir, "node_modules", "pkg", "shared.js")
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("X"), 0)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	changed, err := changedFiles(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"node_modules/pkg/shared.js"}, changed)
}
