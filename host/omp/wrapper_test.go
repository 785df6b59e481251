package omp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// log is a shared event log for ordering checks.
type log struct {
	mu     sync.Mutex
	events []string
}

func (l *log) add(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, a...))
}

// scriptUI answers from a script; past its end it answers nothing.
type scriptUI struct {
	log     *log
	answers []any
	err     error
	titles  []string
	options [][]SelectItem
}

func (u *scriptUI) Select(_ context.Context, title string, options []SelectItem) (any, error) {
	u.log.add("select")
	u.titles = append(u.titles, title)
	u.options = append(u.options, options)
	if u.err != nil {
		return nil, u.err
	}
	if len(u.answers) == 0 {
		return nil, nil
	}
	a := u.answers[0]
	u.answers = u.answers[1:]
	return a, nil
}

type countExec struct {
	mu     sync.Mutex
	log    *log
	inputs []any
	err    error
}

func (e *countExec) Execute(_ context.Context, _ string, params any, _ *CallContext) (any, error) {
	e.log.add("execute")
	e.mu.Lock()
	defer e.mu.Unlock()
	e.inputs = append(e.inputs, params)
	return "ok", e.err
}

type fixture struct {
	log    *log
	runner *Runner
	ui     *scriptUI
	exec   *countExec
	w      *Wrapper
}

// newFixture wires a wrapper around seed_note with a recording tool_call
// handler that revises the input to revise (when non-nil).
func newFixture(approval any, answers []any, revise any) *fixture {
	l := &log{}
	f := &fixture{log: l, runner: NewRunner(), ui: &scriptUI{log: l, answers: answers}, exec: &countExec{log: l}}
	f.runner.SetUI(f.ui)
	f.runner.OnToolCall(ToolCallHandler{Extension: "recorder", Handle: func(_ context.Context, ev ToolCallEvent) (*ToolCallResult, error) {
		l.add("tool_call")
		if revise != nil {
			return &ToolCallResult{Input: revise}, nil
		}
		return nil, nil
	}})
	f.w = &Wrapper{Tool: Tool{Name: "seed_note", Approval: approval}, Exec: f.exec, Runner: f.runner}
	return f
}

func (f *fixture) count(ev string) int {
	n := 0
	for _, e := range f.log.events {
		if e == ev {
			n++
		}
	}
	return n
}

func settings(mode string, user map[string]any) *CallContext {
	return &CallContext{Settings: &Settings{ApprovalMode: mode, Approval: user}}
}

const noUIText = "Tool \"seed_note\" requires approval but no interactive UI available.\nOptions:\n" +
	"  1. Set tools.approvalMode: yolo in /settings\n" +
	"  2. Add tools.approval.seed_note: allow to config\n" +
	"  3. Use an interactive UI to approve the tool call"

