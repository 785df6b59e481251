// Package sandbox runs a real-code harness (a runtime such as bun, node or
// python over deskcheck's harness files and a host's release) inside
// bubblewrap: new user, mount, PID, IPC, UTS and network namespaces, a
// read-only view of only the runtime, the libraries it and the release's
// native modules load, the release and the harness files, and one writable
// temporary folder. Nothing started inside outlives the sandbox (a PID
// namespace whose first process dies with its parent), and the time limit
// is enforced from outside by killing the sandbox.
//
// It knows no host family: a family declares its harness as a Spec.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Spec is what a family's harness needs to run.
type Spec struct {
	// Runtime is the runtime binary (bun, node, python).
	Runtime string
	// Args follow the runtime on its command line: paths deskcheck chose,
	// never desk content.
	Args []string
	// ReadOnly are the folders and files the runtime may read besides
	// itself and its libraries: the release, the harness files.
	ReadOnly []string
	// Native are shared objects the release loads (a native addon): the
	// libraries they need become readable too.
	Native []string
	// Temp is the one writable folder (the caller makes it and removes
	// it). The working folder, HOME and TMPDIR are inside it.
	Temp string
	// Dir is the working folder, inside Temp or ReadOnly, or inside a
	// Bind's To (then the folder is seen there, and Start needs
	// bubblewrap).
	Dir string
	// Env is the whole environment (built from nothing by the caller).
	Env []string
	// Limit bounds the sandbox's life; zero means no bound.
	Limit time.Duration
	// Stderr receives the runtime's standard error; nil discards it.
	Stderr io.Writer
	// Probe are the runtime's arguments for a run that only shows the
	// sandbox can be made; nil means --version.
	Probe []string
	// Require refuses to run without bubblewrap; otherwise the runtime
	// runs with what can be had (a new network namespace through unshare
	// when the OS allows one) and Isolation says what is missing.
	Require bool
	// NoSandbox runs without bubblewrap or unshare even where they work
	// (tests of the fallback); with Require it is an error.
	NoSandbox bool
	// Over are files mounted read-only over others, each From (inside
	// Temp or ReadOnly) seen at To (an existing file inside ReadOnly),
	// after every other mount. Only bubblewrap can mount them: where it
	// cannot be made, Start fails with ErrNoOverlay.
	Over []Overlay
	// Placeholders are absolute paths seen inside the sandbox as the
	// null device: there for code that checks a program exists (OMP's
	// bash tool checks its shell), and nothing anything can run or read
	// a byte from. Each must be a clean absolute path outside Temp, the
	// read-only paths, /proc and /dev. Without bubblewrap they are not
	// made (the host's files are seen as they are).
	Placeholders []string
	// Binds are folders of Temp also seen at fixed paths inside the
	// sandbox, writable as Temp is: a harness whose code must see its
	// workspace at one path (/workspace) whatever the run's folder is.
	// Each From is a folder inside Temp (links followed); each To a clean
	// absolute path that hides and stands in nothing else the sandbox
	// shows (Temp, the runtime and its libraries, the read-only paths,
	// /proc, /dev, the placeholders, another To). Only bubblewrap can
	// mount them: where it cannot be made, Start fails with ErrNoBind
	// and runs nothing, since the runtime would see other paths.
	Binds []Bind
}

// Overlay is one file seen in place of another inside the sandbox.
type Overlay struct{ From, To string }

// Bind is one folder of the run's temporary folder (From) also seen at
// another path (To) inside the sandbox.
type Bind struct{ From, To string }

// ErrNoOverlay is wrapped by Start's error when Over is asked for where
// bubblewrap cannot be made.
var ErrNoOverlay = errors.New("only the sandbox (bubblewrap) can mount a file over another")

// ErrNoBind is wrapped by Start's error when Binds are asked for where
// bubblewrap cannot be made: nothing is run.
var ErrNoBind = errors.New("only the sandbox (bubblewrap) can show a folder of the run at a fixed path")

// ErrUnavailable is wrapped by Start's error when Require is set and the
// sandbox cannot be made here.
var ErrUnavailable = errors.New("the sandbox (bubblewrap) cannot be set up here")

// Proc is one running sandbox.
type Proc struct {
	// Isolation says what the sandbox allowed, in a sentence for reports.
	Isolation string
	// Sandboxed is true when bubblewrap holds the process.
	Sandboxed bool
	Stdin     io.WriteCloser
	Stdout    io.ReadCloser
	cmd       *exec.Cmd
	timer     *time.Timer
	stopCtx   func() bool
	waitOnce  sync.Once
	waitErr   error
}

// bwrapPath finds bubblewrap: on PATH, else the Debian location.
func bwrapPath() (string, error) {
	if p, err := exec.LookPath("bwrap"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/bin/bwrap"); err == nil {
		return "/usr/bin/bwrap", nil
	}
	return "", errors.New("bwrap is not installed (Debian: apt-get install bubblewrap)")
}

