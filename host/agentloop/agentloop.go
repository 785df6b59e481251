package agentloop

import (
	"encoding/json"
	"fmt"

	"github.com/deskcheck/deskcheck/internal/calc"
)

// Defaults and limits of the runner.
const (
	// DefaultMaxSteps is the step limit when a case does not set one.
	DefaultMaxSteps = 6
	// DefaultMaxCalls is the tool budget when a case does not set one.
	DefaultMaxCalls = 3
	// MaxArgChars is the longest accepted argument string, in code points.
	MaxArgChars = 200
)

// Entry is one decision of the scripted model: a final answer (Final set,
// Text its text) or a tool request (Tool its name, Args its arguments as
// raw JSON, nil when the request has no arguments).
type Entry struct {
	Final bool
	Text  string
	Tool  string
	Args  json.RawMessage
}

// ToolRequest returns a tool-request entry; args may be nil (absent).
func ToolRequest(tool string, args json.RawMessage) Entry {
	return Entry{Tool: tool, Args: args}
}

// FinalAnswer returns a final-answer entry.
func FinalAnswer(text string) Entry { return Entry{Final: true, Text: text} }

// Config is the input of a Run.
type Config struct {
	Script []Entry
	// MaxSteps is the step limit. Zero means zero steps: use NewConfig
	// for the defaults.
	MaxSteps int
	// MaxCalls is the tool budget (validated attempts).
	MaxCalls int
	// WriteGranted grants save_draft.
	WriteGranted bool
	Faults       Faults
	// Mutation switches it into one generated mutant; zero is the
	// reference.
	Mutation Mutation
}

// NewConfig returns a Config for script with the default limits, write
// not granted and no fault.
func NewConfig(script []Entry) Config {
	return Config{Script: script, MaxSteps: DefaultMaxSteps, MaxCalls: DefaultMaxCalls}
}

// Outcome is how a run ended.
type Outcome string

// The outcomes.
const (
	Answered        Outcome = "answered"
	StepLimit       Outcome = "step_limit"
	ScriptExhausted Outcome = "script_exhausted"
)

// Row results.
const (
	ResultExecuted = "executed"
	ResultBlocked  = "blocked"
	ResultAnswer   = "answer"
)

// Row is one trace row: [step, tool, result, observation].
type Row struct {
	Step        int
	Tool        string
	Result      string
	Observation string
}

// Array returns the row as the JSON array [step, tool, result,
// observation].
func (r Row) Array() []any { return []any{r.Step, r.Tool, r.Result, r.Observation} }

// Refusal says which check refused a request before execution.
type Refusal uint8

// The refusals, in the order the checks run.
const (
	NotRefused Refusal = iota
	RefusedUnknownTool
	RefusedNotGranted
	RefusedArgumentNames
	RefusedShortStrings
	RefusedBudget
)

// String names the refusal ("" for NotRefused).
func (r Refusal) String() string {
	switch r {
	case RefusedUnknownTool:
		return "unknown tool"
	case RefusedNotGranted:
		return "not granted"
	case RefusedArgumentNames:
		return "argument names"
	case RefusedShortStrings:
		return "short strings"
	case RefusedBudget:
		return "budget exhausted"
	}
	return ""
}

// Text returns the refusal's observation ("Class: message"), "" for
// NotRefused.
func (r Refusal) Text() string {
	switch r {
	case RefusedUnknownTool:
		return "ValueError: Unknown tool"
	case RefusedNotGranted:
		return "PermissionError: Write capability not granted"
	case RefusedArgumentNames:
		return "ValueError: Exact argument names required"
	case RefusedShortStrings:
		return "ValueError: Arguments must be short strings"
	case RefusedBudget:
		return "PermissionError: Tool-call budget exhausted"
	}
	return ""
}

// Request is what happened to one tool request the runner took.
type Request struct {
	// Index is the request's position among the script's tool requests
	// (0-based; final answers are not counted): its call id.
	Index int
	// Entry is its position in the script.
	Entry int
	// Step is the step that took it.
	Step int
	// Tool is the name as requested.
	Tool string
	// Refusal is the check that refused it before execution, NotRefused
	// when it passed every check.
	Refusal Refusal
	// Ran is true when the tool body was entered.
	Ran bool
	// Failed is true when the tool raised an error.
	Failed bool
	// Effect is true when it appended a draft.
	Effect bool
	// Observation is the row's observation.
	Observation string
	// CalcError is the kind of the calculator's refusal when the request
	// failed inside calc (zero otherwise).
	CalcError calc.ErrorKind
}

// Refused reports whether a check refused the request before execution.
func (q Request) Refused() bool { return q.Refusal != NotRefused }

// Event kinds.
const (
	EventRefused  = "refused"
	EventExecuted = "executed"
	EventFailed   = "failed"
	EventAnswer   = "answer"
	EventStop     = "stop"
)

// Event is one line of the run's narration: what happened at a step and
// why. Stop events carry the step count at the stop.
type Event struct {
	Step int
	Kind string
	Text string
}

// String returns "step N, kind: text".
func (e Event) String() string { return fmt.Sprintf("step %d, %s: %s", e.Step, e.Kind, e.Text) }

// Result is everything a run shows.
type Result struct {
	Outcome Outcome
	// Effects is the last value of ValidatedSeries (0 with no step): the
	// validated attempts as the runner counted them.
	Effects int
	// Blocked counts requests refused before execution or failed inside
	// the tool.
	Blocked int
	// Executed counts rows whose result is executed.
	Executed int
	// Steps is the runner's step counter at the end: the decisions taken
	// (the number of rows, unless a fault skips counting the final answer).
	Steps int
	Rows  []Row
	// ValidatedSeries and BlockedSeries hold the validated attempts and
	// the blocked or failed requests after each step.
	ValidatedSeries []int
	BlockedSeries   []int
	// Drafts is the draft list at the end.
	Drafts []string
	// LastBlocked is the observation of the last blocked row, "" if none
	// (the string errorIncludes is matched against).
	LastBlocked string
	// Answer is the final answer text, "" unless Outcome is Answered.
	Answer string
	// Requests lists the tool requests taken, in order.
	Requests []Request
	// ServiceCalls counts tool bodies entered.
	ServiceCalls int
	// Events narrates the run.
	Events []Event
}