func TestWrapperOutcomes(t *testing.T) {
	args := map[string]any{"action": "publish"}
	tests := []struct {
		reason    string
		approval  any
		answers   []any
		revise    any
		noUI      bool
		call      *CallContext
		wantErr   string
		prompts   int
		toolCalls int
		effects   int
	}{
		{"always-ask exec, Approve: runs once", "exec", []any{"Approve"}, nil, false, settings("always-ask", nil), "", 1, 1, 1},
		{"Deny refuses", "exec", []any{"Deny"}, nil, false, settings("always-ask", nil), "Tool call denied by user: seed_note", 1, 1, 0},
		{"dismissed refuses", "exec", []any{nil}, nil, false, settings("always-ask", nil), "Tool call denied by user: seed_note", 1, 1, 0},
		{"lower-case approve refuses", "exec", []any{"approve"}, nil, false, settings("always-ask", nil), "Tool call denied by user: seed_note", 1, 1, 0},
		{"trailing space refuses", "exec", []any{"Approve "}, nil, false, settings("always-ask", nil), "Tool call denied by user: seed_note", 1, 1, 0},
		{"a non-string answer refuses", "exec", []any{1.0}, nil, false, settings("always-ask", nil), "Tool call denied by user: seed_note", 1, 1, 0},
		{"no UI refuses after tool_call", "exec", nil, nil, true, settings("always-ask", nil), noUIText, 0, 1, 0},
		{"autoApprove forces yolo", "exec", nil, nil, true, &CallContext{AutoApprove: true, Settings: &Settings{ApprovalMode: "always-ask"}}, "", 0, 1, 1},
		{"autoApprove keeps a user deny, before tool_call", "exec", nil, nil, true,
			&CallContext{AutoApprove: true, Settings: &Settings{ApprovalMode: "always-ask", Approval: map[string]any{"seed_note": "deny"}}},
			"Tool \"seed_note\" is blocked by user policy.\nTo allow: remove \"tools.approval.seed_note: deny\" from config.", 0, 0, 0},
		{"tool deny on the original input cannot be revised away", map[string]any{"tier": "exec", "policy": "deny"}, nil, map[string]any{"action": "inspect"}, false,
			settings("yolo", nil), `Tool "seed_note" is blocked by tool policy.`, 0, 0, 0},
		{"no context at all is yolo", "exec", nil, nil, true, nil, "", 0, 1, 1},
		{"unset mode is yolo", "exec", nil, nil, true, settings("", nil), "", 0, 1, 1},
		{"write mode runs a write-tier tool without asking", "write", nil, nil, true, settings("write", nil), "", 0, 1, 1},
		{"an unknown mode prompts even for read", "read", []any{"Approve"}, nil, false, settings("ask-me", nil), "", 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			f := newFixture(tt.approval, tt.answers, tt.revise)
			if tt.noUI {
				f.runner.SetUI(nil)
			}
			_, err := f.w.Execute(context.Background(), "call-1", args, tt.call)
			if tt.wantErr == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, tt.wantErr)
			}
			assert.Equal(t, tt.prompts, f.count("select"), "prompts")
			assert.Equal(t, tt.toolCalls, f.count("tool_call"), "toolCalls")
			assert.Equal(t, tt.effects, f.count("execute"), "effects")
		})
	}
}

func TestWrapperApprovalDoesNotPersist(t *testing.T) {
	f := newFixture("exec", []any{"Approve", "Deny"}, nil)
	call := settings("always-ask", nil)
	_, err := f.w.Execute(context.Background(), "call-1", map[string]any{"action": "publish"}, call)
	require.NoError(t, err)
	_, err = f.w.Execute(context.Background(), "call-2", map[string]any{"action": "publish"}, call)
	require.EqualError(t, err, "Tool call denied by user: seed_note")
	assert.Equal(t, 2, f.count("select"))
	assert.Equal(t, 1, f.count("execute"))
	assert.Equal(t, []SelectItem{{Label: "Approve"}, {Label: "Deny"}}, f.ui.options[0])
	assert.Equal(t, "Allow tool: seed_note", f.ui.titles[0])
}

func TestWrapperEventOrder(t *testing.T) {
	f := newFixture("exec", []any{"Approve"}, nil)
	var events []ApprovalEvent
	f.runner.OnApproval(func(ev ApprovalEvent) {
		f.log.add("%s", ev.Type)
		events = append(events, ev)
	})
	_, err := f.w.Execute(context.Background(), "call-1", map[string]any{}, settings("always-ask", nil))
	require.NoError(t, err)
	assert.Equal(t, []string{"tool_call", "tool_approval_requested", "select", "tool_approval_resolved", "execute"}, f.log.events)
	assert.Equal(t, ApprovalEvent{Type: "tool_approval_requested", ToolName: "seed_note", ToolCallID: "call-1", ApprovalMode: "always-ask"}, events[0])
	assert.Equal(t, ApprovalEvent{Type: "tool_approval_resolved", ToolName: "seed_note", ToolCallID: "call-1", Approved: true}, events[1])

	for _, tt := range []struct {
		reason string
		setup  func(*fixture)
		want   string
	}{
		{"a denial resolves with denied by user", func(f *fixture) { f.ui.answers = []any{"Deny"} }, "denied by user"},
		{"no UI resolves with its reason", func(f *fixture) { f.runner.SetUI(nil) }, "no interactive UI available"},
		{"a failing select resolves with its message", func(f *fixture) { f.ui.err = errors.New("dialog broke") }, "dialog broke"},
	} {
		f := newFixture("exec", nil, nil)
		var last ApprovalEvent
		f.runner.OnApproval(func(ev ApprovalEvent) { last = ev })
		tt.setup(f)
		_, err := f.w.Execute(context.Background(), "c", map[string]any{}, settings("always-ask", nil))
		require.Error(t, err, tt.reason)
		assert.Equal(t, ApprovalEvent{Type: "tool_approval_resolved", ToolName: "seed_note", ToolCallID: "c", Reason: tt.want}, last, tt.reason)
	}
}

