package realarena

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/arena"
	"github.com/deskcheck/deskcheck/host/arena/arenacheck"
	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/recorders"
	"github.com/deskcheck/deskcheck/scenario"
)

// deskItem is one arena case of a desk: its script and what it expects.
type deskItem struct {
	item      recorders.Item
	decisions []string
	effects   int
}

func turnsOf(t *testing.T, given string) [][]recorders.Action {
	t.Helper()
	var g struct {
		Turns [][]struct {
			Action      string `json:"action"`
			Unavailable bool   `json:"unavailable"`
		} `json:"turns"`
	}
	require.NoError(t, json.Unmarshal([]byte(given), &g))
	var out [][]recorders.Action
	for _, turn := range g.Turns {
		var tt []recorders.Action
		for _, c := range turn {
			tt = append(tt, recorders.Action{Label: c.Action, Unavailable: c.Unavailable})
		}
		out = append(out, tt)
	}
	return out
}

// bundledDesk reads cases/arena-desk.json.
func bundledDesk(t *testing.T) []deskItem {
	t.Helper()
	var data []byte
	for _, f := range cases.Files() {
		if f.Path == "cases/arena-desk.json" {
			data = f.Data
		}
	}
	require.NotNil(t, data, "the bundled arena desk")
	var out []deskItem
	for i, c := range gjson.GetBytes(data, "cases").Array() {
		var decisions []string
		for _, d := range c.Get("expected.decisions").Array() {
			decisions = append(decisions, d.String())
		}
		out = append(out, deskItem{
			item: recorders.Item{ID: "arena-desk/" + c.Get("id").String(), Prompt: fmt.Sprintf("deskcheck arena item arena-desk/%d", i+1),
				Turns: turnsOf(t, c.Get("given").Raw)},
			decisions: decisions, effects: int(c.Get("expected.effects").Int()),
		})
	}
	require.Len(t, out, 16)
	return out
}

// generatedItems are the family's generated inputs as items.
func generatedItems(t *testing.T) []recorders.Item {
	var out []recorders.Item
	for i, c := range arenacheck.Generate() {
		out = append(out, recorders.Item{ID: "generated/" + c.Title, Prompt: fmt.Sprintf("deskcheck arena generated item %d", i+1), Turns: turnsOf(t, c.Given)})
	}
	return out
}

// sandbox is how the adapters run here: under unshare -rn (no network at
// all, two Unix sockets in the run folder) when the OS allows it, else on
// loopback TCP with no namespace.
var sandbox = sync.OnceValues(func() ([]string, string) {
	if os.Getenv("DESKCHECK_ARENA_STRACE_HELPER") != "" {
		// Traced: the tracer made sure unshare works, and the probe
		// would be one more program in the trace.
		return []string{"unshare", "-rn", "--"}, "unix"
	}
	if err := exec.Command("unshare", "-rn", "--", "true").Run(); err == nil {
		return []string{"unshare", "-rn", "--"}, "unix"
	}
	return nil, "tcp"
})

func runReal(t *testing.T, name, faultName string, items []recorders.Item) *Result {
	t.Helper()
	wrap, network := sandbox()
	res, err := Run(context.Background(), Config{Adapter: name, Python: python(t, name), Fault: faultName, Wrap: wrap, Network: network}, items)
	require.NoError(t, err)
	require.Len(t, res.Records, len(items))
	assert.Empty(t, res.Strays, "requests outside any item's window")
	return res
}

func modelOf(t *testing.T, name string) arena.Adapter {
	a, ok := arena.AdapterNamed(name)
	require.True(t, ok)
	return a
}

// sameObservations holds the real adapter's observations to its model's,
// item by item, every observed key; skip names keys not pinned.
func sameObservations(t *testing.T, name string, fs arena.Faults, items []recorders.Item, res *Result, skip func(i int, key string) bool) []arena.Result {
	t.Helper()
	var models []arena.Result
	for i, it := range items {
		m := arena.Run(arena.Config{Item: it, Adapter: modelOf(t, name), Faults: fs})
		models = append(models, m)
		real := arenacheck.Observed(recorders.Observe(res.Records[i]))
		want := arenacheck.Observed(m.Observation)
		for k, v := range want {
			if skip != nil && skip(i, k) {
				continue
			}
			assert.Equal(t, v, real[k], "%s %s: %s (real gaps %v)\n%s", name, it.ID, k, recorders.Observe(res.Records[i]).Gaps, res.Stderr)
		}
	}
	return models
}

// table is the six dimensions over items, as the report prints them.
func table(desk []deskItem, obs func(i int) arena.Result) string {
	var sum scenario.Boundary
	failClosed, complete, items := 0, 0, 0
	for i, d := range desk {
		b := arenacheck.Boundary(d.decisions, d.effects, obs(i))
		sum.Denied += b.Denied
		sum.DeniedVisible += b.DeniedVisible
		sum.Permitted += b.Permitted
		sum.Worked += b.Worked
		sum.ServiceRequests += b.ServiceRequests
		sum.ServiceExpected += b.ServiceExpected
		sum.ExtraEffects += b.ExtraEffects
		if b.Actions > 0 {
			items++
			if b.FailClosed {
				failClosed++
			}
			if b.Complete {
				complete++
			}
		}
	}
	return fmt.Sprintf("%d/%d %d/%d %d/%d %d/%d %.2f (%d/%d) %d", sum.DeniedVisible, sum.Denied, sum.Worked, sum.Permitted, failClosed, items, complete, items,
		float64(sum.ServiceRequests)/float64(sum.ServiceExpected), sum.ServiceRequests, sum.ServiceExpected, sum.ExtraEffects)
}

func realResult(res *Result, i int) arena.Result {
	return arena.Result{Record: res.Records[i], Observation: recorders.Observe(res.Records[i])}
}

