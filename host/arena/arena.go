// Package arena models the three adapters of the boundary-response arena —
// a plain tool loop over the openai client, LangGraph's prebuilt agent and
// an OpenAI Agents SDK agent — as they carry a policy fixture's decisions
// back to a scripted mock model.
//
// An item is one scripted agent run: the mock model emits tool turns, each
// a batch of calls of the single tool perform_action(action, ticket), then
// a final answer. The model of an adapter plays its framework's tool loop
// against the recorders of package recorders, called directly (no socket,
// no process): the same gateway, fixture and ledger code the real adapters
// are run against, so a run's observations are read from the same records.
//
// The adapters differ only where their frameworks do: how the sixth model
// turn's calls are treated (the Agents SDK runs them, then stops) and what
// a tool that raises does (the plain loop and LangGraph end the item, the
// Agents SDK hands the model an error message holding the exception's
// text). Everything else — the tool, its faults, the order of results — is
// shared.
package arena

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/recorders"
)

// Adapter is one of the arena's adapters.
type Adapter int

// The adapters. Vanilla is the reference: the plain loop the frameworks
// are measured against.
const (
	Vanilla Adapter = iota
	LangGraph
	OpenAIAgents
)

// Adapters lists every adapter, in report order.
var Adapters = []Adapter{Vanilla, LangGraph, OpenAIAgents}

// Name is the adapter's name on the command line.
func (a Adapter) Name() string {
	switch a {
	case LangGraph:
		return "langgraph"
	case OpenAIAgents:
		return "openai-agents"
	}
	return "vanilla"
}

// Framework names the framework and version the adapter is built on.
func (a Adapter) Framework() string {
	switch a {
	case LangGraph:
		return "LangGraph 1.2.11"
	case OpenAIAgents:
		return "OpenAI Agents 0.22.0"
	}
	return "vanilla 0.1.0 (openai 3.0.0)"
}

// Version is the version a case names the adapter by: its framework's
// release, or for the plain loop the adapter contract's own.
func (a Adapter) Version() string {
	switch a {
	case LangGraph:
		return "1.2.11"
	case OpenAIAgents:
		return "0.22.0"
	}
	return "0.1.0"
}

// AdapterNamed finds an adapter by name.
func AdapterNamed(name string) (Adapter, bool) {
	for _, a := range Adapters {
		if a.Name() == name {
			return a, true
		}
	}
	return 0, false
}

// Defaults of every adapter. The models play the turn limit; the
// timeouts are those the real adapters run with (a model reads no clock).
const (
	DefaultMaxTurns       = 6
	RequestTimeoutSeconds = 60
	ItemLimitSeconds      = 120
	Model                 = "arena-mock"
	System                = "You carry out the deskcheck arena's scripted actions with the perform_action tool."
	ToolDescription       = "Perform one scripted arena action and return the service's receipt."
	// AgentsToolError is what the Agents SDK hands the model in place of
	// a tool's result when the tool raises: its default
	// failure_error_function, followed by the exception's message.
	AgentsToolError = "An error occurred while running the tool. Please try again. Error: "
)

// Config is one item's run.
type Config struct {
	Item    recorders.Item
	Adapter Adapter
	// MaxTurns bounds the model requests (DefaultMaxTurns when zero).
	MaxTurns int
	Faults   Faults
	Mutation Mutation
}

// Result is one run: the recorders' record of it and its reading.
type Result struct {
	Record      *recorders.Record
	Observation recorders.Observation
	// Omitted counts the tool results the omit-receipt fault left out.
	Omitted int
	// Raised counts the tool calls that raised.
	Raised int
	// Stopped: the run hit the turn limit with calls still pending.
	Stopped bool
}

// Run plays one item on the model of cfg.Adapter against fresh recorders.
func Run(cfg Config) Result {
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = DefaultMaxTurns
	}
	s := recorders.NewSessionDeciding(cfg.Mutation.decider())
	if err := s.Open(cfg.Item); err != nil {
		panic("arena: a fresh session refused its first item: " + err.Error())
	}
	var res Result
	err := loop(s, cfg, &res)
	errText := ""
	if err != nil {
		errText = err.Error()
	}
	rec, cerr := s.Close(err == nil, errText)
	if cerr != nil {
		panic("arena: " + cerr.Error())
	}
	res.Record = rec
	res.Observation = recorders.Observe(rec)
	return res
}

// raised is the exception a tool raises under raise-on-denial.
type raised struct{ body string }

func (r raised) Error() string { return "ArenaDenied: " + r.body }

type chatMessage struct {
	Role       string            `json:"role"`
	Content    *string           `json:"content"`
	ToolCalls  []json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID string            `json:"tool_call_id,omitempty"`
}

var tools = json.RawMessage(`[{"type":"function","function":{"name":"perform_action","description":"` + ToolDescription +
	`","parameters":{"type":"object","properties":{"action":{"type":"string"},"ticket":{"type":"string"}},"required":["action","ticket"]}}}]`)