func TestWrapperSelectErrorPropagates(t *testing.T) {
	f := newFixture("exec", nil, nil)
	boom := errors.New("transport gone")
	f.ui.err = boom
	_, err := f.w.Execute(context.Background(), "c", map[string]any{}, settings("always-ask", nil))
	assert.Same(t, boom, err)
	assert.Equal(t, 0, f.count("execute"))
}

func TestWrapperExecutorErrorPropagates(t *testing.T) {
	f := newFixture("read", nil, nil)
	f.exec.err = errors.New("inert failure")
	_, err := f.w.Execute(context.Background(), "c", map[string]any{}, nil)
	assert.EqualError(t, err, "inert failure")
}

func TestWrapperRevision(t *testing.T) {
	t.Run("the executor sees the revised input", func(t *testing.T) {
		f := newFixture("read", nil, map[string]any{"action": "inspect"})
		_, err := f.w.Execute(context.Background(), "c", map[string]any{"action": "publish"}, nil)
		require.NoError(t, err)
		assert.Equal(t, []any{map[string]any{"action": "inspect"}}, f.exec.inputs)
	})
	t.Run("a revision into a denied input is caught by the full gate", func(t *testing.T) {
		approval := ApprovalFunc(func(args any) (any, error) {
			if args.(map[string]any)["action"] == "burn" {
				return map[string]any{"policy": "deny", "reason": "no burning"}, nil
			}
			return "read", nil
		})
		f := newFixture(approval, nil, map[string]any{"action": "burn"})
		_, err := f.w.Execute(context.Background(), "c", map[string]any{"action": "shelve"}, nil)
		require.EqualError(t, err, "Tool \"seed_note\" is blocked by tool policy.\nReason: no burning")
		assert.Equal(t, 1, f.count("tool_call"))
		assert.Equal(t, 0, f.count("execute"))
	})
	t.Run("the prompt is built on the revised input", func(t *testing.T) {
		f := newFixture("exec", []any{"Approve"}, map[string]any{"action": "inspect"})
		f.w.Tool.FormatApprovalDetails = func(args any) []string {
			return []string{fmt.Sprint("Action: ", args.(map[string]any)["action"])}
		}
		_, err := f.w.Execute(context.Background(), "c", map[string]any{"action": "publish"}, settings("always-ask", nil))
		require.NoError(t, err)
		assert.Equal(t, "Allow tool: seed_note\nAction: inspect", f.ui.titles[0])
	})
}

func TestWrapperLoopMarker(t *testing.T) {
	f := newFixture("read", nil, nil)
	f.runner.MarkToolCallEmitted("c", "seed_note")
	_, err := f.w.Execute(context.Background(), "c", map[string]any{}, nil)
	require.NoError(t, err)
	assert.Equal(t, 0, f.count("tool_call"), "a loop-marked call is not emitted again")
	_, err = f.w.Execute(context.Background(), "c", map[string]any{}, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, f.count("tool_call"), "the marker is consumed once")

	t.Run("a deny still consumes the marker", func(t *testing.T) {
		f := newFixture(map[string]any{"policy": "deny"}, nil, nil)
		f.runner.MarkToolCallEmitted("c", "seed_note")
		_, err := f.w.Execute(context.Background(), "c", map[string]any{}, nil)
		require.Error(t, err)
		assert.False(t, f.runner.ConsumeToolCallEmitted("c", "seed_note"))
	})
	t.Run("markers are bounded, oldest evicted", func(t *testing.T) {
		r := NewRunner()
		for i := 0; i < maxLoopMarkers+1; i++ {
			r.MarkToolCallEmitted(fmt.Sprint(i), "t")
		}
		r.MarkToolCallEmitted("5", "t")
		assert.False(t, r.ConsumeToolCallEmitted("0", "t"))
		assert.True(t, r.ConsumeToolCallEmitted("1", "t"))
		assert.True(t, r.ConsumeToolCallEmitted(fmt.Sprint(maxLoopMarkers), "t"))
		assert.False(t, r.ConsumeToolCallEmitted("1", "t"))
	})
}