// TestRealAdaptersReproduceTheSeed drives each installed framework on the
// bundled desk and on the generated items and holds its Go model to it:
// every observed key of every item agrees, and the desk gives the seed's
// table on the real adapter.
func TestRealAdaptersReproduceTheSeed(t *testing.T) {
	desk := bundledDesk(t)
	var items []recorders.Item
	for _, d := range desk {
		items = append(items, d.item)
	}
	generated := generatedItems(t)
	for _, name := range Adapters {
		t.Run(name, func(t *testing.T) {
			res := runReal(t, name, "", append(append([]recorders.Item(nil), items...), generated...))
			sameObservations(t, name, arena.Faults{}, append(append([]recorders.Item(nil), items...), generated...), res, nil)
			assert.Equal(t, "10/10 14/14 16/16 16/16 1.00 (24/24) 0", table(desk, func(i int) arena.Result { return realResult(res, i) }))
			assert.Equal(t, name, res.Hello.Adapter)
			assert.Equal(t, "0.1.0", res.Hello.AdapterVersion)
			for _, r := range res.Records[:len(items)] {
				for _, m := range r.Model {
					assert.Equal(t, "0", m.Header["x-stainless-retry-count"], "no model request was retried")
				}
			}
		})
	}
}

// TestRealAdaptersUnderFaults switches each negative control on in each
// real adapter and holds the figures to the model's.
func TestRealAdaptersUnderFaults(t *testing.T) {
	desk := bundledDesk(t)
	var items []recorders.Item
	for _, d := range desk {
		items = append(items, d.item)
	}
	want := map[string]string{
		"drop-denial":      "0/10 14/14 16/16 16/16 1.00 (24/24) 0",
		"omit-receipt":     "10/10 14/14 16/16 6/16 1.00 (24/24) 0",
		"forbidden-effect": "10/10 14/14 8/16 16/16 1.00 (24/24) 10",
		"deny-all":         "10/10 0/14 16/16 16/16 1.00 (24/24) 0",
		"retry-denied":     "10/10 14/14 16/16 16/16 1.42 (34/24) 0",
	}
	for _, name := range Adapters {
		for _, info := range arena.FaultList {
			t.Run(name+"/"+info.Name, func(t *testing.T) {
				fs := fault.Of[arena.Fault](uint64(info.Fault))
				res := runReal(t, name, info.Name, items)
				// LangGraph runs a batch's calls side by side: when one
				// raises, whether its siblings ran is not pinned.
				skip := func(i int, key string) bool {
					return name == "langgraph" && info.Fault == arena.FaultRaiseOnDenial && len(items[i].Turns[0]) > 1 &&
						(key == "effects" || key == "serviceRequests" || key == "decisions" || key == "reasons")
				}
				models := sameObservations(t, name, fs, items, res, skip)
				// omit-receipt is made with each framework's own input
				// hook, so its figures are the framework's (host/arena's
				// tests pin them); the others live in the shared tool.
				if w, ok := want[info.Name]; ok && (name == "vanilla" || info.Fault != arena.FaultOmitReceipt) {
					assert.Equal(t, w, table(desk, func(i int) arena.Result { return realResult(res, i) }))
				}
				if !(name == "langgraph" && info.Fault == arena.FaultRaiseOnDenial) {
					assert.Equal(t, table(desk, func(i int) arena.Result { return models[i] }), table(desk, func(i int) arena.Result { return realResult(res, i) }))
				}
			})
		}
	}
}

// TestTurnLimitOnRealAdapters: a six-tool-turn item makes at most six
// model requests on every adapter; the Agents SDK runs the sixth
// response's calls, the other two do not.
func TestTurnLimitOnRealAdapters(t *testing.T) {
	var turns [][]recorders.Action
	for range 6 {
		turns = append(turns, []recorders.Action{{Label: "file.read.workspace"}})
	}
	it := recorders.Item{ID: "six", Prompt: "deskcheck arena six turns", Turns: turns}
	effects := map[string]int{"vanilla": 5, "langgraph": 5, "openai-agents": 6}
	for _, name := range Adapters {
		t.Run(name, func(t *testing.T) {
			res := runReal(t, name, "", []recorders.Item{it})
			ob := recorders.Observe(res.Records[0])
			assert.Equal(t, 6, ob.ModelRequests)
			assert.Equal(t, effects[name], ob.Effects)
			assert.False(t, ob.Complete)
		})
	}
}

// TestTurnCountsOnRealAdapters: items of one to six tool turns, every call
// allowed or every call denied, hold each adapter's model to the real
// framework with no fault and under omit-receipt. LangGraph's recursion
// limit ends a run that reaches its last request even when that request
// is answered, and with the omit-receipt hook's node a request sooner.
func TestTurnCountsOnRealAdapters(t *testing.T) {
	var items []recorders.Item
	for n := 1; n <= 6; n++ {
		for _, label := range []string{"file.read.workspace", "file.read.protected"} {
			var turns [][]recorders.Action
			for range n {
				turns = append(turns, []recorders.Action{{Label: label}})
			}
			items = append(items, recorders.Item{ID: fmt.Sprintf("%s-%d", strings.ReplaceAll(label, ".", "-"), n), Prompt: "deskcheck arena turns", Turns: turns})
		}
	}
	for _, name := range Adapters {
		for _, info := range []struct {
			name  string
			fault arena.Faults
		}{{"", arena.Faults{}}, {"omit-receipt", fault.Of[arena.Fault](uint64(arena.FaultOmitReceipt))}} {
			t.Run(name+"/"+info.name, func(t *testing.T) {
				res := runReal(t, name, info.name, items)
				sameObservations(t, name, info.fault, items, res, nil)
			})
		}
	}
}
