package recorders

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wireBodies are request bodies at the edges of what the fast readers
// take: keys in another case or repeated, nulls, escapes, text that is not
// UTF-8, values of the wrong type, and the requests the frameworks send.
var wireBodies = []string{
	`{"messages":[{"role":"user","content":"p"}]}`,
	` {"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"p"}],"temperature":0,"tools":[{"type":"function","function":{"name":"perform_action"}}]} `,
	`{"messages":[{"role":"user","content":[{"type":"text","text":"p"}]},{"role":"assistant","tool_calls":[{"id":"call_1_1_1"}]},{"role":"tool","tool_call_id":"call_1_1_1","content":null}]}`,
	`{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"call_1_1_1","type":"function","function":{"name":"perform_action","arguments":"{\"action\":\"a\",\"ticket\":\"t1.1.1\"}"}},null]}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"id":null},{"ID":"x"}]}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"Id":"x","id":"y"}]}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"id":"x","id":"y"}]}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[1]}]}`,
	`{"messages":[{"role":"assistant","tool_calls":{}}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"id":1}]}]}`,
	`{"messages":[{"role":"assistant","tool_calls":[{"ıd":"x"}]}]}`,
	`{"messages":[{"Role":"user","content":"p"}]}`,
	`{"messages":[{"ROLE":"user","role":"tool"}]}`,
	`{"messages":[{"role":"user","role":"tool","content":"p"}]}`,
	`{"messages":[{"role":"user","content":"p","content":"q"}]}`,
	`{"messages":[{"role":"tool","tool_call_id":"a","Tool_Call_ID":"b"}]}`,
	`{"messages":[{"rolé":"user","content":"p"}]}`,
	`{"messages":[{"role":"u\u0073er","content":"p\n\u00e9\ud800"}]}`,
	`{"messages":[{"r\u006fle":"user","content":"p"}]}`,
	`{"messages":[{"role":null,"content":"p","tool_call_id":null,"tool_calls":null}]}`,
	`{"messages":[{"role":1}]}`,
	`{"messages":[{"role":"tool","tool_call_id":2}]}`,
	`{"messages":[null]}`,
	`{"messages":["x"]}`,
	`{"messages":[]}`,
	`{"messages":null}`,
	`{"messages":{}}`,
	`{"messages":[{"role":"user","content":"p"}],"messages":[]}`,
	`{"messages":[{"role":"user","content":"p"}],"Messages":[]}`,
	`{"mess\u0061ges":[{"role":"user","content":"p"}]}`,
	`{"messages":[{"role":"user","content":"p"}],"stream":true}`,
	`{"messages":[{"role":"user","content":"p"}],"stream":"true","n":2}`,
	`{"messages":[{"role":"user","content":"p"}],"n":1e400}`,
	`{"messages":[{"role":"user","content":"p"}],"n":"2","model":7,"tool_choice":"auto","parallel_tool_calls":false}`,
	`{"messages":[{"role":"user","content":"p"}],"model":"\u003cm\u003e \u2028","tools":null}`,
	`{"messages":[{"role":"user","content":"p"}],"model":"` + "\xff\xfe" + `"}`,
	`{"messages":[{"role":"user","content":"` + "\xed\xa0\x80" + `"}],"x":"` + "\xc3" + `"}`,
	`{"messages":[{"role":"user","content":"p"}],"` + "\xff" + `":1}`,
	`{"messages":[{"role":"user","content":"p","x":{"a":[1,2,{"b":null}]}}],"y":[true,false]}`,
	`{"messages":[{"role":"user","content":"p"}]}x`,
	`{"messages":[{"role":"user","content":"p"}],}`,
	`{"messages":[{"role":"user","content":"p",}]}`,
	`{"messages":[{"role":"user","content":"p"]}`,
	`{"messages":[{"role":"user","content":"p"}]` + strings.Repeat(" ", 3),
	`{"messages":[{"role":"user","content":` + strings.Repeat("[", 120) + strings.Repeat("]", 120) + `}]}`,
	`{"messages":[{"role":"user","content":"` + "\x01" + `"}]}`,
	`{"messages":[{"role":"user","content":"p"}],"n":01}`,
	"\ufeff" + `{"messages":[]}`,
	`[`, `""`, `null`, `{}`, ``, ` `, `{"a":1}`,
	`{"action":"file.read.workspace","ticket":"t1.1.1"}`,
	`{"ticket":"t1.1.1","receipt":"rcpt-t1.1.1-1"}`,
	`{"ticket":"t1.1.1","ticket":"t1.1.2","action":"a"}`,
	`{"ticket":"t1.1.1","Ticket":"t1.1.2","action":"a"}`,
	`{"ticket":"t1.1.1","action":"a\u0041"}`,
	`{"ticket":"t1.` + "\xff" + `","action":"a","` + "\xfe" + `":1}`,
	`{"ticket":null,"action":"a"}`,
	`{"ticket":1,"receipt":["r"]}`,
	`{"ticket":"t","action":"a","x":1}`,
}

// TestReadChatAgreesWithLibrary holds the one-pass reader of a request to
// encoding/json's: wherever it answers, the library reads the same
// request without a problem.
func TestReadChatAgreesWithLibrary(t *testing.T) {
	fast := 0
	for _, body := range wireBodies {
		if agreeChat(t, []byte(body)) {
			fast++
		}
	}
	assert.Greater(t, fast, 10, "the fast reader took too few of the bodies")
}

