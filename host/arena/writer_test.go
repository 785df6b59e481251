package arena

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRequestWriterGrows holds each request of a run, written on what the
// previous requests wrote, to json.Marshal of the whole history: messages
// appended, the last one given more calls (the Agents SDK), and a message
// that only json.Marshal writes, last and then earlier.
func TestRequestWriterGrows(t *testing.T) {
	call := func(id string) json.RawMessage {
		return json.RawMessage(`{"id":"` + id + `","type":"function","function":{"name":"perform_action","arguments":"{}"}}`)
	}
	for _, odd := range []string{"plain", "\xff", "<&>", "\u2028"} {
		odd := odd
		sys, user, out := System, "p", `{"receipt":"r"}`
		msgs := []chatMessage{{Role: "system", Content: &sys}, {Role: "user", Content: &user}}
		var w requestWriter
		check := func() {
			t.Helper()
			require.Equal(t, string(requestMarshal(msgs)), string(w.body(msgs)), "%q", odd)
		}
		check()
		msgs = append(msgs, chatMessage{Role: "assistant", ToolCalls: []json.RawMessage{call("call_1_1_1")}})
		check()
		msgs[len(msgs)-1].ToolCalls = append(msgs[len(msgs)-1].ToolCalls, call("call_1_2_1"))
		check()
		msgs = append(msgs, chatMessage{Role: "tool", Content: &out, ToolCallID: "call_1_1_1"})
		check()
		msgs = append(msgs, chatMessage{Role: "tool", Content: &odd, ToolCallID: "call_1_2_1"})
		check()
		msgs = append(msgs, chatMessage{Role: "assistant", Content: &out})
		check()
		msgs = append(msgs, chatMessage{Role: "user", Content: &user})
		check()
	}
	var w requestWriter
	require.Equal(t, string(requestMarshal([]chatMessage{})), string(w.body([]chatMessage{})))
}
