package realhost

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/internal/sandbox"
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
// sandbox of internal/sandbox: the family's runtime with its harness, the
// release and the harness files read-only, one writable temporary folder
// removed by Close, an environment the family built from nothing, the
// time limit and the bound on what the harness may answer.
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
		proc, err := sandbox.Start(ctx, sandbox.Spec{
			Runtime: p.Runtime, Args: p.Args, ReadOnly: p.ReadOnly, Native: p.Native,
			Temp: p.Temp, Dir: p.Dir, Env: p.Env, Limit: DefaultLimit,
			Stderr: limitedWriter{&f.err, &f.mu, 64 << 10},
		})
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

// Info is the harness's hello.
func (f *FamilyHost) Info() Hello { return f.hello }

// RunAll answers the requests in order.
func (f *FamilyHost) RunAll(reqs []Request) ([]Answer, error) {
	cases := make([]realcode.Case, len(reqs))
	for i, r := range reqs {
		cases[i] = realcode.Case{ID: fmt.Sprint(i), Scenario: r.Scenario, Given: []byte(r.Given)}
	}
	as, err := f.h.Run(f.ctx, cases)
	if err != nil {
		f.mu.Lock()
		defer f.mu.Unlock()
		return nil, fmt.Errorf("the harness stopped answering: %w\n%s", err, strings.TrimSpace(f.err.String()))
	}
	if len(as) != len(reqs) {
		return nil, fmt.Errorf("the harness answered %d of %d cases", len(as), len(reqs))
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
