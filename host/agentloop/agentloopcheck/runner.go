package agentloopcheck

import (
	"context"
	_ "embed"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

//go:embed runner.schema.json
var runnerSchema []byte

// Runner is the scenario of one run of the bounded runner over a scripted
// mock model.
var Runner = scenario.Declare(&scenario.Scenario{
	Name:        "runner",
	Description: "a bounded agent runner over a scripted mock model: granted tools, exact arguments, a tool budget spent by validated attempts, a step limit, an AST calculator",
	Unit:        "step",
	Schema:      runnerSchema,
	Expected: scenario.Observables{
		{Key: "outcome", Comparer: scenario.Exact}, {Key: "effects", Comparer: scenario.Exact, Count: true},
		{Key: "blocked", Comparer: scenario.Exact, Count: true}, {Key: "executed", Comparer: scenario.Exact, Count: true},
		{Key: "steps", Comparer: scenario.Exact, Count: true}, {Key: "rows", Comparer: scenario.JSONEqual},
		{Key: "validatedSeries", Comparer: scenario.JSONEqual}, {Key: "blockedSeries", Comparer: scenario.JSONEqual},
		{Key: "drafts", Comparer: scenario.JSONEqual}, {Key: "errorIncludes", Comparer: scenario.Substring},
		{Key: "answer", Comparer: scenario.Exact},
	},
	Limits: []scenario.Limit{
		{Name: "script", Pointer: "/given/script", Count: true, Default: 1000, Help: "most entries in the script of one runner case"},
		{Name: "maxSteps", Pointer: "/given/maxSteps", Default: 1000, Help: "largest given.maxSteps of a runner case"},
		{Name: "maxCalls", Pointer: "/given/maxCalls", Default: 1000, Help: "largest given.maxCalls of a runner case"},
	},
	Warnings: []scenario.Warning{
		{Name: "after-final", Help: "script entries after a final answer, never reached"},
		{Name: "near-tool", Help: "a tool name that is a near miss of a tool"},
		{Name: "rows-vs-script", Help: "rows that do not follow the script"},
		{Name: "steps-vs-rows", Help: "steps expected that are not the number of rows"},
		{Name: "series-vs-rows", Help: "a series whose length is not the number of rows"},
		{Name: "effects-vs-requests", Help: "more effects expected than tool requests"},
		{Name: "effects-vs-budget", Help: "more effects expected than the budget allows"},
		{Name: "drafts-not-granted", Help: "drafts expected while save_draft is not granted"},
		{Name: "empty-error-includes", Help: "errorIncludes \"\", which every observation holds"},
	},
	Template: `{
        "script": [
          { "tool": "lookup_user", "args": { "user_id": "u-100" } },
          { "tool": "save_draft", "args": { "text": "Placeholder: a fictional draft" } },
          { "tool": "calc", "args": { "expression": "100/2" } },
          { "tool": "calc", "args": { "expression": "1/0" } },
          { "final": "Placeholder: the final answer" }
        ],
        "maxSteps": 6,
        "maxCalls": 2,
        "writeGranted": false
      }`,
	SourceKey: "loop",
	Picture:   picture,
	Deciding:  []string{"why", "stop"},
}, scenario.Kind[given, script, evidence]{
	Decode:   readGiven,
	Plan:     planRunner,
	Run:      runRunner,
	Boundary: runBoundary,
	Suggest:  suggestRunner,
})

// evidence is what one run leaves for the boundary counts: the runner's
// record, and the trace the count's narration ends.
type evidence struct {
	res   agentloop.Result
	trace *scenario.Trace
}

// runRunner runs the decision loop once over the case's script and reports
// what the runner showed.
func runRunner(ctx context.Context, g given, env scenario.Env) (scenario.Observation, evidence, error) {
	if err := ctx.Err(); err != nil {
		return scenario.Observation{}, evidence{}, err
	}
	cfg := g.config(adapter.FaultSet[agentloop.Fault](env))
	cfg.Mutation = adapter.Mutation(mutants, env.Mutant)
	res := agentloop.Run(cfg)
	narrate(env.Trace, g, res)
	return scenario.Observation{Values: observed(res), Points: observedPoints(res)}, evidence{res, env.Trace}, nil
}

// runBoundary counts one run from the case's script and the runner's
// record, and ends the run's narration with the count (nil trace: not
// narrated).
func runBoundary(s script, e evidence) *scenario.Boundary {
	b := boundary(s.actions, e.res)
	if e.trace != nil {
		narrateBoundary(e.trace, b, s.fromRows)
	}
	return b
}

// observed is the value of every expected key, in the plain JSON form the
// engine compares (float64 numbers, []any), which it then takes as it is:
// the form Row.Array and ints give (int numbers) cost a copy of every row
// and series.
func observed(res agentloop.Result) map[string]any {
	rows := make([]any, len(res.Rows))
	for i, r := range res.Rows {
		rows[i] = []any{number(r.Step), word(r.Tool), word(r.Result), r.Observation}
	}
	drafts := make([]any, len(res.Drafts))
	for i, d := range res.Drafts {
		drafts[i] = d
	}
	return map[string]any{
		"outcome":         word(string(res.Outcome)),
		"effects":         number(res.Effects),
		"blocked":         number(res.Blocked),
		"executed":        number(res.Executed),
		"steps":           number(res.Steps),
		"rows":            rows,
		"validatedSeries": ints(res.ValidatedSeries),
		"blockedSeries":   ints(res.BlockedSeries),
		"drafts":          drafts,
		"errorIncludes":   res.LastBlocked,
		"answer":          res.Answer,
	}
}

func ints(xs []int) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = number(x)
	}
	return out
}

