package realhost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
	"github.com/deskcheck/deskcheck/pysandbox"
)

// FamilyHost is a family's harness (declared through realcode) started by
// the driver in the sandbox, on one installed release.
type FamilyHost struct {
	hello Hello
	h     realcode.Harness
	proc  *sandbox.Proc
	tmp   string
	ctx   context.Context
	mu    sync.Mutex
	err   strings.Builder
}

// OpenFamily starts release version of fam, installed in cache, in the
// sandbox of internal/sandbox the family's runtime needs (fam.Sandbox:
// SandboxSpec): the family's runtime with its harness, the release and
// the harness files read-only, one writable temporary folder removed by
// Close, an environment the family built from nothing, the time limit and
// the bound on what the harness may answer.
func OpenFamily(ctx context.Context, fam realcode.Family, cache, version string, maxAnswer int64) (*FamilyHost, error) {
	if maxAnswer <= 0 {
		maxAnswer = DefaultMaxAnswerBytes
	}
	tmp, err := os.MkdirTemp("", "deskcheck-host-")
	if err != nil {
		return nil, err
	}
	f := &FamilyHost{tmp: tmp, ctx: ctx}
	start := func(ctx context.Context, p realcode.Program) (*realcode.Proc, error) {
		p.Stderr = limitedWriter{&f.err, &f.mu, 64 << 10}
		spec, err := SandboxSpec(fam.Sandbox, p)
		if err != nil {
			return nil, err
		}
		spec.Limit = DefaultLimit
		proc, err := sandbox.Start(ctx, spec)
		if err != nil {
			return nil, err
		}
		f.proc = proc
		return &realcode.Proc{
			Stdin: proc.Stdin, Stdout: &answerLimit{r: proc.Stdout, left: maxAnswer},
			Isolation: proc.Isolation, Sandboxed: proc.Sandboxed, Kill: proc.Kill, Wait: proc.Wait,
		}, nil
	}
	h, err := fam.Open(ctx, cache, version, tmp, start)
	if err != nil {
		f.mu.Lock()
		msg := strings.TrimSpace(f.err.String())
		f.mu.Unlock()
		os.RemoveAll(tmp)
		if msg != "" {
			return nil, fmt.Errorf("%s@%s: %w\n%s", fam.Host, version, err, msg)
		}
		return nil, fmt.Errorf("%s@%s: %w", fam.Host, version, err)
	}
	if f.proc == nil {
		_ = h.Close()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("%s@%s: the family's harness started no process through the sandbox", fam.Host, version)
	}
	f.h = h
	f.hello = Hello{
		Name: fam.Host, Package: fam.Package, Release: h.Release(), Runtime: h.Runtime(),
		Root: tmp, Adaptations: h.Adaptations(), Source: fam.Host + "@" + version,
		Isolation: f.proc.Isolation, Sandboxed: f.proc.Sandboxed,
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
			Temp: p.Temp, Dir: p.Dir, Env: p.Env, Stderr: p.Stderr,
		}, nil
	case realcode.SandboxPythonVenv:
		return pysandbox.Spec(p)
	}
	return sandbox.Spec{}, fmt.Errorf("no sandbox is known for a runtime of kind %q", kind)
}

// Info is the harness's hello.
func (f *FamilyHost) Info() Hello { return f.hello }

// RunCases answers the cases in order, with the boundary-response counts
// the harness's recorders made, when it makes any.
func (f *FamilyHost) RunCases(cases []realcode.Case) ([]realcode.Answer, error) {
	as, err := f.h.Run(f.ctx, cases)
	if err != nil {
		f.mu.Lock()
		defer f.mu.Unlock()
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

// RunAll answers the requests in order.
func (f *FamilyHost) RunAll(reqs []Request) ([]Answer, error) {
	cases := make([]realcode.Case, len(reqs))
	for i, r := range reqs {
		cases[i] = realcode.Case{ID: fmt.Sprint(i), Scenario: r.Scenario, Given: []byte(r.Given)}
	}
	as, err := f.RunCases(cases)
	if err != nil {
		return nil, err
	}
	out := make([]Answer, len(as))
	for i, a := range as {
		out[i] = Answer{Observed: a.Observed, NotApplicable: a.NotApplicable, Error: a.Error}
	}
	return out, nil
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

// answerLimit fails a read past the bound on what a harness may answer.
type answerLimit struct {
	r    io.Reader
	left int64
}

func (a *answerLimit) Read(p []byte) (int, error) {
	if a.left <= 0 {
		return 0, ErrAnswerLimit
	}
	if int64(len(p)) > a.left {
		p = p[:a.left]
	}
	n, err := a.r.Read(p)
	a.left -= int64(n)
	return n, err
}
