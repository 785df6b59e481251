package arena

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// texts are strings at the edges of how json.Marshal writes them.
var texts = []string{
	"", "file.read.workspace", "t1.1.1", `a"b\c`, "<b>&amp;</b>", "line\nbreak\t\x00\x1f\x7f", "é 日本 🙂",
	"\u2028\u2029", "\xff\xfe", "\xed\xa0\x80", strings.Repeat("long ", 30),
}

// TestRequestBodyIsMarshal holds the hand-written request to json.Marshal.
func TestRequestBodyIsMarshal(t *testing.T) {
	for _, s := range texts {
		s := s
		raws := []json.RawMessage{
			json.RawMessage(`{"id":"call_1_1_1","type":"function","function":{"name":"perform_action","arguments":"{\"action\":\"x\",\"ticket\":\"t1.1.1\"}"}}`),
			json.RawMessage(`{"id":` + string(jsonText(s)) + `}`),
			json.RawMessage(`{"id": "a b"}`),
			json.RawMessage(`{"id":"<&>\u2028"}`),
		}
		for _, msgs := range [][]chatMessage{
			{{Role: "system", Content: &s}, {Role: "user", Content: &s}},
			{{Role: s}, {Role: "assistant", ToolCalls: raws[:1]}, {Role: "tool", Content: &s, ToolCallID: s}},
			{{Role: "assistant", ToolCalls: raws}},
			{{Role: "assistant", ToolCalls: raws[1:2]}},
			{},
		} {
			want, _ := json.Marshal(struct {
				Messages    []chatMessage   `json:"messages"`
				Model       string          `json:"model"`
				Temperature int             `json:"temperature"`
				Tools       json.RawMessage `json:"tools"`
			}{msgs, Model, 0, tools})
			var w requestWriter
			assert.Equal(t, string(want), string(w.body(msgs)), "%q", s)
		}
		want, _ := json.Marshal(struct {
			Action string `json:"action"`
			Ticket string `json:"ticket"`
		}{s, s})
		assert.Equal(t, string(want), string(decideBody(s, s)), "%q", s)
		want, _ = json.Marshal(s)
		assert.Equal(t, string(want), jsonString(&s), "%q", s)
	}
	assert.Equal(t, "null", jsonString(nil))
}

// jsonText is s as encoding/json writes it without HTML escapes.
func jsonText(s string) []byte {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)
	return []byte(strings.TrimSpace(b.String()))
}

// replies are answers at the edges of what the fast reader takes.
var replies = []string{
	`{"id":"c","object":"chat.completion","created":0,"model":"m","system_fingerprint":null,"choices":[{"index":0,"finish_reason":"tool_calls","logprobs":null,"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_1_1_1","type":"function","function":{"name":"perform_action","arguments":"{\"action\":\"a\",\"ticket\":\"t1.1.1\"}"}},{"id":"call_1_1_2","type":"function","function":{"name":"perform_action","arguments":"{}"}}]}}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
	`{"choices":[{"message":{"role":"assistant","content":"Done."}}]}`,
	`{"choices":[{"message":{"content":"D\u00f6ne","tool_calls":null}}]}`,
	`{"choices":[{"message":{"Content":"x","content":"y"}}]}`,
	`{"choices":[{"message":{"content":"x","content":"y"}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"id":"a","ID":"b"}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"Arguments":"x"}}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[null]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"id":null}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"id":1}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"id":"a", "function": {"arguments": "x"}}]}}]}`,
	`{"choices":[{"message":{"content":1}}]}`,
	`{"choices":[{"message":{}},{"message":{}}]}`,
	`{"choices":[]}`, `{"choices":[null]}`, `{"choices":null}`, `{"Choices":[{"message":{"content":"x"}}]}`,
	`{"choices":[{"Message":{"content":"x"}}]}`, `{"choices":[{"message":{"content":"\ud800\u00e9\n\"","tool_calls":[{"id":"\ud83d\ude00"}]}}]}`, `{}`, `[]`, `null`, `{"choices":[{"message":{"content":"` + "\xff" + `"}}]}`,
}

// TestReadReplyAgreesWithLibrary holds the one-pass reading of an answer
// to the two decodes through encoding/json.
func TestReadReplyAgreesWithLibrary(t *testing.T) {
	fast := 0
	for _, body := range replies {
		agreeReply(t, []byte(body))
		if _, ok := readReplyFast([]byte(body)); ok {
			fast++
		}
	}
	assert.GreaterOrEqual(t, fast, 3)
	_, ok := readReplyFast([]byte(replies[0]))
	assert.True(t, ok, "the gateway's own answer is read in one pass")
}

func agreeReply(t *testing.T, body []byte) {
	t.Helper()
	want, wok := readReplyLibrary(body)
	got, ok := readReply(body)
	require.Equal(t, wok, ok, "%q", body)
	require.Equal(t, want.content, got.content, "%q", body)
	require.Equal(t, len(want.calls), len(got.calls), "%q", body)
	for i := range want.calls {
		require.Equal(t, want.calls[i].id, got.calls[i].id, "%q", body)
		require.Equal(t, want.calls[i].arguments, got.calls[i].arguments, "%q", body)
		require.Equal(t, string(want.calls[i].raw), string(got.calls[i].raw), "%q", body)
	}
}

// TestFixtureAnswersReadAsLibrary holds the readers of a call's arguments
// and of the fixture's answer to encoding/json.
func TestFixtureAnswersReadAsLibrary(t *testing.T) {
	for _, body := range []string{
		`{"action":"a","ticket":"t1.1.1"}`, `{"ticket":"t","action":"a","x":[1]}`, `{"Action":"a","action":"b"}`,
		`{"action":"a","action":"b"}`, `{"action":1}`, `{"action":null}`, `{"action":"\u0061"}`, `[]`, `x`, ``,
		`{"receipt":"rcpt-t1.1.1-1","ticket":"t1.1.1","action":"a","decision":"allow","reason":"allowed"}`,
		`{"receipt":null,"decision":"deny"}`, `{"receipt":"r","Receipt":"s","decision":"deny","DECISION":"allow"}`,
		`{"receipt":"r","receipt":"s"}`, `{"decision":null}`, `{"decision":"deny","receipt":5}`,
	} {
		agreeFixture(t, []byte(body))
	}
}

func agreeFixture(t *testing.T, body []byte) {
	t.Helper()
	var args struct{ Action, Ticket string }
	err := json.Unmarshal(body, &args)
	a, tk, gotErr := callArguments(string(body))
	require.Equal(t, err == nil, gotErr == nil, "%q", body)
	if err == nil {
		require.Equal(t, args.Action, a, "%q", body)
		require.Equal(t, args.Ticket, tk, "%q", body)
	}
	var d struct {
		Decision string  `json:"decision"`
		Receipt  *string `json:"receipt"`
	}
	_ = json.Unmarshal(body, &d)
	decision, receipt := readDecision(body)
	require.Equal(t, d.Decision, decision, "%q", body)
	require.Equal(t, d.Receipt, receipt, "%q", body)
}

// FuzzWire holds the model's readers to encoding/json's on any text.
func FuzzWire(f *testing.F) {
	for _, b := range replies {
		f.Add([]byte(b))
	}
	f.Add([]byte(`{"action":"a","ticket":"t1.1.1"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		agreeReply(t, body)
		agreeFixture(t, body)
	})
}
