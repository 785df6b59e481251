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

// peer is the client end of an RPCUI wired over two io.Pipes.
type peer struct {
	ui     *RPCUI
	frames *bufio.Scanner // requests written by the UI
	toUI   *io.PipeWriter // responses to the UI
}

func newPeer(t *testing.T) *peer {
	t.Helper()
	hostOut, clientIn := io.Pipe()
	clientOut, hostIn := io.Pipe()
	p := &peer{ui: NewRPCUI(clientIn, clientOut), frames: bufio.NewScanner(hostOut), toUI: hostIn}
	t.Cleanup(func() {
		hostIn.Close()
		hostOut.Close()
		<-p.ui.Done()
	})
	return p
}

func (p *peer) next(t *testing.T) map[string]any {
	t.Helper()
	require.True(t, p.frames.Scan(), "a request frame")
	var f map[string]any
	require.NoError(t, json.Unmarshal(p.frames.Bytes(), &f))
	return f
}

func (p *peer) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(p.toUI, line+"\n")
	require.NoError(t, err)
}

type answer struct {
	v   any
	err error
}

func (p *peer) selectAsync(ctx context.Context, options []SelectItem) chan answer {
	ch := make(chan answer, 1)
	go func() {
		v, err := p.ui.Select(ctx, "Allow tool: seed_note", options)
		ch <- answer{v, err}
	}()
	return ch
}

var approveDeny = []SelectItem{{Label: "Approve"}, {Label: "Deny"}}

func TestRPCSelectFrames(t *testing.T) {
	tests := []struct {
		reason   string
		response func(id string) string
		want     any
	}{
		{"a value is returned", func(id string) string { return `{"type":"extension_ui_response","id":"` + id + `","value":"Approve"}` }, "Approve"},
		{"a value is not checked against the options", func(id string) string {
			return `{"type":"extension_ui_response","id":"` + id + `","value":"Launch"}`
		}, "Launch"},
		{"a non-string value is verbatim", func(id string) string { return `{"type":"extension_ui_response","id":"` + id + `","value":7}` }, 7.0},
		{"cancelled is no answer", func(id string) string { return `{"type":"extension_ui_response","id":"` + id + `","cancelled":true}` }, nil},
		{"cancelled with a value is still no answer", func(id string) string {
			return `{"type":"extension_ui_response","id":"` + id + `","cancelled":true,"timedOut":true,"value":"Approve"}`
		}, nil},
		{"a frame far longer than the read buffer arrives whole", func(id string) string {
			return `{"type":"extension_ui_response","id":"` + id + `","value":"` + strings.Repeat("long ", 40<<10) + `"}`
		}, strings.Repeat("long ", 40<<10)},
		{"confirmed is no select answer", func(id string) string { return `{"type":"extension_ui_response","id":"` + id + `","confirmed":true}` }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			p := newPeer(t)
			got := p.selectAsync(context.Background(), approveDeny)
			req := p.next(t)
			assert.Equal(t, map[string]any{"type": "extension_ui_request", "id": req["id"], "method": "select",
				"title": "Allow tool: seed_note", "options": []any{"Approve", "Deny"}}, req)
			p.send(t, tt.response(req["id"].(string)))
			a := <-got
			require.NoError(t, a.err)
			assert.Equal(t, tt.want, a.v)
		})
	}
}

func TestRPCOptionDetails(t *testing.T) {
	p := newPeer(t)
	got := p.selectAsync(context.Background(), []SelectItem{{Label: "Approve"}, {Label: "Later", Description: "  wait a day "}, {Label: "Blank", Description: "  "}})
	req := p.next(t)
	assert.Equal(t, []any{map[string]any{}, map[string]any{"description": "wait a day"}, map[string]any{}}, req["optionDetails"])
	p.send(t, `{"type":"extension_ui_response","id":"`+req["id"].(string)+`","value":"Later"}`)
	assert.Equal(t, "Later", (<-got).v)
}

