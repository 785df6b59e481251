package realhost

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"time"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/sandbox"
	"github.com/deskcheck/deskcheck/reports"
)

// Hello is the harness's first line, with what the driver adds: how it was
// isolated and, for a local checkout, which commit it is. It is the host
// of the report's real-code section as it is: Name is the family's host
// name, "" for OMP's bun harness, whose hello does not say it.
type Hello = reports.RealCodeHost

// Spec says what to start.
type Spec struct {
	// Root is the package folder of the OMP code (holding src/ and
	// package.json).
	Root string
	// Bun is the bun binary.
	Bun string
	// Source, Commit and Substituted are copied into the hello.
	Source      string
	Commit      string
	Substituted map[string]string
	// Limit bounds the whole process's life; zero means DefaultLimit.
	Limit time.Duration
	// ReadOnly are the folders the harness may read besides the runtime
	// and its libraries: the release (or the checkout).
	ReadOnly []string
	// Native are the release's native addons, whose libraries the
	// sandbox makes readable.
	Native []string
	// Checkout marks a local checkout: arbitrary code, which runs only
	// in the sandbox.
	Checkout bool
	// NoSandbox runs without the sandbox (tests of the fallback; refused
	// for a checkout).
	NoSandbox bool
	// TranspilerCache is a folder of bun's transpiled release modules made
	// at install time; each run starts from a copy in its temporary
	// folder, so that nothing outside it is ever written. "" for none.
	TranspilerCache string
	// AllowChanged runs an installed release whose files differ from those
	// recorded at install; the hello (and every report) lists them.
	AllowChanged bool
	// installed is the install folder whose files are checked before
	// the run; "" for a checkout.
	installed string
	// MaxAnswerBytes bounds what the harness may print in all, its hello
	// and every answer; zero means DefaultMaxAnswerBytes.
	MaxAnswerBytes int64
	// warm makes the run write TranspilerCache itself (the install step).
	warm bool
}

// DefaultMaxAnswerBytes is what a harness may answer in all, unless the
// caller says otherwise: far more than any desk's observations, far less
// than what would exhaust the machine.
const DefaultMaxAnswerBytes = 64 << 20

// ErrAnswerLimit is wrapped by the error of a run whose harness answered
// more than its bound.
var ErrAnswerLimit = errors.New("the harness answered more than the limit")

// DefaultLimit is the time a harness process may live.
const DefaultLimit = 10 * time.Minute

// ForInstalled is the Spec of an installed release.
func ForInstalled(in *Installed) Spec {
	return Spec{
		Root:            filepath.Join(in.Dir, "node_modules", "@oh-my-pi", "pi-coding-agent"),
		Bun:             bunPath(in.Dir),
		Source:          "omp@" + in.Version,
		installed:       in.Dir,
		ReadOnly:        []string{in.Dir},
		Native:          nativeAddons(in.Dir),
		Substituted:     in.Substituted,
		TranspilerCache: filepath.Join(in.Dir, transpilerCache),
	}
}

// transpilerCache is the install's folder of bun's transpiled modules.
const transpilerCache = "transpiler-cache"

// copyDir copies the regular files of from into to; a missing from is no
// error (an install made before there was a cache).
func copyDir(from, to string) error {
	if _, err := os.Stat(from); err != nil {
		return nil
	}
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o600)
	})
}

// ForCheckout is the Spec of a local OMP checkout: dir is its
// packages/coding-agent (or the repository root holding it), with
// dependencies installed by the user. bun is the one named, or the newest
// installed release's, or bun on PATH.
func ForCheckout(dir, cache, bun string) (Spec, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return Spec{}, err
	}
	if _, err := os.Stat(filepath.Join(root, "src", "extensibility", "extensions", "wrapper.ts")); err != nil {
		alt := filepath.Join(root, "packages", "coding-agent")
		if _, err2 := os.Stat(filepath.Join(alt, "src", "extensibility", "extensions", "wrapper.ts")); err2 != nil {
			return Spec{}, fmt.Errorf("%s is not an OMP coding-agent package (no src/extensibility/extensions/wrapper.ts there or in packages/coding-agent)", dir)
		}
		root = alt
	}
	if bun == "" {
		if list, _ := List(cache); len(list) > 0 {
			bun = bunPath(list[len(list)-1].Dir)
		} else if p, err := exec.LookPath("bun"); err == nil {
			bun = p
		} else {
			return Spec{}, errors.New("no bun: install a release (deskcheck-host install omp@V) or put bun on PATH")
		}
	}
	top := checkoutTop(root)
	return Spec{Root: root, Bun: bun, Source: "checkout " + root, Commit: gitCommit(root),
		ReadOnly: []string{top}, Native: append(nativeAddons(top), nativeAddons(root)...), Checkout: true}, nil
}

