package recorders

import (
	"fmt"
	"sync"

	"github.com/deskcheck/deskcheck/host/omp"
)

// Event is one thing a recorder saw.
type Event struct {
	// Call is the 1-based call number within the case (0 outside a call).
	Call int `json:"call"`
	// Kind names the recorder or step: resolve, tool_call, select, answer,
	// rpc-out, rpc-in, execute, write, handler, outcome, ...
	Kind string `json:"kind"`
	// Text says what happened.
	Text string `json:"text"`
}

// Trace is an ordered, concurrency-safe event log shared by the recorders
// of one case.
type Trace struct {
	mu     sync.Mutex
	call   int
	events []Event
}

// StartCall numbers the events that follow as belonging to call n.
func (t *Trace) StartCall(n int) {
	t.mu.Lock()
	t.call = n
	t.mu.Unlock()
}

// Add appends an event.
func (t *Trace) Add(kind, format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, Event{Call: t.call, Kind: kind, Text: fmt.Sprintf(format, args...)})
}

// Events returns a copy of the events so far.
func (t *Trace) Events() []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Event{}, t.events...)
}

// Note records a step of the host wrapper; it fits omp.Wrapper.Observe.
func (t *Trace) Note(n omp.Note) {
	switch n.Step {
	case "resolve-original", "resolve":
		r := n.Resolution
		what := "effective input"
		if n.Step == "resolve-original" {
			what = "original input"
		}
		t.Add("resolve", "%s: %s (tier %s) from %s, decision row %d", what, r.Policy, r.Tier, describeSource(*r), r.Row)
	case "approval-required":
		if n.Text != "" {
			t.Add("approval", "approval required: %s", n.Text)
		} else {
			t.Add("approval", "approval required")
		}
	case "no-ui":
		t.Add("approval", "no interactive UI: refused")
	}
}

func describeSource(r omp.Resolution) string {
	switch r.Source {
	case omp.SourceUser:
		return "user policy tools.approval." + r.PolicyKey
	case omp.SourceTool:
		if r.Override {
			return "tool policy (override)"
		}
		return "tool policy"
	}
	return "mode"
}