// probes caches, per runtime, whether the sandbox works here.
var probes sync.Map // runtime → error (nil when it works)

// Check says whether a sandbox for spec's runtime can be made here: it
// runs the runtime with spec.Probe inside one.
func Check(spec Spec) error {
	probeArgs := spec.Probe
	if probeArgs == nil {
		probeArgs = []string{"--version"}
	}
	key := strings.Join(append([]string{spec.Runtime}, probeArgs...), "\x00")
	if v, ok := probes.Load(key); ok {
		if v == nil {
			return nil
		}
		return v.(error)
	}
	err := probe(spec.Runtime, probeArgs)
	if err == nil {
		probes.Store(key, nil)
	} else {
		probes.Store(key, err)
	}
	return err
}

func probe(runtime string, probeArgs []string) error {
	bw, err := bwrapPath()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "deskcheck-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	args, _, err := arguments(Spec{Runtime: runtime, Args: probeArgs, Temp: tmp, Dir: tmp})
	if err != nil {
		return err
	}
	cmd := exec.Command(bw, args...)
	cmd.Env = []string{"PATH=/nonexistent"}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("bwrap failed here (%v: %s)", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// arguments builds bwrap's command line for spec, and the sentence that
// says what it allows.
func arguments(spec Spec) ([]string, string, error) {
	runtime, err := filepath.Abs(spec.Runtime)
	if err != nil {
		return nil, "", err
	}
	libs, err := Libraries(append([]string{runtime}, spec.Native...))
	if err != nil {
		return nil, "", err
	}
	// --as-pid-1: the runtime is the first process of its PID namespace,
	// so bwrap ends only once the kernel has ended everything in it
	// (with an init of bwrap's own, bwrap could end first).
	args := []string{
		"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--as-pid-1", "--cap-drop", "ALL",
		"--hostname", "deskcheck-sandbox",
		"--proc", "/proc", "--dev", "/dev",
	}
	bind := func(p string) { args = append(args, "--ro-bind", p, p) }
	bind(runtime)
	for _, l := range libs {
		bind(l)
	}
	loaderCache := ""
	if _, err := os.Stat("/etc/ld.so.cache"); err == nil {
		bind("/etc/ld.so.cache")
		loaderCache = " and the loader's cache (/etc/ld.so.cache)"
	}
	for _, p := range spec.ReadOnly {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, "", err
		}
		if !within(a, spec.Temp) {
			bind(a)
		}
	}
	args = append(args, "--bind", spec.Temp, spec.Temp)
	// Read-only files inside the writable folder (the harness files)
	// are mounted read-only over it.
	for _, p := range spec.ReadOnly {
		if a, _ := filepath.Abs(p); within(a, spec.Temp) && a != spec.Temp {
			args = append(args, "--ro-bind", a, a)
		}
	}
	binds, err := bindings(spec, libs)
	if err != nil {
		return nil, "", err
	}
	for _, b := range binds {
		args = append(args, "--bind", b.From, b.To)
	}
	for _, p := range spec.Placeholders {
		if err := placeholder(spec, p, libs); err != nil {
			return nil, "", err
		}
		args = append(args, "--ro-bind", "/dev/null", p)
	}
	// Files mounted over others come last, so that the folders they
	// are in are mounted already.
	for _, o := range spec.Over {
		from, to, err := overlay(spec, o)
		if err != nil {
			return nil, "", err
		}
		args = append(args, "--ro-bind", from, to)
	}
	var shown []string
	for _, p := range spec.ReadOnly {
		if a, _ := filepath.Abs(p); within(a, spec.Temp) {
			rel, _ := filepath.Rel(spec.Temp, a)
			shown = append(shown, rel+" in the temporary folder")
		} else {
			shown = append(shown, a)
		}
	}
	args = append(args, "--remount-ro", "/", "--chdir", spec.Dir, "--", runtime)
	args = append(args, spec.Args...)
	placeholders := ""
	if len(spec.Placeholders) > 0 {
		placeholders = "; the null device, which nothing can run, is seen at " + strings.Join(spec.Placeholders, ", ")
	}
	seenAt := ""
	for _, b := range spec.Binds {
		rel, _ := filepath.Rel(spec.Temp, b.From)
		seenAt += fmt.Sprintf(", its folder %s seen at %s", rel, b.To)
	}
	isolation := fmt.Sprintf("sandbox (bubblewrap): new user, mount, PID, IPC, UTS and network namespaces, no network at all, "+
		"no capability; the files visible are the runtime, %d libraries it and the release load%s, /proc and a minimal /dev of the sandbox's own, and read-only: %s%s; "+
		"the one writable folder is the run's temporary folder%s; nothing started inside outlives the run",
		len(libs), loaderCache, strings.Join(shown, ", "), placeholders, seenAt)
	return args, isolation, nil
}

// overlay checks o against spec: From inside Temp or a read-only path, To
// an existing regular file inside a read-only path outside Temp, so that
// nothing the spec does not show becomes visible. Both are checked with
// every symbolic link in them followed, as bubblewrap follows them: From
// is mounted from where its links lead, To at the path the spec gives.
func overlay(spec Spec, o Overlay) (string, string, error) {
	to, err := filepath.Abs(o.To)
	if err != nil {
		return "", "", err
	}
	from, err := filepath.EvalSymlinks(o.From)
	if err != nil {
		return "", "", fmt.Errorf("sandbox: %s, mounted over %s: %w", o.From, to, err)
	}
	realTo, err := filepath.EvalSymlinks(to)
	if err != nil {
		return "", "", fmt.Errorf("sandbox: %s, mounted over, is not a file: %w", to, err)
	}
	temp, err := filepath.EvalSymlinks(spec.Temp)
	if err != nil {
		return "", "", err
	}
	// A read-only path is shown at the path as written and holds what
	// its links lead to.
	type shownPath struct{ written, real string }
	var readOnly []shownPath
	for _, r := range spec.ReadOnly {
		written, err1 := filepath.Abs(r)
		real, err2 := filepath.EvalSymlinks(r)
		if err1 == nil && err2 == nil {
			readOnly = append(readOnly, shownPath{written, real})
		}
	}
	// From is mounted from where its links lead: that must be shown.
	fromShown := within(from, temp)
	// To is mounted over at the path as written: that path must be inside
	// a read-only path as written, and lead inside the same path.
	toShown := false
	for _, r := range readOnly {
		fromShown = fromShown || within(from, r.real)
		toShown = toShown || within(to, r.written) && within(realTo, r.real)
	}
	if !fromShown {
		return "", "", fmt.Errorf("sandbox: %s, mounted over %s, is neither in the temporary folder nor in a read-only one", o.From, to)
	}
	if within(realTo, temp) || within(to, spec.Temp) || !toShown {
		return "", "", fmt.Errorf("sandbox: %s, mounted over, is not in a read-only folder outside the temporary one", to)
	}
	for p, what := range map[string]string{from: "mounted", realTo: "mounted over"} {
		if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
			return "", "", fmt.Errorf("sandbox: %s, %s, is not a file", p, what)
		}
	}
	return from, to, nil
}

