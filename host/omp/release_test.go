package omp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests pin the places where the model used to differ from the
// published release @oh-my-pi/pi-coding-agent 18.1.16 (run by bun 1.4.2).
// Each row names the release file and line it follows; paths are inside
// the npm package (pi-coding-agent's src/, or pi-utils' src/ for the
// sanitiser). Every row marked "diverged" failed on the model before the
// fix.

// TestReleasePolicyTrim: a policy value is trimmed with ECMAScript
// String.prototype.trim (src/tools/approval.ts:48, `value.trim()`), which
// removes U+FEFF and keeps U+0085; Go's strings.TrimSpace does the opposite.
func TestReleasePolicyTrim(t *testing.T) {
	tests := []struct {
		in   string
		want Policy
		why  string
	}{
		{"\ufeffdeny", PolicyDeny, "diverged: U+FEFF is ECMAScript whitespace"},
		{"allow\ufeff", PolicyAllow, "diverged: U+FEFF at the end"},
		{"\u0085deny", "", "diverged: U+0085 is not ECMAScript whitespace, so the value is no policy"},
		{"prompt\u0085", "", "diverged: U+0085 at the end"},
		{"\u3000\u2028 Deny \u00a0\u205f", PolicyDeny, "other ECMAScript whitespace, and case"},
		{"\u200bdeny", "", "U+200B is whitespace in neither language"},
		{"\u180edeny", "", "U+180E is no longer a space separator"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, NormalizePolicy(tt.in), "%q: %s", tt.in, tt.why)
	}

	// Through the wrapper, a user policy "\ufeffdeny" refuses before
	// tool_call (src/extensibility/extensions/wrapper.ts:201-204), and
	// "\u0085deny" is ignored, so yolo lets the call run.
	f := newFixture("exec", nil, nil)
	_, err := f.w.Execute(context.Background(), "c1", map[string]any{}, settings("yolo", map[string]any{"seed_note": "\ufeffdeny"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "blocked by user policy")
	assert.Equal(t, 0, f.count("tool_call"))
	f = newFixture("exec", nil, nil)
	_, err = f.w.Execute(context.Background(), "c1", map[string]any{}, settings("yolo", map[string]any{"seed_note": "\u0085deny"}))
	require.NoError(t, err, "diverged: U+0085 made the model deny")
	assert.Equal(t, 1, f.count("execute"))
}

func computerCall(checks ...SafetyCheck) *CallContext {
	return &CallContext{Settings: &Settings{ApprovalMode: "yolo"}, Computer: &ComputerCall{Actions: []any{"inspect"}, PendingSafetyChecks: checks}}
}

// TestReleaseSafetyCheckWithoutText: the text of a check is
// `check.message || check.code || check.id`
// (src/extensibility/extensions/wrapper.ts:142). With all three absent or
// empty the value is undefined (or "" when only the id is ""), and
// sanitising undefined (pi-utils src/sanitize-text.ts:24,
// `text.toWellFormed()`) throws while the title is built
// (wrapper.ts:326-330), before the select at wrapper.ts:333. The no-UI
// refusal comes first (wrapper.ts:308-323).
func TestReleaseSafetyCheckWithoutText(t *testing.T) {
	tests := []struct {
		check SafetyCheck
		err   error
		line  string
		why   string
	}{
		{SafetyCheck{}, ErrSafetyCheckWithoutText, "", "diverged: no message, code or id"},
		{SafetyCheck{Message: "", Code: ""}, ErrSafetyCheckWithoutText, "", "diverged: empty strings are falsy"},
		{SafetyCheck{HasID: true}, nil, "1. ", "an empty id is the last operand of ||, so the text is \"\""},
		{SafetyCheck{Code: "c_1", HasID: true}, nil, `1. c\_1`, "code before id"},
		{SafetyCheck{ID: "0"}, nil, "1. 0", `"0" is a non-empty string, so truthy`},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			lines, err := SafetyCheckLines([]SafetyCheck{tt.check})
			if tt.err != nil {
				assert.Equal(t, tt.err, err)
			} else {
				require.NoError(t, err)
				assert.Equal(t, []string{tt.line}, lines)
			}

			f := newFixture("read", []any{"Approve"}, nil)
			call := computerCall(tt.check)
			_, err = f.w.Execute(context.Background(), "c1", map[string]any{}, call)
			if tt.err == nil {
				require.NoError(t, err)
				assert.Equal(t, 1, f.count("select"))
				assert.True(t, call.ProviderSafetyApproved)
				return
			}
			require.Error(t, err)
			assert.Equal(t, "undefined is not an object (evaluating 'text.toWellFormed')", err.Error())
			assert.Equal(t, 0, f.count("select"), "no dialog")
			assert.Equal(t, 0, f.count("execute"), "no effect")
			assert.Equal(t, 1, f.count("tool_call"), "tool_call came before")
			assert.False(t, call.ProviderSafetyApproved)
		})
	}

	// Without a UI the no-UI refusal wins over the missing text.
	f := newFixture("read", nil, nil)
	f.runner.SetUI(nil)
	_, err := f.w.Execute(context.Background(), "c1", map[string]any{}, computerCall(SafetyCheck{}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "pending provider safety checks but no interactive UI")

	// A second, good check does not save the first: the whole title fails.
	_, err = SafetyCheckLines([]SafetyCheck{{Message: "ok"}, {}})
	assert.Equal(t, ErrSafetyCheckWithoutText, err)

	b, err := json.Marshal([]SafetyCheck{{HasID: true}, {ID: "x", Message: "m"}, {}})
	require.NoError(t, err)
	assert.JSONEq(t, `[{"id":""},{"id":"x","message":"m"},{}]`, string(b))
}

// TestReleaseSafetyTextSanitising: pi-utils src/sanitize-text.ts:23-38
// (toWellFormed at 24-27, the control set at 19, Bun.stripANSI at 35 when
// the text holds an ESC), then wrapper.ts:133-137 (fold CR/LF/TAB runs,
// trim, truncate to 500, escape).
func TestReleaseSafetyTextSanitising(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"\xed\xa0\x80ok", "ok", "diverged: a lone surrogate goes (sanitize-text.ts:25-26)"},
		{"a\ufffd\xed\xb0\x80b\ufffd", "ab", "diverged: text that is not well-formed loses genuine U+FFFD too"},
		{"a\xffb", "ab", "diverged: any byte that does not decode counts as a lone surrogate"},
		{"a\ufffdb", "a\ufffdb", "well-formed text keeps U+FFFD"},
		{"\ufeffcheck\ufeff", "check", "diverged: trim removes U+FEFF (wrapper.ts:135)"},
		{"a\u00a0", "a", "trim removes U+00A0"},
		{"de\x7fl", "del", "DEL is removed (sanitize-text.ts:19)"},
		{"\u0085x\u009fy\u0080", "xy", "C1 controls are removed"},
		{"a\x1bb", "a", "diverged: Bun.stripANSI takes ESC and the next character as one sequence"},
		{"a\x1b]0;title", "a", "diverged: an unterminated OSC runs to the end"},
		{"a\x1b[31", "a", "diverged: an unterminated CSI runs to the end"},
		{"\x1b[1m\u009b31mX", "X", "diverged: with an ESC present, C1 CSI starts a sequence too"},
		{"\u009b31mX", "31mX", "without an ESC, C1 CSI is only a control character"},
		{"a\x1b\u00e9b", "a\u00e9b", "ESC before a non-ASCII character stands alone"},
		{"a\x1b(\U0001F600b", "a\xed\xb8\x80b", "diverged: a two-unit designation eats half a surrogate pair, and the other half stays a lone surrogate"},
		{"x\x1b]0;a\x1b[31mb\x07Y", "xbY", "diverged: ESC inside an OSC starts a new sequence"},
		{"a\x1bPx\u009cb", "ab", "diverged: DCS ends at ST"},
		{"a\x1b[3\x01mb", "ab", "diverged: control characters inside a CSI are skipped"},
		{" one\r\n\ttwo\n\nthree ", "one two three", "CR removed, LF/TAB runs folded, trimmed"},
		{"a*b_c", `a\*b\_c`, "markdown characters escaped"},
	}
	for _, tt := range tests {
		got, err := SafetyCheckLines([]SafetyCheck{{Message: tt.in}})
		require.NoError(t, err)
		assert.Equal(t, "1. "+tt.want, got[0], "%q: %s", tt.in, tt.why)
	}
	long, err := SafetyCheckLines([]SafetyCheck{{Message: strings.Repeat("😀", 300)}})
	require.NoError(t, err)
	assert.Equal(t, "1. "+strings.Repeat("😀", 250)+`\[…100ch elided…\]`, long[0], "500 UTF-16 code units are 250 emoji")
}