func TestWrapperWithoutToolCallHandlers(t *testing.T) {
	r := NewRunner()
	exec := &countExec{log: &log{}}
	w := &Wrapper{Tool: Tool{Name: "seed_note", Approval: "read"}, Exec: exec, Runner: r}
	_, err := w.Execute(context.Background(), "c", map[string]any{}, nil)
	require.NoError(t, err)
	assert.Len(t, exec.inputs, 1)
}

func TestEmitToolCall(t *testing.T) {
	ret := func(res *ToolCallResult, err error) func(context.Context, ToolCallEvent) (*ToolCallResult, error) {
		return func(context.Context, ToolCallEvent) (*ToolCallResult, error) { return res, err }
	}
	rev := func(v string) *ToolCallResult { return &ToolCallResult{Input: map[string]any{"v": v}} }
	tests := []struct {
		reason   string
		handlers []ToolCallHandler
		want     *ToolCallResult
	}{
		{"the last non-nil result wins", []ToolCallHandler{{Extension: "a", Handle: ret(rev("a"), nil)}, {Extension: "b", Handle: ret(rev("b"), nil)}}, rev("b")},
		{"a nil result keeps an earlier revision", []ToolCallHandler{{Extension: "a", Handle: ret(rev("a"), nil)}, {Extension: "b", Handle: ret(nil, nil)}}, rev("a")},
		{"an empty result erases an earlier revision", []ToolCallHandler{{Extension: "a", Handle: ret(rev("a"), nil)}, {Extension: "b", Handle: ret(&ToolCallResult{}, nil)}}, &ToolCallResult{}},
		{"the first block returns at once", []ToolCallHandler{{Extension: "a", Handle: ret(&ToolCallResult{Block: true, Reason: "stop"}, nil)}, {Extension: "b", Handle: ret(rev("b"), nil)}}, &ToolCallResult{Block: true, Reason: "stop"}},
		{"a failing handler blocks, naming its extension", []ToolCallHandler{{Extension: "ext/a.ts", Handle: ret(nil, errors.New("bad"))}}, &ToolCallResult{Block: true, Reason: "Extension ext/a.ts failed: bad"}},
		{"a panicking handler blocks", []ToolCallHandler{{Extension: "ext/p.ts", Handle: func(context.Context, ToolCallEvent) (*ToolCallResult, error) { panic("oops") }}}, &ToolCallResult{Block: true, Reason: "Extension ext/p.ts failed: oops"}},
	}
	for _, tt := range tests {
		r := NewRunner()
		for _, h := range tt.handlers {
			r.OnToolCall(h)
		}
		assert.Equal(t, tt.want, r.EmitToolCall(context.Background(), ToolCallEvent{}), tt.reason)
	}

	t.Run("a slow handler times out with the exact text", func(t *testing.T) {
		clock := &fakeClock{}
		r := NewRunner()
		r.Clock, r.ToolCallTimeout = clock, 20*time.Millisecond
		r.OnToolCall(ToolCallHandler{Extension: "ext/slow.ts", Handle: func(ctx context.Context, _ ToolCallEvent) (*ToolCallResult, error) {
			clock.Advance(20 * time.Millisecond)
			<-ctx.Done() // ends only once the time-out is decided
			return nil, nil
		}})
		assert.Equal(t, &ToolCallResult{Block: true, Reason: "Extension ext/slow.ts timed out after 20ms"}, r.EmitToolCall(context.Background(), ToolCallEvent{}))
	})
	t.Run("a handler that returns before its limit is not timed out", func(t *testing.T) {
		clock := &fakeClock{}
		r := NewRunner()
		r.Clock, r.ToolCallTimeout = clock, 20*time.Millisecond
		r.OnToolCall(ToolCallHandler{Extension: "ext/quick.ts", Handle: func(context.Context, ToolCallEvent) (*ToolCallResult, error) {
			clock.Advance(19 * time.Millisecond)
			return rev("q"), nil
		}})
		assert.Equal(t, rev("q"), r.EmitToolCall(context.Background(), ToolCallEvent{}))
	})
	t.Run("an inline handler is judged when it returns", func(t *testing.T) {
		clock := &fakeClock{}
		r := NewRunner()
		r.Clock, r.ToolCallTimeout = clock, 10*time.Millisecond
		r.OnToolCall(ToolCallHandler{Extension: "ext/inline.ts", Inline: true, Handle: func(context.Context, ToolCallEvent) (*ToolCallResult, error) {
			clock.Advance(20 * time.Millisecond)
			return nil, nil
		}})
		assert.Equal(t, &ToolCallResult{Block: true, Reason: "Extension ext/inline.ts timed out after 10ms"}, r.EmitToolCall(context.Background(), ToolCallEvent{}))
		r = NewRunner()
		r.Clock, r.ToolCallTimeout = clock, 10*time.Millisecond
		r.OnToolCall(ToolCallHandler{Extension: "ext/inline.ts", Inline: true, Handle: func(context.Context, ToolCallEvent) (*ToolCallResult, error) {
			clock.Advance(10 * time.Millisecond)
			return rev("in"), nil
		}})
		assert.Equal(t, rev("in"), r.EmitToolCall(context.Background(), ToolCallEvent{}), "exactly the limit is in time")
		for reason, h := range map[string]func(context.Context, ToolCallEvent) (*ToolCallResult, error){
			"Extension ext/inline.ts failed: bad":  ret(nil, errors.New("bad")),
			"Extension ext/inline.ts failed: oops": func(context.Context, ToolCallEvent) (*ToolCallResult, error) { panic("oops") },
		} {
			r := NewRunner()
			r.OnToolCall(ToolCallHandler{Extension: "ext/inline.ts", Inline: true, Handle: h})
			assert.Equal(t, &ToolCallResult{Block: true, Reason: reason}, r.EmitToolCall(context.Background(), ToolCallEvent{}))
		}
		r = NewRunner()
		r.OnToolCall(ToolCallHandler{Extension: "a", Inline: true, Handle: ret(rev("x"), nil)})
		assert.Equal(t, rev("x"), r.EmitToolCall(context.Background(), ToolCallEvent{}))
	})
	t.Run("a cancelled call skips handlers and blocks", func(t *testing.T) {
		r := NewRunner()
		ran := false
		r.OnToolCall(ToolCallHandler{Extension: "a", Handle: func(context.Context, ToolCallEvent) (*ToolCallResult, error) { ran = true; return nil, nil }})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		assert.Equal(t, &ToolCallResult{Block: true, Reason: "Tool execution was cancelled while an extension handler was pending"}, r.EmitToolCall(ctx, ToolCallEvent{}))
		assert.False(t, ran)
	})
	t.Run("the wrapper throws the block reason, or a default", func(t *testing.T) {
		for reason, want := range map[string]string{"": "Tool execution was blocked by an extension", "shelf closed": "shelf closed"} {
			f := newFixture("read", nil, nil)
			f.runner.OnToolCall(ToolCallHandler{Extension: "b", Handle: ret(&ToolCallResult{Block: true, Reason: reason}, nil)})
			_, err := f.w.Execute(context.Background(), "c", map[string]any{}, nil)
			assert.EqualError(t, err, want)
			assert.Equal(t, 0, f.count("execute"))
		}
	})
}

