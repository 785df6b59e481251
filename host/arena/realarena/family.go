package realarena

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/host/arena"
	"github.com/deskcheck/deskcheck/host/arena/arenacheck"
	"github.com/deskcheck/deskcheck/internal/realcode"
	"github.com/deskcheck/deskcheck/recorders"
)

// Family is the arena's real code for deskcheck-host: its adapters, the
// host's named releases NAME@VERSION, each a venv installed from its
// hash-pinned lock and run on its real Python framework by the driver, in
// the sandbox a venv's interpreter needs. The bare host name selects
// every installed adapter; an adapter is also named arena@NAME,
// arena:NAME, NAME or NAME@VERSION.
var Family = realcode.Family{
	Host:     arenacheck.Family.Host.Name,
	Title:    "the arena's frameworks",
	Package:  "arena adapter",
	Releases: releases,
	Install:  install,
	List:     list,
	Remove: func(cache, version string) error {
		name, _, _ := strings.Cut(version, "@")
		return Remove(cache, name)
	},
	Open:    open,
	Faults:  faultNames,
	Sandbox: realcode.SandboxPythonVenv,
	Every:   true,
	Resolve: resolve,
	Shared:  shared,
}

// faultNames are the adapters' faults (arena_common.py), named as the
// reference adapter's model faults are.
func faultNames() []string {
	var out []string
	for _, f := range arena.FaultList {
		out = append(out, f.Name)
	}
	return out
}

// releases are the adapters as NAME@VERSION, in report order.
func releases() []string {
	var out []string
	for _, a := range arena.Adapters {
		out = append(out, a.Name()+"@"+a.Version())
	}
	return out
}

// resolve reads arena, arena@NAME[@VERSION], arena:NAME, NAME and
// NAME@VERSION.
func resolve(s string) (string, bool, error) {
	host := arenacheck.Family.Host.Name
	if s == host {
		return "", true, nil
	}
	rest := s
	switch {
	case strings.HasPrefix(s, host+"@"):
		rest = strings.TrimPrefix(s, host+"@")
	case strings.HasPrefix(s, host+":"):
		rest = strings.TrimPrefix(s, host+":")
	}
	name, version, hasVersion := strings.Cut(rest, "@")
	a, ok := arena.AdapterNamed(name)
	if !ok {
		if rest != s {
			return "", true, fmt.Errorf("%s: unknown adapter %q; the adapters are %s", s, name, strings.Join(Adapters, ", "))
		}
		return "", false, nil
	}
	if hasVersion && version != a.Version() {
		return "", true, fmt.Errorf("%s: the %s adapter pins %s", s, name, a.Framework())
	}
	return a.Name() + "@" + a.Version(), true, nil
}

// adapterOf is the adapter a release NAME@VERSION names.
func adapterOf(version string) (arena.Adapter, error) {
	v, ok, err := resolve(version)
	if err == nil && (!ok || v == "") {
		err = fmt.Errorf("%q is not an arena adapter; the adapters are %s", version, strings.Join(releases(), ", "))
	}
	if err != nil {
		return 0, err
	}
	name, _, _ := strings.Cut(v, "@")
	a, _ := arena.AdapterNamed(name)
	return a, nil
}

// install installs one adapter, saying so on progress.
func install(ctx context.Context, cache, version string, opts realcode.InstallOptions) error {
	progress := opts.Progress
	if progress == nil {
		progress = io.Discard
	}
	a, err := adapterOf(version)
	if err != nil {
		return err
	}
	name := a.Name()
	fmt.Fprintf(progress, "%s: %s from its hash-pinned lock (pip, wheels only, through the wheel cache %s)\n", name, a.Framework(), wheelsDir(cache))
	in, err := Install(ctx, cache, name, "")
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if in.Kept {
		fmt.Fprintf(progress, "%s: already installed from this lock (%d packages on Python %s)\n", name, in.Packages, in.Python)
		return nil
	}
	fmt.Fprintf(progress, "%s: installed %d packages on Python %s (%d MB; %d downloaded, %d from the wheel cache)\n", name, in.Packages, in.Python, in.Bytes>>20, in.Downloaded, in.Cached)
	return nil
}

// list returns the installed adapters, in report order.
func list(cache string) ([]realcode.Installed, error) {
	var out []realcode.Installed
	for _, a := range arena.Adapters {
		in, err := Lookup(cache, a.Name())
		if err != nil {
			continue
		}
		at, _ := time.Parse(time.RFC3339, in.InstalledAt)
		out = append(out, realcode.Installed{
			Version: a.Name() + "@" + a.Version(), Dir: filepath.Dir(venvDir(cache, a.Name())),
			Bytes: in.Bytes, Own: in.Bytes, InstalledAt: at, Note: "Python " + in.Python,
		})
	}
	return out, nil
}

// shared says what the wheel cache holds; "" when there is none.
func shared(cache string) (string, error) {
	dir := wheelsDir(cache)
	if _, err := os.Stat(dir); err != nil {
		return "", nil
	}
	n := realcode.DirSize(dir)
	return fmt.Sprintf("the wheel cache %s holds %d MB, shared by every adapter's install", dir, n>>20), nil
}

