package recorders

import (
	"testing"
)

// FuzzRecorders feeds arbitrary bodies to the gateway, the fixture and the
// ledger of an open item: none panics, each answers a status, and the
// record still reads.
func FuzzRecorders(f *testing.F) {
	for _, seed := range []string{
		`{"messages":[{"role":"user","content":"p"}]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"p"}]},{"role":"assistant","tool_calls":[{"id":"call_1_1_1"}]},{"role":"tool","tool_call_id":"call_1_1_1","content":null}]}`,
		`{"action":"file.read.workspace","ticket":"t1.1.1"}`,
		`{"ticket":"t1.1.1","receipt":"rcpt-t1.1.1-1"}`,
		`{"messages":[null],"n":1e400,"stream":"true"}`,
		`[`, `""`, `{"messages":{}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		s := NewSession()
		if err := s.Open(Item{ID: "f", Prompt: "p", Turns: [][]Action{{{Label: "file.read.workspace"}, {Label: "x", Unavailable: true}}}}); err != nil {
			t.Fatal(err)
		}
		for _, r := range []Reply{
			s.Complete(ChatPath, []byte(`{"messages":[{"role":"user","content":"p"}]}`), nil),
			s.Complete(ChatPath, body, map[string]string{"user-agent": string(body)}),
			s.Decide(body), s.Effect(body),
		} {
			if r.Status < 200 || r.Status > 599 {
				t.Fatalf("status %d", r.Status)
			}
		}
		rec, err := s.Close(true, "")
		if err != nil {
			t.Fatal(err)
		}
		ob := Observe(rec)
		if ob.ModelRequests != 2 || ob.ServiceRequests != 1 {
			t.Fatalf("%d model and %d service requests", ob.ModelRequests, ob.ServiceRequests)
		}
	})
}
