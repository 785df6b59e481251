package ompcheck

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/omp"
)

func str(s string) *string { return &s }

func TestScriptRunsOutAsDismissed(t *testing.T) {
	tr := &Trace{}
	s := NewScript([]*string{str("Approve"), nil, str("Deny")}, tr)
	ui := &Dialogs{Inner: ScriptedUI{Script: s}, Trace: tr}
	var got []any
	for i := 0; i < 4; i++ {
		v, err := ui.Select(context.Background(), "t", []omp.SelectItem{{Label: "Approve"}, {Label: "Deny"}})
		require.NoError(t, err)
		got = append(got, v)
	}
	assert.Equal(t, []any{"Approve", nil, "Deny", nil}, got)
	assert.Equal(t, 4, ui.Count())
	assert.Equal(t, 0, s.Unused())
	assert.Contains(t, tr.Events(), Event{Kind: "script", Text: "no scripted answer left for dialog 4: behaves as dismissed"})
	assert.Contains(t, tr.Events(), Event{Kind: "select", Text: `select "t" [Approve, Deny] → "Approve"`})
	assert.Contains(t, tr.Events(), Event{Kind: "select", Text: `select "t" [Approve, Deny] → dismissed (no answer)`})

	s2 := NewScript([]*string{str("a"), str("b")}, tr)
	s2.Next()
	assert.Equal(t, 1, s2.Unused())
}

func TestDialogsRecordFailures(t *testing.T) {
	tr := &Trace{}
	ui := &Dialogs{Inner: failingUI{}, Trace: tr}
	_, err := ui.Select(context.Background(), "title", nil)
	assert.EqualError(t, err, "gone")
	assert.Equal(t, []string{"title"}, ui.Titles())
	assert.Equal(t, `select "title" [] → failed: gone`, tr.Events()[0].Text)
}

type failingUI struct{}

func (failingUI) Select(context.Context, string, []omp.SelectItem) (any, error) {
	return nil, errors.New("gone")
}

func TestRPCClientOverPipes(t *testing.T) {
	tr := &Trace{}
	client := &RPCClient{Script: NewScript([]*string{str("Approve"), nil}, tr), Trace: tr}
	toClient, hostOut := io.Pipe()
	toHost, clientOut := io.Pipe()
	ui := omp.NewRPCUI(hostOut, toHost)
	done := make(chan struct{})
	go func() { client.Serve(toClient, clientOut); close(done) }()

	v, err := ui.Select(context.Background(), "first", []omp.SelectItem{{Label: "Approve"}})
	require.NoError(t, err)
	assert.Equal(t, "Approve", v)
	long := strings.Repeat("a long title ", 10<<10) // far beyond the read buffer
	v, err = ui.Select(context.Background(), long, []omp.SelectItem{{Label: "Approve"}})
	require.NoError(t, err)
	assert.Nil(t, v, "a dismissal is sent as cancelled")
	hostOut.Close()
	<-done
	<-ui.Done()
	assert.Equal(t, 2, client.SelectRequests())
	frames := client.Frames()
	require.Len(t, frames, 4)
	assert.JSONEq(t, `{"type":"extension_ui_response","id":"2","cancelled":true}`, frames[3])
}

func TestInertWriterAndHandlers(t *testing.T) {
	tr := &Trace{}
	denied := &omp.Error{Code: "EACCES", Message: "denied"}
	w := &Writer{Errors: []error{denied}, Trace: tr}
	assert.Same(t, denied, w.WriteFile("/x", []byte("abc")))
	assert.NoError(t, w.WriteFile("/x", []byte("abc")))
	assert.Equal(t, 2, w.Attempts())
	assert.Equal(t, 1, w.Successes())
	assert.True(t, w.Produced(denied))
	assert.False(t, w.Produced(&omp.Error{Code: "EACCES", Message: "denied"}), "identity, not equality")

	var f omp.Fallbacks
	h := &Handlers{Trace: tr}
	h.Register(&f, []string{"fail", "decline", "complete"})
	w2 := &Writer{Errors: []error{denied}, Trace: tr}
	require.NoError(t, f.WriteFile(context.Background(), "/shelf/../card", nil, w2, PathOps{Trace: tr}, ""))
	assert.Equal(t, 3, h.Calls())
	assert.Contains(t, tr.Events()[len(tr.Events())-1].Text, "fallback handler 3 (complete) asked to write /card")

	mk := PathOps{MkdirErr: errors.New("no"), Trace: tr}
	assert.EqualError(t, mk.MkdirAll("/a"), "no")
}

func TestExecutorAndToolCalls(t *testing.T) {
	tr := &Trace{}
	e := &Executor{Trace: tr}
	assert.Nil(t, e.LastInput())
	_, err := e.Execute(context.Background(), "c", map[string]any{"a": 1}, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, e.Effects())
	assert.Equal(t, map[string]any{"a": 1}, e.LastInput())

	tc := &ToolCalls{Trace: tr, Revise: map[string]any{"b": 2}}
	res, err := tc.Handler().Handle(context.Background(), omp.ToolCallEvent{ToolName: "t", Input: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"b": 2}, res.Input)
	assert.Equal(t, 1, tc.Events())
}

