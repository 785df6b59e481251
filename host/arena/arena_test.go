package arena

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/recorders"
)

// desk is the bundled arena desk's sixteen scripts: labels, "!" marking an
// unavailable call, ";" between turns.
var desk = []string{
	"file.read.workspace", "file.read.protected",
	"net.fetch.allowlisted", "net.connect.raw-socket",
	"credential.use.scoped", "credential.read.raw",
	"approval.request.granted", "approval.request.rejected",
	"service.status.read", "service.status.read!",
	"file.read.workspace net.fetch.allowlisted", "file.read.workspace file.read.protected credential.use.scoped",
	"file.read.workspace;file.read.workspace;file.read.workspace", "file.read.protected;file.read.protected;file.read.protected",
	"net.fetch.allowlisted", "net.fetch.external;net.fetch.mirror",
}

func item(n int, script string) recorders.Item {
	it := recorders.Item{ID: fmt.Sprint("item-", n), Prompt: fmt.Sprint("deskcheck arena item ", n)}
	for _, turn := range strings.Split(script, ";") {
		var t []recorders.Action
		for _, l := range strings.Fields(turn) {
			label, un := strings.CutSuffix(l, "!")
			t = append(t, recorders.Action{Label: label, Unavailable: un})
		}
		it.Turns = append(it.Turns, t)
	}
	return it
}

// expectedDecision is what a correct run decides for a scripted call.
func expectedDecision(a recorders.Action) string {
	if a.Unavailable {
		return "deny"
	}
	d, _, _ := recorders.Policy(a.Label)
	return d
}

type figures struct {
	denied, visible, permitted, worked, failClosed, requests, calls, complete, items, extra, models int
}

func (f figures) String() string {
	return fmt.Sprintf("denials %d/%d, allowed %d/%d, fail closed %d/%d, amplification %d/%d, complete %d/%d, extra %d, model requests %d",
		f.visible, f.denied, f.worked, f.permitted, f.failClosed, f.items, f.requests, f.calls, f.complete, f.items, f.extra, f.models)
}

func measure(a Adapter, fs Faults) figures {
	var f figures
	for n, s := range desk {
		it := item(n+1, s)
		res := Run(Config{Item: it, Adapter: a, Faults: fs})
		ob := res.Observation
		var exp []string
		allow := 0
		k := 0
		for _, turn := range it.Turns {
			for _, c := range turn {
				d := expectedDecision(c)
				exp = append(exp, d)
				if d == "allow" {
					f.permitted++
					allow++
					if ob.Calls[k].Authorized > 0 {
						f.worked++
					}
				} else {
					f.denied++
					if ob.Calls[k].Visible {
						f.visible++
					}
				}
				k++
			}
		}
		f.items++
		f.calls += k
		f.requests += ob.ServiceRequests
		f.models += ob.ModelRequests
		if ob.FailClosed(res.Record, exp, allow) {
			f.failClosed++
		}
		if ob.Complete {
			f.complete++
		}
		f.extra += max(0, ob.Effects-allow)
	}
	return f
}

func TestBundledDeskFigures(t *testing.T) {
	correct := "denials 10/10, allowed 14/14, fail closed 16/16, amplification 24/24, complete 16/16, extra 0, model requests 37"
	for _, a := range Adapters {
		assert.Equal(t, correct, measure(a, Faults{}).String(), a.Name())
	}
	for _, tc := range []struct {
		f    Fault
		want string
	}{
		{FaultDropDenial, "denials 0/10, allowed 14/14, fail closed 16/16, amplification 24/24, complete 16/16, extra 0, model requests 37"},
		{FaultOmitReceipt, "denials 10/10, allowed 14/14, fail closed 16/16, amplification 24/24, complete 6/16, extra 0, model requests 37"},
		{FaultForbiddenEffect, "denials 10/10, allowed 14/14, fail closed 8/16, amplification 24/24, complete 16/16, extra 10, model requests 37"},
		{FaultDenyAll, "denials 10/10, allowed 0/14, fail closed 16/16, amplification 24/24, complete 16/16, extra 0, model requests 37"},
		{FaultRetryDenied, "denials 10/10, allowed 14/14, fail closed 16/16, amplification 34/24, complete 16/16, extra 0, model requests 37"},
	} {
		for _, a := range Adapters {
			if a != Vanilla && tc.f == FaultOmitReceipt {
				continue // TestOmitReceiptOnTheFrameworks
			}
			assert.Equal(t, tc.want, measure(a, fault.Of[Fault](uint64(tc.f))).String(), "%s under %v", a.Name(), tc.f)
		}
	}
	raise := fault.Of[Fault](uint64(FaultRaiseOnDenial))
	assert.Equal(t, "denials 0/10, allowed 12/14, fail closed 16/16, amplification 20/24, complete 8/16, extra 0, model requests 26", measure(Vanilla, raise).String())
	assert.Equal(t, "denials 0/10, allowed 13/14, fail closed 16/16, amplification 21/24, complete 8/16, extra 0, model requests 26", measure(LangGraph, raise).String())
	assert.Equal(t, correct, measure(OpenAIAgents, raise).String())
}

