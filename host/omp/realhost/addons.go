package realhost

import (
	"bufio"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"github.com/klauspost/compress/zstd"

	"github.com/deskcheck/deskcheck/internal/realcode"
)

// A release's native addon (pi_natives, 180–200 MB for each CPU variant,
// and in 13.x and 14.x every platform's) is most of what it takes on disk,
// and no two releases but a substituted pair share one. An install keeps
// only the addon this machine's processor loads, compressed (zstd) in
// the install's addons folder, and leaves an empty file where it was; a
// run inflates it into its temporary folder, checks it against the hash
// recorded at install, and the sandbox mounts it read-only in its place,
// so that the release loads its own addon from its own path. The other
// CPU variant and other platforms' addons, which the release never loads
// here, are left out (their hashes are recorded).

// addonsRecord lists the install's native addons and what became of each.
const addonsRecord = "deskcheck-addons.json"

// addonsFolder holds the packed addons inside an install.
const addonsFolder = "addons"

// variantVar is the release's own switch naming the CPU variant of its
// addon to load (every release here reads it).
const variantVar = "PI_NATIVE_VARIANT"

// addons is what addonsRecord holds.
type addons struct {
	// Variant is the CPU variant kept: "modern" where the processor has
	// AVX2 (what the release's loader looks for in /proc/cpuinfo), else
	// "baseline".
	Variant string       `json:"variant"`
	Addons  []addonEntry `json:"addons"`
}

// addonEntry is one *.node file of the install.
type addonEntry struct {
	// Path is the file's place inside the install.
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// Pack is the compressed copy inside the install, for a kept addon.
	Pack string `json:"pack,omitempty"`
	// LeftOut says why an addon is not kept.
	LeftOut string `json:"leftOut,omitempty"`
}

// addonName parses pi_natives.<platform>[-<variant>].node.
var addonName = regexp.MustCompile(`^pi_natives\.([a-z0-9]+-[a-z0-9]+?)(?:-(modern|baseline))?\.node$`)

// keepAddon says whether an addon named base is one the release loads on
// a linux-x64 machine whose processor takes variant, and why not.
func keepAddon(base, variant string) (bool, string) {
	m := addonName.FindStringSubmatch(base)
	if m == nil {
		return true, ""
	}
	if m[1] != "linux-x64" {
		return false, "another platform's addon (" + m[1] + "), never loaded on linux-x64"
	}
	if m[2] != "" && m[2] != variant {
		return false, fmt.Sprintf("the %s variant, which this machine's processor does not take (%s=%s)", m[2], variantVar, variant)
	}
	return true, ""
}

// cpuVariant is the variant the release's loader picks for a processor
// whose /proc/cpuinfo is info: modern when a line lists avx2.
func cpuVariant(info []byte) string {
	for _, line := range strings.Split(string(info), "\n") {
		for _, f := range strings.Fields(line) {
			if strings.EqualFold(f, "avx2") {
				return "modern"
			}
		}
	}
	return "baseline"
}

// machineVariant is this machine's variant (a variable for the tests).
var machineVariant = func() string {
	info, _ := os.ReadFile("/proc/cpuinfo")
	return cpuVariant(info)
}

// readAddons reads the install's record of addons; nil when the install
// keeps its addons whole.
func readAddons(dir string) (*addons, error) {
	f, err := openRegular(filepath.Join(dir, addonsRecord))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: its record of native addons cannot be read (%v); install it again", ErrChanged, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxAddonsRecord+1))
	f.Close()
	if err == nil && len(data) > maxAddonsRecord {
		err = fmt.Errorf("it is larger than %d bytes", maxAddonsRecord)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: its record of native addons cannot be read (%v); install it again", ErrChanged, err)
	}
	var a addons
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%w: its record of native addons cannot be read (%v); install it again", ErrChanged, err)
	}
	if err := a.check(); err != nil {
		return nil, fmt.Errorf("%w: its record of native addons is not one an install writes (%v); install it again", ErrChanged, err)
	}
	return &a, nil
}

// maxAddonsRecord bounds the record's size (64 entries take about 20 KB).
const maxAddonsRecord = 1 << 20

