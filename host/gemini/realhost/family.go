package realhost

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/gemini/geminicheck"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

// Family is the Gemini CLI's real code for deskcheck-host: the modelled
// releases of @google/gemini-cli-core, installed by exact version and
// checked against the registry's sha512, each run by its own policy
// engine under node.
var Family = realcode.Family{
	Host:    Host,
	Title:   "the Gemini CLI",
	Package: gemini.Package,
	Releases: func() []string {
		ts, _ := Tarballs()
		return versions(ts)
	},
	Install: func(ctx context.Context, cache, version string, opts realcode.InstallOptions) error {
		return Install(ctx, cache, version, opts.Progress)
	},
	List:   List,
	Remove: Remove,
	Open:   Open,
}

// Open prepares a run of installed release version in temp and starts its
// harness with start: node (the one on PATH) running the harness over the
// release's policy modules, which it may read with the shared
// dependencies; the harness files are read-only, and everything the run
// writes lies in temp. The sandbox shows the run's workspace at
// /workspace and its home at /home/user, as the model has them
// (Command.InSandbox); where bubblewrap cannot be made, nothing runs.
func Open(ctx context.Context, opts realcode.OpenOptions, start realcode.Start) (realcode.Harness, error) {
	cache, version, temp := opts.Cache, opts.Version, opts.Temp
	core := CoreDir(cache, version)
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("node is not on PATH: the Gemini CLI's policy engine runs on node")
	}
	if node, err = filepath.EvalSymlinks(node); err != nil {
		return nil, err
	}
	if node, err = filepath.Abs(node); err != nil {
		return nil, err
	}
	c, err := Prepare(temp, core, node)
	if err != nil {
		return nil, fmt.Errorf("gemini@%s: %w (install it with: deskcheck-host install gemini@%s)", version, err, version)
	}
	dir, env, binds := c.InSandbox()
	p, err := start(ctx, realcode.Program{
		Runtime:  node,
		Args:     c.Args,
		Env:      env,
		Temp:     temp,
		Dir:      dir,
		ReadOnly: []string{installDir(cache, version), depsDir(cache), filepath.Join(temp, "harness")},
		Binds:    binds,
	})
	if errors.Is(err, realcode.ErrNoBind) {
		return nil, fmt.Errorf("%w\nthe release runs only in the sandbox, which shows it the workspace at %s and the home folder at %s, "+
			"the paths deskcheck's model takes them to be: without it a path a case names would mean something else to the release, so nothing was run "+
			"(install bubblewrap, Debian: apt-get install bubblewrap)", err, gemini.Workspace, gemini.Home)
	}
	if err != nil {
		return nil, err
	}
	s, err := NewSession(p.Stdin, p.Stdout)
	if err != nil {
		p.Kill()
		_ = p.Wait()
		return nil, err
	}
	if s.Hello.Release != version {
		p.Kill()
		_ = p.Wait()
		return nil, fmt.Errorf("gemini@%s: the installed package says it is %s", version, s.Hello.Release)
	}
	return &harness{Session: s, proc: p}, nil
}

// harness is a started harness.
type harness struct {
	*Session
	proc *realcode.Proc
}

// Hello names the family and says the release, node's version and the
// harness's adaptations.
func (h *harness) Hello() realcode.Hello {
	return realcode.Hello{Name: Host, Release: h.Session.Hello.Release, Runtime: "node " + h.Session.Hello.Node, Adaptations: h.Session.Hello.Adaptations}
}

// Run answers each case: a policy-check case's given, its policy files as
// TOML text, goes to the release's engine; a case of another scenario is
// not applicable.
func (h *harness) Run(ctx context.Context, cases []realcode.Case) ([]realcode.Answer, error) {
	out := make([]realcode.Answer, len(cases))
	for i, c := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if c.Scenario != geminicheck.PolicyCheck.Name {
			out[i].NotApplicable = fmt.Sprintf("the harness runs %s cases only", geminicheck.PolicyCheck.Name)
			continue
		}
		given, err := geminicheck.HarnessGiven(c.Given)
		if err != nil {
			out[i].Error = "the given block cannot be handed to the engine: " + err.Error()
			continue
		}
		a, err := h.Check(c.ID, given)
		switch {
		case err != nil && a.ID == c.ID && a.Error != "":
			out[i].Error = a.Error
		case err != nil:
			return nil, err
		default:
			out[i].Observed = a.Observed()
		}
	}
	return out, nil
}

// Close ends the harness: its input closes and the process exits.
func (h *harness) Close() error {
	_ = h.proc.Stdin.Close()
	return h.proc.Wait()
}
