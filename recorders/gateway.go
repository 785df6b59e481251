package recorders

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ChatPath is the one endpoint the gateway serves.
const ChatPath = "/v1/chat/completions"

// FinalAnswer is the text of the mock model's last turn.
const FinalAnswer = "Done."

// ToolName is the single tool every item calls.
const ToolName = "perform_action"

// recordedHeaders are the request headers the gateway keeps (they feed
// provenance; none is judged).
var recordedHeaders = []string{"user-agent", "x-stainless-retry-count", "x-stainless-read-timeout"}

// Complete answers one model request: path is the request's URL path, body
// its bytes (at most GatewayBodyLimit+1 of them: a longer body is refused
// 413), header its headers by lower-case name. The request is recorded in
// the open item before the answer is returned.
func (s *Session) Complete(path string, body []byte, header map[string]string) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		s.strays = append(s.strays, Stray{Endpoint: "gateway " + path, Body: clip(body)})
		return gatewayError(400, "no_item_open", "no item is open")
	}
	w := s.cur
	req := ModelRequest{Path: path, Body: bytes.Clone(body), Header: map[string]string{}, Turn: -1}
	for _, h := range recordedHeaders {
		if v, ok := header[h]; ok {
			req.Header[h] = v
		}
	}
	// The window reads the recorded copy: the messages it keeps for the
	// next request point into it, and the record never changes.
	req.Reply, req.Error = w.complete(path, req.Body, &req)
	w.rec.Model = append(w.rec.Model, req)
	return req.Reply
}

func clip(b []byte) []byte {
	if len(b) > 4096 {
		b = b[:4096]
	}
	return bytes.Clone(b)
}

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID string `json:"id"`
	} `json:"tool_calls"`
	// textOf is messageText(Content) once textRead: a message readChat
	// takes from the previous request brings its text along.
	textOf   string
	textRead bool
}

// text is messageText(m.Content), worked out once per message.
func (m *chatMessage) text() string {
	if !m.textRead {
		m.textOf, m.textRead = messageText(m.Content), true
	}
	return m.textOf
}

// chatRequest is what the gateway reads of a request body: its messages
// and the raw values of the members it looks at (nil when absent).
type chatRequest struct {
	messageList
	stream, n, model, temperature, toolChoice, parallelToolCalls []byte
	tools                                                        []byte
}

// readChatLibrary reads body as encoding/json does: into a map of raw
// members, then its messages, then each message. bad is the problem
// answered when the body is not a chat request.
func readChatLibrary(body []byte) (r chatRequest, bad string) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil || top == nil {
		return r, "the body is not a JSON object"
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(top["messages"], &raw); err != nil || raw == nil {
		return r, "the body has no messages array"
	}
	r.msgs = make([]chatMessage, len(raw))
	for i, m := range raw {
		if err := json.Unmarshal(m, &r.msgs[i]); err != nil || bytes.TrimSpace(m)[0] != '{' {
			return r, fmt.Sprintf("message %d is not a chat message object", i)
		}
	}
	r.stream, r.model, r.temperature = top["stream"], top["model"], top["temperature"]
	r.toolChoice, r.parallelToolCalls, r.tools = top["tool_choice"], top["parallel_tool_calls"], top["tools"]
	r.n = top["n"] // never empty when present
	return r, ""
}

func (w *window) complete(path string, body []byte, req *ModelRequest) (Reply, string) {
	if path != ChatPath {
		return gatewayError(404, "unsupported_endpoint", "only POST "+ChatPath+" is served"), "unsupported_endpoint"
	}
	if len(body) > GatewayBodyLimit {
		return gatewayError(413, "body_too_large", fmt.Sprintf("a request body is at most %d bytes", GatewayBodyLimit)), "body_too_large"
	}
	r, ok := readChat(body, &w.last)
	if ok {
		w.last = r
	} else {
		var bad string
		if r, bad = readChatLibrary(body); bad != "" {
			return gatewayError(400, "bad_request", bad), "bad_request"
		}
	}
	msgs := r.msgs
	if string(r.stream) == "true" {
		return gatewayError(400, "stream_unsupported", "streaming is not served"), "stream_unsupported"
	}
	if r.n != nil {
		var v float64
		if json.Unmarshal(r.n, &v) == nil && v > 1 {
			return gatewayError(400, "n_unsupported", "one choice per request"), "n_unsupported"
		}
	}
	req.Model = rawString(r.model)
	req.Temperature = string(r.temperature)
	req.ToolChoice = string(r.toolChoice)
	req.ParallelToolCalls = string(r.parallelToolCalls)
	req.ToolNames = toolNames(r.tools)

	k := 0
	for i := range msgs {
		switch m := &msgs[i]; m.Role {
		case "assistant":
			k++
		case "tool":
			req.Tools = append(req.Tools, ToolMessage{CallID: m.ToolCallID, Text: m.text()})
		}
	}
	req.Turn = k
	req.Mismatch = w.history(msgs)
	n := len(w.rec.Item.Turns)
	model := req.Model
	if model == "" {
		model = "arena-mock"
	}
	o := w.rec.Ordinal
	c := completion{
		ID: "chatcmpl-arena-" + strconv.Itoa(o) + "-" + strconv.Itoa(k+1), Object: "chat.completion", Model: model,
		Choices: []choice{{FinishReason: "stop", Message: message{Role: "assistant"}}},
	}
	if k < n {
		w.emitted[k] = true
		c.Choices[0].FinishReason = "tool_calls"
		for i, a := range w.rec.Item.Turns[k] {
			c.Choices[0].Message.ToolCalls = append(c.Choices[0].Message.ToolCalls, toolCall{
				ID: CallID(o, k+1, i+1), Type: "function", Function: function{Name: ToolName, Arguments: argumentsText(a.Label, Ticket(o, k+1, i+1))},
			})
		}
	} else {
		text := FinalAnswer
		c.Choices[0].Message.Content = &text
		req.Extra = k > n
	}
	without := completionBody(&c)
	req.PromptTokens, req.CompletionTokens = (len(body)+3)/4, (len(without)+3)/4
	u := usage{req.PromptTokens, req.CompletionTokens, req.PromptTokens + req.CompletionTokens}
	return Reply{Status: 200, Header: map[string]string{"content-type": "application/json"}, Body: withUsage(without, &u)}, ""
}

