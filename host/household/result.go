package household

import (
	"encoding/json"
	"strings"
)

// Outcome is how a run ends.
type Outcome string

// The seven outcomes. The first three are declared by the model in a final
// decision; the other four are facts the runtime records.
const (
	Answered         Outcome = "answered"
	Clarify          Outcome = "clarify"
	Escalated        Outcome = "escalated"
	Unavailable      Outcome = "unavailable"
	StepLimit        Outcome = "step_limit"
	DeadlineExceeded Outcome = "deadline_exceeded"
	ParserFailure    Outcome = "parser_failure"
)

// Outcomes returns the seven outcomes, model outcomes first.
func Outcomes() []Outcome {
	return []Outcome{Answered, Clarify, Escalated, Unavailable, StepLimit, DeadlineExceeded, ParserFailure}
}

// ModelOutcome reports whether a final decision may declare o.
func ModelOutcome(o Outcome) bool { return o == Answered || o == Clarify || o == Escalated }

// PolicyCode returns the fixed policy code of a runtime outcome, and false
// for an outcome the model declares (its policy code is the model's).
func PolicyCode(o Outcome) (string, bool) {
	switch o {
	case Unavailable:
		return "TOOL_UNAVAILABLE", true
	case StepLimit:
		return "STEP_LIMIT", true
	case DeadlineExceeded:
		return "DEADLINE", true
	case ParserFailure:
		return "PARSER_FAILURE", true
	}
	return "", false
}

// Status is what became of one tool attempt.
type Status string

// The four statuses.
const (
	StatusOK      Status = "ok"
	StatusDenied  Status = "denied"
	StatusInvalid Status = "invalid"
	StatusTimeout Status = "timeout"
)

// Attempt is one tool decision, from the moment the boundary saw it.
type Attempt struct {
	// Index is the attempt's 1-based position among the run's tool
	// decisions.
	Index int
	// Decision is the number n of the decision that made the attempt.
	Decision int
	// Record is the attempt's 1-based position in the boundary's record,
	// 0 when it was never recorded (only under
	// FaultAttemptRecordedAfterAdmission).
	Record int
	// EvidenceID is "ev-" followed by Record; empty when not recorded.
	EvidenceID string
	// Name is the requested tool name, as the model wrote it.
	Name string
	// Arguments is the recorded arguments value as it stands when the run
	// ends (a copy taken before any check, unless a fault aliases it); nil
	// when not recorded.
	Arguments json.RawMessage
	// Status is ok, denied, invalid or timeout.
	Status Status
	// Reason is the refusal message of a denied or invalid attempt.
	Reason string
	// Output is the tool's output when the status is ok.
	Output json.RawMessage
	// Observation is what went back to the model: {"evidence_id",
	// "output"} for ok, {"error"} for denied and invalid; nil for a
	// timeout, which ends the run.
	Observation json.RawMessage
	// Receipt reports that an observation was produced for the model
	// (every status but timeout).
	Receipt bool
	// Delivered reports that the model was asked again after the receipt,
	// so it actually received it (a run can end on the budget or the
	// clock before that).
	Delivered bool
}

// Event is one line of the run's narration. Step is the 1-based turn of
// the decision loop: turn n checks the budget and the clock, asks the model
// and processes decision n.
type Event struct {
	Step int
	Kind string
	Text string
}

// Kinds of events.
const (
	EventBudget   = "budget"   // the decision budget check
	EventClock    = "clock"    // a deadline check
	EventRequest  = "request"  // a model request and its latency
	EventParse    = "parse"    // parsing and the shape of a decision
	EventAttempt  = "attempt"  // an attempt is recorded (or not)
	EventDenied   = "denied"   // admit refused the attempt
	EventInvalid  = "invalid"  // admit or the tool contract refused it
	EventAdmitted = "admitted" // the attempt passed every check
	EventExecuted = "executed" // the tool ran (ok or timeout)
	EventOutcome  = "outcome"  // the outcome and why
	EventDiscard  = "discard"  // model-supplied fields dropped from the result
)

// Result is everything a run can be observed to do.
type Result struct {
	// Outcome is one of the seven outcomes.
	Outcome Outcome
	// Effects counts tool executions started (status ok or timeout).
	Effects int
	// Attempts lists every tool decision in order.
	Attempts []Attempt
	// ToolCalls is the boundary's record, a JSON array of {name,
	// arguments}; its length is the attempts observable.
	ToolCalls json.RawMessage
	// UserResult is the user-facing result: a JSON object with exactly the
	// keys outcome, claims, evidence_ids, policy_code, tool_calls,
	// portfolio_writes, in that order. Numbers copied from the model keep
	// the literal the model wrote.
	UserResult json.RawMessage
	// PolicyCode is the JSON value of UserResult's policy_code.
	PolicyCode json.RawMessage
	// ModelCalls counts model requests, late responses included.
	ModelCalls int
	// Decisions counts responses processed.
	Decisions int
	// ClaimsVerified is the typed-claims score.
	ClaimsVerified bool
	// Diagnostics is the restricted operational log, in order.
	Diagnostics []string
	// Discarded lists, in order, the keys of the model's final object
	// that assembly dropped; empty after a runtime outcome.
	Discarded []string
	// Elapsed is the clock when the run ended, in seconds.
	Elapsed float64
	// Events narrates the run.
	Events []Event
}

// Recorded returns the number of recorded attempts (the attempts
// observable).
func (r *Result) Recorded() int {
	n := 0
	for _, a := range r.Attempts {
		if a.Record > 0 {
			n++
		}
	}
	return n
}

// Statuses returns the status of each attempt, in order.
func (r *Result) Statuses() []string {
	out := make([]string, len(r.Attempts))
	for i, a := range r.Attempts {
		out[i] = string(a.Status)
	}
	return out
}

// Observations returns the observation of each attempt that has one
// (every attempt but a timeout), in order.
func (r *Result) Observations() []json.RawMessage {
	out := []json.RawMessage{}
	for _, a := range r.Attempts {
		if a.Observation != nil {
			out = append(out, a.Observation)
		}
	}
	return out
}

// Count returns the number of attempts with status s.
func (r *Result) Count(s Status) int {
	n := 0
	for _, a := range r.Attempts {
		if a.Status == s {
			n++
		}
	}
	return n
}

// Narration returns the events as text, one line each.
func (r *Result) Narration() string {
	var b strings.Builder
	for _, e := range r.Events {
		b.WriteString(e.Kind)
		if e.Step > 0 {
			b.WriteString(" #")
			b.WriteString(itoa(e.Step))
		}
		b.WriteString(": ")
		b.WriteString(e.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// claimsVerified is the scorer: the outcome is answered, claims is a
// non-empty array, and every claim is an object with a string evidence_id
// naming an ok attempt, JSON-equal to that attempt's output plus the
// evidence_id key.
func claimsVerified(outcome Outcome, claims any, outputs map[string]*object) bool {
	list, ok := claims.([]any)
	if outcome != Answered || !ok || len(list) == 0 {
		return false
	}
	for _, c := range list {
		claim, ok := c.(*object)
		if !ok {
			return false
		}
		id, _ := claim.get("evidence_id")
		ev, ok := id.(string)
		if !ok {
			return false
		}
		out, ok := outputs[ev]
		if !ok {
			return false
		}
		want := clone(out).(*object)
		want.set("evidence_id", ev)
		if !jsonEqual(claim, want) {
			return false
		}
	}
	return true
}
