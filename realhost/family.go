package realhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
	"github.com/deskcheck/deskcheck/pysandbox"
	"github.com/deskcheck/deskcheck/reports"
)

// Hello is what a harness says of the code it loaded, with what the
// driver adds: how it was isolated. It is the host of the report's
// real-code section as it is.
type Hello = reports.RealCodeHost

// DefaultMaxAnswerBytes is what a harness may answer in all, unless the
// caller says otherwise: far more than any desk's observations, far less
// than what would exhaust the machine.
const DefaultMaxAnswerBytes = 64 << 20

// ErrAnswerLimit is wrapped by the error of a run whose harness answered
// more than its bound.
var ErrAnswerLimit = errors.New("the harness answered more than the limit")

// DefaultLimit is the time a harness process may live.
const DefaultLimit = 10 * time.Minute

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

// Bounds are what the driver allows a harness.
type Bounds struct {
	// MaxAnswerBytes bounds what the harness may print in all, its hello
	// and every answer; zero means DefaultMaxAnswerBytes.
	MaxAnswerBytes int64
	// Limit bounds the process's life; zero means DefaultLimit.
	Limit time.Duration
	// NoSandbox runs without the sandbox (tests of the fallback; refused
	// for a program that requires it).
	NoSandbox bool
}

// starter is the sandbox as a family's Start: every program a family
// starts runs in internal/sandbox, as its runtime's kind needs
// (SandboxSpec), within the bounds, its standard error kept in stderr
// (and the family's own writer), its answers bounded. started is called
// with each process started.
func starter(b Bounds, kind realcode.Sandbox, stderr *realcode.Head, started func(*sandbox.Proc)) realcode.Start {
	maxAnswer := b.MaxAnswerBytes
	if maxAnswer <= 0 {
		maxAnswer = DefaultMaxAnswerBytes
	}
	limit := b.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	return func(ctx context.Context, p realcode.Program) (*realcode.Proc, error) {
		var errOut io.Writer = stderr
		if p.Stderr != nil {
			errOut = io.MultiWriter(stderr, p.Stderr)
		}
		p.Stderr = errOut
		spec, err := SandboxSpec(kind, p)
		if err != nil {
			return nil, err
		}
		spec.Limit, spec.NoSandbox = limit, b.NoSandbox
		spec.Placeholders = p.Placeholders
		for _, o := range p.Over {
			spec.Over = append(spec.Over, sandbox.Overlay{From: o.From, To: o.To})
		}
		for _, b := range p.Binds {
			spec.Binds = append(spec.Binds, sandbox.Bind{From: b.From, To: b.To})
		}
		proc, err := sandbox.Start(ctx, spec)
		if errors.Is(err, sandbox.ErrNoOverlay) {
			return nil, fmt.Errorf("%w: %w", realcode.ErrNoOverlay, err)
		}
		if errors.Is(err, sandbox.ErrNoBind) {
			return nil, fmt.Errorf("%w: %w", realcode.ErrNoBind, err)
		}
		if err != nil {
			return nil, err
		}
		if started != nil {
			started(proc)
		}
		return &realcode.Proc{
			Stdin: proc.Stdin, Stdout: &answerLimit{r: proc.Stdout, left: maxAnswer, max: maxAnswer, kill: proc.Kill},
			Isolation: proc.Isolation, Sandboxed: proc.Sandboxed, Kill: proc.Kill, Wait: proc.Wait,
		}, nil
	}
}

// InstallStart is the Start a family's Install runs its harness with:
// the sandbox its runtime's kind needs, within the default bounds.
func InstallStart(kind realcode.Sandbox) realcode.Start {
	return starter(Bounds{}, kind, &realcode.Head{N: 64 << 10}, nil)
}

// FamilyHost is a family's harness (declared through realcode) started by
// the driver in the sandbox, on one installed release or source folder.
type FamilyHost struct {
	host  string
	hello Hello
	h     realcode.Harness
	proc  *sandbox.Proc
	tmp   string
	ctx   context.Context
	err   *realcode.Head
}

