package realhost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/scenario"
)

// Installed describes one installed release.
type Installed struct {
	Version string `json:"version"`
	Dir     string `json:"dir"`
	// Substituted lists the dependencies installed at another version
	// than the release asks for; empty for an exact install.
	Substituted map[string]string `json:"substituted,omitempty"`
	Bytes       int64             `json:"bytes"`
	InstalledAt time.Time         `json:"installedAt"`
	// PNPM is the version of pnpm that installed it from the store; ""
	// for an install made by npm ci, whose files are its own.
	PNPM string `json:"pnpm,omitempty"`
}

// marker is the file an install writes last: its presence means the
// install finished.
const marker = "deskcheck-install.json"

// installDir is the folder of release v in cache.
func installDir(cache, v string) string { return filepath.Join(cache, "omp@"+v) }

// InstallOptions steer Install.
type InstallOptions struct {
	// Substitute accepts the nearest-dependency substitution for a
	// release that cannot be installed exactly.
	Substitute bool
	// Progress receives one line per step; nil discards them.
	Progress io.Writer
	// Start is the sandbox the install's first run of the harness
	// starts in (it fills bun's transpiler cache).
	Start realcode.Start
	// PNPM is the pnpm program; "" runs pnpm PNPMVersion with npm exec.
	PNPM string
	// Store is the pnpm store to install from and into; "" is the
	// cache's own (StoreDir). It must be on the cache's file system.
	Store string
}

// ErrNeedsSubstitute is realcode's: Install's error for a release whose
// exact dependencies are not published, when Substitute is not set.
var ErrNeedsSubstitute = realcode.ErrNeedsSubstitute

// Install installs release v into cache from the pinned package.json and
// package-lock.json, with pnpm (PNPMVersion) and no install scripts, in
// npm's flat layout: every file a hard link into the cache's store, which
// holds each file of every release once; a release whose packages are in
// the store already downloads and copies nothing. It is the only step of
// deskcheck that reaches the network (the npm registry, for pnpm and the
// packages the store lacks). An install that is already complete is left
// as it is.
func Install(ctx context.Context, cache, v string, opts InstallOptions) (*Installed, error) {
	rel, err := LookupRelease(v)
	if err != nil {
		return nil, err
	}
	if rel.Substitute != "" && !opts.Substitute {
		return nil, fmt.Errorf("%s@%s: %w: %s; install it with -substitute to run it on the nearest published dependencies (every result then says so)", Host, v, ErrNeedsSubstitute, rel.Substitute)
	}
	progress := opts.Progress
	if progress == nil {
		progress = io.Discard
	}
	dir := installDir(cache, v)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockRelease(cache, v, progress)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if in, err := readInstalled(dir); err == nil {
		fmt.Fprintf(progress, "omp@%s is already installed in %s\n", v, dir)
		if _, err := os.Stat(filepath.Join(dir, filesRecord)); err != nil {
			// An install made before installs recorded their files.
			if _, err := os.Stat(filepath.Join(dir, transpilerCache)); err != nil {
				if _, err := firstRun(ctx, dir, v, in.Substituted, opts.Start, true, progress); err != nil {
					return nil, err
				}
			}
			if err := writeRecord(dir); err != nil {
				return nil, err
			}
			fmt.Fprintf(progress, "  recorded the hashes of its files, as they are now; later runs check them\n")
			return in, nil
		}
		changed, err := changedFiles(dir)
		if err != nil {
			return nil, fmt.Errorf("omp@%s: %w", v, err)
		}
		if len(changed) > 0 {
			return nil, fmt.Errorf("omp@%s: %w: %d files differ from those recorded at install (%s); remove it and install it again", v, ErrChanged, len(changed), realcode.Summarize(changed))
		}
		fmt.Fprintf(progress, "  its files are those recorded at install\n")
		a, err := readAddons(dir)
		if err != nil {
			return nil, fmt.Errorf("omp@%s: %w", v, err)
		}
		if a != nil {
			if err := a.forThisMachine(); err != nil {
				return nil, fmt.Errorf("omp@%s: %w", v, err)
			}
		}
		if (a == nil || !fileExists(filepath.Join(dir, absentRecord))) && in.PNPM != "" {
			// An install made before installs packed their addons, or
			// kept what its dependencies lack. Without its marker while
			// it changes, an install cut short is unfinished, and the
			// next install makes it afresh.
			if err := os.Remove(filepath.Join(dir, marker)); err != nil {
				return nil, err
			}
			if err := settle(ctx, dir, cache, storeOf(cache, opts), v, in.Substituted, opts.Start, false, progress); err != nil {
				return nil, fmt.Errorf("%w (omp@%s is now unfinished: install it again)", err, v)
			}
			in.Bytes = realcode.DirSize(dir)
			if err := writeMarker(in); err != nil {
				return nil, err
			}
		}
		if in.PNPM == "" {
			fmt.Fprintf(progress, "  it was installed by npm ci, its files its own: remove it and install it again to share them through the store\n")
		}
		return in, nil
	}
	// An unfinished install (no marker) is never taken for one: it is
	// removed, and the new one is made in a folder of its own and renamed
	// into place once pnpm is done.
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	partial, err := os.MkdirTemp(cache, ".omp@"+v+".partial-")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(partial, 0o755); err != nil {
		os.RemoveAll(partial)
		return nil, err
	}
	in, err := installInto(ctx, partial, dir, cache, v, rel, opts, progress)
	if err != nil {
		os.RemoveAll(partial)
		os.RemoveAll(dir)
		return nil, err
	}
	return in, nil
}

