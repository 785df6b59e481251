package ompcheck

import (
	"context"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// Script is a sequence of scripted dialog answers: a string is returned as
// is, nil is a dismissed dialog. Asking past the end answers nil and is
// marked in the trace.
type Script struct {
	mu      sync.Mutex
	answers []*string
	used    int
	trace   *Trace
}

// NewScript returns a script of answers (nil entries are dismissals).
func NewScript(answers []*string, trace *Trace) *Script {
	return &Script{answers: answers, trace: trace}
}

// Next returns the next answer and whether the script had one.
func (s *Script) Next() (answer *string, scripted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used >= len(s.answers) {
		s.used++
		s.trace.Add("script", "no scripted answer left for dialog %d: behaves as dismissed", s.used)
		return nil, false
	}
	a := s.answers[s.used]
	s.used++
	return a, true
}

// Unused returns how many scripted answers were never asked for.
func (s *Script) Unused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used >= len(s.answers) {
		return 0
	}
	return len(s.answers) - s.used
}

// ScriptedUI is a select UI that answers from a Script.
type ScriptedUI struct{ Script *Script }

// Select returns the next scripted answer.
func (u ScriptedUI) Select(context.Context, string, []omp.SelectItem) (any, error) {
	a, _ := u.Script.Next()
	if a == nil {
		return nil, nil
	}
	return *a, nil
}

// Dialogs records every select call made on the UI it wraps: the title,
// the options and the answer.
type Dialogs struct {
	Inner omp.UI
	Trace *Trace

	mu       sync.Mutex
	titles   []string
	answered bool
	last     any
}

// Select records the dialog and passes it to the wrapped UI.
func (d *Dialogs) Select(ctx context.Context, title string, options []omp.SelectItem) (any, error) {
	labels := make([]string, len(options))
	for i, o := range options {
		labels[i] = o.Label
	}
	d.mu.Lock()
	d.titles = append(d.titles, title)
	d.mu.Unlock()
	dialog := "select " + jsonText(title) + " [" + strings.Join(labels, ", ") + "]"
	v, err := d.Inner.Select(ctx, title, options)
	d.mu.Lock()
	d.answered, d.last = err == nil, v
	d.mu.Unlock()
	switch {
	case err != nil:
		d.Trace.AddText("select", dialog+" → failed: "+err.Error())
	case v == nil:
		d.Trace.AddText("select", dialog+" → dismissed (no answer)")
	default:
		d.Trace.AddText("select", dialog+" → "+jsonText(v))
	}
	return v, err
}

// Last returns the answer of the last dialog and whether it was answered
// (a dialog that failed was not).
func (d *Dialogs) Last() (bool, any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.answered, d.last
}

// Titles returns the titles of the dialogs shown so far.
func (d *Dialogs) Titles() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string{}, d.titles...)
}

// Count returns the number of dialogs shown so far.
func (d *Dialogs) Count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.titles)
}

// jsonText renders v as compact JSON for the trace.
func jsonText(v any) string { return string(jsonx.Append(nil, v)) }
