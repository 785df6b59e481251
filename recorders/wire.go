package recorders

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// The recorders read and write their wire without reflection wherever the
// text is plain enough to be sure of encoding/json's answer, and leave
// every other text to encoding/json: a fast reader answers ok only when
// the library would read the same values without an error, and a fast
// writer writes only strings that encoding/json writes the same way.

// readChat reads a request body in one pass: a JSON object whose keys are
// plain (no escape, valid UTF-8) and not repeated where they are read,
// whose messages member is an array of objects, each with plain ASCII
// keys, its role and tool_call_id strings or null, its tool_calls null or
// an array of objects or nulls whose id is a string or null. ok is false
// for anything else, which readChatLibrary then reads (and refuses, or
// reads as encoding/json does: a key in another case, a repeated member).
//
// prev, when not nil, is an earlier request readChat read: what the two
// share byte for byte is taken from it rather than read again (see
// readMessages and scanMember).
func readChat(body []byte, prev *chatRequest) (r chatRequest, ok bool) {
	if prev == nil {
		prev = &chatRequest{}
	}
	seenMessages := false
	ok = jsontext.WholeObject(body, func(key []byte, plain bool, start int) int {
		if !plain {
			return -1
		}
		var slot *[]byte
		var was []byte // the member's value in prev
		switch string(key[1 : len(key)-1]) {
		case "messages":
			if seenMessages {
				return -1
			}
			seenMessages = true
			var end int
			r.messageList, end = readMessages(body, start, &prev.messageList)
			return end
		case "stream":
			slot, was = &r.stream, prev.stream
		case "n":
			slot, was = &r.n, prev.n
		case "model":
			slot, was = &r.model, prev.model
		case "temperature":
			slot, was = &r.temperature, prev.temperature
		case "tool_choice":
			slot, was = &r.toolChoice, prev.toolChoice
		case "parallel_tool_calls":
			slot, was = &r.parallelToolCalls, prev.parallelToolCalls
		case "tools":
			slot, was = &r.tools, prev.tools
		}
		end := scanMember(body, start, was)
		if end < 0 || slot == nil {
			return end
		}
		if *slot != nil {
			return -1
		}
		*slot = body[start:end:end]
		return end
	})
	if !ok || !seenMessages {
		return chatRequest{}, false
	}
	return r, true
}

// scanMember is jsontext.ScanValue(b, start, 1) for the value of a member
// of a request whose value in an earlier request was was (nil for none).
// Every request of a run repeats the same tools, model and settings. A
// value that is not a number ends with its own last byte (a closing
// quote or bracket, a literal's last letter), so where b repeats was at
// start, it scans as was did; a number's end depends on the byte after.
func scanMember(b []byte, start int, was []byte) int {
	if len(was) > 0 && was[0] != '-' && !jsontext.IsDigit(was[0]) && bytes.HasPrefix(b[start:], was) {
		return start + len(was)
	}
	return jsontext.ScanValue(b, start, 1)
}

// messageList is a messages array as readChat read it: the array's text,
// where each message ends in that text, and the messages.
type messageList struct {
	text []byte
	ends []int
	msgs []chatMessage
}

