package realhost

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeepAddon(t *testing.T) {
	for _, tc := range []struct {
		name, variant string
		keep          bool
		why           string
	}{
		{"pi_natives.linux-x64-modern.node", "modern", true, ""},
		{"pi_natives.linux-x64-baseline.node", "modern", false, "the baseline variant"},
		{"pi_natives.linux-x64-baseline.node", "baseline", true, ""},
		{"pi_natives.linux-x64-modern.node", "baseline", false, "the modern variant"},
		{"pi_natives.linux-x64.node", "modern", true, ""},
		{"pi_natives.linux-arm64.node", "modern", false, "another platform's addon (linux-arm64)"},
		{"pi_natives.darwin-x64-modern.node", "modern", false, "another platform's addon (darwin-x64)"},
		{"pi_natives.win32-x64-baseline.node", "baseline", false, "another platform's addon (win32-x64)"},
		{"other.node", "modern", true, ""},
	} {
		keep, why := keepAddon(tc.name, tc.variant)
		assert.Equal(t, tc.keep, keep, tc.name)
		if tc.why == "" {
			assert.Empty(t, why, tc.name)
		} else {
			assert.Contains(t, why, tc.why, tc.name)
		}
	}
}

func TestCPUVariant(t *testing.T) {
	assert.Equal(t, "modern", cpuVariant([]byte("processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 bmi2\n")))
	assert.Equal(t, "modern", cpuVariant([]byte("flags\t\t: fpu AVX2\n")))
	assert.Equal(t, "baseline", cpuVariant([]byte("flags\t\t: fpu sse4_2 avx avx2x avx512f\n")))
	assert.Equal(t, "baseline", cpuVariant(nil))
}

// fakeAddonInstall makes an install in cache with two variants of a
// native addon, each hard-linked from a pnpm store file named by its
// SHA-512, and one file of a package.
func fakeAddonInstall(t *testing.T, cache, v string, modern []byte) string {
	t.Helper()
	dir := installDir(cache, v)
	leaf := filepath.Join(dir, "node_modules", "@oh-my-pi", "pi-natives-linux-x64")
	require.NoError(t, os.MkdirAll(leaf, 0o755))
	for name, data := range map[string][]byte{"pi_natives.linux-x64-modern.node": modern, "pi_natives.linux-x64-baseline.node": append([]byte("baseline "), modern...)} {
		p := filepath.Join(leaf, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		_, sum512, err := addonSums(p)
		require.NoError(t, err)
		stored := filepath.Join(StoreDir(cache), "v11", "files", sum512[:2], sum512[2:])
		require.NoError(t, os.MkdirAll(filepath.Dir(stored), 0o755))
		if _, err := os.Stat(stored); err != nil {
			require.NoError(t, os.Link(p, stored))
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "node_modules", "index.js"), []byte("module.exports = 1\n"), 0o644))
	return dir
}

func withVariant(t *testing.T, v string) {
	t.Helper()
	old := machineVariant
	machineVariant = func() string { return v }
	t.Cleanup(func() { machineVariant = old })
}

