package recorders

import (
	"bufio"
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
		frame := sc.Bytes()
		if !gjson.ValidBytes(frame) {
			c.record("rpc-out", string(frame), gjson.Result{})
			continue
		}
		req := gjson.ParseBytes(frame)
		c.record("rpc-out", string(frame), req)
		if req.Get("method").String() != "select" {
			continue
		}
		c.mu.Lock()
		c.selects++
		c.mu.Unlock()
		b := append([]byte(`{"type":"extension_ui_response","id":`), jsonx.AppendString(nil, req.Get("id").String())...)
		if a, _ := c.Script.Next(); a == nil {
			b = append(b, `,"cancelled":true}`...)
		} else {
			b = append(append(b, `,"value":`...), jsonx.AppendString(nil, *a)...)
			b = append(b, '}')
		}
		c.record("rpc-in", string(b), gjson.ParseBytes(b))
		if _, err := out.Write(append(b, '\n')); err != nil {
			return
		}
	}
}

func (c *RPCClient) record(kind, frame string, f gjson.Result) {
	c.mu.Lock()
	c.frames = append(c.frames, frame)
	c.mu.Unlock()
	typ, id := f.Get("type").String(), f.Get("id").String()
	if kind == "rpc-out" {
		c.Trace.AddText(kind, "rpc → "+typ+" "+f.Get("method").String()+" id="+id+": "+frame)
		return
	}
	answer := "value " + jsonText(f.Get("value").Value())
	if f.Get("cancelled").Bool() {
		answer = "cancelled"
	}
	c.Trace.AddText(kind, "rpc ← "+typ+" id="+id+" "+answer)
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
