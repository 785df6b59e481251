package recorders

import (
	"bufio"
	"encoding/json"
	"io"
	"sync"

	"github.com/deskcheck/deskcheck/host/omp"
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
func (c *RPCClient) Serve(in io.Reader, out io.WriteCloser) {
	defer out.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 512), omp.MaxRPCFrame) // frames are small; it grows for long ones
	for sc.Scan() {
		line := sc.Text()
		c.record("rpc-out", line)
		var req omp.RPCRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil || req.Method != "select" {
			continue
		}
		c.mu.Lock()
		c.selects++
		c.mu.Unlock()
		resp := map[string]any{"type": "extension_ui_response", "id": req.ID}
		if a, _ := c.Script.Next(); a == nil {
			resp["cancelled"] = true
		} else {
			resp["value"] = *a
		}
		b, _ := json.Marshal(resp)
		c.record("rpc-in", string(b))
		if _, err := out.Write(append(b, '\n')); err != nil {
			return
		}
	}
}

func (c *RPCClient) record(kind, frame string) {
	c.mu.Lock()
	c.frames = append(c.frames, frame)
	c.mu.Unlock()
	var f struct {
		Type, Method, ID string
		Value            any
		Cancelled        bool
	}
	_ = json.Unmarshal([]byte(frame), &f)
	if kind == "rpc-out" {
		c.Trace.Add(kind, "rpc → %s %s id=%s: %s", f.Type, f.Method, f.ID, frame)
		return
	}
	answer := "value " + jsonText(f.Value)
	if f.Cancelled {
		answer = "cancelled"
	}
	c.Trace.Add(kind, "rpc ← %s id=%s %s", f.Type, f.ID, answer)
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