// number returns n as a float64 interface value. Putting a float64 into an
// interface allocates, except for a constant: the small counts of a case
// come back as constants.
func number(n int) any {
	switch n {
	case 0:
		return 0.0
	case 1:
		return 1.0
	case 2:
		return 2.0
	case 3:
		return 3.0
	case 4:
		return 4.0
	case 5:
		return 5.0
	case 6:
		return 6.0
	case 7:
		return 7.0
	case 8:
		return 8.0
	}
	return float64(n)
}

// vocabulary is the runner's own words: its tools, row results and
// outcomes. Text equal to one of them is replaced by it, as an interface
// value (see word) taken from words, which costs no allocation.
var vocabulary = [...]string{
	"calc", "lookup_user", "save_draft", "final",
	agentloop.ResultExecuted, agentloop.ResultBlocked, agentloop.ResultAnswer,
	string(agentloop.Answered), string(agentloop.StepLimit), string(agentloop.ScriptExhausted),
}

// words holds the vocabulary as interface values.
var words = func() (out [len(vocabulary)]any) {
	for i, w := range vocabulary {
		out[i] = w
	}
	return out
}()

// word returns s as an interface value, a word of the vocabulary without
// an allocation.
func word(s string) any {
	for i, w := range vocabulary {
		if s == w {
			return words[i]
		}
	}
	return s
}

// suggestRunner proposes the counts, the rows and both series always; the
// drafts when the script asks for save_draft; errorIncludes when a row is
// blocked; the answer when the script holds a final answer.
func suggestRunner(g given, obs map[string]any) []string {
	// Room for every key the function may add: growing the list cost an
	// allocation per case.
	keys := make([]string, 0, 11)
	keys = append(keys, "outcome", "effects", "blocked", "executed", "steps", "rows", "validatedSeries", "blockedSeries")
	saves, finals := false, false
	for _, e := range g.Script {
		finals = finals || e.isFinal()
		saves = saves || (!e.isFinal() && *e.Tool == "save_draft")
	}
	if saves {
		keys = append(keys, "drafts")
	}
	if s, _ := obs["errorIncludes"].(string); s != "" {
		keys = append(keys, "errorIncludes")
	}
	if finals {
		keys = append(keys, "answer")
	}
	return keys
}
