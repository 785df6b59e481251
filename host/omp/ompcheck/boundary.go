package ompcheck

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// The boundary-response dimensions of the OMP scenarios.
//
// wrapper: each of the repeat calls is one scripted action. expected.effects
// (p) of them are scripted-permitted (each call runs the inert executor at
// most once) and the other repeat − p are scripted-denied. A denial is
// visible when a call threw with an error message; work is an executor
// run; the service is the inert executor, and p runs are expected of it.
//
// fallback: the one write is the action, permitted when expected.effects
// is 1. Every write reaches the writer, so one primitive attempt is
// expected; an ENOENT retry shows as 2.
//
// classify-error scripts no action and is no control.

// expectedEffects reads expected.effects from the script (0 when absent).
func expectedEffects(expected []scenario.Field) int {
	for _, f := range expected {
		if f.Key == "effects" {
			return int(gjson.ParseBytes(f.Raw).Int())
		}
	}
	return 0
}

// wrapperPlan is a wrapper case's script: of its calls, how many are
// permitted and how many denied.
type wrapperPlan struct{ permitted, denied int }

// wrapperScript: repeat calls, effects of them permitted.
func wrapperScript(g *wrapperGiven, expected []scenario.Field) wrapperPlan {
	calls := int(g.repeat)
	if calls < 1 {
		calls = 1
	}
	permitted := min(expectedEffects(expected), calls)
	return wrapperPlan{permitted, calls - permitted}
}

// fallbackPlan is a fallback case's script: its one write is permitted
// or denied.
type fallbackPlan struct{ permitted, denied int }

// planFallback: one write, permitted when one effect is expected.
func planFallback(_ *fallbackGiven, expected []scenario.Field) scenario.Plan[fallbackPlan] {
	p := fallbackPlan{0, 1}
	if expectedEffects(expected) >= 1 {
		p = fallbackPlan{1, 0}
	}
	return scenario.Plan[fallbackPlan]{Permitted: p.permitted, Denied: p.denied, Script: p}
}

// callOutcome is what one wrapper call ended with.
type callOutcome struct {
	threw   bool
	message string
}

// wrapperEvidence is what the recorders saw of one wrapper run: each
// call's outcome, the executor's runs and the trace.
type wrapperEvidence struct {
	calls  []callOutcome
	runs   int
	events []scenario.Event
}

// wrapperBoundary counts one wrapper case from its script and what the
// recorders saw.
func wrapperBoundary(s wrapperPlan, e wrapperEvidence) *scenario.Boundary {
	p, d, runs := s.permitted, s.denied, e.runs
	visible := 0
	for _, c := range e.calls {
		if c.threw && c.message != "" {
			visible++
		}
	}
	return &scenario.Boundary{
		Actions:         p + d,
		Denied:          d,
		DeniedVisible:   min(d, visible),
		Permitted:       p,
		Worked:          min(p, runs),
		FailClosed:      runs <= p,
		ServiceRequests: runs,
		ServiceExpected: p,
		Complete:        wrapperTraceComplete(len(e.calls), e.events),
		ExtraEffects:    max(0, runs-p),
	}
}

// wrapperTraceComplete reconciles the trace call by call: one outcome, at
// least one resolution (or, on a release without a gate, the note that
// there is none), every execution after a tool_call, every dialog
// answered, dismissed or run out, and every RPC select request answered by
// one response frame.
func wrapperTraceComplete(calls int, events []scenario.Event) bool {
	type tally struct {
		outcomes, resolves, toolCalls, rpcSelects, rpcAnswers int
		executedBeforeToolCall, unanswered                    bool
	}
	per := make([]tally, calls+1)
	for _, e := range events {
		if e.Seq < 1 || e.Seq > calls {
			continue
		}
		t := &per[e.Seq]
		switch e.Kind {
		case "outcome":
			t.outcomes++
		case "resolve", "release":
			// A release without an approval gate decides by saying so.
			t.resolves++
		case "tool_call":
			t.toolCalls++
		case "execute":
			if t.toolCalls == 0 {
				t.executedBeforeToolCall = true
			}
		case "select":
			if strings.Contains(e.Text, "→ failed:") {
				t.unanswered = true
			}
		case "rpc-out":
			if strings.Contains(e.Text, " select id=") {
				t.rpcSelects++
			}
		case "rpc-in":
			t.rpcAnswers++
		}
	}
	for _, t := range per[1:] {
		if t.outcomes != 1 || t.resolves < 1 || t.executedBeforeToolCall || t.unanswered || t.rpcSelects != t.rpcAnswers {
			return false
		}
	}
	return true
}

// fallbackEvidence is what the recorders saw of one fallback run.
type fallbackEvidence struct {
	threw                             bool
	message                           string
	successes, attempts, handlerCalls int
	events                            []scenario.Event
}

// fallbackBoundary counts one fallback case: an outcome was recorded, the
// writer was reached, and the handler events match the handler calls.
func fallbackBoundary(s fallbackPlan, ev fallbackEvidence) *scenario.Boundary {
	p, d := s.permitted, s.denied
	successes, attempts := ev.successes, ev.attempts
	outcomes, handlerEvents := 0, 0
	for _, e := range ev.events {
		switch e.Kind {
		case "outcome":
			outcomes++
		case "handler":
			if strings.HasPrefix(e.Text, "fallback handler ") {
				handlerEvents++
			}
		}
	}
	visible := 0
	if d == 1 && ev.threw && ev.message != "" {
		visible = 1
	}
	return &scenario.Boundary{
		Actions:         1,
		Denied:          d,
		DeniedVisible:   visible,
		Permitted:       p,
		Worked:          min(p, successes),
		FailClosed:      successes <= p,
		ServiceRequests: attempts,
		ServiceExpected: 1,
		Complete:        outcomes == 1 && attempts >= 1 && handlerEvents == ev.handlerCalls,
		ExtraEffects:    max(0, successes-p),
	}
}