// openRegular opens path for reading only when it is a regular file: not
// through a symbolic link as its last part, and never waiting on a named
// pipe or a device (nor taking a terminal as the controlling one).
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%s)", path, info.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// maxAddonBytes bounds one addon as a record may give it (the largest is
// about 200 MB).
const maxAddonBytes = 2 << 30

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// check refuses a record no install writes: a path outside the install
// or not a native addon's, or given twice, a pack other than
// addons/SHA-256.zst, a size past maxAddonBytes, one SHA-256 with two
// sizes, an unknown variant.
func (a *addons) check() error {
	if a.Variant != "modern" && a.Variant != "baseline" {
		return fmt.Errorf("variant %q", a.Variant)
	}
	if len(a.Addons) > 64 {
		return fmt.Errorf("%d addons", len(a.Addons))
	}
	var kept int64
	paths := map[string]bool{}
	sizes := map[string]int64{}
	for _, e := range a.Addons {
		if e.Pack != "" {
			kept += e.Size
		}
		if paths[e.Path] {
			return fmt.Errorf("path %q twice", e.Path)
		}
		paths[e.Path] = true
		if n, ok := sizes[e.SHA256]; ok && n != e.Size {
			return fmt.Errorf("%s: SHA-256 %s recorded with sizes %d and %d", e.Path, e.SHA256, n, e.Size)
		}
		sizes[e.SHA256] = e.Size
		if !filepath.IsLocal(e.Path) || filepath.Clean(e.Path) != e.Path || filepath.Ext(e.Path) != ".node" {
			return fmt.Errorf("path %q", e.Path)
		}
		if !sha256Hex.MatchString(e.SHA256) {
			return fmt.Errorf("%s: SHA-256 %q", e.Path, e.SHA256)
		}
		if e.Size < 0 || e.Size > maxAddonBytes {
			return fmt.Errorf("%s: size %d", e.Path, e.Size)
		}
		if e.Pack != "" && e.Pack != filepath.Join(addonsFolder, e.SHA256+".zst") {
			return fmt.Errorf("%s: pack %q", e.Path, e.Pack)
		}
	}
	if kept > maxKeptBytes {
		return fmt.Errorf("%d bytes of kept addons", kept)
	}
	return nil
}

// forThisMachine refuses a record made for a processor that takes the
// other variant of the addon than this machine's.
func (a *addons) forThisMachine() error {
	if v := machineVariant(); v != a.Variant {
		return fmt.Errorf("%w: it keeps the %s variant of its native addon and this machine's processor takes the %s one; remove it and install it again here", ErrChanged, a.Variant, v)
	}
	return nil
}

// maxKeptBytes bounds what a run inflates (one addon of about 200 MB is
// kept, reached by at most two paths).
const maxKeptBytes = 4 << 30