// installInto installs the release in the folder partial with pnpm,
// renames it to dir, warms the transpiler cache, records the files' hashes
// and writes the marker, last.
func installInto(ctx context.Context, partial, dir, cache, v string, rel Release, opts InstallOptions, progress io.Writer) (*Installed, error) {
	if err := writeTree(partial, rel); err != nil {
		return nil, err
	}
	store := storeOf(cache, opts)
	fmt.Fprintf(progress, "installing omp@%s into %s with pnpm %s: the packages the store at %s lacks from the npm registry, the rest hard-linked; no install scripts\n", v, dir, PNPMVersion, store)
	start := time.Now()
	// pnpm import reads the pinned package-lock.json (no resolution of
	// its own); the install takes exactly what it wrote.
	if err := runPNPM(ctx, opts, partial, nil, "import"); err != nil {
		return nil, fmt.Errorf("pnpm import for omp@%s failed: %w", v, err)
	}
	summary := regexp.MustCompile(`Progress: resolved ([0-9]+), reused ([0-9]+), downloaded ([0-9]+), added ([0-9]+), done`)
	downloading := regexp.MustCompile(`^Downloading (\S+?):`)
	seen := map[string]bool{}
	err := runPNPM(ctx, opts, partial, func(line string) {
		if m := downloading.FindStringSubmatch(line); m != nil && !seen[m[1]] {
			seen[m[1]] = true
			fmt.Fprintf(progress, "  downloading %s (%s)\n", m[1], time.Since(start).Round(time.Second))
		}
		if m := summary.FindStringSubmatch(line); m != nil {
			fmt.Fprintf(progress, "  %s packages: %s already in the store, %s downloaded (%s)\n", m[1], m[2], m[3], time.Since(start).Round(time.Second))
		}
	}, "install", "--frozen-lockfile", "--ignore-scripts", "--no-optional", "--reporter=append-only", "--store-dir", store)
	if err != nil {
		return nil, fmt.Errorf("pnpm install for omp@%s failed: %w", v, err)
	}
	if err := finishInstall(partial, v); err != nil {
		return nil, err
	}
	if err := os.Rename(partial, dir); err != nil {
		return nil, err
	}
	if err := settle(ctx, dir, cache, store, v, rel.Substituted, opts.Start, true, progress); err != nil {
		return nil, err
	}
	size := realcode.DirSize(dir)
	in := &Installed{Version: v, Dir: dir, Substituted: rel.Substituted, Bytes: size, InstalledAt: time.Now().UTC().Truncate(time.Second), PNPM: PNPMVersion}
	if err := writeMarker(in); err != nil {
		return nil, err
	}
	fresh, _ := newBytes(dir)
	fmt.Fprintf(progress, "installed omp@%s in %s (%s of files, %s of them new to the cache; the hashes of its files recorded)\n", v, time.Since(start).Round(time.Second), realcode.HumanBytes(size), realcode.HumanBytes(fresh))
	return in, nil
}

// writeMarker writes the marker of a complete install, last.
func writeMarker(in *Installed) error {
	data, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		return err
	}
	return realcode.WriteAtomic(filepath.Join(in.Dir, marker), append(data, '\n'))
}