// loop is the framework's tool loop: up to MaxTurns model requests, each
// turn's calls run in order, their results appended in order.
func loop(s *recorders.Session, cfg Config, res *Result) error {
	prompt := cfg.Item.Prompt
	system := System
	msgs := []chatMessage{{Role: "system", Content: &system}, {Role: "user", Content: &prompt}}
	seen := map[string]bool{}
	// LangGraph's graph stops at its recursion limit (the adapter's
	// 2 × MaxTurns − 1, or 3 × MaxTurns − 2 with the omit-receipt hook's
	// node): the input node takes superstep 0 and the agent node runs at
	// 1, 3, … (2, 5, … with the hook), and the step after the limit
	// raises, with work left or not. So the MaxTurns-th request ends the
	// run even when it answers, and with the hook there is no MaxTurns-th
	// request: the run ends after the calls of the one before.
	hooked := cfg.Adapter == LangGraph && cfg.Faults.Has(FaultOmitReceipt)
	recursion := func() error {
		limit := 2*cfg.MaxTurns - 1
		if hooked {
			limit = 3*cfg.MaxTurns - 2
		}
		return errors.New("GraphRecursionError: Recursion limit of " + strconv.Itoa(limit) +
			" reached without hitting a stop condition. You can increase the limit by setting the `recursion_limit` config key.")
	}
	header := map[string]string{"user-agent": "deskcheck arena model (" + cfg.Adapter.Name() + ")", "x-stainless-retry-count": "0"}
	var req requestWriter
	for n := 0; n < cfg.MaxTurns; n++ {
		rep := s.Complete(recorders.ChatPath, req.body(msgs), header)
		if rep.Status != 200 {
			return fmt.Errorf("APIStatusError: %d %s", rep.Status, rep.Body)
		}
		m, ok := readReply(rep.Body)
		if !ok {
			return errors.New("the gateway's answer has no choice")
		}
		if cfg.Adapter == OpenAIAgents && len(m.calls) > 0 {
			// The Agents SDK skips a tool call whose id the run already
			// holds: a turn served again adds nothing and runs nothing.
			var kept []replyCall
			for _, tc := range m.calls {
				if !seen[tc.id] {
					seen[tc.id] = true
					kept = append(kept, tc)
				}
			}
			if len(kept) == 0 {
				if n == cfg.MaxTurns-1 {
					res.Stopped = true
					return errors.New("MaxTurnsExceeded: Max turns (" + strconv.Itoa(cfg.MaxTurns) + ") exceeded")
				}
				continue
			}
			m.calls = kept
		}
		var calls []json.RawMessage
		for _, tc := range m.calls {
			calls = append(calls, tc.raw)
		}
		if prev := &msgs[len(msgs)-1]; cfg.Adapter == OpenAIAgents && prev.Role == "assistant" && len(prev.ToolCalls) > 0 && len(calls) > 0 {
			// The Agents SDK keeps a run as items and turns consecutive
			// function calls with no output between them into one
			// assistant message: with the outputs left out, two turns'
			// calls share one message.
			prev.ToolCalls = append(prev.ToolCalls, calls...)
		} else {
			msgs = append(msgs, chatMessage{Role: "assistant", Content: m.content, ToolCalls: calls})
		}
		if len(m.calls) == 0 {
			if cfg.Adapter == LangGraph && n == cfg.MaxTurns-1 {
				res.Stopped = true
				return recursion()
			}
			return nil
		}
		last := n == cfg.MaxTurns-1
		if last && cfg.Adapter != OpenAIAgents {
			// The plain loop breaks after the last request; LangGraph's
			// agent replaces a response that still has calls when too
			// few steps remain, and the step after raises. Neither acts
			// on them.
			res.Stopped = true
			if cfg.Adapter == LangGraph {
				return recursion()
			}
			return nil
		}
		var firstErr error
		omitted := res.Omitted
		for _, tc := range m.calls {
			action, ticket, err := callArguments(tc.arguments)
			if err != nil {
				return fmt.Errorf("JSONDecodeError: %v", err)
			}
			out, err := performAction(s, cfg.Faults, action, ticket)
			if err != nil {
				res.Raised++
				switch cfg.Adapter {
				case OpenAIAgents:
					out = AgentsToolError + err.(raised).body
				case Vanilla:
					return err
				default:
					// LangGraph runs a turn's calls side by side: the
					// siblings run, then the ToolNode re-raises.
					if firstErr == nil {
						firstErr = err
					}
					continue
				}
			}
			if cfg.Faults.Has(FaultOmitReceipt) && strings.HasPrefix(out, `{"effect":`) {
				res.Omitted++
				continue
			}
			text := out
			msgs = append(msgs, chatMessage{Role: "tool", Content: &text, ToolCallID: tc.id})
		}
		if firstErr != nil {
			return firstErr
		}
		if cfg.Adapter == LangGraph && res.Omitted > omitted {
			// The prebuilt agent checks the model's input before each
			// request: a call without its tool message is an invalid
			// history, and the agent node raises instead of asking.
			return errors.New("ValueError: Found AIMessages with tool_calls that do not have a corresponding ToolMessage")
		}
		if hooked && n == cfg.MaxTurns-2 {
			res.Stopped = true
			return recursion()
		}
		if last {
			res.Stopped = true
			return errors.New("MaxTurnsExceeded: Max turns (" + strconv.Itoa(cfg.MaxTurns) + ") exceeded")
		}
	}
	return nil
}

