package arena

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// The model's side of the wire, written and read without reflection where
// the text is plain enough to be sure of encoding/json's answer; any other
// text goes through encoding/json as before.

// toolsWire is tools as json.Marshal writes a json.RawMessage member.
var toolsWire = func() []byte {
	b, err := json.Marshal(tools)
	if err != nil {
		panic("arena: the tools member does not encode: " + err.Error())
	}
	return b
}()

// requestBody is the chat request of msgs as json.Marshal writes it.
func requestBody(msgs []chatMessage) []byte {
	if b, ok := appendRequest(make([]byte, 0, 1024), msgs); ok {
		return b
	}
	b, _ := json.Marshal(struct {
		Messages    []chatMessage   `json:"messages"`
		Model       string          `json:"model"`
		Temperature int             `json:"temperature"`
		Tools       json.RawMessage `json:"tools"`
	}{msgs, Model, 0, tools})
	return b
}

// appendRequest writes the request by hand; ok is false where a string is
// not valid UTF-8 or a raw call is not one that json.Marshal copies as it
// is (compact, nothing it escapes for HTML).
func appendRequest(b []byte, msgs []chatMessage) ([]byte, bool) {
	b = append(b, `{"messages":[`...)
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		if !utf8.ValidString(m.Role) || !utf8.ValidString(m.ToolCallID) || (m.Content != nil && !utf8.ValidString(*m.Content)) {
			return nil, false
		}
		b = append(b, `{"role":`...)
		b = jsonx.AppendStringHTML(b, m.Role)
		b = append(b, `,"content":`...)
		if m.Content == nil {
			b = append(b, "null"...)
		} else {
			b = jsonx.AppendStringHTML(b, *m.Content)
		}
		if len(m.ToolCalls) > 0 {
			b = append(b, `,"tool_calls":[`...)
			for j, raw := range m.ToolCalls {
				if !copiedAsIs(raw) {
					return nil, false
				}
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, raw...)
			}
			b = append(b, ']')
		}
		if m.ToolCallID != "" {
			b = append(b, `,"tool_call_id":`...)
			b = jsonx.AppendStringHTML(b, m.ToolCallID)
		}
		b = append(b, '}')
	}
	b = append(b, `],"model":`...)
	b = jsonx.AppendStringHTML(b, Model)
	b = append(b, `,"temperature":0,"tools":`...)
	b = append(b, toolsWire...)
	return append(b, '}'), true
}

// copiedAsIs reports whether json.Marshal writes raw, a valid JSON value,
// byte for byte: it has no white space (which compacting drops) and
// nothing escaped for HTML (<, > and &, and U+2028 and U+2029, which
// start with the byte E2).
func copiedAsIs(raw []byte) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xE2:
			return false
		}
	}
	return len(raw) > 0
}

// reply is what the model reads of the gateway's answer: the one choice's
// content and tool calls (each its id, arguments and raw text).
type reply struct {
	content *string
	calls   []replyCall
}

type replyCall struct {
	id, arguments string
	raw           json.RawMessage
}

// readReply reads the gateway's answer; ok is false when it is not one
// choice, as the two decodes of readReplyLibrary read it.
func readReply(body []byte) (reply, bool) {
	if r, ok := readReplyFast(body); ok {
		return r, true
	}
	return readReplyLibrary(body)
}