// TestPackAndInflate: packing keeps the variant the processor takes,
// compressed, empties every addon and drops the store's copies; a second
// install of the same addon links the first's pack; a run inflates the
// very bytes, and refuses a pack that inflates to others, or one made for
// another processor.
func TestPackAndInflate(t *testing.T) {
	withVariant(t, "modern")
	cache := t.TempDir()
	modern := bytes.Repeat([]byte("\x7fELF modern addon "), 50000)
	dir := fakeAddonInstall(t, cache, "18.1.16", modern)
	var progress bytes.Buffer
	require.NoError(t, packAddons(dir, cache, StoreDir(cache), "modern", &progress))
	assert.Contains(t, progress.String(), "native addons: 2 files")

	a, err := readAddons(dir)
	require.NoError(t, err)
	require.NotNil(t, a)
	assert.Equal(t, "modern", a.Variant)
	require.Len(t, a.Addons, 2)
	kept := map[string]addonEntry{}
	for _, e := range a.Addons {
		info, err := os.Stat(filepath.Join(dir, e.Path))
		require.NoError(t, err)
		assert.Zero(t, info.Size(), "%s is emptied", e.Path)
		if e.Pack != "" {
			kept[filepath.Base(e.Path)] = e
		} else {
			assert.Contains(t, e.LeftOut, "baseline variant")
		}
	}
	require.Contains(t, kept, "pi_natives.linux-x64-modern.node")
	e := kept["pi_natives.linux-x64-modern.node"]
	assert.Equal(t, int64(len(modern)), e.Size)
	pack, err := os.Stat(filepath.Join(dir, e.Pack))
	require.NoError(t, err)
	assert.Less(t, pack.Size(), int64(len(modern))/10, "compressed")
	stored, _ := filepath.Glob(filepath.Join(StoreDir(cache), "v11", "files", "*", "*"))
	assert.Empty(t, stored, "the store keeps no copy of a packed or left-out addon")

	// Packing again changes nothing.
	progress.Reset()
	require.NoError(t, packAddons(dir, cache, StoreDir(cache), "modern", &progress))
	assert.Empty(t, progress.String())

	// Another release with the same addon links the pack.
	other := fakeAddonInstall(t, cache, "18.3.4", modern)
	require.NoError(t, packAddons(other, cache, StoreDir(cache), "modern", &progress))
	assert.Equal(t, inodeOf(t, filepath.Join(dir, e.Pack)), inodeOf(t, filepath.Join(other, e.Pack)))

	// A pack of another install that does not inflate to the addon is
	// not taken: the addon is packed again.
	enc0, err := zstd.NewWriter(nil)
	require.NoError(t, err)
	third := fakeAddonInstall(t, cache, "18.2.9", modern)
	require.NoError(t, os.Remove(filepath.Join(other, e.Pack)))
	require.NoError(t, os.WriteFile(filepath.Join(other, e.Pack), enc0.EncodeAll(bytes.Repeat([]byte{'x'}, len(modern)), nil), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, e.Pack)))
	require.NoError(t, os.WriteFile(filepath.Join(dir, e.Pack), []byte("not zstd"), 0o644))
	require.NoError(t, packAddons(third, cache, StoreDir(cache), "modern", &progress))
	assert.NotEqual(t, inodeOf(t, filepath.Join(other, e.Pack)), inodeOf(t, filepath.Join(third, e.Pack)))
	assert.True(t, packHolds(filepath.Join(third, e.Pack), e))
	require.NoError(t, os.Remove(filepath.Join(dir, e.Pack)))
	require.NoError(t, os.Link(filepath.Join(third, e.Pack), filepath.Join(dir, e.Pack)))

	// A run inflates the addon's own bytes, for the path it was at.
	folder := filepath.Join(t.TempDir(), "addons")
	in, err := inflateAddons(dir, folder)
	require.NoError(t, err)
	require.Len(t, in.Over, 1)
	assert.Equal(t, "modern", in.Variant)
	assert.Equal(t, filepath.Join(dir, e.Path), in.Over[0].To)
	got, err := os.ReadFile(in.Over[0].From)
	require.NoError(t, err)
	assert.Equal(t, modern, got)
	assert.Equal(t, []string{in.Over[0].From}, in.Native)

	// The whole tree, for a run without the sandbox.
	whole := filepath.Join(t.TempDir(), "whole")
	require.NoError(t, WholeTree(dir, whole))
	got, err = os.ReadFile(filepath.Join(whole, e.Path))
	require.NoError(t, err)
	assert.Equal(t, modern, got)
	assert.Equal(t, inodeOf(t, filepath.Join(dir, "node_modules", "index.js")), inodeOf(t, filepath.Join(whole, "node_modules", "index.js")))
	assert.Equal(t, filepath.Join(whole, "x", "y"), rebase(filepath.Join(dir, "x", "y"), dir, whole))
	assert.Equal(t, "/elsewhere", rebase("/elsewhere", dir, whole))
	assert.Equal(t, dir+"x", rebase(dir+"x", dir, whole), "a sibling whose name starts alike stays")

	// A pack that inflates to another length, or whose bytes fail
	// zstd's checksum, is refused; so is a missing one.
	enc, err := zstd.NewWriter(nil)
	require.NoError(t, err)
	longer := enc.EncodeAll(append([]byte("longer"), modern...), nil)
	require.NoError(t, os.Remove(filepath.Join(other, e.Pack)))
	require.NoError(t, os.WriteFile(filepath.Join(other, e.Pack), longer, 0o644))
	_, err = inflateAddons(other, filepath.Join(t.TempDir(), "addons"))
	assert.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "not the 900000 recorded")
	good := enc.EncodeAll(modern, nil)
	noCRC, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	require.NoError(t, err)
	for _, bad := range [][]byte{good[:len(good)/2], append(append([]byte{}, good[:len(good)-1]...), good[len(good)-1]^1), noCRC.EncodeAll(modern, nil), nil} {
		require.NoError(t, os.WriteFile(filepath.Join(other, e.Pack), bad, 0o644))
		_, err = inflateAddons(other, filepath.Join(t.TempDir(), "addons"))
		assert.ErrorIs(t, err, ErrChanged)
	}
	require.NoError(t, os.Remove(filepath.Join(other, e.Pack)))
	_, err = inflateAddons(other, filepath.Join(t.TempDir(), "addons"))
	assert.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "cannot be read")

	// A cache moved to a processor that takes the other variant.
	withVariant(t, "baseline")
	_, err = inflateAddons(dir, filepath.Join(t.TempDir(), "addons"))
	assert.ErrorIs(t, err, ErrChanged)
	assert.Contains(t, err.Error(), "keeps the modern variant")

	// A record that cannot be read.
	require.NoError(t, os.WriteFile(filepath.Join(dir, addonsRecord), []byte("{"), 0o644))
	_, err = inflateAddons(dir, filepath.Join(t.TempDir(), "addons"))
	assert.ErrorIs(t, err, ErrChanged)

	// An install without a record keeps its addons whole.
	plain := t.TempDir()
	in, err = inflateAddons(plain, filepath.Join(t.TempDir(), "addons"))
	assert.NoError(t, err)
	assert.Nil(t, in)
}

