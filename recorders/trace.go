package recorders

import (
	"fmt"
	"strconv"
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

// Add appends an event whose text is format with args, as fmt.Sprintf
// makes it.
func (t *Trace) Add(kind, format string, args ...any) {
	t.AddText(kind, fmt.Sprintf(format, args...))
}

// AddText appends an event with the text as given.
func (t *Trace) AddText(kind, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.events == nil {
		t.events = make([]Event, 0, 12)
	}
	t.events = append(t.events, Event{Call: t.call, Kind: kind, Text: text})
}

// Events returns the events so far. Events are never changed once added,
// and the slice returned has no room to grow, so later events cannot show
// through it.
func (t *Trace) Events() []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.events[:len(t.events):len(t.events)]
}

// Note records a step of the host wrapper; it fits omp.Wrapper.Observe.
func (t *Trace) Note(n omp.Note) {
	switch n.Step {
	case "resolve-original", "resolve":
		what := "effective input"
		if n.Step == "resolve-original" {
			what = "original input"
		}
		t.AddText("resolve", "resolve ("+what+"): "+Explain(*n.Resolution, n.Mode))
	case "approval-required":
		if n.Text != "" {
			t.AddText("approval", "approval required (reason: "+n.Text+")")
		} else {
			t.AddText("approval", "approval required")
		}
	case "no-ui":
		t.AddText("approval", "no interactive UI: the approval cannot be asked")
	}
}

// Explain says in words which rule of the decision order produced r.
func Explain(r omp.Resolution, mode string) string {
	user := "user policy tools.approval." + r.PolicyKey
	var why string
	switch r.Row {
	case 1:
		why = "tool policy deny"
	case 2:
		why = user + " is deny"
	case 3:
		why = "tool policy " + string(r.Policy) + ", which yolo does not override"
	case 4:
		if r.Source == omp.SourceUser {
			why = user + " applies even in yolo"
		} else {
			why = "yolo mode allows every tier"
		}
	case 5:
		why = "the tool demands a prompt (override)"
		if r.Policy == omp.PolicyAllow {
			why = "tool override with policy allow"
		}
	case 6:
		why = "tool policy " + string(r.Policy)
	case 7:
		why = user + " is " + string(r.Policy)
	case 8:
		why = "mode " + mode + " auto-approves tier " + string(r.Tier)
	default:
		why = "mode " + mode + " does not auto-approve tier " + string(r.Tier)
	}
	if r.Reason != "" && r.Row != 8 {
		why += "; reason: " + r.Reason
	}
	return string(r.Policy) + " — " + why + " (decision row " + strconv.Itoa(r.Row) + ")"
}
