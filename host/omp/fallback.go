package omp

import (
	"context"
	"path"
	"sync"
)

// FileWriter is the primitive write the fallback wraps.
type FileWriter interface {
	WriteFile(dst string, content []byte) error
}

// PathOps are the file-system steps the fallback takes besides writing. The
// model touches no file: the caller supplies them.
type PathOps interface {
	// MkdirAll creates dir and its parents.
	MkdirAll(dir string) error
	// ResolveTarget resolves dst as the syscall would see it; ok is false
	// when the target cannot be proven (a dangling link, say).
	ResolveTarget(dst string, followFinal bool) (target string, ok bool)
}

// WriteRequest is what a write fallback handler receives.
type WriteRequest struct {
	Dst       string
	Content   []byte
	Cause     error
	SessionID string
}

// WriteHandler tries to complete a denied write another way and reports
// whether it did.
type WriteHandler func(ctx context.Context, req WriteRequest) (bool, error)

type writeEntry struct{ h WriteHandler }

// Fallbacks is an ordered registry of write fallback handlers.
type Fallbacks struct {
	// Faults switches the fallback into deliberate bugs; zero is correct.
	Faults Faults
	// Mutation switches it into one generated mutant; zero is correct.
	Mutation Mutation
	// OnHandlerError, when set, receives the errors of failing handlers,
	// which are otherwise skipped.
	OnHandlerError func(err error)

	mu       sync.Mutex
	handlers []*writeEntry
}

// AddWriteHandler registers h after the handlers already there and returns
// a function that removes exactly this registration.
func (f *Fallbacks) AddWriteHandler(h WriteHandler) (dispose func()) {
	e := &writeEntry{h: h}
	f.mu.Lock()
	f.handlers = append(f.handlers, e)
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for i, x := range f.handlers {
			if x == e {
				f.handlers = append(f.handlers[:i:i], f.handlers[i+1:]...)
				return
			}
		}
	}
}

func (f *Fallbacks) snapshot() []*writeEntry {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*writeEntry{}, f.handlers...)
}

// WriteFile writes content to dst through w. On failure with no handler
// registered, it returns the identical error after one attempt. Otherwise it
// classifies the failure: a missing parent is created once and the write
// retried; a permission denial (of the write, or of creating the parent) is
// offered to the handlers in order, the first that reports true completing
// the write. When nothing completes it, the original error is returned, with
// the denial attached as its cause when that was a different error and the
// original has none.
func (f *Fallbacks) WriteFile(ctx context.Context, dst string, content []byte, w FileWriter, ops PathOps, sessionID string) error {
	for attempt := 0; ; attempt++ {
		err := w.WriteFile(dst, content)
		if err == nil {
			return nil
		}
		handlers := f.snapshot()
		if len(handlers) == 0 {
			switch {
			case f.Faults.Has(FaultFallbackSucceedsWithoutHandlers):
				return nil
			case f.Faults.Has(FaultFallbackRetries) && attempt == 0:
				continue
			}
			return err
		}
		var cause error
		switch {
		case f.denied(err) || f.Mutation.Has(MutFallbackDropCauseCheck):
			cause = err
		case attempt > 0 && !(f.Mutation.Has(MutFallbackExtraAttempt) && attempt == 1) || !IsENOENT(err) || f.Mutation.Has(MutFallbackDropMkdir):
			return err
		default:
			mkErr := ops.MkdirAll(path.Dir(dst))
			if mkErr == nil {
				continue
			}
			if !f.denied(mkErr) {
				return err
			}
			cause = mkErr
		}
		if target, ok := ops.ResolveTarget(dst, true); ok {
			req := WriteRequest{Dst: target, Content: content, Cause: cause, SessionID: sessionID}
			for _, e := range handlers {
				done, herr := e.h(ctx, req)
				if herr != nil {
					if f.OnHandlerError != nil {
						f.OnHandlerError(herr)
					}
					continue
				}
				if done && !f.Mutation.Has(MutFallbackIgnoreComplete) {
					return nil
				}
			}
		}
		if cause != err {
			if he, ok := err.(*Error); ok && he.Cause == nil {
				he.Cause = cause
			}
		}
		return err
	}
}

// denied classifies err, under the mutation when one is on.
func (f *Fallbacks) denied(err error) bool {
	if f.Mutation.Active() {
		return IsPermissionDeniedMutated(f.Mutation, err)
	}
	return IsPermissionDeniedWith(f.Faults, err)
}