// olderInstall is 18.1.16 as an install made before installs packed
// their addons and kept what their dependencies lack: a tree of links to
// the real install (whose files the test never writes through), in a
// cache of the test's own.
func olderInstall(t *testing.T) (in *Installed, cache, dir string) {
	t.Helper()
	in = installedForTest(t, "18.1.16")
	cache = t.TempDir()
	dir = installDir(cache, "18.1.16")
	require.NoError(t, WholeTree(in.Dir, dir))
	require.NoError(t, os.RemoveAll(filepath.Join(dir, addonsFolder)))
	require.NoError(t, os.Remove(filepath.Join(dir, addonsRecord)))
	require.NoError(t, os.Remove(filepath.Join(dir, absentRecord)))
	require.NoError(t, writeRecord(dir))
	return in, cache, dir
}

// TestInterruptedPackingLeavesAnUnfinishedInstall: packing an older
// install that fails half way leaves it without its marker, so it is
// taken for unfinished (and made afresh by the next install), never for
// a changed install that install cannot repair.
func TestInterruptedPackingLeavesAnUnfinishedInstall(t *testing.T) {
	_, cache, dir := olderInstall(t)
	// The packs' folder cannot be made: a file stands in its place.
	require.NoError(t, os.WriteFile(filepath.Join(dir, addonsFolder), nil, 0o644))
	require.NoError(t, writeRecord(dir))
	var out bytes.Buffer
	_, err := Install(context.Background(), cache, "18.1.16", InstallOptions{Progress: &out, Start: sandboxStart})
	require.Error(t, err, out.String())
	assert.Contains(t, err.Error(), "is now unfinished: install it again")
	assert.NoFileExists(t, filepath.Join(dir, marker))
	_, err = Lookup(cache, "18.1.16")
	assert.Error(t, err, "an unfinished install is not taken for one")
}

// TestInstallPacksAnInstallMadeBefore: install of a release installed
// before installs packed their addons packs it, and it runs.
func TestInstallPacksAnInstallMadeBefore(t *testing.T) {
	in, cache, dir := olderInstall(t)
	whole := realcode.DirSize(dir)
	old, err := Lookup(cache, "18.1.16")
	require.NoError(t, err)
	h, err := startInstalled(t, old, false)
	require.NoError(t, err, "an install with its addons whole runs as it is")
	require.NoError(t, h.Close())

	var out bytes.Buffer
	_, err = Install(context.Background(), cache, "18.1.16", InstallOptions{Progress: &out, Start: sandboxStart})
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "native addons: 2 files")
	assert.FileExists(t, filepath.Join(dir, absentRecord), "the first run kept what the dependencies lack")
	a, err := readAddons(dir)
	require.NoError(t, err)
	require.NotNil(t, a)
	got, err := Lookup(cache, "18.1.16")
	require.NoError(t, err)
	assert.Less(t, got.Bytes, whole-100<<20, "the marker gives the packed size")
	assert.InDelta(t, realcode.DirSize(dir), got.Bytes, 4096)
	h, err = startInstalled(t, got, false)
	require.NoError(t, err, out.String())
	assert.Empty(t, h.Hello().Changed)
	require.NoError(t, h.Close())
	changed, err := changedFiles(in.Dir)
	require.NoError(t, err)
	assert.Empty(t, changed, "the install the tree links to is untouched: records are replaced, never written through a link")
}

