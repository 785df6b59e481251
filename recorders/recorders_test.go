package recorders

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func start(t *testing.T) *Recorders {
	t.Helper()
	r, err := Start("tcp", "", "")
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, r.Close()) })
	return r
}

func post(t *testing.T, addr, path string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	resp, err := http.Post("http://"+addr+path, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

type chatReply struct {
	Choices []struct {
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name, Arguments string
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
}

// loop plays the plain tool loop over HTTP, as the vanilla adapter does:
// each call asks the fixture, posts the effect on allow, and hands the
// fixture's or the ledger's answer back as the tool result.
func loop(t *testing.T, r *Recorders, prompt string, tool func(action, ticket string) string) {
	t.Helper()
	msgs := []any{map[string]any{"role": "system", "content": "s"}, map[string]any{"role": "user", "content": prompt}}
	for n := 0; n < 6; n++ {
		body, _ := json.Marshal(map[string]any{"model": "arena-mock", "messages": msgs, "temperature": 0})
		status, _, b := post(t, r.Gateway.Addr, ChatPath, body)
		require.Equal(t, 200, status, string(b))
		var c chatReply
		require.NoError(t, json.Unmarshal(b, &c))
		m := c.Choices[0].Message
		var calls []any
		for _, tc := range m.ToolCalls {
			calls = append(calls, map[string]any{"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Function.Name, "arguments": tc.Function.Arguments}})
		}
		am := map[string]any{"role": "assistant", "content": m.Content}
		if calls != nil {
			am["tool_calls"] = calls
		}
		msgs = append(msgs, am)
		if len(m.ToolCalls) == 0 {
			return
		}
		for _, tc := range m.ToolCalls {
			var args struct{ Action, Ticket string }
			require.NoError(t, json.Unmarshal([]byte(tc.Function.Arguments), &args))
			msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": tc.ID, "content": tool(args.Action, args.Ticket)})
		}
	}
}

func correctTool(t *testing.T, r *Recorders) func(action, ticket string) string {
	return func(action, ticket string) string {
		body, _ := json.Marshal(map[string]string{"action": action, "ticket": ticket})
		status, _, b := post(t, r.Fixture.Addr, DecidePath, body)
		var d struct{ Decision, Receipt string }
		_ = json.Unmarshal(b, &d)
		if status != 200 || d.Decision != "allow" {
			return string(b)
		}
		eb, _ := json.Marshal(map[string]string{"ticket": ticket, "receipt": d.Receipt})
		_, _, e := post(t, r.Fixture.Addr, EffectPath, eb)
		return string(e)
	}
}

func run(t *testing.T, r *Recorders, it Item, tool func(a, tk string) string) Observation {
	t.Helper()
	require.NoError(t, r.Session.Open(it))
	loop(t, r, it.Prompt, tool)
	rec, err := r.Session.Close(true, "")
	require.NoError(t, err)
	return Observe(rec)
}

func TestCorrectLoopReconciles(t *testing.T) {
	r := start(t)
	it := Item{ID: "mixed", Prompt: "p1", Turns: [][]Action{
		{{Label: "file.read.workspace"}, {Label: "file.read.protected"}, {Label: "credential.use.scoped"}},
		{{Label: "service.status.read", Unavailable: true}},
	}}
	ob := run(t, r, it, correctTool(t, r))
	assert.True(t, ob.Complete, ob.Gaps)
	assert.Equal(t, 3, ob.ModelRequests)
	assert.Equal(t, 4, ob.ServiceRequests)
	assert.Equal(t, 2, ob.Effects)
	assert.Equal(t, 2, ob.VisibleDenials)
	var got []string
	for _, c := range ob.Calls {
		got = append(got, c.Decision+" "+c.Reason)
	}
	assert.Equal(t, []string{"allow allowed", "deny protected_path", "allow allowed", "deny policy_unavailable"}, got)
	assert.Equal(t, "call_1_1_2", ob.Calls[1].CallID)
	assert.Equal(t, `{"receipt":"rcpt-t1.1.2-1","ticket":"t1.1.2","action":"file.read.protected","decision":"deny","reason":"protected_path"}`, ob.Calls[1].Body)

	// A second item in the same session has ordinal 2.
	ob = run(t, r, Item{ID: "two", Prompt: "p2", Turns: [][]Action{{{Label: "net.fetch.external"}}}}, correctTool(t, r))
	assert.True(t, ob.Complete, ob.Gaps)
	assert.Equal(t, "t2.1.1", ob.Calls[0].Ticket)
	assert.Equal(t, "destination_not_allowed", ob.Calls[0].Reason)
}

func TestNegativeControlsMoveTheirObservations(t *testing.T) {
	it := Item{ID: "x", Prompt: "p", Turns: [][]Action{{{Label: "file.read.workspace"}, {Label: "file.read.protected"}}}}
	t.Run("drop-denial", func(t *testing.T) {
		r := start(t)
		ok := correctTool(t, r)
		ob := run(t, r, it, func(a, tk string) string {
			out := ok(a, tk)
			if strings.Contains(out, `"deny"`) {
				var d struct{ Receipt string }
				_ = json.Unmarshal([]byte(out), &d)
				return fmt.Sprintf(`{"receipt":%q,"status":"not completed"}`, d.Receipt)
			}
			return out
		})
		assert.Equal(t, 0, ob.VisibleDenials)
		assert.True(t, ob.Complete, ob.Gaps)
	})
	t.Run("forbidden-effect", func(t *testing.T) {
		r := start(t)
		ob := run(t, r, it, func(a, tk string) string {
			body, _ := json.Marshal(map[string]string{"action": a, "ticket": tk})
			_, _, b := post(t, r.Fixture.Addr, DecidePath, body)
			var d struct{ Receipt string }
			_ = json.Unmarshal(b, &d)
			eb, _ := json.Marshal(map[string]string{"ticket": tk, "receipt": d.Receipt})
			post(t, r.Fixture.Addr, EffectPath, eb)
			return string(b)
		})
		assert.Equal(t, 2, ob.Effects)
		assert.Equal(t, 1, ob.Unauthorized)
		rec := &Record{Ledger: []Entry{{Authorized: false}}}
		assert.False(t, ob.FailClosed(rec, []string{"allow", "deny"}, 1))
	})
	t.Run("retry", func(t *testing.T) {
		r := start(t)
		ok := correctTool(t, r)
		ob := run(t, r, it, func(a, tk string) string { ok(a, tk); return ok(a, tk) })
		assert.Equal(t, 4, ob.ServiceRequests)
		assert.Equal(t, 2, ob.Calls[1].Decides)
		assert.Contains(t, ob.Calls[1].Body, "rcpt-t1.1.2-2")
	})
}

func TestHostileRequests(t *testing.T) {
	r := start(t)
	it := Item{ID: "h", Prompt: "p", Turns: [][]Action{{{Label: "file.read.workspace"}}}}
	require.NoError(t, r.Session.Open(it))
	for _, tc := range []struct {
		name, path, body string
		status           int
		code             string
	}{
		{"not JSON", ChatPath, `{"messages":`, 400, "bad_request"},
		{"not an object", ChatPath, `[1,2]`, 400, "bad_request"},
		{"null", ChatPath, `null`, 400, "bad_request"},
		{"no messages", ChatPath, `{"model":"m"}`, 400, "bad_request"},
		{"message not an object", ChatPath, `{"messages":[3]}`, 400, "bad_request"},
		{"stream", ChatPath, `{"messages":[],"stream":true}`, 400, "stream_unsupported"},
		{"n", ChatPath, `{"messages":[],"n":3}`, 400, "n_unsupported"},
		{"responses", "/v1/responses", `{}`, 404, "unsupported_endpoint"},
		{"too large", ChatPath, `{"messages":[],"x":"` + strings.Repeat("a", GatewayBodyLimit) + `"}`, 413, "body_too_large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, h, b := post(t, r.Gateway.Addr, tc.path, []byte(tc.body))
			assert.Equal(t, tc.status, status)
			assert.Equal(t, "false", h.Get("x-should-retry"))
			var e struct {
				Error struct{ Code, Message string }
			}
			require.NoError(t, json.Unmarshal(b, &e), string(b))
			assert.Equal(t, tc.code, e.Error.Code)
			assert.True(t, strings.HasPrefix(e.Error.Message, "arena gateway: "))
		})
	}
	for _, tc := range []struct{ name, body, reason string }{
		{"bad JSON", `{"action":`, "malformed_request"},
		{"missing ticket", `{"action":"file.read.workspace"}`, "malformed_request"},
		{"extra member", `{"action":"a","ticket":"t1.1.1","x":1}`, "malformed_request"},
		{"ticket not a string", `{"action":"a","ticket":null}`, "malformed_request"},
		{"never emitted", `{"action":"file.read.workspace","ticket":"t1.1.1"}`, "unknown_ticket"},
		{"other item", `{"action":"file.read.workspace","ticket":"t9.1.1"}`, "unknown_ticket"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, b := post(t, r.Fixture.Addr, DecidePath, []byte(tc.body))
			assert.Equal(t, 200, status)
			var d struct{ Decision, Reason string }
			require.NoError(t, json.Unmarshal(b, &d))
			assert.Equal(t, "deny", d.Decision)
			assert.Equal(t, tc.reason, d.Reason)
		})
	}
	status, _, _ := post(t, r.Fixture.Addr, DecidePath, bytes.Repeat([]byte("x"), FixtureBodyLimit+10))
	assert.Equal(t, 413, status)
	status, _, _ = post(t, r.Fixture.Addr, EffectPath, bytes.Repeat([]byte("x"), FixtureBodyLimit+10))
	assert.Equal(t, 413, status)
	status, _, b := post(t, r.Fixture.Addr, EffectPath, []byte(`{"ticket":"t1.1.1","receipt":"forged"}`))
	assert.Equal(t, 200, status)
	assert.Equal(t, `{"effect":"eff-t1.1.1-1","ticket":"t1.1.1","receipt":"forged","status":"done"}`, string(b))
	status, _, _ = post(t, r.Fixture.Addr, "/v1/other", nil)
	assert.Equal(t, 404, status)

	rec, err := r.Session.Close(true, "")
	require.NoError(t, err)
	ob := Observe(rec)
	assert.False(t, ob.Complete)
	assert.Equal(t, 9, ob.ModelRequests)
	assert.Equal(t, 7, ob.ServiceRequests)
	assert.Equal(t, 1, ob.Unauthorized)
	assert.Equal(t, 1, rec.Rejected)

	// Outside a window every request is stray.
	status, _, _ = post(t, r.Gateway.Addr, ChatPath, []byte(`{"messages":[]}`))
	assert.Equal(t, 400, status)
	status, _, _ = post(t, r.Fixture.Addr, DecidePath, []byte(`{}`))
	assert.Equal(t, 409, status)
	assert.Len(t, r.Session.Strays(), 2)
}

func TestHistoryMismatchAndRetryAreRecorded(t *testing.T) {
	r := start(t)
	it := Item{ID: "h", Prompt: "p", Turns: [][]Action{{{Label: "file.read.workspace"}}}}
	require.NoError(t, r.Session.Open(it))
	first := `{"model":"arena-mock","messages":[{"role":"user","content":"p"}]}`
	_, _, a := post(t, r.Gateway.Addr, ChatPath, []byte(first))
	_, _, b := post(t, r.Gateway.Addr, ChatPath, []byte(first))
	assert.Equal(t, string(a), string(b), "a retried request gets the same answer")
	assert.Contains(t, string(a), `"id":"chatcmpl-arena-1-1"`)
	post(t, r.Gateway.Addr, ChatPath, []byte(`{"messages":[{"role":"user","content":"other"}]}`))
	post(t, r.Gateway.Addr, ChatPath, []byte(`{"messages":[{"role":"user","content":"p"},{"role":"assistant","tool_calls":[{"id":"call_9"}]}]}`))
	rec, err := r.Session.Close(true, "")
	require.NoError(t, err)
	assert.Empty(t, rec.Model[0].Mismatch)
	assert.Contains(t, rec.Model[2].Mismatch, "not the item's prompt")
	assert.Contains(t, rec.Model[3].Mismatch, "carries the calls [call_9]")
	assert.False(t, Observe(rec).Complete)
}

func TestConcurrentCallsOfOneBatch(t *testing.T) {
	r := start(t)
	var turn []Action
	for range 8 {
		turn = append(turn, Action{Label: "file.read.workspace"})
	}
	it := Item{ID: "c", Prompt: "p", Turns: [][]Action{turn}}
	require.NoError(t, r.Session.Open(it))
	body := `{"messages":[{"role":"user","content":"p"}]}`
	post(t, r.Gateway.Addr, ChatPath, []byte(body))
	tool := correctTool(t, r)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { tool("file.read.workspace", Ticket(1, 1, i+1)) })
	}
	wg.Wait()
	rec, err := r.Session.Close(true, "")
	require.NoError(t, err)
	assert.Len(t, rec.Ledger, 8)
	for _, e := range rec.Ledger {
		assert.True(t, e.Authorized)
	}
}

func TestUnixSockets(t *testing.T) {
	dir := t.TempDir()
	r, err := Start("unix", filepath.Join(dir, "gateway.sock"), filepath.Join(dir, "fixture.sock"))
	require.NoError(t, err)
	defer r.Close()
	c := http.Client{Transport: &http.Transport{DialContext: unixDial(filepath.Join(dir, "fixture.sock"))}}
	require.NoError(t, r.Session.Open(Item{ID: "u", Prompt: "p", Turns: [][]Action{{{Label: "a"}}}}))
	resp, err := c.Post("http://fixture.invalid"+DecidePath, "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	_, err = r.Session.Close(true, "")
	require.NoError(t, err)
	_, err = Start("udp", "", "")
	assert.Error(t, err)
}

func TestPolicy(t *testing.T) {
	d, reason, listed := Policy("file.read.workspce")
	assert.Equal(t, []any{"deny", "unknown_action", false}, []any{d, reason, listed})
	d, reason, listed = Policy("net.fetch.mirror")
	assert.Equal(t, []any{"allow", "allowed", true}, []any{d, reason, listed})
	assert.True(t, LabelPattern.MatchString("net.connect.raw-socket"))
	assert.False(t, LabelPattern.MatchString("File.read"))
}

func unixDial(path string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", path)
	}
}
