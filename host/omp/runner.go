package omp

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// SelectItem is one option of a select dialog. A plain string option has
// only a Label; the others mark an option given as an object.
type SelectItem struct {
	Label          string
	LabelHighlight string
	Description    string
}

// UI is the dialog surface the wrapper asks for approval.
type UI interface {
	// Select shows title and options and returns the answer. A nil answer
	// means the dialog was dismissed or cancelled. Answers are returned as
	// the UI produced them and are not checked against the options.
	Select(ctx context.Context, title string, options []SelectItem) (any, error)
}

// noOpUI is the UI a runner holds when it was given none. It answers
// nothing. HasUI compares a runner's UI with its own no-op UI by identity.
type noOpUI struct{ _ byte }

func (*noOpUI) Select(context.Context, string, []SelectItem) (any, error) { return nil, nil }

// ToolCallEvent is the event emitted to tool_call handlers.
type ToolCallEvent struct {
	ToolName   string
	ToolCallID string
	Input      any
}

// ToolCallResult is what a tool_call handler may return. A nil result means
// the handler had nothing to say. Input, when non-nil, replaces the input the
// tool runs with.
type ToolCallResult struct {
	Block  bool
	Reason string
	Input  any
}

// ToolCallHandler is a tool_call handler registered by one extension.
type ToolCallHandler struct {
	// Extension names the extension in block reasons (its path upstream).
	Extension string
	Handle    func(ctx context.Context, ev ToolCallEvent) (*ToolCallResult, error)
	// Inline runs the handler on the caller's goroutine. Only for handlers
	// that never block (recorders): the time limit is then checked when the
	// handler returns instead of interrupting it.
	Inline bool
}

// ApprovalEvent is a tool_approval_requested or tool_approval_resolved event.
type ApprovalEvent struct {
	Type         string // "tool_approval_requested" or "tool_approval_resolved"
	ToolName     string
	ToolCallID   string
	Reason       string
	ApprovalMode string // requested only
	Approved     bool   // resolved only
}

// DefaultToolCallTimeout bounds each tool_call handler unless the runner sets
// another limit.
const DefaultToolCallTimeout = 30 * time.Second

// maxLoopMarkers bounds the loop-marker set; the oldest marker is evicted.
const maxLoopMarkers = 512

// Runner models the extension runner: its UI, its handlers and the markers
// the agent loop leaves for calls it already emitted tool_call for.
type Runner struct {
	// ToolCallTimeout bounds each tool_call handler; zero or negative means
	// DefaultToolCallTimeout.
	ToolCallTimeout time.Duration
	// Clock measures the handlers' time; nil is the system clock.
	Clock Clock

	noop *noOpUI
	ui   UI

	mu        sync.Mutex
	toolCall  []ToolCallHandler
	approval  []func(ApprovalEvent)
	markers   map[string]struct{}
	markOrder []string
}

// Clock is the time source of a runner's handler time limit, so that a
// test can move time itself.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed, and a
	// function that releases it early.
	After(d time.Duration) (<-chan time.Time, func())
}

// systemClock is the real clock.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) After(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

func (r *Runner) clock() Clock {
	if r.Clock == nil {
		return systemClock{}
	}
	return r.Clock
}

// NewRunner returns a runner with no UI and no handlers.
func NewRunner() *Runner {
	r := &Runner{noop: &noOpUI{}, markers: map[string]struct{}{}}
	r.ui = r.noop
	return r
}

// SetUI installs ui; nil installs the runner's no-op UI.
func (r *Runner) SetUI(ui UI) {
	if ui == nil {
		ui = r.noop
	}
	r.ui = ui
}

// UI returns the current UI (the no-op UI when none was set).
func (r *Runner) UI() UI { return r.ui }

// HasUI reports whether the runner holds a UI other than its own no-op UI.
// Any supplied UI counts, even one that never answers.
func (r *Runner) HasUI() bool {
	noop, isNoop := r.ui.(*noOpUI)
	return !(isNoop && noop == r.noop)
}

// OnToolCall registers a tool_call handler; handlers run in registration
// order.
func (r *Runner) OnToolCall(h ToolCallHandler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.toolCall = append(r.toolCall, h)
}

// OnApproval registers a handler for tool_approval_requested and
// tool_approval_resolved events.
func (r *Runner) OnApproval(h func(ApprovalEvent)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.approval = append(r.approval, h)
}

func (r *Runner) hasToolCallHandlers() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.toolCall) > 0
}

