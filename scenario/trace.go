package scenario

import (
	"fmt"
	"sync"
)

// Event is one thing a recorder saw.
type Event struct {
	// Seq numbers the call, step or request the event belongs to (the
	// scenario's Unit), from 1; 0 outside any.
	Seq int `json:"seq"`
	// Kind names the recorder or step: resolve, tool_call, select,
	// check, audit, outcome, ...
	Kind string `json:"kind"`
	// Text says what happened.
	Text string `json:"text"`
}

// Trace is an ordered, concurrency-safe event log shared by the recorders
// of one case.
type Trace struct {
	mu     sync.Mutex
	seq    int
	events []Event
}

// Start numbers the events that follow as belonging to unit n.
func (t *Trace) Start(n int) {
	t.mu.Lock()
	t.seq = n
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
	t.events = append(t.events, Event{Seq: t.seq, Kind: kind, Text: text})
}

// Events returns the events so far. Events are never changed once added,
// and the slice returned has no room to grow, so later events cannot show
// through it.
func (t *Trace) Events() []Event {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.events[:len(t.events):len(t.events)]
}

// Len is the number of events so far.
func (t *Trace) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.events)
}