// readMessages reads the array of messages at b[i] and returns it and
// where it ends, or -1 where readChat leaves the body to encoding/json.
//
// Each request of an item repeats the history of the one before and adds
// to it, so most of an array has been read already. The messages of prev
// whose text, from the array's opening bracket to the message's end, this
// array repeats exactly are copied instead of read again: a message's
// reading depends on its own bytes alone, and so does the walk from one
// message to the next. A message that changed (an assistant message given
// more calls, a byte anywhere) ends the shared run, and it and everything
// after are read.
func readMessages(b []byte, i int, prev *messageList) (l messageList, end int) {
	if i >= len(b) || b[i] != '[' {
		return l, -1
	}
	a := b[i:]
	// Sharing the text up to a message's end implies sharing it up to
	// every earlier message's end: search for the first that is not.
	k := sort.Search(len(prev.ends), func(j int) bool {
		e := prev.ends[j]
		return e > len(a) || !bytes.Equal(a[:e], prev.text[:e])
	})
	// Room for the messages a turn adds: the answer and its results.
	l.msgs = make([]chatMessage, 0, k+4)
	l.ends = make([]int, 0, k+4)
	at := jsontext.SkipSpace(a, 1) // the first message, or the closing bracket
	if k > 0 {
		l.msgs = append(l.msgs, prev.msgs[:k]...)
		l.ends = append(l.ends, prev.ends[:k]...)
		at = prev.ends[k-1]
	}
	for {
		if len(l.msgs) > 0 {
			// at is the end of a message: a comma and the next message
			// follow, or the closing bracket.
			if at = jsontext.SkipSpace(a, at); at < len(a) && a[at] == ',' {
				at = jsontext.SkipSpace(a, at+1)
			} else if at < len(a) && a[at] == ']' {
				break
			} else {
				return messageList{}, -1
			}
		} else if at < len(a) && a[at] == ']' {
			break
		}
		var m chatMessage
		if at = readMessage(a, at, &m); at < 0 {
			return messageList{}, -1
		}
		l.msgs = append(l.msgs, m)
		l.ends = append(l.ends, at)
	}
	l.text = a[: at+1 : at+1]
	return l, i + at + 1
}

// Which members of a chat message have been read.
const (
	seenRole = 1 << iota
	seenContent
	seenToolCallID
	seenToolCalls
)

// readMessage reads the chat message object at b[i] into m and returns
// where it ends, or -1 where readChat leaves the body to encoding/json.
// The message is an element of the messages array, itself a member of the
// request: its members' values are checked at their depth in the body.
func readMessage(b []byte, i int, m *chatMessage) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	seen := 0
	return jsontext.EachMember(b, i, func(key []byte, plain bool, start int) int {
		end := jsontext.ScanValue(b, start, 3)
		if end < 0 || !plain {
			return -1
		}
		v := b[start:end:end]
		name := key[1 : len(key)-1]
		var bit int
		switch {
		case string(name) == "role":
			bit = seenRole
		case string(name) == "content":
			bit = seenContent
		case string(name) == "tool_call_id":
			bit = seenToolCallID
		case string(name) == "tool_calls":
			bit = seenToolCalls
		case !asciiOther(name, "role", "content", "tool_call_id", "tool_calls"):
			return -1
		default:
			return end
		}
		if seen&bit != 0 {
			return -1
		}
		seen |= bit
		switch bit {
		case seenRole:
			s, ok := nullOrString(v)
			if !ok {
				return -1
			}
			m.Role = s
		case seenContent:
			m.Content = json.RawMessage(v)
		case seenToolCallID:
			s, ok := nullOrString(v)
			if !ok {
				return -1
			}
			m.ToolCallID = s
		case seenToolCalls:
			if !readToolCalls(v, m) {
				return -1
			}
		}
		return end
	})
}

// readToolCalls reads a message's tool_calls: null, or an array of
// objects (or nulls) whose id is a string or null.
func readToolCalls(v []byte, m *chatMessage) bool {
	if string(v) == "null" {
		return true
	}
	if v[0] != '[' {
		return false
	}
	m.ToolCalls = make([]struct {
		ID string `json:"id"`
	}, 0, 4)
	return jsontext.WholeArray(v, func(start int) int {
		end := jsontext.ScanValue(v, start, 1)
		if end < 0 {
			return -1
		}
		var id string
		if el := v[start:end]; string(el) != "null" {
			if el[0] != '{' {
				return -1
			}
			seenID := false
			if jsontext.EachMember(el, 0, func(key []byte, plain bool, at int) int {
				vEnd := jsontext.ScanValue(el, at, 1)
				if vEnd < 0 || !plain {
					return -1
				}
				name := key[1 : len(key)-1]
				if string(name) != "id" {
					if !asciiOther(name, "id") {
						return -1
					}
					return vEnd
				}
				s, ok := nullOrString(el[at:vEnd])
				if !ok || seenID {
					return -1
				}
				seenID, id = true, s
				return vEnd
			}) != len(el) {
				return -1
			}
		}
		m.ToolCalls = append(m.ToolCalls, struct {
			ID string `json:"id"`
		}{id})
		return end
	})
}