func TestRPCIgnoredAndMalformedFrames(t *testing.T) {
	p := newPeer(t)
	got := p.selectAsync(context.Background(), approveDeny)
	req := p.next(t)
	id := req["id"].(string)
	p.send(t, `{"type":"extension_ui_response","id":"no-such-id","value":"Approve"}`)
	p.send(t, `{not json`)
	p.send(t, `{"type":"prompt","message":"hi"}`)
	p.send(t, `{"type":"extension_ui_response","id":12,"value":"Approve"}`)
	p.send(t, ``)
	p.send(t, `{"type":"extension_ui_response","id":"`+id+`","value":"Deny"}`)
	p.send(t, `{"type":"extension_ui_response","id":"`+id+`","value":"Approve"}`)
	a := <-got
	require.NoError(t, a.err)
	assert.Equal(t, "Deny", a.v, "the first response settles; a second one for the same id is ignored")
	p.toUI.Close()
	<-p.ui.Done()
	probs := p.ui.Problems()
	require.Len(t, probs, 3)
	assert.Contains(t, probs[0].Error(), "line 2: malformed frame")
	assert.Contains(t, probs[1].Error(), "line 3: not an extension_ui_response")
	assert.Contains(t, probs[2].Error(), "line 4: not an extension_ui_response")
}

func TestRPCDisconnect(t *testing.T) {
	p := newPeer(t)
	got := p.selectAsync(context.Background(), approveDeny)
	p.next(t)
	p.toUI.Close()
	a := <-got
	assert.Same(t, ErrRPCDisconnected, a.err, "a pending request is rejected")
	assert.EqualError(t, a.err, "RPC client disconnected before extension UI response completed")
	<-p.ui.Done()

	later := p.selectAsync(context.Background(), approveDeny)
	assert.Equal(t, "select", p.next(t)["method"], "a later request is still written")
	assert.Same(t, ErrRPCDisconnected, (<-later).err, "and rejected at once")
}

func TestRPCCancel(t *testing.T) {
	p := newPeer(t)
	ctx, cancel := context.WithCancel(context.Background())
	got := p.selectAsync(ctx, approveDeny)
	req := p.next(t)
	cancel()
	c := p.next(t)
	assert.Equal(t, map[string]any{"type": "extension_ui_request", "id": c["id"], "method": "cancel", "targetId": req["id"]}, c)
	assert.NotEqual(t, req["id"], c["id"])
	a := <-got
	assert.NoError(t, a.err)
	assert.Nil(t, a.v)
	// A late answer for the cancelled request is dropped.
	p.send(t, `{"type":"extension_ui_response","id":"`+req["id"].(string)+`","value":"Approve"}`)

	t.Run("an already-cancelled context sends nothing", func(t *testing.T) {
		p := newPeer(t)
		v, err := p.ui.Select(ctx, "t", approveDeny)
		assert.NoError(t, err)
		assert.Nil(t, v)
		next := p.selectAsync(context.Background(), approveDeny)
		assert.Equal(t, "1", p.next(t)["id"], "the first frame written is the next request")
		p.toUI.Close()
		<-next
	})
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestRPCWriteFailure(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ui := NewRPCUI(failWriter{}, r)
	_, err := ui.Select(context.Background(), "t", approveDeny)
	assert.ErrorIs(t, err, io.ErrClosedPipe)
}

func TestRPCThroughWrapper(t *testing.T) {
	for _, tt := range []struct {
		reason   string
		response string
		wantErr  string
		effects  int
	}{
		{"Approve runs the call", `"value":"Approve"`, "", 1},
		{"cancel refuses it", `"cancelled":true`, "Tool call denied by user: seed_note", 0},
	} {
		t.Run(tt.reason, func(t *testing.T) {
			p := newPeer(t)
			f := newFixture("exec", nil, nil)
			f.runner.SetUI(p.ui)
			done := make(chan error, 1)
			go func() {
				_, err := f.w.Execute(context.Background(), "c", map[string]any{"action": "publish"}, settings("always-ask", nil))
				done <- err
			}()
			req := p.next(t)
			p.send(t, `{"type":"extension_ui_response","id":"`+req["id"].(string)+`",`+tt.response+`}`)
			select {
			case err := <-done:
				if tt.wantErr == "" {
					assert.NoError(t, err)
				} else {
					assert.EqualError(t, err, tt.wantErr)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the wrapper did not settle")
			}
			assert.Equal(t, tt.effects, f.count("execute"))
		})
	}
}
