package omp

import (
	"slices"

	"github.com/deskcheck/deskcheck/internal/jsonx"

	"github.com/deskcheck/deskcheck/internal/jsontext"

	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// ErrRPCDisconnected is the error every pending and later RPC dialog fails
// with once the client's stream has ended.
var ErrRPCDisconnected = errors.New("RPC client disconnected before extension UI response completed")

// MaxRPCFrame bounds one incoming frame (one line). A longer line ends the
// stream as a disconnect.
const MaxRPCFrame = 16 << 20

// RPCRequest is an extension_ui_request frame written to the client.
type RPCRequest struct {
	Type          string              `json:"type"`
	ID            string              `json:"id"`
	Method        string              `json:"method"`
	Title         string              `json:"title,omitempty"`
	Options       []string            `json:"options,omitempty"`
	OptionDetails []map[string]string `json:"optionDetails,omitempty"`
	TargetID      string              `json:"targetId,omitempty"`
}

// appendJSON appends the frame as json.Marshal writes it (HTML characters
// escaped, empty optional fields left out), but for a lone surrogate of a
// title or option, which it writes as its escape, as JSON.stringify does,
// where json.Marshal writes U+FFFD.
func (f RPCRequest) appendJSON(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = jsonx.AppendStringHTML(b, f.Type)
	b = append(b, `,"id":`...)
	b = jsonx.AppendStringHTML(b, f.ID)
	b = append(b, `,"method":`...)
	b = jsonx.AppendStringHTML(b, f.Method)
	if f.Title != "" {
		b = append(b, `,"title":`...)
		b = jsonx.AppendStringHTML(b, f.Title)
	}
	if len(f.Options) > 0 {
		b = append(b, `,"options":[`...)
		for i, o := range f.Options {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonx.AppendStringHTML(b, o)
		}
		b = append(b, ']')
	}
	if len(f.OptionDetails) > 0 {
		b = append(b, `,"optionDetails":[`...)
		for i, d := range f.OptionDetails {
			if i > 0 {
				b = append(b, ',')
			}
			if d == nil {
				b = append(b, "null"...)
				continue
			}
			keys := make([]string, 0, len(d))
			for k := range d {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			b = append(b, '{')
			for j, k := range keys {
				if j > 0 {
					b = append(b, ',')
				}
				b = jsonx.AppendStringHTML(b, k)
				b = append(b, ':')
				b = jsonx.AppendStringHTML(b, d[k])
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if f.TargetID != "" {
		b = append(b, `,"targetId":`...)
		b = jsonx.AppendStringHTML(b, f.TargetID)
	}
	return append(b, '}')
}

// rpcAnswer settles one pending dialog.
type rpcAnswer struct {
	value     any
	cancelled bool
	err       error
}

// RPCUI is the select surface of RPC mode: it writes extension_ui_request
// frames, one JSON object per line, to the client and settles them from the
// extension_ui_response frames the client sends back.
type RPCUI struct {
	// Faults switches the UI into deliberate bugs; zero is correct. Set it
	// before the first Select.
	Faults Faults

	w   io.Writer
	wmu sync.Mutex

	mu       sync.Mutex
	nextID   uint64
	pending  map[string]chan rpcAnswer
	closed   error
	problems []error
	done     chan struct{}
}

// NewRPCUI starts reading response frames from r and writes request frames
// to w. Reading ends at the end of r (or a read error), which disconnects
// the UI.
func NewRPCUI(w io.Writer, r io.Reader) *RPCUI {
	u := &RPCUI{w: w, pending: map[string]chan rpcAnswer{}, done: make(chan struct{})}
	go u.readLoop(r)
	return u
}

// Done is closed once the UI has stopped reading its input.
func (u *RPCUI) Done() <-chan struct{} { return u.done }

// Problems returns the frames the UI could not use (malformed lines, frames
// that are not UI responses), in arrival order.
func (u *RPCUI) Problems() []error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]error{}, u.problems...)
}

func (u *RPCUI) problem(err error) {
	u.mu.Lock()
	u.problems = append(u.problems, err)
	u.mu.Unlock()
}

func (u *RPCUI) readLoop(r io.Reader) {
	defer close(u.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 512), MaxRPCFrame) // frames are small; it grows for long ones
	line := 0
	for sc.Scan() {
		line++
		u.dispatch(line, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		u.problem(fmt.Errorf("rpc input: %w", err))
	}
	u.mu.Lock()
	u.closed = ErrRPCDisconnected
	pending := u.pending
	u.pending = map[string]chan rpcAnswer{}
	u.mu.Unlock()
	for _, ch := range pending {
		ch <- rpcAnswer{err: ErrRPCDisconnected}
	}
}

// dispatch routes one incoming line. Any object with type
// extension_ui_response and a string id is a control frame: it settles the
// pending dialog with that id, or is dropped when there is none.
func (u *RPCUI) dispatch(line int, b []byte) {
	text := JSTrim(string(b))
	if text == "" {
		return
	}
	// JSON.parse: keys compared exactly, a repeated key keeping its last
	// value, a lone surrogate kept.
	frame, ok := jsontext.ReadHostMembers([]byte(text), nil)
	if !ok {
		u.problem(fmt.Errorf("rpc input line %d: malformed frame: not one JSON object", line))
		return
	}
	typ, okType := frameString(frame, "type")
	id, okID := frameString(frame, "id")
	if !okType || typ != "extension_ui_response" || !okID {
		u.problem(fmt.Errorf("rpc input line %d: not an extension_ui_response frame with a string id", line))
		return
	}
	u.mu.Lock()
	ch, ok := u.pending[id]
	delete(u.pending, id)
	u.mu.Unlock()
	if !ok {
		return
	}
	ch <- selectAnswer(frame)
}

// selectAnswer reads a select answer: cancelled ⇒ none; else the value key
// verbatim, whatever it holds; else none.
func selectAnswer(frame jsontext.Members) rpcAnswer {
	if raw, ok := frame.Get("cancelled"); ok {
		if cancelled, ok := jsontext.DecodeJS(raw); ok && truthy(cancelled) {
			return rpcAnswer{cancelled: true}
		}
	}
	raw, ok := frame.Get("value")
	if !ok {
		return rpcAnswer{}
	}
	// JSON.parse: a lone surrogate of the answer is kept.
	v, ok := jsontext.DecodeJS(raw)
	if !ok {
		return rpcAnswer{}
	}
	return rpcAnswer{value: v}
}

// frameString is the member key of a frame when it is a string.
func frameString(frame jsontext.Members, key string) (string, bool) {
	raw, ok := frame.Get(key)
	if !ok {
		return "", false
	}
	return jsontext.HostString(raw)
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	}
	return true
}

func (u *RPCUI) write(f RPCRequest) error {
	b := f.appendJSON(nil)
	u.wmu.Lock()
	defer u.wmu.Unlock()
	_, err := u.w.Write(append(b, '\n'))
	return err
}

func (u *RPCUI) newID() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.nextID++
	return strconv.FormatUint(u.nextID, 10)
}

