package ompcheck

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"sync"

	"github.com/deskcheck/deskcheck/host/omp"
)

// Executor is an inert tool executor: it records the input of each
// execution and counts it as an effect. It runs nothing.
type Executor struct {
	Trace *Trace

	mu     sync.Mutex
	inputs []any
}

// Execute records one execution.
func (e *Executor) Execute(_ context.Context, _ string, params any, _ *omp.CallContext) (any, error) {
	e.mu.Lock()
	e.inputs = append(e.inputs, params)
	n := len(e.inputs)
	e.mu.Unlock()
	e.Trace.AddText("execute", "execute "+jsonText(params)+" → effect #"+strconv.Itoa(n)+" (inert)")
	return map[string]any{"content": "inert"}, nil
}

// Effects returns the number of executions.
func (e *Executor) Effects() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.inputs)
}

// LastInput returns the input of the last execution (nil when none).
func (e *Executor) LastInput() any {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.inputs) == 0 {
		return nil
	}
	return e.inputs[len(e.inputs)-1]
}

// Writer is an inert file writer that fails as scripted: attempt n returns
// Errors[n-1], and succeeds (writing nothing) past the end of the script.
type Writer struct {
	Errors []error
	Trace  *Trace

	mu        sync.Mutex
	attempts  int
	successes int
	produced  []error
}

// WriteFile records one attempt.
func (w *Writer) WriteFile(dst string, content []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.attempts++
	if w.attempts <= len(w.Errors) {
		err := w.Errors[w.attempts-1]
		w.produced = append(w.produced, err)
		w.Trace.Add("write", "write attempt %d to %s fails: %s", w.attempts, dst, ErrorText(err))
		return err
	}
	w.successes++
	w.Trace.Add("write", "write attempt %d to %s succeeds (inert, %d bytes) → effect #%d", w.attempts, dst, len(content), w.successes)
	return nil
}

// Attempts returns the number of write attempts.
func (w *Writer) Attempts() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.attempts
}

// Successes returns the number of successful writes.
func (w *Writer) Successes() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.successes
}

// Produced reports whether err is the very error value an attempt returned.
func (w *Writer) Produced(err error) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.produced {
		if p == err {
			return true
		}
	}
	return false
}

// PathOps are inert path steps: creating a parent fails with MkdirErr (or
// succeeds, creating nothing), and targets resolve lexically.
type PathOps struct {
	MkdirErr error
	Trace    *Trace
}

// MkdirAll records the parent creation.
func (p PathOps) MkdirAll(dir string) error {
	if p.MkdirErr != nil {
		p.Trace.Add("mkdir", "create parent %s fails: %s", dir, ErrorText(p.MkdirErr))
		return p.MkdirErr
	}
	p.Trace.Add("mkdir", "create parent %s succeeds (inert)", dir)
	return nil
}

// ResolveTarget cleans dst lexically.
func (p PathOps) ResolveTarget(dst string, _ bool) (string, bool) {
	return path.Clean(dst), true
}

// Handlers are scripted fallback handlers; each entry is "complete",
// "decline" or "fail". Each call is one trace event that says what the
// handler was asked and what it answers, so a trace shows where the
// fallback stopped.
type Handlers struct {
	Trace *Trace

	mu    sync.Mutex
	calls int
}

// Register adds one handler per scripted behaviour to f, in order.
func (h *Handlers) Register(f *omp.Fallbacks, behaviours []string) {
	for i, b := range behaviours {
		i, b := i+1, b
		f.AddWriteHandler(func(_ context.Context, req omp.WriteRequest) (bool, error) {
			h.mu.Lock()
			h.calls++
			h.mu.Unlock()
			asked := fmt.Sprintf("fallback handler %d (%s) asked to write %s; cause: %s", i, b, req.Dst, ErrorText(req.Cause))
			switch b {
			case "complete":
				h.Trace.AddText("handler", asked+" → completes: it reports the write done, and no later handler is asked (its write is not an effect: effects count the writer's successful writes)")
				return true, nil
			case "fail":
				h.Trace.AddText("handler", asked+" → fails with an error")
				return false, errors.New("scripted handler failure")
			}
			h.Trace.AddText("handler", asked+" → declines: it reports the write not done")
			return false, nil
		})
	}
}

// Calls returns the number of handler invocations.
func (h *Handlers) Calls() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

// ToolCalls is a recording tool_call handler: it counts events and, when
// Revise is set, returns it as the revised input.
type ToolCalls struct {
	Revise any
	Trace  *Trace

	mu     sync.Mutex
	events int
}

// Handler returns the handler to register on a runner.
func (t *ToolCalls) Handler() omp.ToolCallHandler {
	return omp.ToolCallHandler{Extension: "deskcheck-recorder", Inline: true, Handle: func(_ context.Context, ev omp.ToolCallEvent) (*omp.ToolCallResult, error) {
		t.mu.Lock()
		t.events++
		t.mu.Unlock()
		if t.Revise != nil {
			t.Trace.AddText("tool_call", "tool_call emitted with "+jsonText(ev.Input)+"; handler revised input to "+jsonText(t.Revise))
			return &omp.ToolCallResult{Input: t.Revise}, nil
		}
		t.Trace.AddText("tool_call", "tool_call emitted with "+jsonText(ev.Input))
		return nil, nil
	}}
}

// Events returns the number of tool_call events seen.
func (t *ToolCalls) Events() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.events
}

// ErrorText shows an error with its structured code, if it has one.
func ErrorText(err error) string {
	if err == nil {
		return "no error"
	}
	if c, ok := err.(omp.Coded); ok {
		if code, ok := c.ErrorCode(); ok {
			return fmt.Sprintf("[%s] %s", code, err.Error())
		}
	}
	return err.Error()
}