func (r *Runner) approvalHandlers() []func(ApprovalEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]func(ApprovalEvent), len(r.approval))
	copy(out, r.approval)
	return out
}

func markerKey(toolCallID, toolName string) string { return toolCallID + ":" + toolName }

// MarkToolCallEmitted records that the agent loop already emitted tool_call
// for this call, so the wrapper does not emit it again.
func (r *Runner) MarkToolCallEmitted(toolCallID, toolName string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := markerKey(toolCallID, toolName)
	if _, ok := r.markers[k]; ok {
		return
	}
	r.markers[k] = struct{}{}
	r.markOrder = append(r.markOrder, k)
	for len(r.markOrder) > maxLoopMarkers {
		delete(r.markers, r.markOrder[0])
		r.markOrder = r.markOrder[1:]
	}
}

// ConsumeToolCallEmitted removes the marker of this call and reports whether
// it was there.
func (r *Runner) ConsumeToolCallEmitted(toolCallID, toolName string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := markerKey(toolCallID, toolName)
	if _, ok := r.markers[k]; !ok {
		return false
	}
	delete(r.markers, k)
	for i, m := range r.markOrder {
		if m == k {
			r.markOrder = append(r.markOrder[:i], r.markOrder[i+1:]...)
			break
		}
	}
	return true
}

// EmitToolCall runs the tool_call handlers in order. Each is bounded by the
// runner's time limit; a handler that fails or times out blocks the call
// with a reason naming its extension, and the first blocking result is
// returned at once. Otherwise the result is the last non-nil one returned
// (a later empty result erases an earlier revision; a nil one keeps it). A
// cancelled ctx skips the handlers not yet run and blocks the call.
func (r *Runner) EmitToolCall(ctx context.Context, ev ToolCallEvent) *ToolCallResult {
	r.mu.Lock()
	handlers := make([]ToolCallHandler, len(r.toolCall))
	copy(handlers, r.toolCall)
	r.mu.Unlock()
	limit := r.ToolCallTimeout
	if limit <= 0 {
		limit = DefaultToolCallTimeout
	}
	var last *ToolCallResult
	for _, h := range handlers {
		if ctx.Err() != nil {
			continue
		}
		res := runHandler(ctx, r.clock(), h, ev, limit)
		if res != nil && res.Block {
			return res
		}
		if res != nil {
			last = res
		}
	}
	if ctx.Err() != nil {
		return &ToolCallResult{Block: true, Reason: "Tool execution was cancelled while an extension handler was pending"}
	}
	return last
}

func runHandler(ctx context.Context, clock Clock, h ToolCallHandler, ev ToolCallEvent, limit time.Duration) *ToolCallResult {
	if h.Inline {
		return runInline(ctx, clock, h, ev, limit)
	}
	type outcome struct {
		res *ToolCallResult
		err error
	}
	// The handler's context ends when the limit is judged to have passed
	// (or ctx ends), never before: a handler that returns because its
	// context ended is always one that timed out.
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o = outcome{err: fmt.Errorf("%v", p)}
			}
			done <- o
		}()
		o.res, o.err = h.Handle(hctx, ev)
	}()
	expired, stop := clock.After(limit)
	defer stop()
	select {
	case o := <-done:
		if o.err != nil {
			return &ToolCallResult{Block: true, Reason: fmt.Sprintf("Extension %s failed: %s", h.Extension, o.err.Error())}
		}
		return o.res
	case <-expired:
		return &ToolCallResult{Block: true, Reason: fmt.Sprintf("Extension %s timed out after %dms", h.Extension, limit.Milliseconds())}
	}
}

func runInline(ctx context.Context, clock Clock, h ToolCallHandler, ev ToolCallEvent, limit time.Duration) (res *ToolCallResult) {
	start := clock.Now()
	defer func() {
		if p := recover(); p != nil {
			res = &ToolCallResult{Block: true, Reason: fmt.Sprintf("Extension %s failed: %v", h.Extension, p)}
		}
	}()
	r, err := h.Handle(ctx, ev)
	switch {
	case clock.Now().Sub(start) > limit:
		return &ToolCallResult{Block: true, Reason: fmt.Sprintf("Extension %s timed out after %dms", h.Extension, limit.Milliseconds())}
	case err != nil:
		return &ToolCallResult{Block: true, Reason: fmt.Sprintf("Extension %s failed: %s", h.Extension, err.Error())}
	}
	return r
}
