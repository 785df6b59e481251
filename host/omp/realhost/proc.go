package realhost

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

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
	// ReadOnly are the folders the harness may read besides the runtime
	// and its libraries: the release (or the checkout).
	ReadOnly []string
	// Native are the release's native addons, whose libraries the
	// sandbox makes readable.
	Native []string
	// Checkout marks a local checkout: arbitrary code, which runs only
	// in the sandbox.
	Checkout bool
	// TranspilerCache is a folder of bun's transpiled release modules made
	// at install time; each run starts from a copy in its temporary
	// folder, so that nothing outside it is ever written. "" for none.
	TranspilerCache string
	// AllowChanged runs an installed release whose files differ from
	// those recorded at install; the hello (and every report) lists them.
	AllowChanged bool
	// installed is the install folder whose files are checked before
	// the run; "" for a checkout.
	installed string
	// warm makes the run start from an empty transpiler cache, which the
	// install step keeps.
	warm bool
	// absentOut has the harness write what the release's dependencies
	// lack into the agent folder, which the install step keeps.
	absentOut bool
}

// absentRecord is the install's record of what the release's sources
// import that its installed dependencies lack (the harness's scan, made
// once by the install's first run): a run of the unchanged release reads
// it instead of scanning the release's sources again.
const absentRecord = "deskcheck-absent.json"

// harnessShell is the shellPath the harness gives the release's settings
// for its bash and write tools (harness.ts).
const harnessShell = "/bin/bash"