// nativeAddons are the native modules (*.node) of the @oh-my-pi packages
// installed in dir, and of a pi-natives moved aside by a substitution.
func nativeAddons(dir string) []string {
	var out []string
	for _, pattern := range []string{"node_modules/@oh-my-pi/*/*.node", "node_modules/@oh-my-pi/*/native/*.node", "vendor/pi-natives/native/*.node"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		out = append(out, m...)
	}
	return out
}

// checkoutTop is the folder of the whole checkout: the monorepo holding
// root as packages/coding-agent (its dependencies are installed at its
// top), else root itself. Only that folder becomes readable.
func checkoutTop(root string) string {
	up := filepath.Dir(filepath.Dir(root))
	if filepath.Base(filepath.Dir(root)) == "packages" {
		if _, err := os.Stat(filepath.Join(up, "package.json")); err == nil {
			return up
		}
	}
	return root
}

// gitCommit reads the commit of the git checkout holding dir, without
// running git: .git/HEAD, then the ref it names (loose or packed).
func gitCommit(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		gitDir := filepath.Join(d, ".git")
		if info, err := os.Stat(gitDir); err == nil {
			if !info.IsDir() { // a worktree: "gitdir: PATH"
				data, _ := os.ReadFile(gitDir)
				p, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
				if !ok {
					return ""
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(d, p)
				}
				gitDir = p
			}
			head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
			if err != nil {
				return ""
			}
			h := strings.TrimSpace(string(head))
			ref, ok := strings.CutPrefix(h, "ref: ")
			if !ok {
				return h
			}
			for _, g := range []string{gitDir, commonDir(gitDir)} {
				if data, err := os.ReadFile(filepath.Join(g, ref)); err == nil {
					return strings.TrimSpace(string(data))
				}
				if data, err := os.ReadFile(filepath.Join(g, "packed-refs")); err == nil {
					for _, line := range strings.Split(string(data), "\n") {
						if sha, name, ok := strings.Cut(line, " "); ok && name == ref {
							return sha
						}
					}
				}
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func commonDir(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	p := strings.TrimSpace(string(data))
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return p
}

// Host is one running harness process.
type Host struct {
	Hello Hello
	proc  *sandbox.Proc
	out   *bufio.Reader
	tmp   string
	mu    sync.Mutex
	err   strings.Builder
	ids   int
	// answered counts the bytes the harness has printed; maxAnswer bounds
	// them.
	answered, maxAnswer int64
	// keep is called with the temporary folder after the process ended
	// and before the folder is removed (the install step keeps bun's
	// transpiler cache).
	keep func(tmp string) error
}

// Info is the harness's hello.
func (h *Host) Info() Hello { return h.Hello }

// Start starts the harness in its sandbox and reads its hello line.
func Start(ctx context.Context, spec Spec) (*Host, error) {
	if _, err := os.Stat(spec.Bun); err != nil {
		return nil, fmt.Errorf("no bun at %s: %w", spec.Bun, err)
	}
	// The release runs only as it was installed, unless the user says
	// otherwise.
	var changed []string
	if spec.installed != "" && !spec.warm {
		var err error
		if changed, err = changedFiles(spec.installed); err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Source, err)
		}
		if len(changed) > 0 && !spec.AllowChanged {
			return nil, fmt.Errorf("%s: %w: %d files differ from those recorded at install (%s); install it again (deskcheck-host remove, then install), or run it as it is with -allow-changed-release", spec.Source, ErrChanged, len(changed), summarize(changed))
		}
	}
	tmp, err := os.MkdirTemp("", "deskcheck-host-")
	if err != nil {
		return nil, err
	}
	home := filepath.Join(tmp, "home")
	agent := filepath.Join(tmp, "agent")
	// The harness is deskcheck's own, written afresh for every run (never
	// a stale copy) into the run's temporary folder; bun runs from there.
	harness := filepath.Join(tmp, "harness")
	for _, d := range []string{home, agent} {
		if err := os.Mkdir(d, 0o700); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
	}
	if err := writeHarness(harness); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	cacheEnv := "0"
	if spec.TranspilerCache != "" {
		cacheEnv = filepath.Join(tmp, transpilerCache)
		if err := os.Mkdir(cacheEnv, 0o700); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
		if !spec.warm {
			if err := copyDir(spec.TranspilerCache, cacheEnv); err != nil {
				os.RemoveAll(tmp)
				return nil, err
			}
		}
	}
	box := sandbox.Spec{
		Runtime: spec.Bun,
		// The argv holds paths deskcheck chose, never desk content.
		Args:     []string{"--no-install", filepath.Join(harness, "harness.ts"), "--root", spec.Root},
		ReadOnly: append(append([]string{}, spec.ReadOnly...), harness),
		Native:   spec.Native,
		Temp:     tmp,
		Dir:      harness,
		// An environment built from nothing: no proxy variable, no token,
		// no setting of the user's; only temporary folders.
		Env: []string{
			"HOME=" + home,
			"PI_CODING_AGENT_DIR=" + agent,
			"XDG_CONFIG_HOME=" + home,
			"XDG_CACHE_HOME=" + home,
			"XDG_DATA_HOME=" + home,
			"XDG_STATE_HOME=" + home,
			"TMPDIR=" + tmp,
			"PATH=/nonexistent",
			"BUN_RUNTIME_TRANSPILER_CACHE_PATH=" + cacheEnv,
			"DO_NOT_TRACK=1",
			"NO_COLOR=1",
			"TZ=UTC",
			"LANG=C.UTF-8",
		},
		Require:   spec.Checkout,
		NoSandbox: spec.NoSandbox,
	}
	h := &Host{tmp: tmp, maxAnswer: spec.MaxAnswerBytes}
	if h.maxAnswer <= 0 {
		h.maxAnswer = DefaultMaxAnswerBytes
	}
	box.Limit = spec.Limit
	if box.Limit <= 0 {
		box.Limit = DefaultLimit
	}
	box.Stderr = limitedWriter{&h.err, &h.mu, 64 << 10}
	proc, err := sandbox.Start(ctx, box)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	h.proc = proc
	if spec.warm {
		h.keep = func(tmp string) error {
			return copyDir(filepath.Join(tmp, transpilerCache), spec.TranspilerCache)
		}
	}
	h.out = bufio.NewReaderSize(proc.Stdout, 1<<16)
	line, err := h.readLine()
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("the harness did not start: %w\n%s", err, h.stderr())
	}
	var hello struct {
		Hello *Hello `json:"hello"`
	}
	if err := json.Unmarshal(line, &hello); err != nil || hello.Hello == nil {
		h.Close()
		return nil, fmt.Errorf("the harness's first line is not a hello: %.200s\n%s", line, h.stderr())
	}
	h.Hello = *hello.Hello
	h.Hello.Source, h.Hello.Commit, h.Hello.Substituted = spec.Source, spec.Commit, spec.Substituted
	h.Hello.Isolation, h.Hello.Sandboxed = proc.Isolation, proc.Sandboxed
	h.Hello.Changed = changed
	return h, nil
}