func agreeChat(t *testing.T, body []byte) bool {
	t.Helper()
	got, ok := readChat(body, nil)
	if !ok {
		return false
	}
	want, bad := readChatLibrary(body)
	require.Empty(t, bad, "%q", body)
	require.Equal(t, len(want.msgs), len(got.msgs), "%q", body)
	for i := range want.msgs {
		w, g := want.msgs[i], got.msgs[i]
		require.Equal(t, w.Role, g.Role, "%q", body)
		require.Equal(t, w.ToolCallID, g.ToolCallID, "%q", body)
		require.Equal(t, string(w.Content), string(g.Content), "%q", body)
		require.Equal(t, len(w.ToolCalls), len(g.ToolCalls), "%q", body)
		for j := range w.ToolCalls {
			require.Equal(t, w.ToolCalls[j].ID, g.ToolCalls[j].ID, "%q", body)
		}
		require.Equal(t, messageTextLibrary(w.Content), messageText(g.Content), "%q", body)
	}
	for _, pair := range [][2][]byte{
		{want.stream, got.stream}, {want.n, got.n}, {want.model, got.model}, {want.temperature, got.temperature},
		{want.toolChoice, got.toolChoice}, {want.parallelToolCalls, got.parallelToolCalls}, {want.tools, got.tools},
	} {
		require.Equal(t, pair[0] == nil, pair[1] == nil, "%q", body)
		require.Equal(t, string(pair[0]), string(pair[1]), "%q", body)
	}
	var s string
	if json.Unmarshal(want.model, &s) != nil {
		s = ""
	}
	require.Equal(t, s, rawString(got.model), "%q", body)
	require.Equal(t, toolNamesLibrary(want.tools), toolNames(got.tools), "%q", body)
	return true
}

// TestReadChatTakesTheFrameworksRequests: the requests the adapters send
// are read in one pass, not left to the library.
func TestReadChatTakesTheFrameworksRequests(t *testing.T) {
	for _, body := range []string{wireBodies[0], wireBodies[1], wireBodies[2], wireBodies[3]} {
		_, ok := readChat([]byte(body), nil)
		assert.True(t, ok, body)
	}
}

// TestFixtureReadersAgreeWithLibrary holds the decide and effect readers
// to encoding/json's on the same bodies.
func TestFixtureReadersAgreeWithLibrary(t *testing.T) {
	for _, body := range wireBodies {
		agreeFixture(t, []byte(body))
	}
}

func agreeFixture(t *testing.T, body []byte) {
	t.Helper()
	tk, ac, ok := readDecide(body)
	wtk, wac, wok := readDecideLibrary(body)
	require.Equal(t, wtk, tk, "%q", body)
	require.Equal(t, wac, ac, "%q", body)
	require.Equal(t, wok, ok, "%q", body)
	tk, rc := readEffect(body)
	wtk, wrc := readEffectLibrary(body)
	require.Equal(t, wtk, tk, "%q", body)
	require.Equal(t, wrc, rc, "%q", body)
}

// wireTexts are strings at the edges of how encoding/json writes them.
var wireTexts = []string{
	"", "arena-mock", "file.read.workspace", `a"b\c`, "<script>&amp;</script>", "line\nbreak\ttab\r\b\f\x00\x1f\x7f",
	"é ü 日本 🙂", "\u2028\u2029", "\xff\xfe", "\xed\xa0\x80", "a\xc3", strings.Repeat("long text ", 40),
}

// wireCompletions are answers of the gateway with s in each field it
// writes.
func wireCompletions(s string) []completion {
	return []completion{
		{ID: s, Object: "chat.completion", Model: s, Choices: []choice{{FinishReason: "stop", Message: message{Role: "assistant", Content: &s}}}},
		{ID: "chatcmpl-arena-1-1", Object: s, Model: "m", Created: 3, Choices: []choice{{Index: 2, FinishReason: s, Message: message{Role: s, ToolCalls: []toolCall{
			{ID: s, Type: "function", Function: function{Name: ToolName, Arguments: argumentsText(s, "t1.1.1")}},
			{ID: "call_1_1_2", Type: s, Function: function{Name: s, Arguments: s}},
		}}}}, Usage: &usage{1, 2, 3}},
		{Choices: []choice{}},
	}
}

// TestWritersAgreeWithLibrary holds the hand-written answers of the
// gateway, the fixture and the ledger to mustCompact's.
func TestWritersAgreeWithLibrary(t *testing.T) {
	for _, s := range wireTexts {
		s := s
		for _, c := range wireCompletions(s) {
			assert.Equal(t, string(mustCompact(c)), string(completionBody(&c)), "%q", s)
		}
		assert.Equal(t, string(mustCompact(struct {
			Action string `json:"action"`
			Ticket string `json:"ticket"`
		}{s, s})), argumentsText(s, s), "%q", s)
		for _, p := range []*string{nil, &s} {
			d := Decision{Receipt: s, Ticket: p, Action: &s, Decision: "deny", Reason: s}
			assert.Equal(t, string(mustCompact(struct {
				Receipt  string  `json:"receipt"`
				Ticket   *string `json:"ticket"`
				Action   *string `json:"action"`
				Decision string  `json:"decision"`
				Reason   string  `json:"reason"`
			}{d.Receipt, d.Ticket, d.Action, d.Decision, d.Reason})), string(decisionBody(&d)), "%q", s)
			e := Entry{Effect: s, Ticket: &s, Receipt: p}
			assert.Equal(t, string(mustCompact(struct {
				Effect  string  `json:"effect"`
				Ticket  *string `json:"ticket"`
				Receipt *string `json:"receipt"`
				Status  string  `json:"status"`
			}{e.Effect, e.Ticket, e.Receipt, "done"})), string(entryBody(&e)), "%q", s)
		}
	}
}

// FuzzWire holds the one-pass readers to encoding/json's on any body.
func FuzzWire(f *testing.F) {
	for _, b := range wireBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		agreeChat(t, body)
		agreeFixture(t, body)
	})
}