// bindings checks spec's Binds: each From a folder inside Temp (links
// followed, as bubblewrap follows them), each To a clean absolute path
// that hides and stands in nothing else the spec shows, and no two To
// inside one another. It returns them with From as bubblewrap mounts it.
func bindings(spec Spec, libs []string) ([]Bind, error) {
	if len(spec.Binds) == 0 {
		return nil, nil
	}
	temp, err := filepath.EvalSymlinks(spec.Temp)
	if err != nil {
		return nil, err
	}
	shown := append(append([]string{spec.Temp, temp, spec.Runtime, "/proc", "/dev", "/etc/ld.so.cache"}, spec.ReadOnly...), libs...)
	shown = append(shown, spec.Placeholders...)
	var out []Bind
	for i, b := range spec.Binds {
		from, err := filepath.EvalSymlinks(b.From)
		if err != nil {
			return nil, fmt.Errorf("sandbox: %s, seen at %s: %w", b.From, b.To, err)
		}
		if info, err := os.Stat(from); err != nil || !info.IsDir() || !within(from, temp) {
			return nil, fmt.Errorf("sandbox: %s, seen at %s, is not a folder in the temporary one", b.From, b.To)
		}
		to := b.To
		if !filepath.IsAbs(to) || filepath.Clean(to) != to || to == "/" {
			return nil, fmt.Errorf("sandbox: %q, where %s is seen, is not a clean absolute path", to, b.From)
		}
		for _, s := range shown {
			a, err := filepath.Abs(s)
			if err != nil {
				return nil, err
			}
			if within(to, a) || within(a, to) {
				return nil, fmt.Errorf("sandbox: %s, where %s is seen, would hide or stand in %s", to, b.From, a)
			}
		}
		for _, o := range spec.Binds[:i] {
			if within(to, o.To) || within(o.To, to) {
				return nil, fmt.Errorf("sandbox: %s and %s, where two folders are seen, overlap", o.To, to)
			}
		}
		out = append(out, Bind{From: from, To: to})
	}
	return out, nil
}

// hostDir is the folder outside the sandbox that spec's Dir is: Dir
// itself, or, for a Dir inside a Bind's To, the same place in its From.
func hostDir(spec Spec) string {
	for _, b := range spec.Binds {
		if within(spec.Dir, b.To) {
			rel, _ := filepath.Rel(b.To, spec.Dir)
			return filepath.Join(b.From, rel)
		}
	}
	return spec.Dir
}