// Select sends a select request and waits for its answer. A context that is
// already done returns no answer without sending anything; a context that
// ends while waiting sends a cancel frame naming the request and returns no
// answer. Once the client has disconnected, the request is still written and
// the call fails with ErrRPCDisconnected.
func (u *RPCUI) Select(ctx context.Context, title string, options []SelectItem) (any, error) {
	if ctx.Err() != nil {
		return nil, nil
	}
	req := RPCRequest{Type: "extension_ui_request", ID: u.newID(), Method: "select", Title: title, Options: make([]string, len(options))}
	details, described := make([]map[string]string, len(options)), false
	for i, o := range options {
		req.Options[i] = o.Label
		details[i] = map[string]string{}
		if d := JSTrim(o.Description); d != "" {
			details[i]["description"], described = d, true
		}
	}
	if described {
		req.OptionDetails = details
	}

	ch := make(chan rpcAnswer, 1)
	u.mu.Lock()
	closed := u.closed
	if closed == nil {
		u.pending[req.ID] = ch
	}
	u.mu.Unlock()
	if err := u.write(req); err != nil {
		u.drop(req.ID)
		return nil, fmt.Errorf("rpc: writing select request: %w", err)
	}
	if closed != nil {
		return nil, closed
	}
	select {
	case a := <-ch:
		if a.cancelled && u.Faults.Has(FaultRPCCancelApproves) {
			return approveChoice, nil
		}
		return a.value, a.err
	case <-ctx.Done():
		u.drop(req.ID)
		if err := u.write(RPCRequest{Type: "extension_ui_request", ID: u.newID(), Method: "cancel", TargetID: req.ID}); err != nil {
			return nil, fmt.Errorf("rpc: writing cancel request: %w", err)
		}
		return nil, nil
	}
}

func (u *RPCUI) drop(id string) {
	u.mu.Lock()
	delete(u.pending, id)
	u.mu.Unlock()
}