func TestHasUI(t *testing.T) {
	r := NewRunner()
	assert.False(t, r.HasUI(), "a new runner has only its no-op UI")
	r.SetUI(&scriptUI{log: &log{}})
	assert.True(t, r.HasUI(), "any supplied UI counts, even one that never answers")
	r.SetUI(nil)
	assert.False(t, r.HasUI())
	other := NewRunner()
	r.SetUI(other.UI())
	assert.True(t, r.HasUI(), "another runner's no-op UI is not this runner's")
}

func TestWrapperSafetyChecks(t *testing.T) {
	computer := func(checks ...SafetyCheck) *CallContext {
		return &CallContext{AutoApprove: true, Settings: &Settings{ApprovalMode: "yolo", Approval: map[string]any{"seed_note": "allow"}},
			Computer: &ComputerCall{Actions: []any{map[string]any{"action": "inspect"}}, PendingSafetyChecks: checks}}
	}
	t.Run("no UI refuses even in yolo under allow", func(t *testing.T) {
		f := newFixture("read", nil, nil)
		f.runner.SetUI(nil)
		call := computer(SafetyCheck{Message: "Fictional seed shelf check"})
		_, err := f.w.Execute(context.Background(), "c", map[string]any{"action": "inspect"}, call)
		require.EqualError(t, err, `Tool "seed_note" has pending provider safety checks but no interactive UI is available.`)
		assert.False(t, call.ProviderSafetyApproved)
		assert.Equal(t, 1, f.count("tool_call"))
		assert.Equal(t, 0, f.count("select"))
	})
	t.Run("approval sets providerSafetyApproved and ignores revisions", func(t *testing.T) {
		f := newFixture("read", []any{"Approve"}, map[string]any{"action": "rewritten"})
		var seen []ToolCallEvent
		f.runner.OnToolCall(ToolCallHandler{Extension: "spy", Handle: func(_ context.Context, ev ToolCallEvent) (*ToolCallResult, error) {
			seen = append(seen, ev)
			return nil, nil
		}})
		call := computer(SafetyCheck{Message: "Fictional seed shelf check"})
		_, err := f.w.Execute(context.Background(), "c", map[string]any{"action": "inspect"}, call)
		require.NoError(t, err)
		assert.True(t, call.ProviderSafetyApproved)
		assert.Equal(t, "Allow tool: seed_note\nProvider safety checks:\n1. Fictional seed shelf check", f.ui.titles[0])
		assert.Equal(t, []any{map[string]any{"action": "inspect"}}, f.exec.inputs)
		assert.Equal(t, map[string]any{"actions": call.Computer.Actions, "pendingSafetyChecks": call.Computer.PendingSafetyChecks}, seen[0].Input)
	})
	t.Run("approval args are the actions", func(t *testing.T) {
		var got any
		approval := ApprovalFunc(func(args any) (any, error) { got = args; return "read", nil })
		f := newFixture(approval, []any{"Approve"}, nil)
		call := computer(SafetyCheck{ID: "c1"})
		_, err := f.w.Execute(context.Background(), "c", map[string]any{"action": "inspect"}, call)
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"actions": call.Computer.Actions}, got)
	})
	t.Run("a denial leaves the flag unset", func(t *testing.T) {
		f := newFixture("read", []any{"Deny"}, nil)
		call := computer(SafetyCheck{ID: "c1"})
		_, err := f.w.Execute(context.Background(), "c", map[string]any{}, call)
		require.Error(t, err)
		assert.False(t, call.ProviderSafetyApproved)
	})
}