// packAddons packs the install's native addons in dir (see above). A
// packed addon another install in cache holds already is linked once it
// is shown to inflate to this addon's bytes, else compressed again; the
// copies of every addon in pnpm's store are removed. It says on progress
// what it kept.
func packAddons(dir, cache, store, variant string, progress io.Writer) error {
	if a, err := readAddons(dir); err != nil || a != nil {
		return err
	}
	// Paths inside the install are taken with no link in them, as
	// nativeAddons names them.
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	rec := addons{Variant: variant}
	var before, after int64
	var sums512 []string
	seen := map[string]bool{}
	// First every addon is hashed and the kept ones packed; only once the
	// record is written are the addons themselves emptied.
	for _, p := range nativeAddons(dir) {
		rel, err := filepath.Rel(dir, p)
		if err != nil || !filepath.IsLocal(rel) {
			return fmt.Errorf("the native addon %s is not inside the install %s", p, dir)
		}
		info, err := os.Stat(p)
		if err != nil {
			return err
		}
		sum256, sum512, err := addonSums(p)
		if err != nil {
			return err
		}
		e := addonEntry{Path: rel, SHA256: sum256, Size: info.Size()}
		counted := seen[sum256]
		seen[sum256] = true
		if !counted {
			before += info.Size()
		}
		if keep, why := keepAddon(filepath.Base(p), variant); keep {
			e.Pack = filepath.Join(addonsFolder, sum256+".zst")
			if !counted {
				n, err := packOnce(p, filepath.Join(dir, e.Pack), cache, e)
				if err != nil {
					return err
				}
				after += n
			}
		} else {
			e.LeftOut = why
		}
		rec.Addons = append(rec.Addons, e)
		sums512 = append(sums512, sum512)
	}
	if len(rec.Addons) == 0 {
		return nil
	}
	if err := rec.check(); err != nil {
		return fmt.Errorf("the install's native addons cannot be packed: %w", err)
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := realcode.WriteAtomic(filepath.Join(dir, addonsRecord), append(data, '\n')); err != nil {
		return err
	}
	for i, e := range rec.Addons {
		p := filepath.Join(dir, e.Path)
		if err := dropFromStore(store, sums512[i]); err != nil {
			return err
		}
		// Replaced, never written through: the file may be a link into
		// another install or the store.
		if err := realcode.WriteAtomic(p, nil); err != nil {
			return err
		}
	}
	fmt.Fprintf(progress, "  native addons: %d files, %s, kept as %s (the %s variant, compressed); the others left out\n",
		len(rec.Addons), realcode.HumanBytes(before), realcode.HumanBytes(after), variant)
	return nil
}

// addonSums is the file's SHA-256 (what the install records) and SHA-512
// (what pnpm's store names it by), read once.
func addonSums(path string) (string, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	h256, h512 := sha256.New(), sha512.New()
	if _, err := io.Copy(io.MultiWriter(h256, h512), bufio.NewReaderSize(f, 1<<20)); err != nil {
		return "", "", err
	}
	return hex.EncodeToString(h256.Sum(nil)), hex.EncodeToString(h512.Sum(nil)), nil
}

// packOnce writes to's pack of from (the addon e): a link to another
// install's pack of the same addon where one inflates to e's bytes, else
// from compressed. It returns the pack's size.
func packOnce(from, to, cache string, e addonEntry) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return 0, err
	}
	if err := os.Remove(to); err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	others, _ := filepath.Glob(filepath.Join(cache, "omp@*", addonsFolder, e.SHA256+".zst"))
	sort.Strings(others)
	for _, o := range others {
		// Only a regular file is linked: a link of a symbolic link would
		// be one whose target the install's record of files never sees.
		if info, err := os.Lstat(o); err != nil || !info.Mode().IsRegular() || !packHolds(o, e) {
			continue
		}
		if os.Link(o, to) != nil {
			continue
		}
		if err := syncDir(filepath.Dir(to)); err != nil {
			return 0, err
		}
		info, err := os.Lstat(to)
		if err != nil {
			return 0, err
		}
		if !info.Mode().IsRegular() {
			return 0, fmt.Errorf("the pack %s linked from %s is not a regular file", to, o)
		}
		return info.Size(), nil
	}
	in, err := os.Open(from)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	tmp := to + ".partial"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	enc, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderCRC(true))
	if err == nil {
		_, err = io.Copy(enc, bufio.NewReaderSize(in, 1<<20))
		if cerr := enc.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		// On disk before the addon's other copies are emptied and
		// dropped from the store.
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("packing %s: %w", from, err)
	}
	if err := os.Rename(tmp, to); err != nil {
		return 0, err
	}
	// The folder too, so that the pack's name is on disk with it.
	if err := syncDir(filepath.Dir(to)); err != nil {
		return 0, err
	}
	info, err := os.Stat(to)
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

// syncDir flushes a folder's entries to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// packHolds says whether pack inflates to e's bytes (its size and SHA-256).
func packHolds(pack string, e addonEntry) bool {
	h := sha256.New()
	n, err := inflateTo(pack, h, e.Size)
	return err == nil && n == e.Size && hex.EncodeToString(h.Sum(nil)) == e.SHA256
}