// readReplyLibrary reads the answer through encoding/json: once for the
// calls' fields, once for their raw text.
func readReplyLibrary(body []byte) (reply, bool) {
	var c struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct {
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &c); err != nil || len(c.Choices) != 1 {
		return reply{}, false
	}
	var raw struct {
		Choices []struct {
			Message struct {
				ToolCalls []json.RawMessage `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	_ = json.Unmarshal(body, &raw)
	m := c.Choices[0].Message
	r := reply{content: m.Content}
	rawCalls := raw.Choices[0].Message.ToolCalls // the same array, read raw
	for i, tc := range m.ToolCalls {
		c := replyCall{id: tc.ID, arguments: tc.Function.Arguments}
		if i < len(rawCalls) {
			c.raw = rawCalls[i]
		}
		r.calls = append(r.calls, c)
	}
	return r, true
}

// readReplyFast reads an answer whose keys are written as the gateway
// writes them: no escape, none repeated or in another case where it is
// read, the values read of the types the gateway gives them. ok is false
// for anything else.
func readReplyFast(body []byte) (r reply, ok bool) {
	var choices []byte
	if !wholeMembers(body, func(name string, v []byte) bool {
		if name != "choices" {
			return true
		}
		if choices != nil || v[0] != '[' {
			return false
		}
		choices = v
		return true
	}, "choices") || choices == nil {
		return reply{}, false
	}
	n := 0
	var message []byte
	if !jsontext.WholeArray(choices, func(start int) int {
		end := jsontext.ScanValue(choices, start, 1)
		if end < 0 || choices[start] != '{' {
			return -1
		}
		n++
		if !wholeMembers(choices[start:end], func(name string, v []byte) bool {
			if name != "message" {
				return true
			}
			if message != nil || v[0] != '{' {
				return false
			}
			message = v
			return true
		}, "message") {
			return -1
		}
		return end
	}) || n != 1 || message == nil {
		return reply{}, false
	}
	var calls []byte
	seenContent := false
	if !wholeMembers(message, func(name string, v []byte) bool {
		switch name {
		case "content":
			if seenContent {
				return false
			}
			seenContent = true
			if string(v) == "null" {
				return true
			}
			s, ok := plainString(v)
			r.content = &s
			return ok
		case "tool_calls":
			if calls != nil || (v[0] != '[' && string(v) != "null") {
				return false
			}
			calls = v
		}
		return true
	}, "content", "tool_calls") {
		return reply{}, false
	}
	if calls == nil || string(calls) == "null" {
		return r, true
	}
	if !jsontext.WholeArray(calls, func(start int) int {
		end := jsontext.ScanValue(calls, start, 1)
		if end < 0 || calls[start] != '{' {
			return -1
		}
		c := replyCall{raw: json.RawMessage(calls[start:end:end])}
		var seenID, seenFunction bool
		if !wholeMembers(c.raw, func(name string, v []byte) bool {
			switch name {
			case "id":
				s, ok := plainString(v)
				c.id = s
				ok = ok && !seenID
				seenID = true
				return ok
			case "function":
				if seenFunction || v[0] != '{' {
					return false
				}
				seenFunction = true
				seenArgs := false
				return wholeMembers(v, func(name string, v []byte) bool {
					if name != "arguments" {
						return true
					}
					s, ok := plainString(v)
					c.arguments = s
					ok = ok && !seenArgs
					seenArgs = true
					return ok
				}, "arguments")
			}
			return true
		}, "id", "function") {
			return -1
		}
		r.calls = append(r.calls, c)
		return end
	}) {
		return reply{}, false
	}
	return r, true
}

// wholeMembers walks obj, one valid JSON object, calling f with each
// member's key and value; it answers false when a key is not plain ASCII,
// matches one of names in another case (which encoding/json would read
// into that field), or f answers false.
func wholeMembers(obj []byte, f func(name string, v []byte) bool, names ...string) bool {
	return jsontext.WholeObject(obj, func(key []byte, plain bool, start int) int {
		end := jsontext.ScanValue(obj, start, 1)
		if end < 0 || !plain {
			return -1
		}
		name := key[1 : len(key)-1]
		for _, c := range name {
			if c >= utf8.RuneSelf {
				return -1
			}
		}
		for _, n := range names {
			if len(n) == len(name) && string(name) != n && bytes.EqualFold(name, []byte(n)) {
				return -1
			}
		}
		if !f(string(name), obj[start:end:end]) {
			return -1
		}
		return end
	})
}

// plainString is the value of v, a JSON string token, as encoding/json
// reads it; ok is false for any other value, and for a string with a
// surrogate escape (where the host reading of jsontext and the library's
// part).
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	end, plain := jsontext.ScanString(v, 0)
	if end != len(v) {
		return "", false
	}
	if plain {
		return string(v[1 : len(v)-1]), true
	}
	if bytes.Contains(v, []byte(`\ud`)) || bytes.Contains(v, []byte(`\uD`)) {
		return "", false
	}
	return jsontext.StringValue(v, false), true
}

// callArguments reads a call's arguments as json.Unmarshal into
// struct{ Action, Ticket string } does.
func callArguments(text string) (action, ticket string, err error) {
	b := []byte(text)
	seenA, seenT := false, false
	if wholeMembers(b, func(name string, v []byte) bool {
		switch name {
		case "action":
			s, ok := plainString(v)
			action, ok = s, ok && !seenA
			seenA = true
			return ok
		case "ticket":
			s, ok := plainString(v)
			ticket, ok = s, ok && !seenT
			seenT = true
			return ok
		}
		return true
	}, "action", "ticket") {
		return action, ticket, nil
	}
	var args struct{ Action, Ticket string }
	err = json.Unmarshal(b, &args)
	return args.Action, args.Ticket, err
}

// decideBody is the decide request of a call, as json.Marshal writes it.
func decideBody(action, ticket string) []byte {
	if utf8.ValidString(action) && utf8.ValidString(ticket) {
		b := make([]byte, 0, 32+len(action)+len(ticket))
		b = append(b, `{"action":`...)
		b = jsonx.AppendStringHTML(b, action)
		b = append(b, `,"ticket":`...)
		b = jsonx.AppendStringHTML(b, ticket)
		return append(b, '}')
	}
	b, _ := json.Marshal(struct {
		Action string `json:"action"`
		Ticket string `json:"ticket"`
	}{action, ticket})
	return b
}

// readDecision reads the fixture's answer as json.Unmarshal into
// struct{ Decision string; Receipt *string } does.
func readDecision(body []byte) (decision string, receipt *string) {
	seenD, seenR := false, false
	if wholeMembers(body, func(name string, v []byte) bool {
		switch name {
		case "decision":
			s, ok := plainString(v)
			decision, ok = s, ok && !seenD
			seenD = true
			return ok
		case "receipt":
			if seenR {
				return false
			}
			seenR = true
			if string(v) == "null" {
				receipt = nil
				return true
			}
			s, ok := plainString(v)
			receipt = &s
			return ok
		}
		return true
	}, "decision", "receipt") {
		return decision, receipt
	}
	var d struct {
		Decision string  `json:"decision"`
		Receipt  *string `json:"receipt"`
	}
	_ = json.Unmarshal(body, &d)
	return d.Decision, d.Receipt
}

// jsonString writes s as Python's json.dumps writes it (null for nil).
// Tickets and receipts are the recorders' own ASCII ids.
func jsonString(s *string) string {
	if s == nil {
		return "null"
	}
	if utf8.ValidString(*s) {
		return string(jsonx.AppendStringHTML(nil, *s))
	}
	b, _ := json.Marshal(*s)
	return string(b)
}