// open starts the installed adapter opts.Version names in the run folder
// opts.Temp, through start (the driver's sandbox), and reads its hello.
// The arena runs no source folder.
func open(ctx context.Context, opts realcode.OpenOptions, start realcode.Start) (realcode.Harness, error) {
	if opts.Source != "" {
		return nil, realcode.BadSource(fmt.Errorf("%s: the arena's adapters run installed only", opts.Source))
	}
	cache, temp := opts.Cache, opts.Temp
	a, err := adapterOf(opts.Version)
	if err != nil {
		return nil, err
	}
	py, err := interpreter(venvDir(cache, a.Name()), a.Name())
	if err != nil {
		return nil, err
	}
	if opts.Fault != "" && !slices.Contains(faultNames(), opts.Fault) {
		return nil, fmt.Errorf("no adapter fault %q; the faults are %s", opts.Fault, strings.Join(faultNames(), ", "))
	}
	cfg := Config{Adapter: a.Name(), Python: py, Dir: temp, Fault: opts.Fault, Start: func(ctx context.Context, c Command) (*Started, error) {
		p, err := start(ctx, realcode.Program{Runtime: c.Python, Args: c.Args, Env: c.Env, Temp: temp, Dir: c.Dir, ReadOnly: c.ReadOnly, Stderr: c.Stderr})
		if err != nil {
			return nil, err
		}
		return &Started{Stdin: p.Stdin, Stdout: p.Stdout, Kill: p.Kill, Wait: p.Wait, Isolation: p.Isolation}, nil
	}}
	p, err := StartProcess(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &harness{p: p, adapter: a}, nil
}

// harness is a started adapter, answering arena cases from the
// recorders' records.
type harness struct {
	p       *Process
	adapter arena.Adapter
	cases   []Case
	records []*recorders.Record
	prov    json.RawMessage
}

// Hello names the adapter's release and its Python, and what the adapter
// reported of its framework.
func (h *harness) Hello() realcode.Hello {
	return realcode.Hello{
		Name: arenacheck.Family.Host.Name, Release: h.adapter.Name() + "@" + h.adapter.Version(),
		Runtime: h.p.Hello.Implementation + " " + h.p.Hello.Python, Adaptations: h.adaptations(),
	}
}

// adaptations are what the adapter reported of its framework: the HTTP
// library its clients use, and the deprecated interfaces it calls.
func (h *harness) adaptations() []string {
	out := []string{h.adapter.Framework() + " through the adapter " + ScriptName(h.adapter.Name()) + " " + h.p.Hello.AdapterVersion}
	if h.p.Hello.HTTPLibrary != "" {
		out = append(out, "HTTP library: "+h.p.Hello.HTTPLibrary)
	}
	for _, d := range h.p.Hello.Deprecated {
		out = append(out, "deprecated, called with its warning silenced: "+d)
	}
	return out
}

// Run runs the arena cases as items, one after another in the adapter
// process, and answers each with what the recorders saw (every expected
// key, whether or not the adapter finished the item) and its
// boundary-response counts; a case of another scenario is not applicable.
func (h *harness) Run(ctx context.Context, cases []realcode.Case) ([]realcode.Answer, error) {
	out := make([]realcode.Answer, len(cases))
	var items []recorders.Item
	var idx []int
	var run []Case
	for i, rc := range cases {
		if rc.Scenario != arenacheck.Arena.Name {
			out[i].NotApplicable = "the adapters run " + arenacheck.Arena.Name + " cases only"
			continue
		}
		c, err := caseOf(rc)
		if err != nil {
			out[i].Error = err.Error()
			continue
		}
		items = append(items, recorders.Item{ID: c.ID, Prompt: "deskcheck arena item " + c.ID, Turns: c.Turns})
		idx = append(idx, i)
		run = append(run, c)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	recs, err := h.p.Items(items)
	if err != nil {
		return nil, err
	}
	if strays := h.p.rec.Session.Strays(); len(strays) > 0 {
		return nil, fmt.Errorf("the adapter sent %d requests while no item was open (first: %s)", len(strays), strays[0].Endpoint)
	}
	for j, rec := range recs {
		real := arena.Result{Record: rec, Observation: recorders.Observe(rec)}
		decisions, effects := run[j].decisions()
		out[idx[j]].Observed = arenacheck.Observed(real.Observation)
		out[idx[j]].Boundary = arenacheck.Boundary(decisions, effects, real)
	}
	h.cases = append(h.cases, run...)
	h.records = append(h.records, recs...)
	res := &Result{Hello: h.p.Hello, Records: h.records, Isolation: h.p.Isolation}
	prov, err := provenance(h.p.cfg, res, h.cases)
	if err != nil {
		return nil, err
	}
	if h.prov, err = json.Marshal(prov); err != nil {
		return nil, err
	}
	return out, nil
}

// Provenance is the run's provenance (contract, run id, packages,
// settings, what the gateway saw on the wire, the network).
func (h *harness) Provenance() json.RawMessage { return h.prov }

// Close ends the adapter process and its recorders.
func (h *harness) Close() error {
	h.p.End()
	h.p.Close()
	return nil
}

// caseOf reads an arena case for a run: its turns from the given block,
// its expected block for the dimensions' denominators.
func caseOf(rc realcode.Case) (Case, error) {
	var given struct {
		Turns [][]struct {
			Action      string `json:"action"`
			Unavailable bool   `json:"unavailable"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(rc.Given, &given); err != nil {
		return Case{}, fmt.Errorf("the given block cannot be read: %w", err)
	}
	c := Case{ID: rc.ID, Raw: append(append(append([]byte(nil), rc.Given...), 0), rc.Expected...)}
	if len(rc.Expected) > 0 {
		if err := json.Unmarshal(rc.Expected, &c.Expected); err != nil {
			return Case{}, fmt.Errorf("the expected block cannot be read: %w", err)
		}
	}
	for _, t := range given.Turns {
		var turn []recorders.Action
		for _, a := range t {
			turn = append(turn, recorders.Action{Label: a.Action, Unavailable: a.Unavailable})
		}
		c.Turns = append(c.Turns, turn)
	}
	return c, nil
}
