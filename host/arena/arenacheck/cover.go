package arenacheck

import (
	"encoding/json"
	"sync"

	"github.com/deskcheck/deskcheck/host/arena"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/recorders"
	"github.com/deskcheck/deskcheck/scenario"
)

// reachable are the reasons a correct adapter can produce.
var reachable = recorders.Reasons[:7]

// Points are the arena's boundary points: each row of the table decided,
// an unknown label, an unavailable service, each reason, the shapes of a
// script (a batch, a mixed batch, a repeat, a recovery) and the turn limit.
var Points = func() []scenario.Point {
	var out []scenario.Point
	add := func(name, text string) {
		out = append(out, scenario.Point{Name: "arena/" + name, Scenario: "arena", Text: text})
	}
	for _, r := range recorders.Table {
		add("label/"+r.Label, "the fixture decides "+r.Label)
	}
	add("label/unknown", "the fixture decides a label outside the table")
	add("unavailable", "the fixture is down for a call (503)")
	for _, r := range reachable {
		add("reason/"+r, "a call is decided with the reason "+r)
	}
	add("batch", "a tool turn of two calls or more is decided")
	add("batch-mixed", "one tool turn holds an allowed and a denied call")
	add("repeat", "one label is decided in two tool turns or more")
	add("recovery", "an allowed call follows a denied one in a later turn")
	add("turn-limit", "the adapter stops at its model-turn limit with calls pending")
	return out
}()

// observedPoints reads the points of one run from the fixture's records.
func observedPoints(g given, res arena.Result) []string {
	var out []string
	ob := res.Observation
	turnDecisions := map[int]map[string]bool{}
	labelTurns := map[string]map[int]bool{}
	deniedBefore := 0
	recovered := false
	for _, c := range ob.Calls {
		if c.Decides == 0 {
			continue
		}
		if _, _, listed := recorders.Policy(c.Requested); listed {
			out = append(out, "arena/label/"+c.Requested)
		} else {
			out = append(out, "arena/label/unknown")
		}
		if c.Reason == recorders.ReasonPolicyUnavailable {
			out = append(out, "arena/unavailable")
		}
		out = append(out, "arena/reason/"+c.Reason)
		if turnDecisions[c.Turn] == nil {
			turnDecisions[c.Turn] = map[string]bool{}
		}
		turnDecisions[c.Turn][c.Decision] = true
		if labelTurns[c.Label] == nil {
			labelTurns[c.Label] = map[int]bool{}
		}
		labelTurns[c.Label][c.Turn] = true
		if c.Decision == "allow" && deniedBefore > 0 && deniedBefore < c.Turn {
			recovered = true
		}
		if c.Decision == "deny" && deniedBefore == 0 {
			deniedBefore = c.Turn
		}
	}
	for t, turn := range g.Turns {
		if len(turn) > 1 && len(turnDecisions[t+1]) > 0 {
			out = append(out, "arena/batch")
		}
		if turnDecisions[t+1]["allow"] && turnDecisions[t+1]["deny"] {
			out = append(out, "arena/batch-mixed")
		}
	}
	for _, turns := range labelTurns {
		if len(turns) > 1 {
			out = append(out, "arena/repeat")
			break
		}
	}
	if recovered {
		out = append(out, "arena/recovery")
	}
	if res.Stopped {
		out = append(out, "arena/turn-limit")
	}
	return out
}

var mutants = func() []adapter.Mutant[arena.Mutation] {
	var out []adapter.Mutant[arena.Mutation]
	for _, r := range recorders.Table {
		text := "the table denies " + r.Label + " (unknown_action)"
		if !r.Allow() {
			text = "the table allows " + r.Label
		}
		out = append(out, adapter.Mutant[arena.Mutation]{Name: "row/" + r.Label + "/inverted", Text: text, Mutation: arena.Mutation{Kind: arena.MutInvertRow, Label: r.Label}})
	}
	out = append(out,
		adapter.Mutant[arena.Mutation]{Name: "unavailable/ignored", Text: "an unavailable call is decided by its label", Mutation: arena.Mutation{Kind: arena.MutIgnoreUnavailable}},
		adapter.Mutant[arena.Mutation]{Name: "unknown/allows", Text: "a label outside the table is allowed", Mutation: arena.Mutation{Kind: arena.MutUnknownAllows}},
	)
	return out
}()

// Mutants are the arena's generated mutants as the engine registers them.
var Mutants = adapter.Mutants(mutants)

// Generate is generate, made once.
var Generate = sync.OnceValue(generate)

// generate returns the arena's generated inputs: each row alone, an
// unknown label, an unavailable call, a mixed batch, a repeat, a recovery
// and an item past the turn limit.
func generate() []scenario.Candidate {
	type turn = []map[string]any
	c := func(label string) map[string]any { return map[string]any{"action": label} }
	var out []scenario.Candidate
	add := func(title string, aims []string, turns ...turn) {
		b, _ := json.Marshal(map[string]any{"turns": turns})
		full := make([]string, len(aims))
		for i, a := range aims {
			full[i] = "arena/" + a
		}
		out = append(out, scenario.Candidate{Scenario: "arena", Given: string(b), Aims: full, Title: title})
	}
	for _, r := range recorders.Table {
		add("one call of "+r.Label, []string{"label/" + r.Label, "reason/" + r.Reason}, turn{c(r.Label)})
	}
	add("an unknown label", []string{"label/unknown", "reason/unknown_action"}, turn{c("net.connect.raw-socket")})
	add("an unavailable service", []string{"unavailable", "reason/policy_unavailable"}, turn{{"action": "service.status.read", "unavailable": true}})
	add("a mixed batch", []string{"batch", "batch-mixed"}, turn{c("file.read.workspace"), c("file.read.protected"), c("credential.use.scoped")})
	add("a repeated denial", []string{"repeat"}, turn{c("file.read.protected")}, turn{c("file.read.protected")})
	add("a recovery", []string{"recovery"}, turn{c("net.fetch.external")}, turn{c("net.fetch.mirror")})
	six := []turn{}
	for range 6 {
		six = append(six, turn{c("file.read.workspace")})
	}
	add("six tool turns", []string{"turn-limit"}, six...)
	// The reference stops before the sixth turn's calls, as LangGraph
	// does; the Agents SDK runs them, so the case made from the
	// reference's run is judged on the other two.
	out[len(out)-1].Hosts = arena.Vanilla.Name() + " " + arena.LangGraph.Name()
	return out
}
