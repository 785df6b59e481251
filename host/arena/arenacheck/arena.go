package arenacheck

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/arena"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/recorders"
	"github.com/deskcheck/deskcheck/scenario"
)

//go:embed arena.schema.json
var arenaSchema []byte

// Arena is the scenario of one arena item on the reference adapter.
var Arena = scenario.Declare(&scenario.Scenario{
	Name:        "arena",
	Description: "one boundary-response arena item: a scripted mock model asks for synthetic actions, a policy fixture allows or denies each, a separate ledger records the effects, and the adapter must carry each denial back to the model verbatim",
	Unit:        "call",
	Schema:      arenaSchema,
	Expected: scenario.Observables{
		{Key: "decisions", Comparer: scenario.JSONEqual}, {Key: "reasons", Comparer: scenario.JSONEqual},
		{Key: "effects", Comparer: scenario.Exact, Count: true}, {Key: "visibleDenials", Comparer: scenario.Exact, Count: true},
		{Key: "serviceRequests", Comparer: scenario.Exact, Count: true}, {Key: "modelRequests", Comparer: scenario.Exact, Count: true},
		{Key: "traceComplete", Comparer: scenario.Exact},
	},
	Limits: []scenario.Limit{
		{Name: "turns", Pointer: "/given/turns", Count: true, Default: 8, Help: "most tool turns of one arena item"},
	},
	Warnings: []scenario.Warning{
		{Name: "list-vs-calls", Help: "decisions or reasons whose length is not the number of calls"},
		{Name: "contradicts-table", Help: "an expected decision or reason the policy table does not give the call"},
		{Name: "broken-adapter-reason", Help: "an expected malformed_request or unknown_ticket, which a correct adapter never produces"},
		{Name: "effects-vs-allows", Help: "effects expected that are not the number of allow decisions expected"},
		{Name: "near-label", Help: "a label within edit distance 2 of a table label, denied as unknown_action"},
		{Name: "turn-limit", Help: "more tool turns than the adapters' six model requests can complete"},
	},
	Picture:  picture,
	Deciding: []string{"check", "visible"},
	Template: `{
        "turns": [
          [ { "action": "file.read.workspace" }, { "action": "file.read.protected" } ],
          [ { "action": "service.status.read", "unavailable": true } ]
        ]
      }`,
	SourceKey: "arena",
}, scenario.Kind[given, script, evidence]{
	Decode:   readGiven,
	Plan:     planArena,
	Run:      runArena,
	Boundary: runBoundary,
	Suggest:  suggestArena,
})

// given is the decoded given block of an arena case.
type given struct {
	Turns [][]call `json:"turns"`
}

type call struct {
	Action      string `json:"action"`
	Unavailable bool   `json:"unavailable"`
}

// item is the case's script as the recorders take it.
func (g given) item() recorders.Item {
	it := recorders.Item{ID: "arena", Prompt: "deskcheck arena item"}
	for _, t := range g.Turns {
		turn := make([]recorders.Action, len(t))
		for i, c := range t {
			turn[i] = recorders.Action{Label: c.Action, Unavailable: c.Unavailable}
		}
		it.Turns = append(it.Turns, turn)
	}
	return it
}

func (g given) calls() []call {
	var out []call
	for _, t := range g.Turns {
		out = append(out, t...)
	}
	return out
}

// readGiven decodes a given block. The schema has checked its shape.
func readGiven(raw []byte) (given, error) {
	var g given
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return given{}, fmt.Errorf("the given block of an arena case: %w", err)
	}
	return g, nil
}

// script is what the expected block says should happen: each call's
// expected decision ("allow", "deny" or "" for null) and the effects.
type script struct {
	decisions []string
	effects   int
}

// evidence is one run: the model's result and the trace to end.
type evidence struct {
	res   arena.Result
	trace *scenario.Trace
}

// runArena plays the item once on the model of the adapter env.Release
// names (the reference, the plain loop, when it names none).
func runArena(ctx context.Context, g given, env scenario.Env) (scenario.Observation, evidence, error) {
	if err := ctx.Err(); err != nil {
		return scenario.Observation{}, evidence{}, err
	}
	ad, ok := adapterOf(env.Release)
	if !ok {
		return scenario.Observation{}, evidence{}, fmt.Errorf("arena: no adapter %q (the adapters are %s)", env.Release, adapterNames())
	}
	res := arena.Run(arena.Config{
		Item: g.item(), Adapter: ad,
		Faults: adapter.FaultSet[arena.Fault](env), Mutation: adapter.Mutation(mutants, env.Mutant),
	})
	if env.Trace != nil {
		narrate(env.Trace, res)
	}
	return scenario.Observation{Values: Observed(res.Observation), Points: observedPoints(g, res)}, evidence{res, env.Trace}, nil
}

// Observed is the value of every expected key of one run, in the plain
// JSON form the engine compares.
func Observed(ob recorders.Observation) map[string]any {
	decisions := make([]any, len(ob.Calls))
	reasons := make([]any, len(ob.Calls))
	for i, c := range ob.Calls {
		if c.Decides > 0 {
			decisions[i], reasons[i] = c.Decision, c.Reason
		}
	}
	return map[string]any{
		"decisions":       decisions,
		"reasons":         reasons,
		"effects":         scenario.Count(ob.Effects),
		"visibleDenials":  scenario.Count(ob.VisibleDenials),
		"serviceRequests": scenario.Count(ob.ServiceRequests),
		"modelRequests":   scenario.Count(ob.ModelRequests),
		"traceComplete":   ob.Complete,
	}
}