// lockRelease takes the install lock of release v in cache (a lock file
// beside the install), waiting for another install or removal of it to
// end; the function returned releases it.
func lockRelease(cache, v string, progress io.Writer) (func(), error) {
	return realcode.Lock(filepath.Join(cache, ".omp@"+v+".lock"), func() {
		fmt.Fprintf(progress, "waiting for another install or removal of omp@%s to end\n", v)
	})
}

// firstRun starts the install's harness with no case and says whether it
// ran in the sandbox (its hello also shows that the install runs); warm
// has it write bun's transpiler cache into the install, which every later
// run reads in place: loading the release then costs about half the CPU.
func firstRun(ctx context.Context, dir, v string, substituted map[string]string, start realcode.Start, warm bool, progress io.Writer) (bool, error) {
	if start == nil {
		return false, fmt.Errorf("omp@%s is installed but its harness cannot start: the install was given no sandbox to start it in", v)
	}
	tmp, err := os.MkdirTemp("", "deskcheck-host-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	spec := ForInstalled(&Installed{Version: v, Dir: dir, Substituted: substituted})
	spec.warm = warm
	spec.absentOut = !fileExists(filepath.Join(dir, absentRecord))
	stderr := &realcode.Head{N: 64 << 10}
	h, err := open(ctx, spec, tmp, start, stderr)
	if err != nil {
		return false, fmt.Errorf("omp@%s is installed but its harness does not start: %w\n%s", v, err, stderr)
	}
	if err := h.Close(); err != nil {
		return false, fmt.Errorf("omp@%s: the harness's first run failed: %w", v, err)
	}
	if spec.absentOut {
		data, err := os.ReadFile(filepath.Join(tmp, "agent", absentRecord))
		if err != nil {
			return false, fmt.Errorf("omp@%s: the harness's first run wrote no record of what its dependencies lack: %w", v, err)
		}
		if err := realcode.WriteAtomic(filepath.Join(dir, absentRecord), data); err != nil {
			return false, err
		}
	}
	if !warm {
		return h.proc.Sandboxed, nil
	}
	if err := copyDir(filepath.Join(tmp, transpilerCache), spec.TranspilerCache); err != nil {
		return false, err
	}
	fmt.Fprintf(progress, "  the harness starts: %s %s on bun %s; transpiler cache written\n", h.hello.Package, h.hello.Release, h.hello.Bun)
	return h.proc.Sandboxed, nil
}

// settle makes the install in dir what runs use: its first run (warm
// writes the transpiler cache; every first run keeps what the release's
// dependencies lack), its addons packed where that run was sandboxed, and
// the record of its files, last.
//
// For an install made earlier (not warm), nothing but the record of what
// the dependencies lack may differ from its record after that run.
func settle(ctx context.Context, dir, cache, store, v string, substituted map[string]string, start realcode.Start, warm bool, progress io.Writer) error {
	sandboxed, err := firstRun(ctx, dir, v, substituted, start, warm, progress)
	if err != nil {
		return err
	}
	if !warm {
		changed, err := changedFiles(dir)
		if err != nil {
			return err
		}
		changed = slices.DeleteFunc(changed, func(p string) bool { return p == absentRecord })
		if len(changed) > 0 {
			return fmt.Errorf("omp@%s: %w: its first run changed %d files (%s)", v, ErrChanged, len(changed), realcode.Summarize(changed))
		}
	}
	if err := packIfSandboxed(dir, cache, store, sandboxed, progress); err != nil {
		return err
	}
	return writeRecord(dir)
}

// storeOf is the pnpm store an install uses.
func storeOf(cache string, opts InstallOptions) string {
	if opts.Store != "" {
		return opts.Store
	}
	return StoreDir(cache)
}

// packIfSandboxed packs the install's native addons when its harness ran
// in the sandbox, the one place a packed addon can be mounted; elsewhere
// whole ones stay whole and progress says why.
func packIfSandboxed(dir, cache, store string, sandboxed bool, progress io.Writer) error {
	if !sandboxed {
		if a, err := readAddons(dir); err != nil || a != nil {
			return err
		}
		fmt.Fprintf(progress, "  native addons kept whole: the sandbox (bubblewrap) cannot be made here, and only it can mount a packed addon in its place\n")
		return nil
	}
	return packAddons(dir, cache, store, machineVariant(), progress)
}

// writeTree writes the release's package.json, lockfile, pnpm's settings
// and the stub package into dir.
func writeTree(dir string, rel Release) error {
	pkg, err := releaseFiles.ReadFile("releases/" + rel.Version + "/package.json")
	if err != nil {
		return err
	}
	ws, err := workspaceYAML(pkg)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, workspaceFile), ws); err != nil {
		return err
	}
	files := map[string]string{
		"package.json":      "releases/" + rel.Version + "/package.json",
		"package-lock.json": "releases/" + rel.Version + "/package-lock.json",
	}
	for name, from := range files {
		data, err := releaseFiles.ReadFile(from)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	// The failing stub the package.json's overrides name (file:./absent).
	for _, name := range []string{"index.js", "package.json"} {
		data, err := harnessFiles.ReadFile("harness/absent/" + name)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(dir, "absent", name), data); err != nil {
			return err
		}
	}
	return nil
}