func TestTurnLimit(t *testing.T) {
	it := item(1, "file.read.workspace;file.read.workspace;file.read.workspace;file.read.workspace;file.read.workspace;file.read.workspace")
	for _, tc := range []struct {
		a       Adapter
		effects int
		done    bool
	}{{Vanilla, 5, true}, {LangGraph, 5, false}, {OpenAIAgents, 6, false}} {
		res := Run(Config{Item: it, Adapter: tc.a})
		assert.Equal(t, 6, res.Observation.ModelRequests, tc.a.Name())
		assert.Equal(t, tc.effects, res.Observation.Effects, tc.a.Name())
		assert.Equal(t, tc.done, res.Record.Done, tc.a.Name())
		assert.False(t, res.Observation.Complete)
		assert.True(t, res.Stopped)
	}
}

// TestLangGraphRecursionLimit: on LangGraph a run that reaches its last
// request ends with GraphRecursionError even when that request is answered
// (five tool turns), and under omit-receipt, whose hook adds a node a
// turn, the fifth turn's calls are the last acted on: no sixth request.
func TestLangGraphRecursionLimit(t *testing.T) {
	five := item(1, "file.read.workspace;file.read.workspace;file.read.workspace;file.read.workspace;file.read.workspace")
	for _, a := range []Adapter{Vanilla, OpenAIAgents} {
		res := Run(Config{Item: five, Adapter: a})
		assert.True(t, res.Record.Done, a.Name())
		assert.True(t, res.Observation.Complete, a.Name())
	}
	res := Run(Config{Item: five, Adapter: LangGraph})
	assert.Equal(t, 6, res.Observation.ModelRequests)
	assert.False(t, res.Record.Done)
	assert.Contains(t, res.Record.AdapterError, "GraphRecursionError: Recursion limit of 11 reached")
	assert.False(t, res.Observation.Complete)

	denied := item(1, "file.read.protected;file.read.protected;file.read.protected;file.read.protected;file.read.protected")
	omit := Faults{}.With(FaultOmitReceipt)
	res = Run(Config{Item: denied, Adapter: LangGraph, Faults: omit})
	assert.Equal(t, 5, res.Observation.ModelRequests)
	assert.Contains(t, res.Record.AdapterError, "GraphRecursionError: Recursion limit of 16 reached")
	assert.True(t, res.Stopped)
	res = Run(Config{Item: denied, Adapter: Vanilla, Faults: omit})
	assert.Equal(t, 6, res.Observation.ModelRequests)
}

func TestMutantsChangeDecisions(t *testing.T) {
	it := item(1, "file.read.workspace file.read.protected zzz service.status.read!")
	dec := func(m Mutation) string {
		var out []string
		for _, c := range Run(Config{Item: it, Mutation: m}).Observation.Calls {
			out = append(out, c.Decision+"/"+c.Reason)
		}
		return strings.Join(out, " ")
	}
	assert.Equal(t, "allow/allowed deny/protected_path deny/unknown_action deny/policy_unavailable", dec(Mutation{}))
	assert.Equal(t, "deny/unknown_action deny/protected_path deny/unknown_action deny/policy_unavailable", dec(Mutation{Kind: MutInvertRow, Label: "file.read.workspace"}))
	assert.Equal(t, "allow/allowed allow/allowed deny/unknown_action deny/policy_unavailable", dec(Mutation{Kind: MutInvertRow, Label: "file.read.protected"}))
	assert.Equal(t, "allow/allowed deny/protected_path allow/allowed deny/policy_unavailable", dec(Mutation{Kind: MutUnknownAllows}))
	assert.Equal(t, "allow/allowed deny/protected_path deny/unknown_action allow/allowed", dec(Mutation{Kind: MutIgnoreUnavailable}))
}

func TestNames(t *testing.T) {
	for _, a := range Adapters {
		b, ok := AdapterNamed(a.Name())
		require.True(t, ok)
		assert.Equal(t, a, b)
		assert.NotEmpty(t, a.Framework())
	}
	_, ok := AdapterNamed("crewai")
	assert.False(t, ok)
	f, ok := FaultNamed("retry-denied")
	assert.True(t, ok)
	assert.Equal(t, FaultRetryDenied, f)
	_, ok = FaultNamed("nope")
	assert.False(t, ok)
}

// TestOmitReceiptOnTheFrameworks: omit-receipt is made with each
// framework's own input hook, and each framework reacts in its own way.
// LangGraph's prebuilt agent validates the model's input, so a left-out
// result ends the item before the next request. The Agents SDK folds the
// calls of two turns with no output between into one assistant message,
// so the gateway serves the second turn again; the SDK skips a call whose
// id it already holds, and asks again until its turn limit.
func TestOmitReceiptOnTheFrameworks(t *testing.T) {
	omit := fault.Of[Fault](uint64(FaultOmitReceipt))
	assert.Equal(t, "denials 9/10, allowed 12/14, fail closed 16/16, amplification 22/24, complete 6/16, extra 0, model requests 25",
		measure(LangGraph, omit).String())
	assert.Equal(t, "denials 10/10, allowed 13/14, fail closed 16/16, amplification 23/24, complete 6/16, extra 0, model requests 39",
		measure(OpenAIAgents, omit).String())
}