// placeholder checks a path spec shows as the null device: absolute and
// clean, and hiding nothing the spec shows (Temp, the read-only paths, the
// runtime and its libraries) or the sandbox's own /proc and /dev.
func placeholder(spec Spec, p string, libs []string) error {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || p == "/" {
		return fmt.Errorf("sandbox: the placeholder %q is not a clean absolute path", p)
	}
	shown := append(append([]string{spec.Temp, spec.Runtime, "/proc", "/dev", "/etc/ld.so.cache"}, spec.ReadOnly...), libs...)
	for _, b := range spec.Binds {
		shown = append(shown, b.To)
	}
	for _, s := range shown {
		a, err := filepath.Abs(s)
		if err != nil {
			return err
		}
		if within(p, a) || within(a, p) {
			return fmt.Errorf("sandbox: the placeholder %s would hide or stand in %s", p, a)
		}
	}
	return nil
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// Start starts spec's runtime in a sandbox. The caller reads Stdout,
// writes Stdin, and calls Wait (or Kill then Wait); the time limit and
// the end of ctx kill the sandbox.
func Start(ctx context.Context, spec Spec) (*Proc, error) {
	if spec.Temp == "" || spec.Dir == "" {
		return nil, errors.New("sandbox: no temporary folder")
	}
	var argv []string
	p := &Proc{}
	sandboxErr := errors.New("not asked for")
	if !spec.NoSandbox {
		sandboxErr = Check(spec)
	}
	switch {
	case sandboxErr == nil:
		bw, _ := bwrapPath()
		args, isolation, err := arguments(spec)
		if err != nil {
			return nil, err
		}
		argv = append([]string{bw}, args...)
		p.Isolation, p.Sandboxed = isolation, true
	case spec.Require:
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, sandboxErr)
	case len(spec.Binds) > 0:
		return nil, fmt.Errorf("%w: %v", ErrNoBind, sandboxErr)
	case len(spec.Over) > 0:
		return nil, fmt.Errorf("%w: %v", ErrNoOverlay, sandboxErr)
	default:
		argv = append([]string{spec.Runtime}, spec.Args...)
		p.Isolation = fmt.Sprintf("NO SANDBOX (%v): the runtime sees every file the user can read and write, and what it starts may outlive the run", sandboxErr)
		if u, why := netns(spec.Runtime, spec.NoSandbox); u != "" {
			argv = append([]string{u, "-rn", "--"}, argv...)
			p.Isolation += "; new network namespace (unshare -rn): no network at all"
		} else {
			p.Isolation += "; no new network namespace (" + why + "): the OS does not keep it off the network"
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = hostDir(spec)
	cmd.Env = spec.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	// A process group of its own: the time limit and the end of the run
	// kill the whole group (bwrap, and through --die-with-parent the
	// sandbox's first process with its PID namespace). The process dies
	// with deskcheck's (Go never ends the thread that started it: no
	// goroutine here locks one).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var err error
	if p.Stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if p.Stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	cmd.Stderr = spec.Stderr
	p.cmd = cmd
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if spec.Limit > 0 {
		p.timer = time.AfterFunc(spec.Limit, p.Kill)
	}
	p.stopCtx = context.AfterFunc(ctx, p.Kill)
	return p, nil
}

// Kill ends the whole sandbox.
func (p *Proc) Kill() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Wait waits for the sandbox to end; it may be called more than once.
func (p *Proc) Wait() error {
	p.waitOnce.Do(func() {
		p.waitErr = p.cmd.Wait()
		if !p.Sandboxed {
			p.Kill() // anything left in its group
		}
		if p.timer != nil {
			p.timer.Stop()
		}
		if p.stopCtx != nil {
			p.stopCtx()
		}
	})
	return p.waitErr
}

// netnsProbe caches whether unshare -rn works here.
var netnsProbe struct {
	once sync.Once
	path string
	why  string
}

// netns returns the unshare program when a new user and network namespace
// can be made without bubblewrap, else why not.
func netns(runtime string, off bool) (string, string) {
	if off {
		return "", "not asked for"
	}
	netnsProbe.once.Do(func() {
		p, err := exec.LookPath("unshare")
		if err != nil {
			netnsProbe.why = "unshare is not installed"
			return
		}
		probe := exec.Command(p, "-rn", "--", runtime, "--version")
		probe.Env = []string{"PATH=/nonexistent"}
		if out, err := probe.CombinedOutput(); err != nil {
			netnsProbe.why = fmt.Sprintf("unshare -rn failed here (%v: %s)", err, strings.TrimSpace(string(out)))
			return
		}
		netnsProbe.path = p
	})
	return netnsProbe.path, netnsProbe.why
}

// sortedUnique sorts and deduplicates s.
func sortedUnique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
