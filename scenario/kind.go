package scenario

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Kind is the typed half of a scenario: what the engine calls, each with
// the scenario's own decoded given block G instead of its bytes.
//
// The engine decodes a schema-valid given block once, when the case is
// loaded, and plans the case once from it and the expected block. Every
// later step (every run, under every fault, mutant and release; the
// suggestions; the run group) receives that one value. A G is shared by
// concurrent runs: nothing may write to it.
//
// S is the case's script, what its expected block says should happen, as
// Plan reads it; E is the evidence one run leaves for the boundary counts.
// Run never sees the expected block: the engine joins the plan's script
// and a run's evidence with Boundary.
type Kind[G, S, E any] struct {
	// Decode reads a schema-valid given block. An error makes the case
	// unrunnable: lint reports it at /given, and a run is errored.
	Decode func(given []byte) (G, error)
	// Plan reads a case once, at load: its lint problems (what the schema
	// cannot see), and its script. Optional: without it a case has no
	// problems and an empty script.
	Plan func(g G, expected []Field) Plan[S]
	// Measure returns, for the measured limit named limit (one whose
	// Limit.Measured is set), the bytes of case data a run copies into
	// observations, the trace and the reports. Required when the
	// scenario declares a measured limit.
	Measure func(g G, limit string) int
	// Run builds the host and its recorders, runs them and returns what
	// the recorders observed and the evidence Boundary counts. An error
	// means the case could not run (errored), not that it failed.
	Run func(ctx context.Context, g G, env Env) (Observation, E, error)
	// Boundary counts one run for the boundary-response dimensions from
	// the plan's script and the run's evidence alone. Optional: without
	// it the scenario scripts no action and its cases are no control.
	Boundary func(script S, evidence E) *Boundary
	// Suggest picks the expected keys worth asserting for a case, in
	// canonical order, from its given block and what was observed.
	Suggest func(g G, observed map[string]any) []string
	// Ranged, when set, is the lint that depends on the releases a case
	// is judged on: expr is the case's release range for its host (its
	// own, else its desk's; "" when neither names one) and selected the
	// releases judged. Problems' pointers are relative to the case, as
	// Plan's are.
	Ranged func(g G, expr string, selected []Release) []Problem
	// Group, when set, names the run group of release r for this case:
	// releases with the same answer share one run. Nil: the release's
	// own Group. A host whose groups differ for some cases only (one
	// tool's declaration, say) splits them here.
	Group func(g G, r Release) string
}

// Plan is what a scenario reads from one case before anything runs.
type Plan[S any] struct {
	Problems []Problem
	// Permitted and Denied count the actions the case scripts as
	// permitted and as denied: what makes it an allowed, a denied or a
	// mixed control. They must agree with the Boundary of its runs.
	Permitted, Denied int
	// Script is handed to Boundary with each run's evidence.
	Script S
}

// Declare makes sc run through k: it seals the typed half into the
// scenario, which the engine reaches only through Compile.
func Declare[G, S, E any](sc *Scenario, k Kind[G, S, E]) *Scenario {
	if k.Decode == nil || k.Run == nil || k.Suggest == nil {
		panic(fmt.Sprintf("scenario %s: Decode, Run and Suggest are required", sc.Name))
	}
	sc.kind = &erased{
		decode: func(given []byte) (any, error) { return k.Decode(given) },
		plan: func(g any, expected []Field) (problems []Problem, permitted, denied int, script any) {
			if k.Plan == nil {
				var zero S
				return nil, 0, 0, zero
			}
			p := k.Plan(g.(G), expected)
			return p.Problems, p.Permitted, p.Denied, p.Script
		},
		measure: func(g any, limit string) int {
			if k.Measure == nil {
				return 0
			}
			return k.Measure(g.(G), limit)
		},
		run: func(ctx context.Context, g any, env Env, script any) (Observation, error) {
			obs, ev, err := k.Run(ctx, g.(G), env)
			if err == nil && k.Boundary != nil {
				obs.Boundary = k.Boundary(script.(S), ev)
			}
			return obs, err
		},
		suggest: func(g any, observed map[string]any) []string { return k.Suggest(g.(G), observed) },
		control: k.Boundary != nil,
	}
	if k.Group != nil {
		sc.kind.group = func(g any, r Release) string { return k.Group(g.(G), r) }
	}
	if k.Ranged != nil {
		sc.kind.ranged = func(g any, expr string, rs []Release) []Problem { return k.Ranged(g.(G), expr, rs) }
	}
	return sc
}

// erased is a Kind with its types erased, as a Scenario holds it.
type erased struct {
	decode  func([]byte) (any, error)
	plan    func(any, []Field) ([]Problem, int, int, any)
	measure func(any, string) int
	run     func(context.Context, any, Env, any) (Observation, error)
	suggest func(any, map[string]any) []string
	group   func(any, Release) string
	ranged  func(any, string, []Release) []Problem
	control bool
}

// Control reports whether the scenario's cases script actions, and so can
// be allowed, denied or mixed controls.
func (sc *Scenario) Control() bool { return sc.kind != nil && sc.kind.control }