// TestAbsentRecordIsTheScan: a run of an unchanged release that reads the
// install's record of what its dependencies lack stands in for the same
// modules and exports as a run that scans the release's sources, and the
// record is what a scan finds now.
func TestAbsentRecordIsTheScan(t *testing.T) {
	in := installedForTest(t, "18.3.4")
	recorded, err := os.ReadFile(filepath.Join(in.Dir, absentRecord))
	require.NoError(t, err)
	assert.Contains(t, string(recorded), `"modules":[[`, "18.3.4 lacks modules of its substituted dependencies")

	h, err := startInstalled(t, in, false)
	require.NoError(t, err)
	withRecord := h.Hello().Adaptations
	require.NoError(t, h.Close())

	// A copy without the record is changed, so the run scans (and is
	// asked to keep what it finds, to compare).
	_, copied := copiedInstall(t, "18.3.4")
	require.NoError(t, os.Remove(filepath.Join(copied.Dir, absentRecord)))
	spec := ForInstalled(copied)
	spec.AllowChanged, spec.absentOut = true, true
	tmp := t.TempDir()
	h, err = open(context.Background(), spec, tmp, sandboxStart, nil)
	require.NoError(t, err)
	assert.Equal(t, withRecord, h.Hello().Adaptations)
	assert.Equal(t, []string{absentRecord}, h.Hello().Changed)
	require.NoError(t, h.Close())
	scanned, err := os.ReadFile(filepath.Join(tmp, "agent", absentRecord))
	require.NoError(t, err)
	assert.JSONEq(t, string(recorded), string(scanned))

	// The run of an unchanged install reads the record: one whose record
	// names another module (recorded as the install's own) stands in for it.
	_, marked := copiedInstall(t, "18.3.4")
	var found struct {
		Modules [][]any `json:"modules"`
		Exports [][]any `json:"exports"`
	}
	require.NoError(t, json.Unmarshal(recorded, &found))
	found.Modules = append(found.Modules, []any{"@oh-my-pi/deskcheck-marked", []string{"marked"}})
	data, err := json.Marshal(found)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(marked.Dir, absentRecord)))
	require.NoError(t, os.WriteFile(filepath.Join(marked.Dir, absentRecord), data, 0o644))
	require.NoError(t, writeRecord(marked.Dir))
	h, err = startInstalled(t, marked, false)
	require.NoError(t, err)
	assert.Empty(t, h.Hello().Changed)
	assert.Contains(t, strings.Join(h.Hello().Adaptations, "\n"), "@oh-my-pi/deskcheck-marked")
	require.NoError(t, h.Close())
}