func TestTraceNotes(t *testing.T) {
	tr := &Trace{}
	tr.Start(2)
	note(tr, omp.Note{Step: "resolve-original", Mode: "yolo", Resolution: &omp.Resolution{Policy: omp.PolicyDeny, Tier: omp.TierExec, Source: omp.SourceUser, PolicyKey: "seed_note", Row: 2}})
	note(tr, omp.Note{Step: "resolve", Mode: "write", Resolution: &omp.Resolution{Policy: omp.PolicyPrompt, Tier: omp.TierRead, Source: omp.SourceTool, Override: true, Row: 5}})
	note(tr, omp.Note{Step: "approval-required", Text: "Critical"})
	note(tr, omp.Note{Step: "no-ui"})
	assert.Equal(t, []Event{
		{Seq: 2, Kind: "resolve", Text: "resolve (original input): deny — user policy tools.approval.seed_note is deny (decision row 2)"},
		{Seq: 2, Kind: "resolve", Text: "resolve (effective input): prompt — the tool demands a prompt (override) (decision row 5)"},
		{Seq: 2, Kind: "approval", Text: "approval required (reason: Critical)"},
		{Seq: 2, Kind: "approval", Text: "no interactive UI: the approval cannot be asked"},
	}, tr.Events())
}

func TestExplainEveryRow(t *testing.T) {
	tests := []struct {
		r    omp.Resolution
		mode string
		want string
	}{
		{omp.Resolution{Policy: omp.PolicyDeny, Row: 1, Reason: "shelf locked"}, "yolo", "deny — tool policy deny; reason: shelf locked (decision row 1)"},
		{omp.Resolution{Policy: omp.PolicyDeny, Row: 2, PolicyKey: "k"}, "yolo", "deny — user policy tools.approval.k is deny (decision row 2)"},
		{omp.Resolution{Policy: omp.PolicyPrompt, Row: 3}, "yolo", "prompt — tool policy prompt, which yolo does not override (decision row 3)"},
		{omp.Resolution{Policy: omp.PolicyPrompt, Row: 4, Source: omp.SourceUser, PolicyKey: "k"}, "yolo", "prompt — user policy tools.approval.k applies even in yolo (decision row 4)"},
		{omp.Resolution{Policy: omp.PolicyAllow, Row: 4, Source: omp.SourceMode}, "yolo", "allow — yolo mode allows every tier (decision row 4)"},
		{omp.Resolution{Policy: omp.PolicyAllow, Row: 5}, "write", "allow — tool override with policy allow (decision row 5)"},
		{omp.Resolution{Policy: omp.PolicyAllow, Row: 6}, "write", "allow — tool policy allow (decision row 6)"},
		{omp.Resolution{Policy: omp.PolicyAllow, Row: 7, PolicyKey: "k"}, "write", "allow — user policy tools.approval.k is allow (decision row 7)"},
		{omp.Resolution{Policy: omp.PolicyAllow, Row: 8, Tier: omp.TierWrite}, "write", "allow — mode write auto-approves tier write (decision row 8)"},
		{omp.Resolution{Policy: omp.PolicyPrompt, Row: 9, Tier: omp.TierExec, Reason: "r"}, "always-ask", "prompt — mode always-ask does not auto-approve tier exec; reason: r (decision row 9)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Explain(tt.r, tt.mode))
	}
}

// TestTraceEventsAreASnapshot: events added after Events was called do
// not show in, or overwrite, what it returned.
func TestTraceEventsAreASnapshot(t *testing.T) {
	tr := &Trace{}
	tr.Start(1)
	tr.Add("execute", "execute %d", 1)
	tr.AddText("outcome", "return")
	first := tr.Events()
	require.Len(t, first, 2)
	for i := 0; i < 40; i++ {
		tr.AddText("later", "more")
	}
	assert.Equal(t, []Event{{Seq: 1, Kind: "execute", Text: "execute 1"}, {Seq: 1, Kind: "outcome", Text: "return"}}, first)
	assert.Len(t, tr.Events(), 42)
	grown := append(first, Event{Kind: "caller's own"})
	assert.Len(t, grown, 3)
	assert.Equal(t, "later", tr.Events()[2].Kind, "appending to a snapshot leaves the trace alone")
}

// A frame nested a million deep is recorded as not JSON, in bounded stack.
func TestRPCClientDeepFrameInBoundedStack(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	tr := &Trace{}
	client := &RPCClient{Script: NewScript(nil, tr), Trace: tr}
	var out bytes.Buffer
	client.Serve(strings.NewReader(strings.Repeat("[", 1_000_000)+"\n"), nopCloser{&out})
	require.Len(t, client.Frames(), 1)
	assert.Equal(t, 0, client.SelectRequests())
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
