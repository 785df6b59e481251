package recorders

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// historyBodies are the requests of one item as the frameworks grow them,
// and the ways a later request can differ from an earlier one: a message
// given more calls (the Agents SDK), a byte changed in the middle, white
// space moved, the array cut short or ended early.
var historyBodies = func() []string {
	sys := `{"role":"system","content":"s"}`
	user := `{"role":"user","content":"p"}`
	call1 := `{"id":"call_1_1_1","type":"function","function":{"name":"perform_action","arguments":"{\"action\":\"a\",\"ticket\":\"t1.1.1\"}"}}`
	call2 := `{"id":"call_1_2_1","type":"function","function":{"name":"perform_action","arguments":"{\"action\":\"a\",\"ticket\":\"t1.2.1\"}"}}`
	asst1 := `{"role":"assistant","content":null,"tool_calls":[` + call1 + `]}`
	asst12 := `{"role":"assistant","content":null,"tool_calls":[` + call1 + `,` + call2 + `]}`
	tool1 := `{"role":"tool","content":"{\"receipt\":\"r\"}","tool_call_id":"call_1_1_1"}`
	req := func(msgs ...string) string {
		return `{"messages":[` + strings.Join(msgs, ",") + `],"model":"arena-mock","temperature":0}`
	}
	deep := func(n int) string {
		return `{"messages":[` + user + `,{"role":"user","content":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}]}`
	}
	return []string{
		req(sys, user),
		req(sys, user, asst1),
		req(sys, user, asst1, tool1),
		req(sys, user, asst12),
		req(sys, user, asst12, tool1),
		req(sys, user, asst1, tool1, asst12),
		req(sys, `{"role":"user","content":"q"}`, asst1, tool1),
		req(sys, user, asst1, tool1, user),
		`{"messages":[ ` + sys + ` , ` + user + ` , ` + asst1 + ` ]}`,
		`{"messages":[ ` + sys + ` , ` + user + `,` + asst1 + ` ]}`,
		`{"messages":[` + sys + `,` + user + `}`,
		`{"messages":[` + sys + `,` + user + `,]}`,
		`{"messages":[` + sys + `,` + user + `]`,
		`{"messages":[` + sys + `,` + user + `,null]}`,
		`{"messages":[` + sys + `,` + user + `],"messages":[]}`,
		`{"model":"m","messages":[` + sys + `,` + user + `,` + asst1 + `]}`,
		`{"messages":[` + sys + `]}`,
		`{"messages":[]}`,
		`{"messages":[ ]}`,
		`{"messages":[` + user + `],"n":1,"tools":[{"a":1}],"stream":true,"model":"m"}`,
		`{"messages":[` + user + `],"n":12,"tools":[{"a":1}]]`,
		`{"messages":[` + user + `],"n":1,"tools":[{"a":1}],"stream":truex}`,
		`{"messages":[` + user + `],"n":1.5,"tools":[{"a":1}],"stream":true,"model":"m"}`,
		`{"messages":[` + user + `],"n":1,"tools":[{"a":1}],"stream":true,"model":"m","model":"m"}`,
		`{"messages":[` + user + `],"n":1,"tools":[{"a":1}],"stream":true,"model":"m\"}`,
		deep(96), deep(97), deep(98), deep(99),
	}
}()

// TestReadChatReusesSharedMessages: reading a request after another gives
// what reading it alone gives, whatever the two requests share.
func TestReadChatReusesSharedMessages(t *testing.T) {
	bodies := append(append([]string(nil), wireBodies...), historyBodies...)
	reused := 0
	for _, p := range bodies {
		for _, b := range bodies {
			if sameAfter(t, []byte(p), []byte(b)) {
				reused++
			}
		}
	}
	require.Greater(t, reused, 20, "too few requests shared messages with the one before")
}

// sameAfter checks body read after prev against body read alone, and
// reports whether any message was taken from prev.
func sameAfter(t *testing.T, prev, body []byte) bool {
	t.Helper()
	p, ok := readChat(prev, nil)
	if !ok {
		return false
	}
	want, wantOK := readChat(body, nil)
	got, gotOK := readChat(body, &p)
	require.Equal(t, wantOK, gotOK, "%q after %q", body, prev)
	require.Equal(t, want, got, "%q after %q", body, prev)
	if !gotOK || len(got.msgs) == 0 || len(p.msgs) == 0 || len(got.msgs[0].Content) == 0 || len(p.msgs[0].Content) == 0 {
		return false
	}
	// A message taken from prev shares its memory.
	return &got.msgs[0].Content[0] == &p.msgs[0].Content[0]
}

// TestReadChatDepth: a message's values are refused where the body nests
// deeper than ScanValue follows, as a single scan of the body refuses
// them, and wherever the one-pass reader answers the library agrees.
func TestReadChatDepth(t *testing.T) {
	for _, b := range historyBodies {
		agreeChat(t, []byte(b))
	}
	// The content's n-th bracket is at depth n+2 of the body.
	_, ok := readChat([]byte(historyBodies[len(historyBodies)-3]), nil)
	require.True(t, ok, "content nested 97 deep")
	_, ok = readChat([]byte(historyBodies[len(historyBodies)-2]), nil)
	require.False(t, ok, "content nested 98 deep, to depth 100 in the body")
}

// FuzzReadChatAfter holds reading after an earlier request to reading
// alone on any pair of bodies.
func FuzzReadChatAfter(f *testing.F) {
	for i, b := range historyBodies {
		f.Add([]byte(historyBodies[(i+1)%len(historyBodies)]), []byte(b))
	}
	f.Fuzz(func(t *testing.T, prev, body []byte) {
		sameAfter(t, prev, body)
		sameAfter(t, body, prev)
	})
}

// TestWithUsage: adding the usage to the body written without it gives
// the body written with it, on either writer.
func TestWithUsage(t *testing.T) {
	for _, s := range wireTexts {
		s := s
		for _, c := range wireCompletions(s) {
			c.Usage = nil
			without := completionBody(&c)
			u := usage{len(s), 2, len(s) + 2}
			c.Usage = &u
			require.Equal(t, string(mustCompact(c)), string(withUsage(without, &u)), "%q", s)
		}
	}
}

// TestHistoryInAnyOrder: an assistant message may carry its turn's calls
// in any order, but not another turn's.
func TestHistoryInAnyOrder(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.Open(Item{ID: "h", Prompt: "p", Turns: [][]Action{{{Label: "a"}, {Label: "b"}}}}))
	w := s.cur
	msg := func(ids ...string) []chatMessage {
		m := chatMessage{Role: "assistant"}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, struct {
				ID string `json:"id"`
			}{id})
		}
		return []chatMessage{{Role: "user", Content: []byte(`"p"`)}, m}
	}
	require.Empty(t, w.history(msg("call_1_1_1", "call_1_1_2")))
	require.Empty(t, w.history(msg("call_1_1_2", "call_1_1_1")))
	require.Equal(t, "assistant message 1 carries the calls [call_1_1_1 call_1_1_1], not [call_1_1_1 call_1_1_2]", w.history(msg("call_1_1_1", "call_1_1_1")))
	require.Equal(t, "assistant message 1 carries the calls [call_1_1_1], not [call_1_1_1 call_1_1_2]", w.history(msg("call_1_1_1")))
	require.Equal(t, "assistant message 2 carries the calls [call_1_1_1], not []", w.history(append(msg("call_1_1_1", "call_1_1_2"), msg("call_1_1_1")[1])))
}