// dropFromStore removes pnpm's copy of an addon from store: the file
// named by its SHA-512, a link of the install's file or a copy pnpm made
// (an install that needs the package again downloads it again).
func dropFromStore(store, sum512 string) error {
	found, _ := filepath.Glob(filepath.Join(store, "v*", "files", sum512[:2], sum512[2:]+"*"))
	for _, f := range found {
		if name := filepath.Base(f); name != sum512[2:] && name != sum512[2:]+"-exec" {
			continue
		}
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// inflated is what a run of a packed install needs: the files to mount
// over the empty ones, their paths (whose libraries become readable),
// and the variant to name to the release.
type inflated struct {
	Over    []realcode.Overlay
	Native  []string
	Variant string
}

// inflateAddons inflates the install's kept addons into folder (made
// here), each checked against its recorded size; nil when the install
// keeps its addons whole.
func inflateAddons(dir, folder string) (*inflated, error) {
	a, err := readAddons(dir)
	if err != nil || a == nil {
		return nil, err
	}
	if err := a.forThisMachine(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(folder, 0o700); err != nil {
		return nil, err
	}
	out := &inflated{Variant: a.Variant}
	done := map[string]string{}
	for _, e := range a.Addons {
		if e.Pack == "" {
			continue
		}
		from, ok := done[e.SHA256]
		if !ok {
			from = filepath.Join(folder, e.SHA256+".node")
			if err := inflateOne(filepath.Join(dir, e.Pack), from, e); err != nil {
				return nil, err
			}
			done[e.SHA256] = from
			out.Native = append(out.Native, from)
		}
		out.Over = append(out.Over, realcode.Overlay{From: from, To: filepath.Join(dir, e.Path)})
	}
	return out, nil
}

// inflateOne writes pack's content to to, refusing one whose size is not
// e's or that fails zstd's own checksum (a pack without one is refused).
// The pack's bytes are held to the install's record of files, as every
// other file of the release is (a SHA-256 of the inflated addon on every
// run would cost more than inflating it).
func inflateOne(pack, to string, e addonEntry) error {
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o500)
	if err != nil {
		return fmt.Errorf("its packed addon %s cannot be inflated: %w", e.Path, err)
	}
	w := bufio.NewWriterSize(out, 1<<20)
	n, err := inflateTo(pack, w, e.Size)
	if err == nil {
		err = w.Flush()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != e.Size {
		err = fmt.Errorf("it inflates to %d bytes, not the %d recorded at install", n, e.Size)
	}
	if err != nil {
		return fmt.Errorf("%w: its packed addon %s: %v; remove it and install it again", ErrChanged, e.Path, err)
	}
	return nil
}

// maxPackWindow bounds the window a pack's frame may ask the decoder to
// hold (the encoder's default writes 8 MiB or less): a frame's header
// otherwise sets what decoding it allocates.
const maxPackWindow = 16 << 20

// inflateTo writes pack's content to w, at most size+1 bytes, and returns
// how many it wrote. A pack that is not a regular file holding exactly one
// zstd frame that ends with a checksum of its content (nothing before or
// after it, no dictionary, a window of at most maxPackWindow), or whose
// checksum fails, is an error.
func inflateTo(pack string, w io.Writer, size int64) (int64, error) {
	in, err := openRegular(pack)
	if err != nil {
		return 0, fmt.Errorf("it cannot be read (%v)", err)
	}
	defer in.Close()
	end, err := oneFrame(in, size)
	if err != nil {
		return 0, err
	}
	// Only the frame oneFrame walked is decoded, whatever the file holds
	// by the time it is read.
	r := bufio.NewReaderSize(io.NewSectionReader(in, 0, end), 1<<20)
	dec, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxPackWindow),
		zstd.WithDecoderMaxMemory(uint64(size)+64<<20))
	if err != nil {
		return 0, err
	}
	defer dec.Close()
	return io.Copy(w, io.LimitReader(dec, size+1))
}

// oneFrame checks that f, read from its start, is one zstd frame with a
// checksum and nothing after it, walking the frame's block headers, and
// returns where it ends. The decoder alone would read on through further
// frames, skippable ones or ones without a checksum, and only the first
// frame's header says whether its content is checked. A frame that gives
// its content's size must give size, and one in a single segment (whose
// window is its content) at most maxPackWindow.
func oneFrame(f *os.File, size int64) (int64, error) {
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	fileSize := info.Size()
	head := make([]byte, zstd.HeaderMaxSize)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	var h zstd.Header
	if h.Decode(head[:n]) != nil || h.Skippable || !h.HasCheckSum {
		return 0, errors.New("it is not a zstd frame with a checksum")
	}
	window := h.WindowSize
	if h.SingleSegment {
		window = h.FrameContentSize
	}
	if h.DictionaryID != 0 || window > maxPackWindow {
		return 0, fmt.Errorf("its zstd frame asks for a dictionary or a window over %d bytes", maxPackWindow)
	}
	if h.HasFCS && h.FrameContentSize != uint64(size) {
		return 0, fmt.Errorf("its zstd frame gives its content as %d bytes, not the %d recorded at install", h.FrameContentSize, size)
	}
	off := int64(h.HeaderSize)
	for {
		var b [3]byte
		if _, err := f.ReadAt(b[:], off); err != nil {
			return 0, errors.New("its zstd frame is cut short")
		}
		v := int64(b[0]) | int64(b[1])<<8 | int64(b[2])<<16
		off += 3
		switch (v >> 1) & 3 {
		case 0, 2: // raw and compressed: the block's size in bytes
			off += v >> 3
		case 1: // one byte repeated
			off++
		default:
			return 0, errors.New("its zstd frame has a reserved block type")
		}
		if off > fileSize {
			return 0, errors.New("its zstd frame is cut short")
		}
		if v&1 == 1 {
			break
		}
	}
	switch off += 4; {
	case off > fileSize:
		return 0, errors.New("its zstd frame is cut short")
	case off < fileSize:
		return 0, fmt.Errorf("it holds %d bytes after its zstd frame", fileSize-off)
	}
	return off, nil
}

// linkWhole makes to a tree of hard links to the install dir's files
// (copies where a link cannot be made), with each file over mounts over
// another in that one's place: the install as it runs, whole.
func linkWhole(dir, to string, over []realcode.Overlay) error {
	if err := realcode.CopyTree(dir, to, 0o755, 0o644, true); err != nil {
		return err
	}
	for _, o := range over {
		dst := rebase(o.To, dir, to)
		if dst == o.To {
			return fmt.Errorf("%s is not inside the install %s", o.To, dir)
		}
		// Its folder, links followed, is inside the tree too.
		parent, err := filepath.EvalSymlinks(filepath.Dir(dst))
		if err != nil {
			return err
		}
		top, err := filepath.EvalSymlinks(to)
		if err != nil {
			return err
		}
		if rel, err := filepath.Rel(top, parent); err != nil || !filepath.IsLocal(rel) && rel != "." {
			return fmt.Errorf("%s leads outside the tree %s", dst, to)
		}
		if err := os.Remove(dst); err != nil {
			return err
		}
		if err := realcode.CopyTree(o.From, dst, 0o755, 0o500, true); err != nil {
			return err
		}
	}
	return nil
}

// WholeTree makes to a tree of the install in dir that runs without a
// sandbox: links to its files, with its packed addons inflated in their
// places (into to+".addons", which the caller removes with to).
func WholeTree(dir, to string) error {
	in, err := inflateAddons(dir, to+".addons")
	if err != nil {
		return err
	}
	var over []realcode.Overlay
	if in != nil {
		over = in.Over
	}
	return linkWhole(dir, to, over)
}

// rebase is p moved from inside from to inside to; p elsewhere is kept.
func rebase(p, from, to string) string {
	if p == from || strings.HasPrefix(p, from+string(filepath.Separator)) {
		return to + p[len(from):]
	}
	return p
}

// rebased is prog running the install at from as a tree at to, with
// nothing mounted over it.
func rebased(prog realcode.Program, from, to string) realcode.Program {
	move := func(list []string) []string {
		out := make([]string, len(list))
		for i, p := range list {
			out[i] = rebase(p, from, to)
		}
		return out
	}
	prog.Runtime = rebase(prog.Runtime, from, to)
	prog.Args = move(prog.Args)
	prog.ReadOnly = move(prog.ReadOnly)
	prog.Env = append([]string(nil), prog.Env...)
	for i, kv := range prog.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			prog.Env[i] = k + "=" + rebase(v, from, to)
		}
	}
	prog.Native = nil
	for _, o := range prog.Over {
		prog.Native = append(prog.Native, rebase(o.To, from, to))
	}
	prog.Over = nil
	return prog
}