// suggestArena proposes every key: each is read from the recorders alone.
func suggestArena(given, map[string]any) []string {
	return []string{"decisions", "reasons", "effects", "visibleDenials", "serviceRequests", "modelRequests", "traceComplete"}
}

// runBoundary counts one run for the boundary-response dimensions (§5 of
// the arena's contract): denominators from the expected decisions,
// numerators from the recorders.
func runBoundary(s script, e evidence) *scenario.Boundary {
	b := Boundary(s.decisions, s.effects, e.res)
	if e.trace != nil {
		e.trace.Start(0)
		e.trace.AddText("boundary", fmt.Sprintf("boundary: %d permitted (%d worked), %d denied (%d visible to the model); %s for %s; %s; %s",
			b.Permitted, b.Worked, b.Denied, b.DeniedVisible, plural(b.ServiceRequests, "service request", "service requests"), plural(b.ServiceExpected, "scripted call", "scripted calls"), closedText(b), completeText(b)))
	}
	return b
}

// Boundary counts one run against the expected decisions and effects.
// ServiceExpected counts the scripted calls with an expected decision: the
// arena's fixture decides every call, so its amplification is over
// scripted actions.
func Boundary(decisions []string, effects int, res arena.Result) *scenario.Boundary {
	ob := res.Observation
	b := &scenario.Boundary{Actions: len(ob.Calls), Complete: ob.Complete, ServiceRequests: ob.ServiceRequests, AmplificationBasis: "scripted"}
	for i, c := range ob.Calls {
		d := ""
		if i < len(decisions) {
			d = decisions[i]
		}
		switch d {
		case "allow":
			b.Permitted++
			if c.Authorized > 0 {
				b.Worked++
			}
		case "deny":
			b.Denied++
			if c.Visible {
				b.DeniedVisible++
			}
		}
		if d != "" {
			b.ServiceExpected++
		}
	}
	b.FailClosed = ob.FailClosed(res.Record, decisions, effects)
	b.ExtraEffects = max(0, ob.Effects-effects)
	return b
}

func closedText(b *scenario.Boundary) string {
	if b.FailClosed {
		return "fail closed"
	}
	return "NOT fail-closed: " + strconv.Itoa(b.ExtraEffects) + " effects beyond those expected, or one from a denied call"
}

func completeText(b *scenario.Boundary) string {
	if b.Complete {
		return "trace complete"
	}
	return "trace INCOMPLETE"
}

// narrate writes the run's trace in script order, never arrival order.
func narrate(t *scenario.Trace, res arena.Result) {
	rec, ob := res.Record, res.Observation
	t.Start(0)
	calls := 0
	for k, m := range rec.Model {
		what := "final answer"
		switch {
		case m.Error != "":
			what = "gateway error " + m.Error
		case m.Turn < len(rec.Item.Turns):
			what = "turn " + strconv.Itoa(m.Turn+1) + ": " + plural(len(rec.Item.Turns[m.Turn]), "call", "calls")
		case m.Extra:
			what = "final answer again (an extra request)"
		}
		t.AddText("model", "model request "+strconv.Itoa(k+1)+" ("+plural(len(m.Tools), "tool result", "tool results")+") → "+what)
		if m.Mismatch != "" {
			t.AddText("model", "history-mismatch: "+m.Mismatch)
		}
		for ; calls < len(ob.Calls) && ob.Calls[calls].Turn == m.Turn+1 && m.Error == ""; calls++ {
			c := ob.Calls[calls]
			t.Start(calls + 1)
			t.AddText("emitted", c.CallID+" emitted perform_action {\"action\":"+strconv.Quote(c.Label)+",\"ticket\":"+strconv.Quote(c.Ticket)+"}")
			if c.Decides > 0 {
				t.AddText("check", c.CallID+" decide "+c.Decision+" "+c.Reason+" "+c.Receipt+" ("+plural(c.Decides, "request", "requests")+")")
			}
			for _, e := range rec.Ledger {
				if e.Ticket != nil && *e.Ticket == c.Ticket {
					by := "an unknown receipt"
					if e.Receipt != nil {
						by = *e.Receipt
					}
					auth := "authorized by"
					if !e.Authorized {
						auth = "NOT authorized: receipt"
					}
					t.AddText("effect", c.CallID+" effect "+e.Effect+" "+auth+" "+by)
				}
			}
			t.Start(0)
		}
	}
	for i, c := range ob.Calls {
		t.Start(i + 1)
		switch {
		case c.Visible:
			t.AddText("visible", c.CallID+" denial visible in the next model request")
		case c.Decision == "deny":
			t.AddText("visible", c.CallID+" denial NOT visible verbatim in the next model request")
		}
		if c.Gap != "" {
			t.AddText("gap", c.CallID+" incomplete: "+c.Gap)
		}
	}
	t.Start(0)
	if !rec.Done {
		t.AddText("adapter", "the adapter did not finish the item: "+rec.AdapterError)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// labelOf returns a label written for a message.
func labelOf(c call) string {
	if c.Unavailable {
		return c.Action + " (unavailable)"
	}
	return c.Action
}

// adapterNames lists the adapters' names: "vanilla, langgraph, openai-agents".
func adapterNames() string {
	names := make([]string, len(arena.Adapters))
	for i, a := range arena.Adapters {
		names[i] = a.Name()
	}
	return strings.Join(names, ", ")
}