// ForInstalled is the Spec of an installed release.
func ForInstalled(in *Installed) Spec {
	return Spec{
		Root:            filepath.Join(in.Dir, "node_modules", "@oh-my-pi", "pi-coding-agent"),
		Bun:             bunPath(in.Dir),
		Source:          Host + "@" + in.Version,
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
	return realcode.CopyTree(from, to, 0o700, 0o600, false)
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
		if list, _ := installed(cache); len(list) > 0 {
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

// fileExists says whether p is a regular file.
func fileExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// nativeAddons are the native modules (*.node) of the @oh-my-pi packages
// installed in dir, and of a pi-natives moved aside by a substitution.
// Each is named once, by its path with no link in it (a pi-natives moved
// aside is also reached through the link left in its place).
func nativeAddons(dir string) []string {
	var out []string
	seen := map[string]bool{}
	for _, pattern := range []string{"node_modules/@oh-my-pi/*/*.node", "node_modules/@oh-my-pi/*/native/*.node", "vendor/pi-natives/native/*.node"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, p := range m {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				p = real
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
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

// harness is one running harness process.
type harness struct {
	hello realcode.Hello
	proc  *realcode.Proc
	out   *bufio.Reader
	ids   int
}

func (h *harness) Hello() realcode.Hello { return h.hello }

// open starts the harness of spec with start in the run's writable
// folder tmp and reads its hello line; what bun writes on standard error
// also goes to stderr (when not nil).
func open(ctx context.Context, spec Spec, tmp string, start realcode.Start, stderr io.Writer) (*harness, error) {
	if _, err := os.Stat(spec.Bun); err != nil {
		return nil, fmt.Errorf("no bun at %s: %w", spec.Bun, err)
	}
	// The release runs only as it was installed, unless the user says
	// otherwise.
	var changed []string
	if spec.installed != "" && !spec.warm {
		var err error
		if changed, err = changedFiles(spec.installed); err != nil {
			return nil, err
		}
		if len(changed) > 0 && !spec.AllowChanged {
			return nil, fmt.Errorf("%w: %d files differ from those recorded at install (%s); install it again (deskcheck-host remove, then install), or run it as it is with -allow-changed-release", ErrChanged, len(changed), realcode.Summarize(changed))
		}
	}
	home := filepath.Join(tmp, "home")
	agent := filepath.Join(tmp, "agent")
	// The harness is deskcheck's own, written afresh for every run (never
	// a stale copy) into the run's temporary folder; bun runs from there.
	harnessDir := filepath.Join(tmp, "harness")
	for _, d := range []string{home, agent} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return nil, err
		}
	}
	if err := writeHarness(harnessDir); err != nil {
		return nil, err
	}
	cacheEnv := "0"
	readOnly := append(append([]string{}, spec.ReadOnly...), harnessDir)
	// A run reads the install's transpiler cache in place, read-only in
	// the sandbox; only the install's warm-up run writes one, into its
	// temporary folder, which the install then keeps.
	if spec.TranspilerCache != "" {
		if spec.warm {
			cacheEnv = filepath.Join(tmp, transpilerCache)
			if err := os.Mkdir(cacheEnv, 0o700); err != nil {
				return nil, err
			}
		} else if _, err := os.Stat(spec.TranspilerCache); err == nil {
			cacheEnv = spec.TranspilerCache
			readOnly = append(readOnly, cacheEnv)
		}
	}
	// A release that keeps its native addon packed has it inflated here
	// and mounted in its place; the release is told the variant kept.
	native, env := spec.Native, []string(nil)
	var over []realcode.Overlay
	if spec.installed != "" {
		in, err := inflateAddons(spec.installed, filepath.Join(tmp, addonsFolder))
		if err != nil {
			return nil, err
		}
		if in != nil {
			native, over = in.Native, in.Over
			readOnly = append(readOnly, filepath.Join(tmp, addonsFolder))
			env = append(env, variantVar+"="+in.Variant)
		}
	}
	args := []string{"--no-install", filepath.Join(harnessDir, "harness.ts"), "--root", spec.Root}
	if spec.installed != "" && len(changed) == 0 {
		if p := filepath.Join(spec.installed, absentRecord); fileExists(p) {
			args = append(args, "--absent", p)
		}
	}
	if spec.absentOut {
		args = append(args, "--absent-out")
	}
	prog := realcode.Program{
		Runtime: spec.Bun,
		// The argv holds paths deskcheck chose, never desk content.
		Args:     args,
		ReadOnly: readOnly,
		Native:   native,
		Over:     over,
		// The release's bash tool refuses to be made when the shell its
		// settings name (harnessShell) does not exist; the sandbox shows
		// it as the null device, which nothing can run.
		Placeholders: []string{harnessShell},
		Temp:         tmp,
		Dir:          harnessDir,
		// An environment built from nothing: no proxy variable, no token,
		// no setting of the user's; only temporary folders.
		Env: append([]string{
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
		}, env...),
		Stderr:  stderr,
		Require: spec.Checkout,
	}
	proc, err := start(ctx, prog)
	if errors.Is(err, realcode.ErrNoOverlay) {
		// Without the sandbox nothing can be mounted: the release runs
		// from a tree of links to its files in the run's folder, with its
		// inflated addon in place.
		whole := filepath.Join(tmp, "release")
		if err := linkWhole(spec.installed, whole, over); err != nil {
			return nil, err
		}
		moved := rebased(prog, spec.installed, whole)
		// Where the tree had to copy rather than link, the runtime is
		// made runnable again.
		if info, err := os.Stat(moved.Runtime); err != nil {
			return nil, err
		} else if info.Mode().Perm()&0o100 == 0 {
			if err := os.Chmod(moved.Runtime, 0o755); err != nil {
				return nil, err
			}
		}
		proc, err = start(ctx, moved)
	}
	if err != nil {
		return nil, err
	}
	h := &harness{proc: proc, out: bufio.NewReaderSize(proc.Stdout, 1<<16)}
	line, err := h.readLine()
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("the harness did not start: %w", err)
	}
	var hello struct {
		Hello *realcode.Hello `json:"hello"`
	}
	if err := json.Unmarshal(line, &hello); err != nil || hello.Hello == nil {
		h.Close()
		return nil, fmt.Errorf("the harness's first line is not a hello: %.200s", line)
	}
	h.hello = *hello.Hello
	h.hello.Source, h.hello.Commit, h.hello.Substituted = spec.Source, spec.Commit, spec.Substituted
	h.hello.Changed = changed
	return h, nil
}

// maxLine bounds one answer line.
const maxLine = 64 << 20

func (h *harness) readLine() ([]byte, error) {
	var buf []byte
	for {
		// ReadSlice, unlike ReadLine, gives a read's error with the part
		// of a line before it (the driver's bound on answers), never a
		// part as if it were the whole line.
		part, err := h.out.ReadSlice('\n')
		buf = append(buf, part...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("an answer line of more than %d bytes", maxLine)
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r")), nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

// Run sends every case and reads the answers, in order. Cases are
// written from a goroutine so that a large desk never deadlocks on full
// pipes.
func (h *harness) Run(ctx context.Context, cases []realcode.Case) ([]realcode.Answer, error) {
	base := h.ids
	h.ids += len(cases)
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(h.proc.Stdin, 1<<16)
		for i, c := range cases {
			// One line per case: the given block loses its layout
			// whitespace, nothing else (escapes stay as written).
			var given bytes.Buffer
			if err := json.Compact(&given, c.Given); err != nil || given.Len() == 0 {
				given.Reset()
				given.WriteString("{}")
			}
			sc, _ := json.Marshal(c.Scenario)
			fmt.Fprintf(w, `{"id":%d,"scenario":%s,"given":%s}`+"\n", base+i, sc, given.Bytes())
		}
		werr <- w.Flush()
	}()
	out := make([]realcode.Answer, len(cases))
	for i := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, err := h.readLine()
		if err != nil {
			return nil, fmt.Errorf("after %d of %d cases: %w", i, len(cases), err)
		}
		var a struct {
			ID            json.Number     `json:"id"`
			Observed      json.RawMessage `json:"observed"`
			NotApplicable string          `json:"notApplicable"`
			Inexpressible bool            `json:"inexpressible"`
			Error         string          `json:"error"`
			AbsentTouched []string        `json:"absentTouched"`
		}
		dec := json.NewDecoder(strings.NewReader(string(line)))
		if err := dec.Decode(&a); err != nil {
			return nil, fmt.Errorf("the harness printed a line that is not JSON: %v: %.200s", err, line)
		}
		if a.ID.String() != fmt.Sprint(base+i) {
			return nil, fmt.Errorf("the harness answered request %s where %d was due", a.ID, base+i)
		}
		out[i] = realcode.Answer{NotApplicable: a.NotApplicable, Inexpressible: a.Inexpressible && a.NotApplicable != "", Error: a.Error, AbsentTouched: a.AbsentTouched}
		// Observations are read as JSON.parse reads them: an unpaired
		// surrogate the release wrote as its escape stays one.
		if len(a.Observed) > 0 && string(a.Observed) != "null" {
			v, ok := jsontext.DecodeJS(a.Observed)
			m, isObject := v.(map[string]any)
			if !ok || !isObject {
				return nil, fmt.Errorf("the harness's observations are not a JSON object: %.200s", a.Observed)
			}
			out[i].Observed = m
		}
	}
	if err := <-werr; err != nil {
		return nil, err
	}
	return out, nil
}

// Close ends the harness: end of input, then, when it has not exited
// within 5 seconds, the sandbox is killed.
func (h *harness) Close() error {
	_ = h.proc.Stdin.Close()
	waited := make(chan error, 1)
	go func() { waited <- h.proc.Wait() }()
	select {
	case err := <-waited:
		return err
	case <-time.After(5 * time.Second):
		h.proc.Kill()
		return <-waited
	}
}