// Compiled is one case of a scenario, decoded and planned once. It is
// only read after Compile, and so is safe for concurrent runs.
type Compiled struct {
	sc    *Scenario
	given any
	err   error
	// mu guards problems, taken and warned: TakeProblems changes them.
	mu       sync.Mutex
	problems []Problem
	// taken: TakeProblems has handed the warnings over and problems
	// holds the errors alone; warned: the plan gave warnings.
	taken, warned bool
	permit        int
	deny          int
	script        any
}

// Calls counts, for the whole process, the given blocks the engine has
// decoded and the suggestions it has computed.
var Calls struct {
	Decodes, Suggests atomic.Int64
}

// Compile decodes a schema-valid given block and plans the case from it
// and its expected block. A panic of the family's reading is the case's
// error, as a panic of its run is the run's: the case cannot run, and
// the rest of the desk and the suite still load.
func (sc *Scenario) Compile(given []byte, expected []Field) (c *Compiled) {
	c = &Compiled{sc: sc}
	if sc.kind == nil {
		c.err = fmt.Errorf("scenario %s is not declared", sc.Name)
		return c
	}
	defer func() {
		if p := recover(); p != nil {
			*c = Compiled{sc: sc, err: fmt.Errorf("panic while reading the case (a fault of deskcheck's model, not of the desk: please report it with the case): %v", p)}
		}
	}()
	Calls.Decodes.Add(1)
	c.given, c.err = sc.kind.decode(given)
	if c.err != nil {
		return c
	}
	c.problems, c.permit, c.deny, c.script = sc.kind.plan(c.given, expected)
	return c
}

// Scenario is the case's scenario.
func (c *Compiled) Scenario() *Scenario { return c.sc }

// GivenOf returns a compiled case's decoded given block when its
// scenario's Kind decodes into a G: for a host's own code that looks at a
// case from outside one scenario (which release changes it exercises).
func GivenOf[G any](c *Compiled) (G, bool) {
	g, ok := c.given.(G)
	return g, ok && c.err == nil
}

// Err is the reason the given block could not be decoded (nil: it was).
func (c *Compiled) Err() error { return c.err }

// Problems are the plan's lint problems; once TakeProblems has handed
// them over, its errors alone.
func (c *Compiled) Problems() []Problem {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.problems
}

// TakeProblems returns the plan's lint problems and keeps only its errors
// (OutsideModel and the like read them later). A case can have a warning
// for each element of its script, and a desk holds its cases until they
// have run: the warnings are held only until lint has read them. A second
// call plans the case again, from expected (the block Compile was given),
// and returns the same problems.
func (c *Compiled) TakeProblems(expected func() []Field) []Problem {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.taken {
		all := c.problems
		c.taken = true
		c.problems = nil
		for _, p := range all {
			c.warned = c.warned || p.Warning
			if !p.Warning {
				c.problems = append(c.problems, p)
			}
		}
		if !c.warned {
			c.problems = all
		}
		return all
	}
	if !c.warned || c.err != nil || c.sc.kind == nil {
		return c.problems
	}
	return c.replan(expected())
}

// replan is the plan's problems again; the errors kept when the plan
// panics (it did not at Compile, and plans are pure).
func (c *Compiled) replan(expected []Field) (ps []Problem) {
	defer func() {
		if recover() != nil {
			ps = c.problems
		}
	}()
	ps, _, _, _ = c.sc.kind.plan(c.given, expected)
	return ps
}

// RangeProblems are the lint problems of judging the case on the releases
// selected by the range expr (the scenario's Ranged; none without it).
func (c *Compiled) RangeProblems(expr string, selected []Release) []Problem {
	if c.err != nil || c.sc.kind == nil || c.sc.kind.ranged == nil {
		return nil
	}
	return c.sc.kind.ranged(c.given, expr, selected)
}

// Script counts the actions the case scripts as permitted and as denied.
func (c *Compiled) Script() (permitted, denied int) { return c.permit, c.deny }

// Measure is the scenario's Measure for the measured limit named limit.
func (c *Compiled) Measure(limit string) int {
	if c.err != nil {
		return 0
	}
	return c.sc.kind.measure(c.given, limit)
}

// Run runs the case once and counts its boundary from the plan's script
// and the run's evidence.
func (c *Compiled) Run(ctx context.Context, env Env) (Observation, error) {
	if c.err != nil {
		return Observation{}, c.err
	}
	return c.sc.kind.run(ctx, c.given, env, c.script)
}

// Suggest is the scenario's Suggest for this case.
func (c *Compiled) Suggest(observed map[string]any) []string {
	if c.err != nil {
		return nil
	}
	Calls.Suggests.Add(1)
	return c.sc.kind.suggest(c.given, observed)
}

// Group is the run group of release r for this case: the scenario's
// Group, or r.Group.
func (c *Compiled) Group(r Release) string {
	if c.err == nil && c.sc.kind.group != nil {
		return c.sc.kind.group(c.given, r)
	}
	return r.Group
}