// TestReleaseRPCTrim: the RPC select request trims option descriptions
// (src/modes/rpc/rpc-mode.ts:632) and the input reader trims each line
// before parsing it (src/modes/rpc/rpc-input.ts:53), both with ECMAScript
// trim.
func TestReleaseRPCTrim(t *testing.T) {
	ask := func(t *testing.T, options []SelectItem, answer func(id string) string) (RPCRequest, any) {
		fromHost, hostOut := io.Pipe()
		hostIn, toHost := io.Pipe()
		ui := NewRPCUI(hostOut, hostIn)
		defer func() { toHost.Close(); hostOut.Close(); <-ui.Done() }()
		reqs := make(chan RPCRequest, 1)
		go func() {
			line, _ := bufio.NewReader(fromHost).ReadBytes('\n')
			var req RPCRequest
			_ = json.Unmarshal(line, &req)
			reqs <- req
			io.WriteString(toHost, answer(req.ID)+"\n")
			io.Copy(io.Discard, fromHost)
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		v, err := ui.Select(ctx, "t", options)
		require.NoError(t, err)
		return <-reqs, v
	}
	cancelled := func(id string) string { return `{"type":"extension_ui_response","id":"` + id + `","cancelled":true}` }

	req, _ := ask(t, []SelectItem{{Label: "A", Description: "\ufeff"}, {Label: "B"}}, cancelled)
	assert.Nil(t, req.OptionDetails, "diverged: a description of U+FEFF alone is blank")
	req, _ = ask(t, []SelectItem{{Label: "A", Description: "\u0085"}, {Label: "B"}}, cancelled)
	assert.Equal(t, []map[string]string{{"description": "\u0085"}, {}}, req.OptionDetails, "diverged: U+0085 is not blank")

	_, v := ask(t, []SelectItem{{Label: "Approve"}}, func(id string) string {
		return "\ufeff" + `{"type":"extension_ui_response","id":"` + id + `","value":"Approve"}` + "\u3000"
	})
	assert.Equal(t, "Approve", v, "diverged: a frame wrapped in ECMAScript whitespace is read")
}

// TestDenyAllFault: the blanket refusal throws before tool_call.
func TestDenyAllFault(t *testing.T) {
	for _, c := range []*CallContext{settings("yolo", nil), settings("always-ask", map[string]any{"seed_note": "allow"}), nil} {
		f := newFixture("read", []any{"Approve"}, nil)
		f.w.Faults = Faults{}.With(FaultDenyAll)
		_, err := f.w.Execute(context.Background(), "c1", map[string]any{}, c)
		assert.Equal(t, ErrBlockedByPolicy, err)
		assert.Equal(t, "Tool call blocked by policy", err.Error())
		assert.Equal(t, 0, f.count("tool_call"))
		assert.Equal(t, 0, f.count("execute"))
		assert.Equal(t, 0, f.count("select"))
	}
	r, err := resolveApproval(Tool{Name: "x", Approval: "read"}, nil, ModeYolo, policies{}, Faults{}.With(FaultDenyAll))
	require.NoError(t, err)
	assert.Equal(t, PolicyDeny, r.Policy)
}