// TestHostileAddonsRecord: a record of addons no install writes is refused
// as a changed install, before anything is inflated or mounted, and never
// panics.
func TestHostileAddonsRecord(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	good := `{"variant":"modern","addons":[{"path":"node_modules/x/pi_natives.linux-x64-modern.node","sha256":"` + sum + `","size":10,"pack":"addons/` + sum + `.zst"}]}`
	for _, tc := range []struct{ name, record, why string }{
		{"good", good, ""},
		{"not JSON", `{"variant":`, "cannot be read"},
		{"unknown variant", strings.Replace(good, `"modern"`, `"fast"`, 1), `variant "fast"`},
		{"path outside", strings.Replace(good, "node_modules/x/", "../../etc/", 1), "path"},
		{"absolute path", strings.Replace(good, "node_modules/x/", "/etc/", 1), "path"},
		{"unclean path", strings.Replace(good, "node_modules/x/", "node_modules/./x/", 1), "path"},
		{"not an addon", strings.Replace(good, "modern.node", "modern.js", 1), "path"},
		{"short hash", strings.Replace(good, `"sha256":"`+sum, `"sha256":"ab`, 1), "SHA-256"},
		{"pack elsewhere", strings.Replace(good, `"pack":"addons/`, `"pack":"../addons/`, 1), "pack"},
		{"negative size", strings.Replace(good, `"size":10`, `"size":-1`, 1), "size -1"},
		{"huge size", strings.Replace(good, `"size":10`, `"size":99999999999`, 1), "size 99999999999"},
		{"path twice", `{"variant":"modern","addons":[{"path":"a.node","sha256":"` + sum + `","size":10},{"path":"a.node","sha256":"` + strings.Repeat("cd", 32) + `","size":3}]}`, `path "a.node" twice`},
		{"one hash, two sizes", `{"variant":"modern","addons":[{"path":"a.node","sha256":"` + sum + `","size":10},{"path":"b.node","sha256":"` + sum + `","size":2000000000}]}`, "sizes 10 and 2000000000"},
		{"too many", `{"variant":"modern","addons":[` + strings.TrimSuffix(strings.Repeat(`{"path":"a.node","sha256":"`+sum+`","size":1},`, 65), ",") + `]}`, "65 addons"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, addonsRecord), []byte(tc.record), 0o644))
			a, err := readAddons(dir)
			if tc.why == "" {
				require.NoError(t, err)
				assert.NotNil(t, a)
				return
			}
			assert.ErrorIs(t, err, ErrChanged)
			assert.Contains(t, err.Error(), tc.why)
			assert.Nil(t, a)
		})
	}
	// The record itself must be a regular file of at most 1 MiB: not a
	// named pipe (which would wait for a writer), not a link.
	for name, make := range map[string]func(p string) error{
		"a named pipe": func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"a link":       func(p string) error { return os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), p) },
		"too large":    func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte(" "), maxAddonsRecord+1), 0o644) },
	} {
		dir := t.TempDir()
		require.NoError(t, make(filepath.Join(dir, addonsRecord)), name)
		a, err := readAddons(dir)
		assert.ErrorIs(t, err, ErrChanged, name)
		assert.Nil(t, a, name)
	}

	// A mount outside the install is never made into a tree.
	dir := t.TempDir()
	from := filepath.Join(t.TempDir(), "addon")
	require.NoError(t, os.WriteFile(from, []byte("x"), 0o600))
	outside := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(outside, []byte("keep"), 0o600))
	err := linkWhole(dir, filepath.Join(t.TempDir(), "tree"), []realcode.Overlay{{From: from, To: outside}})
	assert.ErrorContains(t, err, "is not inside the install")
	data, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(data))
}

// TestPackIsOneCheckedFrame: a pack is inflated only when it is a
// regular file holding exactly one zstd frame with a checksum, within the
// window bound; the decoder alone would read on through whatever follows
// the first frame, checked or not.
func TestPackIsOneCheckedFrame(t *testing.T) {
	data := bytes.Repeat([]byte("addon bytes "), 1000)
	checked, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	require.NoError(t, err)
	unchecked, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	require.NoError(t, err)
	wide, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithWindowSize(64<<20), zstd.WithSingleSegment(false))
	require.NoError(t, err)
	single, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithSingleSegment(true))
	require.NoError(t, err)
	good := checked.EncodeAll(data, nil)
	tampered := append([]byte{}, data...)
	copy(tampered[6000:], "EVIL")
	skippable := []byte{0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'j', 'u', 'n', 'k'}
	for _, tc := range []struct {
		name string
		pack []byte
		why  string
	}{
		{"one checked frame", good, ""},
		{"garbage after", append(append([]byte{}, good...), "garbage!"...), "bytes after its zstd frame"},
		{"a skippable frame after", append(append([]byte{}, good...), skippable...), "bytes after its zstd frame"},
		{"an unchecked frame after", unchecked.EncodeAll(tampered[10:], checked.EncodeAll(tampered[:10], nil)), "bytes after its zstd frame"},
		{"a skippable frame first", append(append([]byte{}, skippable...), good...), "not a zstd frame with a checksum"},
		{"no checksum", unchecked.EncodeAll(data, nil), "not a zstd frame with a checksum"},
		{"cut short", good[:len(good)-5], "cut short"},
		{"only a header", good[:headerSize(t, good)], "cut short"},
		{"empty", nil, "not a zstd frame with a checksum"},
		{"a window over the bound", wide.EncodeAll(bytes.Repeat([]byte{'w'}, 20<<20), nil), "window over"},
		{"one segment over the bound", single.EncodeAll(bytes.Repeat([]byte{'s'}, 20<<20), nil), "window over"},
		{"another content size", checked.EncodeAll(data[:5000], nil), "gives its content as 5000 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "pack.zst")
			require.NoError(t, os.WriteFile(p, tc.pack, 0o644))
			n, err := inflateTo(p, io.Discard, int64(len(data)))
			if tc.why == "" {
				require.NoError(t, err)
				assert.Equal(t, int64(len(data)), n)
				return
			}
			assert.ErrorContains(t, err, tc.why)
		})
	}
	t.Run("not a regular file", func(t *testing.T) {
		dir := t.TempDir()
		good := filepath.Join(dir, "good.zst")
		require.NoError(t, os.WriteFile(good, checked.EncodeAll(data, nil), 0o644))
		link, fifo := filepath.Join(dir, "link.zst"), filepath.Join(dir, "fifo.zst")
		require.NoError(t, os.Symlink(good, link))
		require.NoError(t, syscall.Mkfifo(fifo, 0o644))
		for _, p := range []string{link, fifo, "/dev/zero"} {
			_, err := inflateTo(p, io.Discard, int64(len(data)))
			assert.ErrorContains(t, err, "cannot be read", p)
		}
	})
}

