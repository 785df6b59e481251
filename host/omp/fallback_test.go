package omp

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type scriptWriter struct {
	errs     []error // one per attempt; past the end, success
	attempts int
}

func (w *scriptWriter) WriteFile(string, []byte) error {
	w.attempts++
	if w.attempts <= len(w.errs) {
		return w.errs[w.attempts-1]
	}
	return nil
}

type fakeOps struct {
	mkdirErr   error
	mkdirs     []string
	unresolved bool
}

func (o *fakeOps) MkdirAll(dir string) error {
	o.mkdirs = append(o.mkdirs, dir)
	return o.mkdirErr
}

func (o *fakeOps) ResolveTarget(dst string, follow bool) (string, bool) {
	if o.unresolved {
		return "", false
	}
	return "/real" + dst, true
}

func TestWriteFileWithoutHandlers(t *testing.T) {
	denied := &Error{Code: "EACCES", Message: "Synthetic denied fictional seed note"}
	w := &scriptWriter{errs: []error{denied}}
	var f Fallbacks
	err := f.WriteFile(context.Background(), "/seeds/card", []byte("x"), w, &fakeOps{}, "")
	assert.Same(t, denied, err, "the identical error")
	assert.Equal(t, 1, w.attempts)
	assert.Nil(t, denied.Cause)

	enoent := &Error{Code: "ENOENT"}
	ops := &fakeOps{}
	w = &scriptWriter{errs: []error{enoent}}
	assert.Same(t, enoent, f.WriteFile(context.Background(), "/a/b", nil, w, ops, ""))
	assert.Empty(t, ops.mkdirs, "no classification or parent creation without handlers")
}

func TestWriteFileWithHandlers(t *testing.T) {
	eacces := func() *Error { return &Error{Code: "EACCES", Message: "denied"} }
	enoent := func() *Error { return &Error{Code: "ENOENT", Message: "missing"} }
	yes := func(context.Context, WriteRequest) (bool, error) { return true, nil }
	no := func(context.Context, WriteRequest) (bool, error) { return false, nil }
	fail := func(context.Context, WriteRequest) (bool, error) { return false, errors.New("handler broke") }

	tests := []struct {
		reason       string
		errs         func() []error
		mkdirErr     error
		unresolved   bool
		handlers     []WriteHandler
		wantOK       bool
		wantAttempts int
		wantCalls    int // handlers called
		wantCause    string
	}{
		{"first true wins", func() []error { return []error{eacces()} }, nil, false, []WriteHandler{no, yes, yes}, true, 1, 2, ""},
		{"a failing handler is skipped", func() []error { return []error{eacces()} }, nil, false, []WriteHandler{fail, yes}, true, 1, 2, ""},
		{"nobody completes it: the original error", func() []error { return []error{eacces()} }, nil, false, []WriteHandler{no, fail}, false, 1, 2, ""},
		{"ENOENT with a creatable parent retries once and succeeds", func() []error { return []error{enoent()} }, nil, false, []WriteHandler{yes}, true, 2, 0, ""},
		{"ENOENT twice is rethrown after the one retry", func() []error { return []error{enoent(), enoent()} }, nil, false, []WriteHandler{yes}, false, 2, 0, ""},
		{"ENOENT then EACCES goes to the handlers", func() []error { return []error{enoent(), eacces()} }, nil, false, []WriteHandler{yes}, true, 2, 1, ""},
		{"a denied parent is unmasked as the cause", func() []error { return []error{enoent()} }, &Error{Code: "EACCES", Message: "mkdir denied"}, false, []WriteHandler{no}, false, 1, 1, "mkdir denied"},
		{"another parent failure is rethrown", func() []error { return []error{enoent()} }, &Error{Code: "EEXIST"}, false, []WriteHandler{yes}, false, 1, 0, ""},
		{"any other failure is rethrown", func() []error { return []error{&Error{Code: "EIO"}} }, nil, false, []WriteHandler{yes}, false, 1, 0, ""},
		{"an unresolvable target calls no handler", func() []error { return []error{eacces()} }, nil, true, []WriteHandler{yes}, false, 1, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			errs := tt.errs()
			w := &scriptWriter{errs: errs}
			ops := &fakeOps{mkdirErr: tt.mkdirErr, unresolved: tt.unresolved}
			var f Fallbacks
			var handlerErrs []error
			f.OnHandlerError = func(err error) { handlerErrs = append(handlerErrs, err) }
			calls := 0
			var reqs []WriteRequest
			for _, h := range tt.handlers {
				h := h
				f.AddWriteHandler(func(ctx context.Context, r WriteRequest) (bool, error) {
					calls++
					reqs = append(reqs, r)
					return h(ctx, r)
				})
			}
			err := f.WriteFile(context.Background(), "/seeds/card", []byte("c"), w, ops, "s1")
			assert.Equal(t, tt.wantAttempts, w.attempts, "attempts")
			assert.Equal(t, tt.wantCalls, calls, "handler calls")
			if tt.wantOK {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Same(t, errs[w.attempts-1], err, "the original error object")
			}
			if tt.wantCause != "" {
				assert.EqualError(t, errs[0].(*Error).Cause, tt.wantCause)
			} else if !tt.wantOK {
				assert.Nil(t, errs[w.attempts-1].(*Error).Cause)
			}
			for _, r := range reqs {
				assert.Equal(t, "/real/seeds/card", r.Dst)
				assert.Equal(t, "s1", r.SessionID)
				assert.NotNil(t, r.Cause)
			}
		})
	}
}

func TestFallbackDispose(t *testing.T) {
	var f Fallbacks
	var order []string
	add := func(name string) func() {
		return f.AddWriteHandler(func(context.Context, WriteRequest) (bool, error) {
			order = append(order, name)
			return false, nil
		})
	}
	add("a")
	disposeB := add("b")
	add("c")
	disposeB()
	disposeB()
	_ = f.WriteFile(context.Background(), "/x", nil, &scriptWriter{errs: []error{&Error{Code: "EPERM"}}}, &fakeOps{}, "")
	assert.Equal(t, []string{"a", "c"}, order)
}
