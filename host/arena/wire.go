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

// requestMarshal is the chat request of msgs written by json.Marshal.
func requestMarshal(msgs []chatMessage) []byte {
	b, _ := json.Marshal(struct {
		Messages    []chatMessage   `json:"messages"`
		Model       string          `json:"model"`
		Temperature int             `json:"temperature"`
		Tools       json.RawMessage `json:"tools"`
	}{msgs, Model, 0, tools})
	return b
}

// requestWriter writes the successive requests of one run. Once sent, a
// message never changes but for the last one (the Agents SDK adds the
// next turn's calls to it), so each message before the last is written
// once and kept, and only the last and the members after the messages
// are written again for the next request.
type requestWriter struct {
	buf []byte
	// kept counts the messages written in buf[:keptLen], each followed
	// by a comma; byHand is false once one of them could not be written
	// by hand (every request after is then json.Marshal's).
	kept, keptLen int
	byHand        bool
}

// body is the request of msgs, which holds the previous call's messages
// unchanged but for its last, and maybe more after it. The bytes are
// valid until the next call: the caller hands them to the recorders,
// which keep a copy of their own.
func (w *requestWriter) body(msgs []chatMessage) []byte {
	if w.buf == nil {
		w.buf = append(make([]byte, 0, 1024), `{"messages":[`...)
		w.keptLen, w.byHand = len(w.buf), true
	}
	b := w.buf[:w.keptLen]
	for w.byHand && w.kept < len(msgs)-1 {
		if b, w.byHand = appendMessage(b, msgs[w.kept]); w.byHand {
			b = append(b, ',')
			w.kept, w.keptLen = w.kept+1, len(b)
		}
	}
	ok := w.byHand
	if ok && len(msgs) > 0 {
		b, ok = appendMessage(b, msgs[len(msgs)-1])
	}
	if !ok {
		return requestMarshal(msgs)
	}
	b = append(b, `],"model":`...)
	b = jsonx.AppendStringHTML(b, Model)
	b = append(b, `,"temperature":0,"tools":`...)
	b = append(b, toolsWire...)
	w.buf = append(b, '}')
	return w.buf
}

// appendMessage writes m by hand; ok is false where a string is not valid
// UTF-8 or a raw call is not one that json.Marshal copies as it is
// (compact, nothing it escapes for HTML).
func appendMessage(b []byte, m chatMessage) ([]byte, bool) {
	if !utf8.ValidString(m.Role) || !utf8.ValidString(m.ToolCallID) || (m.Content != nil && !utf8.ValidString(*m.Content)) {
		return b, false
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
				return b, false
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
//
// It reads in one walk: the objects and arrays on the way to the calls
// are walked as they are read, and every other value is checked at its
// depth in the answer, as one scan of the whole answer checks it.
func readReplyFast(body []byte) (r reply, ok bool) {
	// Depths: the answer's members are at 1, choices' elements at 2,
	// a choice's members at 3, the message's at 4, calls at 5, a call's
	// members at 6 and its function's at 7.
	seenChoices, seenMessage, n := false, false, 0
	end := walkMembers(body, jsontext.SkipSpace(body, 0), 1, func(name string, start int) int {
		if seenChoices || body[start] != '[' {
			return -1
		}
		seenChoices = true
		return jsontext.EachElement(body, start, func(start int) int {
			if start >= len(body) || body[start] != '{' {
				return -1
			}
			n++
			return walkMembers(body, start, 3, func(name string, start int) int {
				if seenMessage || body[start] != '{' {
					return -1
				}
				seenMessage = true
				return readReplyMessage(body, start, &r)
			}, "message")
		})
	}, "choices")
	if end < 0 || jsontext.SkipSpace(body, end) != len(body) || n != 1 || !seenMessage {
		return reply{}, false
	}
	return r, true
}

// readReplyMessage reads the message object at b[i] (members at depth 4)
// into r and returns where it ends, or -1.
func readReplyMessage(b []byte, i int, r *reply) int {
	seenContent, seenCalls := false, false
	return walkMembers(b, i, 4, func(name string, start int) int {
		if name == "content" {
			end := jsontext.ScanValue(b, start, 4)
			if seenContent || end < 0 {
				return -1
			}
			seenContent = true
			if v := b[start:end]; string(v) != "null" {
				s, ok := plainString(v)
				if !ok {
					return -1
				}
				r.content = &s
			}
			return end
		}
		if seenCalls {
			return -1
		}
		seenCalls = true
		if b[start] != '[' {
			if end := jsontext.ScanValue(b, start, 4); end >= 0 && string(b[start:end]) == "null" {
				return end
			}
			return -1
		}
		return jsontext.EachElement(b, start, func(start int) int {
			if start >= len(b) || b[start] != '{' {
				return -1
			}
			var c replyCall
			end := readReplyCall(b, start, &c)
			if end >= 0 {
				c.raw = json.RawMessage(b[start:end:end])
				r.calls = append(r.calls, c)
			}
			return end
		})
	}, "content", "tool_calls")
}

// readReplyCall reads the call object at b[i] (members at depth 6) into c
// and returns where it ends, or -1.
func readReplyCall(b []byte, i int, c *replyCall) int {
	seenID, seenFunction := false, false
	return walkMembers(b, i, 6, func(name string, start int) int {
		if name == "id" {
			return plainOnce(b, start, 6, &seenID, &c.id)
		}
		if seenFunction || b[start] != '{' {
			return -1
		}
		seenFunction = true
		seenArgs := false
		return walkMembers(b, start, 7, func(_ string, at int) int {
			return plainOnce(b, at, 7, &seenArgs, &c.arguments)
		}, "arguments")
	}, "id", "function")
}

// plainOnce reads the value at b[start], checked at depth, into *dst when
// it is a plain string and no value was read before (*seen), and returns
// where it ends; -1 for anything else.
func plainOnce(b []byte, start, depth int, seen *bool, dst *string) int {
	end := jsontext.ScanValue(b, start, depth)
	if *seen || end < 0 {
		return -1
	}
	*seen = true
	s, ok := plainString(b[start:end])
	if !ok {
		return -1
	}
	*dst = s
	return end
}

// walkMembers walks the object at b[i], whose members' values are at
// depth: for a member named one of names it calls f with the name and
// where the value starts, and f reads the value and returns where it
// ends (or -1); any other value is checked by ScanValue. It returns where
// the object ends, or -1 where the object is not valid, f answers -1, or
// a key is not plain ASCII or matches one of names in another case
// (which encoding/json would read into that field).
func walkMembers(b []byte, i, depth int, f func(name string, start int) int, names ...string) int {
	return jsontext.EachMember(b, i, func(key []byte, plain bool, start int) int {
		if !plain || start >= len(b) {
			return -1
		}
		name := key[1 : len(key)-1]
		for _, c := range name {
			if c >= utf8.RuneSelf {
				return -1
			}
		}
		for _, n := range names {
			if string(name) == n {
				return f(n, start)
			}
			if len(n) == len(name) && bytes.EqualFold(name, []byte(n)) {
				return -1
			}
		}
		return jsontext.ScanValue(b, start, depth)
	})
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
func jsonString(s *string) string { return string(appendJSONString(nil, s)) }

// appendJSONString appends jsonString(s) to b.
func appendJSONString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	if utf8.ValidString(*s) {
		return jsonx.AppendStringHTML(b, *s)
	}
	m, _ := json.Marshal(*s)
	return append(b, m...)
}
