package ompcheck

import (
	"bufio"
	"encoding/json"
	"io"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// RPCClient is a synthetic RPC client: it reads the host's
// extension_ui_request frames, records every frame it reads or writes, and
// answers each select request from its Script (a string as {value}, a
// dismissal as {cancelled:true}).
type RPCClient struct {
	Script *Script
	Trace  *Trace

	mu      sync.Mutex
	frames  []string
	selects int
}

// Serve reads request frames from in and writes responses to out until in
// ends. It closes out when it returns, which disconnects the host side.
//
// Frames are read with gjson: the client only ever reads what the host
// model wrote, so reflection-based decoding would buy nothing.
func (c *RPCClient) Serve(in io.Reader, out io.WriteCloser) {
	defer out.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 512), omp.MaxRPCFrame) // frames are small; it grows for long ones
	for sc.Scan() {
		frame := string(sc.Bytes())
		var req gjson.Result        // empty for a frame that is not JSON
		if json.Valid(sc.Bytes()) { // iterative and depth-bounded, unlike gjson.Valid
			req = gjson.Parse(frame)
		}
		method, id := req.Get("method").String(), req.Get("id").String()
		c.record("rpc-out", frame, "rpc → "+req.Get("type").String()+" "+method+" id="+id+": "+frame)
		if method != "select" {
			continue
		}
		c.mu.Lock()
		c.selects++
		c.mu.Unlock()
		b := jsonx.AppendString([]byte(`{"type":"extension_ui_response","id":`), id)
		answer := "cancelled"
		if a, _ := c.Script.Next(); a == nil {
			b = append(b, `,"cancelled":true}`...)
		} else {
			b = append(jsonx.AppendString(append(b, `,"value":`...), *a), '}')
			answer = "value " + jsonText(*a)
		}
		c.record("rpc-in", string(b), "rpc ← extension_ui_response id="+id+" "+answer)
		if _, err := out.Write(append(b, '\n')); err != nil {
			return
		}
	}
}

// record keeps a frame and narrates it in the trace.
func (c *RPCClient) record(kind, frame, text string) {
	c.mu.Lock()
	c.frames = append(c.frames, frame)
	c.mu.Unlock()
	c.Trace.AddText(kind, text)
}

// SelectRequests returns the number of select request frames read.
func (c *RPCClient) SelectRequests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.selects
}

// Frames returns every frame read or written, in order.
func (c *RPCClient) Frames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string{}, c.frames...)
}
