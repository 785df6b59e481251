package realhost

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
)

// CacheDir is where releases are installed: $DESKCHECK_CACHE when set,
// else deskcheck/ in the user's cache folder.
func CacheDir() (string, error) {
	if d := os.Getenv("DESKCHECK_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder: %w (set DESKCHECK_CACHE)", err)
	}
	return filepath.Join(d, "deskcheck"), nil
}

// Installed describes one installed release.
type Installed struct {
	Version string `json:"version"`
	Dir     string `json:"dir"`
	// Substituted lists the dependencies installed at another version
	// than the release asks for; empty for an exact install.
	Substituted map[string]string `json:"substituted,omitempty"`
	Bytes       int64             `json:"bytes"`
	InstalledAt time.Time         `json:"installedAt"`
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
	// NPM is the npm program; "" finds npm on PATH.
	NPM string
}

// ErrNeedsSubstitute is wrapped by Install's error for a release whose
// exact dependencies are not published, when Substitute is not set.
var ErrNeedsSubstitute = errors.New("the release cannot be installed exactly as published")

// Install installs release v into cache with npm ci --ignore-scripts from
// the pinned package.json and package-lock.json. It is the only step of
// deskcheck that reaches the network (the npm registry). An install that
// is already complete is left as it is.
func Install(ctx context.Context, cache, v string, opts InstallOptions) (*Installed, error) {
	rel, err := LookupRelease(v)
	if err != nil {
		return nil, err
	}
	if rel.Substitute != "" && !opts.Substitute {
		return nil, fmt.Errorf("omp@%s: %w: %s; install it with -substitute to run it on the nearest published dependencies (every result then says so)", v, ErrNeedsSubstitute, rel.Substitute)
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
				if err := warmCache(ctx, dir, v, in.Substituted, progress); err != nil {
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
			return nil, fmt.Errorf("omp@%s: %w: %d files differ from those recorded at install (%s); remove it and install it again", v, ErrChanged, len(changed), summarize(changed))
		}
		fmt.Fprintf(progress, "  its files are those recorded at install\n")
		return in, nil
	}
	npm := opts.NPM
	if npm == "" {
		if npm, err = exec.LookPath("npm"); err != nil {
			return nil, fmt.Errorf("installing a release needs npm (Debian: apt-get install npm): %w", err)
		}
	}
	// An unfinished install (no marker) is never taken for one: it is
	// removed, and the new one is made in a folder of its own and renamed
	// into place once npm is done.
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
	in, err := installInto(ctx, partial, dir, v, rel, npm, progress)
	if err != nil {
		os.RemoveAll(partial)
		os.RemoveAll(dir)
		return nil, err
	}
	return in, nil
}

// installInto runs npm ci in the folder partial, renames it to dir, warms
// the transpiler cache, records the files' hashes and writes the marker,
// last.
func installInto(ctx context.Context, partial, dir, v string, rel Release, npm string, progress io.Writer) (*Installed, error) {
	if err := writeTree(partial, rel); err != nil {
		return nil, err
	}
	lock, _ := releaseFiles.ReadFile("releases/" + v + "/package-lock.json")
	total := strings.Count(string(lock), `"integrity": "`)
	fmt.Fprintf(progress, "installing omp@%s into %s: %d packages from the npm registry, no install scripts\n", v, dir, total)
	start := time.Now()
	cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--omit=optional", "--no-audit", "--no-fund", "--loglevel=http", "--progress=false")
	cmd.Dir = partial
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var tail []string
	fetched := 0
	tarball := regexp.MustCompile(`GET [0-9]+ \S+\.tgz`)
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		if tarball.MatchString(line) {
			fetched++
			if fetched == total || fetched%10 == 0 {
				fmt.Fprintf(progress, "  %d/%d packages fetched (%s)\n", fetched, total, time.Since(start).Round(time.Second))
			}
			continue
		}
		if strings.Contains(line, "npm error") || strings.Contains(line, "ERR") {
			tail = append(tail, line)
		}
	}
	if fetched < total {
		// The count closes here: npm fetches no tarball its cache holds,
		// and none of an optional package for another platform.
		fmt.Fprintf(progress, "  %d/%d packages fetched (%s); the other %d were in npm's cache or are optional for another platform\n",
			fetched, total, time.Since(start).Round(time.Second), total-fetched)
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("npm ci for omp@%s failed: %v\n%s", v, err, strings.Join(tail, "\n"))
	}
	if err := finishInstall(partial, v); err != nil {
		return nil, err
	}
	if err := os.Rename(partial, dir); err != nil {
		return nil, err
	}
	if err := warmCache(ctx, dir, v, rel.Substituted, progress); err != nil {
		return nil, err
	}
	if err := writeRecord(dir); err != nil {
		return nil, err
	}
	size := dirSize(dir)
	in := &Installed{Version: v, Dir: dir, Substituted: rel.Substituted, Bytes: size, InstalledAt: time.Now().UTC().Truncate(time.Second)}
	data, _ := json.MarshalIndent(in, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, marker), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "installed omp@%s in %s (%s on disk; the hashes of its files recorded)\n", v, time.Since(start).Round(time.Second), humanBytes(size))
	return in, nil
}

// lockRelease takes the install lock of release v in cache (a lock file
// beside the install), waiting for another install or removal of it to
// end; the function returned releases it.
func lockRelease(cache, v string, progress io.Writer) (func(), error) {
	f, err := os.OpenFile(filepath.Join(cache, ".omp@"+v+".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		fmt.Fprintf(progress, "waiting for another install or removal of omp@%s to end\n", v)
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// warmCache runs the harness once with no case, writing bun's transpiler
// cache into the install, which every later run starts from (a copy):
// loading the release then costs about half the CPU. Its hello also shows
// that the install runs.
func warmCache(ctx context.Context, dir, v string, substituted map[string]string, progress io.Writer) error {
	spec := ForInstalled(&Installed{Version: v, Dir: dir, Substituted: substituted})
	spec.warm = true
	h, err := Start(ctx, spec)
	if err != nil {
		return fmt.Errorf("omp@%s is installed but its harness does not start: %w", v, err)
	}
	if err := h.Close(); err != nil {
		return fmt.Errorf("omp@%s: the harness's first run failed: %w", v, err)
	}
	fmt.Fprintf(progress, "  the harness starts: %s %s on bun %s; transpiler cache written\n", h.Hello.Package, h.Hello.Release, h.Hello.Bun)
	return nil
}

// writeTree writes the release's package.json, lockfile and the stub
// package into dir.
func writeTree(dir string, rel Release) error {
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

// finishInstall makes the installed tree runnable: npm ran no install
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

// List returns the installed releases, oldest first.
func List(cache string) ([]*Installed, error) {
	var out []*Installed
	for _, r := range Releases() {
		if in, err := readInstalled(installDir(cache, r.Version)); err == nil {
			out = append(out, in)
		}
	}
	sort.Slice(out, func(i, j int) bool { return versionLess(out[i].Version, out[j].Version) })
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

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	default:
		return fmt.Sprintf("%d kB", n>>10)
	}
}