func (h *Host) stderr() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err.String()
}

// maxLine bounds one answer line.
const maxLine = 64 << 20

func (h *Host) readLine() ([]byte, error) {
	var buf []byte
	for {
		part, isPrefix, err := h.out.ReadLine()
		if err != nil {
			return nil, err
		}
		buf = append(buf, part...)
		h.answered += int64(len(part))
		if h.answered > h.maxAnswer {
			h.proc.Kill()
			return nil, fmt.Errorf("%w: more than %d bytes (-max-answer-bytes)", ErrAnswerLimit, h.maxAnswer)
		}
		if len(buf) > maxLine {
			return nil, fmt.Errorf("an answer line of more than %d bytes", maxLine)
		}
		if !isPrefix {
			return buf, nil
		}
	}
}

// Request is one case for the harness.
type Request struct {
	Scenario string
	// Given is the case's given block as written (raw JSON).
	Given string
}

// Answer is the harness's answer to one request.
type Answer struct {
	Observed map[string]any `json:"observed"`
	// NotApplicable says why the release cannot run the case.
	NotApplicable string `json:"notApplicable"`
	Error         string `json:"error"`
	// AbsentTouched names the stand-ins for absent dependency modules
	// (a substitution) the case used; each threw.
	AbsentTouched []string `json:"absentTouched"`
}