// headerSize is the size of the frame header pack begins with.
func headerSize(t *testing.T, pack []byte) int {
	var h zstd.Header
	require.NoError(t, h.Decode(pack))
	return h.HeaderSize
}

// TestOtherInstallsPacksMustBeFiles: packing links another install's
// pack only when that is a regular file; a link or a named pipe in its
// place is passed over (a pipe would wait for a writer) and the addon is
// compressed again.
func TestOtherInstallsPacksMustBeFiles(t *testing.T) {
	withVariant(t, "modern")
	modern := bytes.Repeat([]byte("\x7fELF modern addon "), 50000)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	require.NoError(t, err)
	for name, plant := range map[string]func(p string) error{
		"a link": func(p string) error {
			outside := filepath.Join(t.TempDir(), "outside.zst")
			if err := os.WriteFile(outside, enc.EncodeAll(modern, nil), 0o644); err != nil {
				return err
			}
			return os.Symlink(outside, p)
		},
		"a named pipe": func(p string) error { return syscall.Mkfifo(p, 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			cache := t.TempDir()
			_, e := kept(t, modern)
			other := filepath.Join(cache, "omp@1.0.0", e.Pack)
			require.NoError(t, os.MkdirAll(filepath.Dir(other), 0o755))
			require.NoError(t, plant(other))
			dir := fakeAddonInstall(t, cache, "18.1.16", modern)
			require.NoError(t, packAddons(dir, cache, StoreDir(cache), "modern", io.Discard))
			info, err := os.Lstat(filepath.Join(dir, e.Pack))
			require.NoError(t, err)
			assert.True(t, info.Mode().IsRegular(), "the install's pack is a file of its own: %v", info.Mode())
			assert.True(t, packHolds(filepath.Join(dir, e.Pack), e))
		})
	}
}

// kept is the entry packing records for the modern addon of
// fakeAddonInstall.
func kept(t *testing.T, modern []byte) (string, addonEntry) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pi_natives.linux-x64-modern.node")
	require.NoError(t, os.WriteFile(p, modern, 0o644))
	sum, _, err := addonSums(p)
	require.NoError(t, err)
	return p, addonEntry{SHA256: sum, Size: int64(len(modern)), Pack: filepath.Join(addonsFolder, sum+".zst")}
}

// TestInflatedAddonsNamedByWholeHash: two kept addons whose hashes share
// a long prefix are inflated side by side.
func TestInflatedAddonsNamedByWholeHash(t *testing.T) {
	withVariant(t, "modern")
	dir := t.TempDir()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	require.NoError(t, err)
	a := strings.Repeat("ab", 32)
	b := strings.Repeat("ab", 16) + strings.Repeat("cd", 16)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, addonsFolder), 0o755))
	rec := addons{Variant: "modern"}
	for i, s := range []string{a, b} {
		body := []byte(strings.Repeat(string(rune('p'+i)), 10))
		require.NoError(t, os.WriteFile(filepath.Join(dir, addonsFolder, s+".zst"), enc.EncodeAll(body, nil), 0o644))
		rec.Addons = append(rec.Addons, addonEntry{Path: string(rune('a'+i)) + ".node", SHA256: s, Size: 10, Pack: filepath.Join(addonsFolder, s+".zst")})
	}
	data, err := json.Marshal(rec)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, addonsRecord), data, 0o644))
	in, err := inflateAddons(dir, filepath.Join(t.TempDir(), "inflated"))
	require.NoError(t, err)
	require.Len(t, in.Over, 2)
	assert.NotEqual(t, in.Over[0].From, in.Over[1].From)
	for i, o := range in.Over {
		got, err := os.ReadFile(o.From)
		require.NoError(t, err)
		assert.Equal(t, strings.Repeat(string(rune('p'+i)), 10), string(got))
	}
}