func TestSafetyCheckLines(t *testing.T) {
	tests := []struct {
		reason string
		check  SafetyCheck
		want   string
	}{
		{"message first", SafetyCheck{ID: "i", Code: "c", Message: "Fictional seed shelf check"}, "1. Fictional seed shelf check"},
		{"code when no message", SafetyCheck{ID: "i", Code: "malicious_instructions"}, `1. malicious\_instructions`},
		{"id when nothing else", SafetyCheck{ID: "sc-1"}, `1. sc\-1`},
		{"markdown characters are escaped", SafetyCheck{Message: "a*b_c[d](e)<f>#g+h-i.j!k|l{m}`n\\o"}, "1. a\\*b\\_c\\[d\\]\\(e\\)\\<f\\>\\#g\\+h\\-i\\.j\\!k\\|l\\{m\\}\\`n\\\\o"},
		{"line breaks and tabs fold to one space, CR dropped", SafetyCheck{Message: " one\r\n\ttwo\n\nthree "}, "1. one two three"},
		{"ANSI and control characters removed", SafetyCheck{Message: "\x1b[31mred\x1b[0m\x07 bell\u0085"}, "1. red bell"},
	}
	for _, tt := range tests {
		got, err := SafetyCheckLines([]SafetyCheck{tt.check})
		require.NoError(t, err, tt.reason)
		assert.Equal(t, []string{tt.want}, got, tt.reason)
	}
	long, err := SafetyCheckLines([]SafetyCheck{{Message: strings.Repeat("x", 510)}})
	require.NoError(t, err)
	assert.Equal(t, "1. "+strings.Repeat("x", 500)+`\[…10ch elided…\]`, long[0], "truncated to 500 before escaping")
	two, err := SafetyCheckLines([]SafetyCheck{{Message: "a"}, {Message: "b"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"1. a", "2. b"}, two)
}

func TestWrapperXdevBypass(t *testing.T) {
	tests := []struct {
		reason  string
		user    map[string]any
		revise  any
		prompts int
	}{
		{"an xdev-approved unrevised input skips the tier prompt", nil, nil, 0},
		{"an own user key (even invalid) voids the bypass", map[string]any{"seed_note": "whatever"}, nil, 1},
		{"a revision voids the bypass", nil, map[string]any{"x": 1}, 1},
	}
	for _, tt := range tests {
		f := newFixture("exec", []any{"Approve"}, tt.revise)
		var tier Tier
		call := &CallContext{Settings: &Settings{ApprovalMode: "always-ask", Approval: tt.user}, XdevApproved: true, XdevTierResolved: func(t Tier) { tier = t }}
		_, err := f.w.Execute(context.Background(), "c", map[string]any{}, call)
		require.NoError(t, err, tt.reason)
		assert.Equal(t, tt.prompts, f.count("select"), tt.reason)
		assert.Equal(t, TierExec, tier, tt.reason)
	}
	t.Run("an override still prompts", func(t *testing.T) {
		f := newFixture(map[string]any{"override": true}, []any{"Approve"}, nil)
		_, err := f.w.Execute(context.Background(), "c", map[string]any{}, &CallContext{Settings: &Settings{ApprovalMode: "write"}, XdevApproved: true})
		require.NoError(t, err)
		assert.Equal(t, 1, f.count("select"))
	})
}

func TestWrapperObserveNotes(t *testing.T) {
	f := newFixture("exec", []any{"Approve"}, nil)
	var steps []string
	f.w.Observe = func(n Note) { steps = append(steps, n.Step) }
	_, err := f.w.Execute(context.Background(), "c", map[string]any{}, settings("always-ask", nil))
	require.NoError(t, err)
	assert.Equal(t, []string{"resolve-original", "resolve", "approval-required"}, steps)
}

func TestResolveErrorsSurfaceFromWrapper(t *testing.T) {
	boom := errors.New("approval broke")
	calls := 0
	approval := ApprovalFunc(func(any) (any, error) {
		calls++
		if calls == 2 {
			return nil, boom
		}
		return "read", nil
	})
	f := newFixture(approval, nil, nil)
	_, err := f.w.Execute(context.Background(), "c", map[string]any{}, nil)
	assert.Same(t, boom, err, "an error in the full gate propagates")
	calls = 1
	_, err = f.w.Execute(context.Background(), "c", map[string]any{}, nil)
	assert.Same(t, boom, err, "an error in the pre-resolve propagates")
}

// TestWrapperConcurrent runs 1,000 calls at once on independent models and
// on one shared model; -race must find no shared state.
func TestWrapperConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	shared := newFixture("read", nil, nil)
	errs := make(chan error, 2000)
	for i := 0; i < 1000; i++ {
		wg.Add(2)
		go func(i int) {
			defer wg.Done()
			f := newFixture("exec", []any{"Approve"}, nil)
			if _, err := f.w.Execute(context.Background(), fmt.Sprint(i), map[string]any{"i": i}, settings("always-ask", nil)); err != nil {
				errs <- err
			}
			if f.count("execute") != 1 || f.count("select") != 1 {
				errs <- fmt.Errorf("call %d: counts leaked between models", i)
			}
		}(i)
		go func(i int) {
			defer wg.Done()
			shared.runner.MarkToolCallEmitted(fmt.Sprint(i), "seed_note")
			if _, err := shared.w.Execute(context.Background(), fmt.Sprint(i), map[string]any{"i": i}, nil); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// fakeClock is a Clock that moves only when a test advances it.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiting []fakeTimer
}

type fakeTimer struct {
	at time.Time
	c  chan time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := fakeTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- c.now
	} else {
		c.waiting = append(c.waiting, t)
	}
	return t.c, func() {}
}

// Advance moves the clock by d and fires every timer now due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiting[:0]
	for _, t := range c.waiting {
		if !t.at.After(c.now) {
			t.c <- c.now
		} else {
			kept = append(kept, t)
		}
	}
	c.waiting = kept
}