// history checks the request's history against what the gateway emitted:
// the first user message is the item's prompt, and the j-th assistant
// message carries exactly the call ids of tool turn j.
func (w *window) history(msgs []chatMessage) string {
	j := 0
	sawUser := false
	for i := range msgs {
		switch m := &msgs[i]; m.Role {
		case "user":
			if !sawUser {
				sawUser = true
				if got := m.text(); got != w.rec.Item.Prompt {
					return fmt.Sprintf("the first user message is %q, not the item's prompt", got)
				}
			}
		case "assistant":
			j++
			if w.emittedInOrder(m, j) {
				continue
			}
			var got []string
			for _, tc := range m.ToolCalls {
				got = append(got, tc.ID)
			}
			var want []string
			if j <= len(w.rec.Item.Turns) {
				for i := range w.rec.Item.Turns[j-1] {
					want = append(want, CallID(w.rec.Ordinal, j, i+1))
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				return fmt.Sprintf("assistant message %d carries the calls [%s], not [%s]", j, strings.Join(got, " "), strings.Join(want, " "))
			}
		}
	}
	if !sawUser {
		return "the request has no user message"
	}
	return ""
}

// emittedInOrder reports whether the j-th assistant message m carries the
// call ids of tool turn j in the order the gateway emitted them, as the
// frameworks send them back: then the sorted lists history compares are
// equal too.
func (w *window) emittedInOrder(m *chatMessage, j int) bool {
	var turn []Action
	if j <= len(w.rec.Item.Turns) {
		turn = w.rec.Item.Turns[j-1]
	}
	if len(m.ToolCalls) != len(turn) {
		return false
	}
	var buf [64]byte
	for i, tc := range m.ToolCalls {
		if string(appendCallID(buf[:0], w.rec.Ordinal, j, i+1)) != tc.ID {
			return false
		}
	}
	return true
}

// messageText is a message's text: content if a string, else the text of
// its parts of type text joined, else empty.
func messageText(content json.RawMessage) string {
	if s, ok := stringToken(content); ok {
		return s
	}
	return messageTextLibrary(content)
}

// messageTextLibrary is messageText through encoding/json alone, for
// content the one-pass reader leaves to it.
func messageTextLibrary(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func rawString(raw json.RawMessage) string {
	if s, ok := stringToken(raw); ok {
		return s
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

func toolNamesLibrary(raw json.RawMessage) string {
	var tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if json.Unmarshal(raw, &tools) != nil {
		return ""
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Function.Name
	}
	return strings.Join(names, ",")
}

type completion struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int      `json:"created"`
	Model             string   `json:"model"`
	SystemFingerprint *string  `json:"system_fingerprint"`
	Choices           []choice `json:"choices"`
	Usage             *usage   `json:"usage,omitempty"`
}

type choice struct {
	Index        int     `json:"index"`
	FinishReason string  `json:"finish_reason"`
	Logprobs     *string `json:"logprobs"`
	Message      message `json:"message"`
}

type message struct {
	Role      string     `json:"role"`
	Content   *string    `json:"content"`
	Refusal   *string    `json:"refusal"`
	ToolCalls []toolCall `json:"tool_calls,omitempty"`
}

type toolCall struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function function `json:"function"`
}

type function struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type usage struct {
	Prompt     int `json:"prompt_tokens"`
	Completion int `json:"completion_tokens"`
	Total      int `json:"total_tokens"`
}

// mustCompact encodes v compactly without HTML escaping. The values it is
// given are the package's own structs of strings and numbers, which always
// encode.
func mustCompact(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		panic("recorders: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func gatewayError(status int, code, text string) Reply {
	body := mustCompact(struct {
		Error struct {
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   *string `json:"param"`
			Code    string  `json:"code"`
		} `json:"error"`
	}{Error: struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    string  `json:"code"`
	}{Message: "arena gateway: " + text, Type: "invalid_request_error", Code: code}})
	return Reply{Status: status, Header: map[string]string{"content-type": "application/json", "x-should-retry": "false"}, Body: body}
}