// writeHarness writes the harness files into dir.
func writeHarness(dir string) error {
	return fs.WalkDir(harnessFiles, "harness", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasPrefix(p, "harness/absent/") {
			return nil // the stub package belongs to the install, not the harness
		}
		data, err := harnessFiles.ReadFile(p)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dir, strings.TrimPrefix(p, "harness/")), data)
	})
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// finishInstall makes the installed tree runnable: pnpm ran no install
// script, so bun is not yet executable; and for a release whose native
// addon is of another version than its pi-natives (a substitution),
// pi-natives is moved out of node_modules with the addon's files beside
// it, where its loader accepts them (spec §1 notes).
func finishInstall(dir, v string) error {
	bun := bunPath(dir)
	if err := os.Chmod(bun, 0o755); err != nil {
		return fmt.Errorf("the install has no bun at %s: %w", bun, err)
	}
	natives := filepath.Join(dir, "node_modules", "@oh-my-pi", "pi-natives")
	addon := filepath.Join(dir, "node_modules", "@oh-my-pi", "pi-natives-linux-x64")
	nv, av := packageVersion(natives), packageVersion(addon)
	if nv == "" || av == "" || nv == av {
		return nil
	}
	moved := filepath.Join(dir, "vendor", "pi-natives")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		return err
	}
	if err := os.Rename(natives, moved); err != nil {
		return err
	}
	nodes, _ := filepath.Glob(filepath.Join(addon, "*.node"))
	for _, n := range nodes {
		to := filepath.Join(moved, "native", filepath.Base(n))
		if os.Link(n, to) == nil {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			return err
		}
	}
	rel, _ := filepath.Rel(filepath.Dir(natives), moved)
	return os.Symlink(rel, natives)
}

// packageVersion reads the version of the package in dir, "" when there
// is none.
func packageVersion(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var p struct{ Version string }
	_ = json.Unmarshal(data, &p)
	return p.Version
}

func bunPath(dir string) string {
	return filepath.Join(dir, "node_modules", "@oven", "bun-linux-x64-baseline", "bin", "bun")
}

func readInstalled(dir string) (*Installed, error) {
	data, err := os.ReadFile(filepath.Join(dir, marker))
	if err != nil {
		return nil, err
	}
	var in Installed
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, marker), err)
	}
	in.Dir = dir
	return &in, nil
}

// Lookup returns the installed release v, or says how to install it.
func Lookup(cache, v string) (*Installed, error) {
	if _, err := LookupRelease(v); err != nil {
		return nil, err
	}
	in, err := readInstalled(installDir(cache, v))
	if err != nil {
		hint := ""
		if r, _ := LookupRelease(v); r.Substitute != "" {
			hint = " -substitute"
		}
		return nil, fmt.Errorf("omp@%s is not installed in %s; install it with: deskcheck-host install%s omp@%s", v, cache, hint, v)
	}
	return in, nil
}

// installed returns the installed releases, oldest first.
func installed(cache string) ([]*Installed, error) {
	var out []*Installed
	for _, r := range Releases() {
		if in, err := readInstalled(installDir(cache, r.Version)); err == nil {
			out = append(out, in)
		}
	}
	sort.Slice(out, func(i, j int) bool { return scenario.CompareVersions(out[i].Version, out[j].Version) < 0 })
	return out, nil
}

// Remove deletes the installed release v; removing one that is not
// installed is an error.
func Remove(cache, v string) error {
	if _, err := LookupRelease(v); err != nil {
		return err
	}
	dir := installDir(cache, v)
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("omp@%s is not installed in %s", v, cache)
	}
	unlock, err := lockRelease(cache, v, io.Discard)
	if err != nil {
		return err
	}
	defer unlock()
	return os.RemoveAll(dir)
}