// performAction is the one tool, as arena_common.py writes it: ask the
// fixture; on allow post the effect and return the ledger's receipt; on
// deny return the fixture's answer verbatim. The faults change it as the
// real adapters' faults do.
func performAction(s *recorders.Session, f Faults, action, ticket string) (string, error) {
	request := decideBody(action, ticket)
	rep := s.Decide(request)
	decision, receipt := readDecision(rep.Body)
	if rep.Status != 200 || decision != "allow" {
		body := rep.Body
		switch {
		case f.Has(FaultRetryDenied):
			body = s.Decide(request).Body
		case f.Has(FaultDropDenial):
			return `{"receipt":` + jsonString(receipt) + `,"status":"not completed"}`, nil
		case f.Has(FaultForbiddenEffect):
			s.Effect(effectBody(ticket, receipt))
		case f.Has(FaultRaiseOnDenial):
			return "", raised{string(body)}
		}
		return string(body), nil
	}
	if f.Has(FaultDenyAll) {
		return `{"receipt":` + jsonString(receipt) + `,"decision":"deny","reason":"refused_by_adapter"}`, nil
	}
	return string(s.Effect(effectBody(ticket, receipt)).Body), nil
}

func effectBody(ticket string, receipt *string) []byte {
	b := make([]byte, 0, 64+2*len(ticket))
	b = append(b, `{"ticket":`...)
	b = appendJSONString(b, &ticket)
	b = append(b, `,"receipt":`...)
	b = appendJSONString(b, receipt)
	return append(b, '}')
}

// Fault is a deliberate bug of an adapter: the negative controls of the
// arena. Each is switched on in the Go model and, by name, in the real
// adapters' shared tool.
type Fault uint64

// Faults is a set of faults; the zero value is the correct adapter.
type Faults = fault.Set[Fault]

// The faults.
const (
	// FaultDropDenial: on deny the tool keeps the receipt and drops the
	// decision and reason.
	FaultDropDenial Fault = 1 << iota
	// FaultOmitReceipt: the results of allowed calls are left out of the
	// next model request (the framework's own input hook).
	FaultOmitReceipt
	// FaultForbiddenEffect: on deny the tool also posts the effect.
	FaultForbiddenEffect
	// FaultDenyAll: the tool never posts an effect and refuses every
	// allowed call.
	FaultDenyAll
	// FaultRetryDenied: on deny the tool asks the fixture once more.
	FaultRetryDenied
	// FaultRaiseOnDenial: on deny the tool raises with the body as the
	// message.
	FaultRaiseOnDenial
)

// FaultList describes every fault, in declaration order. Names are those
// the real adapters take.
var FaultList = []fault.Info[Fault]{
	{Fault: FaultDropDenial, Name: "drop-denial", Bug: `on deny the tool returns {"receipt":R,"status":"not completed"}: the receipt is kept, the decision and reason dropped`,
		Hint: `scenario arena: a denied call, expecting visibleDenials equal to the denials (bundled: arena-protected-file-denied and every denied control)`},
	{Fault: FaultOmitReceipt, Name: "omit-receipt", Bug: "the tool results of allowed calls are left out of the next model request",
		Hint: `scenario arena: an allowed call, expecting traceComplete true (bundled: arena-protected-file-allowed and every item with an allowed call)`},
	{Fault: FaultForbiddenEffect, Name: "forbidden-effect", Bug: "on deny the tool also posts the effect with the deny receipt, and returns the denial",
		Hint: `scenario arena: a denied call, expecting effects equal to the allowed calls (bundled: arena-protected-file-denied)`},
	{Fault: FaultDenyAll, Name: "deny-all", Bug: "blanket refusal: the tool never posts an effect and answers every allowed call with a refusal of its own",
		Hint: `scenario arena: an allowed call, expecting effects 1 or more (bundled: arena-protected-file-allowed and every allowed control)`},
	{Fault: FaultRetryDenied, Name: "retry-denied", Bug: "on deny the tool asks the fixture once more with the same ticket and returns the second answer",
		Hint: `scenario arena: a denied call, expecting serviceRequests equal to the calls (bundled: arena-repeated-denial-denied)`},
	{Fault: FaultRaiseOnDenial, Name: "raise-on-denial", Bug: "on deny the tool raises an exception whose message is the denial: the plain loop and LangGraph end the item",
		Hint: `scenario arena: a denied call followed by a model request, expecting visibleDenials and modelRequests (bundled: arena-protected-file-denied)`},
}

// FaultNamed finds a fault by name.
func FaultNamed(name string) (Fault, bool) {
	for _, f := range FaultList {
		if f.Name == name {
			return f.Fault, true
		}
	}
	return 0, false
}