// RunAll sends every request and reads the answers, in order. Requests
// are written from a goroutine so that a large desk never deadlocks on
// full pipes.
func (h *Host) RunAll(reqs []Request) ([]Answer, error) {
	base := h.ids
	h.ids += len(reqs)
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(h.proc.Stdin, 1<<16)
		for i, r := range reqs {
			// One line per request: the given block loses its layout
			// whitespace, nothing else (escapes stay as written).
			var given bytes.Buffer
			if err := json.Compact(&given, []byte(r.Given)); err != nil || given.Len() == 0 {
				given.Reset()
				given.WriteString("{}")
			}
			sc, _ := json.Marshal(r.Scenario)
			fmt.Fprintf(w, `{"id":%d,"scenario":%s,"given":%s}`+"\n", base+i, sc, given.Bytes())
		}
		werr <- w.Flush()
	}()
	out := make([]Answer, len(reqs))
	for i := range reqs {
		line, err := h.readLine()
		if err != nil {
			return nil, fmt.Errorf("the harness stopped answering after %d of %d cases: %w\n%s", i, len(reqs), err, h.stderr())
		}
		var a struct {
			ID json.Number `json:"id"`
			Answer
			Observed json.RawMessage `json:"observed"`
		}
		dec := json.NewDecoder(strings.NewReader(string(line)))
		if err := dec.Decode(&a); err != nil {
			return nil, fmt.Errorf("the harness printed a line that is not JSON: %v: %.200s", err, line)
		}
		if a.ID.String() != fmt.Sprint(base+i) {
			return nil, fmt.Errorf("the harness answered request %s where %d was due", a.ID, base+i)
		}
		// Observations are read as JSON.parse reads them: an unpaired
		// surrogate the release wrote as its escape stays one.
		if len(a.Observed) > 0 && string(a.Observed) != "null" {
			v, ok := jsontext.DecodeJS(a.Observed)
			m, isObject := v.(map[string]any)
			if !ok || !isObject {
				return nil, fmt.Errorf("the harness's observations are not a JSON object: %.200s", a.Observed)
			}
			a.Answer.Observed = m
		}
		out[i] = a.Answer
	}
	if err := <-werr; err != nil {
		return nil, err
	}
	return out, nil
}

// Close ends the harness (end of input, then the sandbox is killed) and
// removes its temporary folder.
func (h *Host) Close() error {
	_ = h.proc.Stdin.Close()
	waited := make(chan error, 1)
	go func() { waited <- h.proc.Wait() }()
	var err error
	select {
	case err = <-waited:
	case <-time.After(5 * time.Second):
		h.proc.Kill()
		err = <-waited
	}
	if h.keep != nil {
		if kerr := h.keep(h.tmp); err == nil {
			err = kerr
		}
	}
	if rerr := os.RemoveAll(h.tmp); err == nil {
		err = rerr
	}
	return err
}

// limitedWriter keeps the first n bytes written.
type limitedWriter struct {
	b  *strings.Builder
	mu *sync.Mutex
	n  int
}

func (w limitedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := w.n - w.b.Len(); room > 0 {
		if len(p) > room {
			w.b.Write(p[:room])
		} else {
			w.b.Write(p)
		}
	}
	return len(p), nil
}