// OpenFamily starts a run of fam (an installed release, or a source
// folder: opts) in the sandbox of internal/sandbox: the family's runtime
// with its harness, the release and the harness files read-only, one
// writable temporary folder removed by Close, an environment the family
// built from nothing, the time limit and the bound on what the harness
// may answer. The driver makes opts.Temp.
func OpenFamily(ctx context.Context, fam realcode.Family, opts realcode.OpenOptions, b Bounds) (*FamilyHost, error) {
	tmp, err := os.MkdirTemp("", "deskcheck-host-")
	if err != nil {
		return nil, err
	}
	opts.Temp = tmp
	f := &FamilyHost{host: fam.Host, tmp: tmp, ctx: ctx, err: &realcode.Head{N: 64 << 10}}
	prefix := fam.Host + "@" + opts.Version + ": "
	if opts.Source != "" {
		prefix = ""
	}
	h, err := fam.Open(ctx, opts, starter(b, fam.Sandbox, f.err, func(p *sandbox.Proc) { f.proc = p }))
	if err != nil {
		if f.proc != nil {
			f.proc.Kill()
			_ = f.proc.Wait()
		}
		os.RemoveAll(tmp)
		if msg := strings.TrimSpace(f.err.String()); msg != "" {
			return nil, fmt.Errorf("%s%w\n%s", prefix, err, msg)
		}
		return nil, fmt.Errorf("%s%w", prefix, err)
	}
	if f.proc == nil {
		_ = h.Close()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("%sthe family's harness started no process through the sandbox", prefix)
	}
	f.h = h
	f.hello = h.Hello()
	f.hello.Isolation, f.hello.Sandboxed = f.proc.Isolation, f.proc.Sandboxed
	if f.hello.Package == "" {
		f.hello.Package = fam.Package
	}
	if f.hello.Root == "" {
		f.hello.Root = tmp
	}
	if f.hello.Source == "" {
		f.hello.Source = fam.Host + "@" + opts.Version
	}
	return f, nil
}

// SandboxSpec is the sandbox a family's runtime needs for p: the
// runtime's own (its libraries and p.Native readable; where bubblewrap
// cannot be made, it runs with a warning), or a venv's interpreter's
// (pysandbox: never without bubblewrap).
func SandboxSpec(kind realcode.Sandbox, p realcode.Program) (sandbox.Spec, error) {
	switch kind {
	case realcode.SandboxRuntime:
		return sandbox.Spec{
			Runtime: p.Runtime, Args: p.Args, ReadOnly: p.ReadOnly, Native: p.Native,
			Temp: p.Temp, Dir: p.Dir, Env: p.Env, Stderr: p.Stderr, Require: p.Require,
		}, nil
	case realcode.SandboxPythonVenv:
		return pysandbox.Spec(p)
	}
	return sandbox.Spec{}, fmt.Errorf("no sandbox is known for a runtime of kind %q", kind)
}

// Host is the family's host name.
func (f *FamilyHost) Host() string { return f.host }

// Info is the harness's hello.
func (f *FamilyHost) Info() Hello { return f.hello }

// RunCases answers the cases in order, with the boundary-response counts
// the harness's recorders made, when it makes any.
func (f *FamilyHost) RunCases(cases []realcode.Case) ([]realcode.Answer, error) {
	as, err := f.h.Run(f.ctx, cases)
	if err != nil {
		return nil, fmt.Errorf("the harness stopped answering: %w\n%s", err, strings.TrimSpace(f.err.String()))
	}
	if len(as) != len(cases) {
		return nil, fmt.Errorf("the harness answered %d of %d cases", len(as), len(cases))
	}
	return as, nil
}

// Provenance is what the harness said of its run, or nil.
func (f *FamilyHost) Provenance() json.RawMessage {
	if p, ok := f.h.(realcode.Provenanced); ok {
		return p.Provenance()
	}
	return nil
}

// Request is one case for a harness.
type Request struct {
	Scenario string
	// Given is the case's given block as written (raw JSON).
	Given string
}

// Answer is a harness's answer to one request.
type Answer = realcode.Answer

// RunAll answers the requests in order.
func (f *FamilyHost) RunAll(reqs []Request) ([]Answer, error) {
	cases := make([]realcode.Case, len(reqs))
	for i, r := range reqs {
		cases[i] = realcode.Case{ID: fmt.Sprint(i), Scenario: r.Scenario, Given: []byte(r.Given)}
	}
	return f.RunCases(cases)
}

// Close ends the harness and removes its temporary folder.
func (f *FamilyHost) Close() error {
	err := f.h.Close()
	f.proc.Kill()
	_ = f.proc.Wait()
	if rerr := os.RemoveAll(f.tmp); err == nil {
		err = rerr
	}
	return err
}

// answerLimit fails a read past the bound on what a harness may answer,
// and ends the harness.
type answerLimit struct {
	r         io.Reader
	left, max int64
	kill      func()
}

func (a *answerLimit) Read(p []byte) (int, error) {
	if a.left <= 0 {
		a.kill()
		return 0, fmt.Errorf("%w: more than %d bytes (-max-answer-bytes)", ErrAnswerLimit, a.max)
	}
	if int64(len(p)) > a.left {
		p = p[:a.left]
	}
	n, err := a.r.Read(p)
	a.left -= int64(n)
	return n, err
}