// asciiOther reports whether key is ASCII and matches none of names in
// any case: encoding/json reads a key that matches a field's name but for
// case into that field.
func asciiOther(key []byte, names ...string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	for _, n := range names {
		if len(n) == len(key) && bytes.EqualFold(key, []byte(n)) {
			return false
		}
	}
	return true
}

// nullOrString reads a valid JSON value as a string field does: null
// leaves it empty, a string is its value. ok is false for another value.
func nullOrString(v []byte) (string, bool) {
	if string(v) == "null" {
		return "", true
	}
	return stringToken(v)
}

// stringToken returns the value of a valid JSON value that is a string,
// as encoding/json reads it; ok is false for another value. A string with
// a surrogate escape, where jsontext's host reading and the library's
// part, is read by the library.
func stringToken(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	end, plain := jsontext.ScanString(v, 0)
	if end == len(v) {
		if plain {
			return roleOr(v[1 : len(v)-1]), true
		}
		if !bytes.Contains(v, []byte(`\ud`)) && !bytes.Contains(v, []byte(`\uD`)) {
			return jsontext.StringValue(v, false), true
		}
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// roleOr is string(b), without a copy where b is one of the roles every
// message names.
func roleOr(b []byte) string {
	switch string(b) {
	case "system":
		return "system"
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "tool":
		return "tool"
	}
	return string(b)
}

// toolNamesSeen holds the last tools member read and its names: every
// request of an adapter carries the same one.
var toolNamesSeen atomic.Pointer[[2]string]

// toolNames is the tools' function names joined by commas.
func toolNames(raw json.RawMessage) string {
	if last := toolNamesSeen.Load(); last != nil && last[0] == string(raw) {
		return last[1]
	}
	names := toolNamesLibrary(raw)
	toolNamesSeen.Store(&[2]string{string(raw), names})
	return names
}

// completionBody writes c as mustCompact does, by hand where every string
// of it is valid UTF-8 (which AppendString writes as encoding/json does).
func completionBody(c *completion) []byte {
	ok := utf8.ValidString(c.ID) && utf8.ValidString(c.Object) && utf8.ValidString(c.Model) && c.SystemFingerprint == nil
	for _, ch := range c.Choices {
		m := ch.Message
		ok = ok && ch.Logprobs == nil && m.Refusal == nil && utf8.ValidString(ch.FinishReason) && utf8.ValidString(m.Role) &&
			(m.Content == nil || utf8.ValidString(*m.Content))
		for _, tc := range m.ToolCalls {
			ok = ok && utf8.ValidString(tc.ID) && utf8.ValidString(tc.Type) && utf8.ValidString(tc.Function.Name) && utf8.ValidString(tc.Function.Arguments)
		}
	}
	if !ok {
		return mustCompact(c)
	}
	b := make([]byte, 0, 512)
	b = append(b, `{"id":`...)
	b = jsonx.AppendString(b, c.ID)
	b = append(b, `,"object":`...)
	b = jsonx.AppendString(b, c.Object)
	b = append(b, `,"created":`...)
	b = strconv.AppendInt(b, int64(c.Created), 10)
	b = append(b, `,"model":`...)
	b = jsonx.AppendString(b, c.Model)
	b = append(b, `,"system_fingerprint":null,"choices":[`...)
	for i, ch := range c.Choices {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"index":`...)
		b = strconv.AppendInt(b, int64(ch.Index), 10)
		b = append(b, `,"finish_reason":`...)
		b = jsonx.AppendString(b, ch.FinishReason)
		b = append(b, `,"logprobs":null,"message":{"role":`...)
		b = jsonx.AppendString(b, ch.Message.Role)
		b = append(b, `,"content":`...)
		if ch.Message.Content == nil {
			b = append(b, "null"...)
		} else {
			b = jsonx.AppendString(b, *ch.Message.Content)
		}
		b = append(b, `,"refusal":null`...)
		if len(ch.Message.ToolCalls) > 0 {
			b = append(b, `,"tool_calls":[`...)
			for j, tc := range ch.Message.ToolCalls {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"id":`...)
				b = jsonx.AppendString(b, tc.ID)
				b = append(b, `,"type":`...)
				b = jsonx.AppendString(b, tc.Type)
				b = append(b, `,"function":{"name":`...)
				b = jsonx.AppendString(b, tc.Function.Name)
				b = append(b, `,"arguments":`...)
				b = jsonx.AppendString(b, tc.Function.Arguments)
				b = append(b, "}}"...)
			}
			b = append(b, ']')
		}
		b = append(b, "}}"...)
	}
	b = append(b, ']')
	if c.Usage != nil {
		b = appendUsage(b, c.Usage)
	}
	return append(b, '}')
}

// appendUsage appends the usage member of a completion, comma first.
func appendUsage(b []byte, u *usage) []byte {
	b = append(b, `,"usage":{"prompt_tokens":`...)
	b = strconv.AppendInt(b, int64(u.Prompt), 10)
	b = append(b, `,"completion_tokens":`...)
	b = strconv.AppendInt(b, int64(u.Completion), 10)
	b = append(b, `,"total_tokens":`...)
	b = strconv.AppendInt(b, int64(u.Total), 10)
	return append(b, '}')
}

// withUsage is completionBody of a completion given usage u, from its
// body without one: usage is the completion's last member, so both
// writers put it just before the closing brace.
func withUsage(without []byte, u *usage) []byte {
	b := make([]byte, 0, len(without)+96)
	b = append(b, without[:len(without)-1]...)
	b = appendUsage(b, u)
	return append(b, '}')
}

// argumentsText is the arguments of a perform_action call the gateway
// emits: {"action":label,"ticket":ticket}, as mustCompact writes it.
func argumentsText(label, ticket string) string {
	if !utf8.ValidString(label) || !utf8.ValidString(ticket) {
		return string(mustCompact(struct {
			Action string `json:"action"`
			Ticket string `json:"ticket"`
		}{label, ticket}))
	}
	b := make([]byte, 0, 32+len(label)+len(ticket))
	b = append(b, `{"action":`...)
	b = jsonx.AppendString(b, label)
	b = append(b, `,"ticket":`...)
	b = jsonx.AppendString(b, ticket)
	return string(append(b, '}'))
}

// appendNullable appends s as a JSON string, or null for nil, as
// encoding/json writes a *string without HTML escaping; ok is false when
// s is not valid UTF-8 (the caller then encodes with encoding/json).
func appendNullable(b []byte, s *string) ([]byte, bool) {
	if s == nil {
		return append(b, "null"...), true
	}
	if !utf8.ValidString(*s) {
		return b, false
	}
	return jsonx.AppendString(b, *s), true
}

// plainMembers reads body as json.Unmarshal into a map of raw members
// reads it when body is one object with no backslash anywhere (so every
// key is its bytes, or its bytes with invalid UTF-8 replaced, as the
// library replaces them). ok is false for anything else.
func plainMembers(body []byte) (jsontext.Members, bool) {
	if bytes.IndexByte(body, '\\') >= 0 {
		return nil, false
	}
	return jsontext.ReadMembers(body, make(jsontext.Members, 0, 4))
}

// rawStringMember is stringMember on plain members.
func rawStringMember(m jsontext.Members, key string) *string {
	raw, ok := m.Get(key)
	if !ok || raw[0] != '"' {
		return nil
	}
	s, ok := stringToken(raw)
	if !ok {
		return nil
	}
	return &s
}
