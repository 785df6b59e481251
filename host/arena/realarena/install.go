package realarena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/deskcheck/deskcheck/internal/realcode"
)

// Installed is what an install wrote beside an adapter's venv
// (installed.json).
type Installed struct {
	Adapter     string `json:"adapter"`
	Python      string `json:"python"`
	PythonPath  string `json:"pythonPath"`
	Pip         string `json:"pip"`
	Lock        string `json:"lock"`
	Packages    int    `json:"packages"`
	Bytes       int64  `json:"bytes"`
	InstalledAt string `json:"installedAt"`
	// Downloaded and Cached count the wheels pip downloaded and those it
	// took from the wheel cache.
	Downloaded int `json:"downloaded"`
	Cached     int `json:"cached"`
	// Kept is true when Install found the venv installed from the same
	// lock and left it as it was.
	Kept bool `json:"-"`
}

// venvDir is where adapter's venv lives under cache.
func venvDir(cache, adapter string) string { return filepath.Join(cache, "arena", adapter, "venv") }

// wheelsDir is the wheel cache under cache, which every adapter's install
// shares: pip downloads into it the wheels of a lock it lacks, and
// installs the venv from it alone, each wheel checked against the lock's
// hash; a wheel one install downloaded is not downloaded by the next.
func wheelsDir(cache string) string { return filepath.Join(cache, "arena", "wheels") }

// Install makes adapter's venv under cache from its hash-pinned lock: the
// only step that reaches the network (the Python package index). python is
// the interpreter to build it with ("" for python3 on PATH); it must be
// CPython 3.10 or newer. Wheels only: no source build can run.
func Install(ctx context.Context, cache, adapter, python string) (*Installed, error) {
	known := false
	for _, a := range Adapters {
		known = known || a == adapter
	}
	if !known {
		return nil, fmt.Errorf("unknown adapter %q; the adapters are %s", adapter, strings.Join(Adapters, ", "))
	}
	if python == "" {
		p, err := exec.LookPath("python3")
		if err != nil {
			return nil, errors.New("no python3 on PATH (Debian: apt-get install python3 python3-venv), or name one with -python")
		}
		python = p
	}
	out, err := exec.CommandContext(ctx, python, "-c", "import platform,sys; print(platform.python_implementation(), '%d.%d.%d' % sys.version_info[:3])").Output()
	if err != nil {
		return nil, fmt.Errorf("%s does not run: %v", python, err)
	}
	impl, version, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if impl != "CPython" || !atLeast(version, 3, 10) {
		return nil, fmt.Errorf("%s is %s %s; the adapters need CPython 3.10 or newer", python, impl, version)
	}
	lock, err := File(adapter + "/requirements.lock")
	if err != nil {
		return nil, err
	}
	// A venv installed from this lock is kept as it is.
	if in, err := Lookup(cache, adapter); err == nil && in.Lock == sha(lock) {
		if _, err := os.Stat(filepath.Join(venvDir(cache, adapter), "bin", "python")); err == nil {
			in.Kept = true
			return in, nil
		}
	}
	dir := filepath.Dir(venvDir(cache, adapter))
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lockPath := filepath.Join(dir, "requirements.lock")
	if err := os.WriteFile(lockPath, lock, 0o644); err != nil {
		return nil, err
	}
	venv := venvDir(cache, adapter)
	if out, err := exec.CommandContext(ctx, python, "-m", "venv", venv).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("python -m venv: %v\n%s (Debian: apt-get install python3-venv)", err, out)
	}
	py := filepath.Join(venv, "bin", "python")
	// The wheels go into the wheel cache first, each downloaded only
	// when the cache lacks it and checked against the lock's hashes;
	// the venv is then installed from the cache alone.
	// Installs of several adapters at once take turns at the cache, so
	// that none installs a wheel another is still writing.
	unlock, err := lockWheels(cache)
	if err != nil {
		return nil, err
	}
	defer unlock()
	download := exec.CommandContext(ctx, py, "-m", "pip", "download", "--no-deps", "--require-hashes", "--only-binary=:all:",
		"--no-input", "--disable-pip-version-check", "-d", wheelsDir(cache), "-r", lockPath)
	out, err = download.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pip download: %v\n%s", err, out)
	}
	downloaded, cached := pipFetches(out)
	pip := exec.CommandContext(ctx, py, "-m", "pip", "install", "--no-index", "--find-links", wheelsDir(cache), "--no-deps", "--require-hashes", "--only-binary=:all:",
		"--no-input", "--disable-pip-version-check", "-r", lockPath)
	if out, err := pip.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pip install: %v\n%s", err, out)
	}
	pipVersion, _ := exec.CommandContext(ctx, py, "-m", "pip", "--version").Output()
	in := &Installed{
		Adapter: adapter, Python: version, PythonPath: python, Pip: strings.TrimSpace(string(pipVersion)),
		Lock: sha(lock), Packages: len(lockPins(lock)), InstalledAt: time.Now().UTC().Format(time.RFC3339),
		Downloaded: downloaded, Cached: cached,
	}
	in.Bytes = realcode.DirSize(venv)
	b, _ := json.MarshalIndent(in, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "installed.json"), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	return in, nil
}

// checkInstalled refuses a venv installed from another lock than the one
// this build ships.
func checkInstalled(venv, adapter string) error {
	b, err := os.ReadFile(filepath.Join(filepath.Dir(venv), "installed.json"))
	if err != nil {
		return nil // a venv made by hand (DESKCHECK_ARENA_VENVS): the hello's packages are checked
	}
	var in Installed
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("%s: %v; run deskcheck-host install arena:%s again", filepath.Join(filepath.Dir(venv), "installed.json"), err, adapter)
	}
	lock, err := File(adapter + "/requirements.lock")
	if err != nil {
		return err
	}
	if in.Lock != sha(lock) {
		return errors.New("the " + adapter + " adapter was installed from another lock; run deskcheck-host install arena:" + adapter + " again")
	}
	return nil
}

// lockWheels waits for the wheel cache's lock (an flock on
// arena/wheels.lock in the cache folder) and returns its release.
func lockWheels(cache string) (func(), error) {
	if err := os.MkdirAll(filepath.Join(cache, "arena"), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(cache, "arena", "wheels.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("the wheel cache's lock: %w", err)
	}
	return func() { f.Close() }, nil
}

// pipFetches counts the wheels pip download's output says it saved and
// those it found in the folder already.
func pipFetches(out []byte) (downloaded, cached int) {
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Saved "):
			downloaded++
		case strings.HasPrefix(line, "File was already downloaded "):
			cached++
		}
	}
	return downloaded, cached
}

func atLeast(version string, major, minor int) bool {
	parts := strings.Split(version, ".")
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

// Lookup reads what the install of adapter under cache recorded.
func Lookup(cache, adapter string) (*Installed, error) {
	b, err := os.ReadFile(filepath.Join(filepath.Dir(venvDir(cache, adapter)), "installed.json"))
	if err != nil {
		return nil, fmt.Errorf("the %s adapter is not installed in %s", adapter, cache)
	}
	var in Installed
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("the %s adapter's install record: %v", adapter, err)
	}
	return &in, nil
}

// Remove removes adapter's venv from cache.
func Remove(cache, adapter string) error {
	dir := filepath.Dir(venvDir(cache, adapter))
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("the %s adapter is not installed in %s", adapter, cache)
	}
	return os.RemoveAll(dir)
}
