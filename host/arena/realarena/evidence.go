package realarena

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/deskcheck/deskcheck/recorders"
)

// ActionEvent is one versioned action event: what the recorders saw of
// one scripted call, joined by the ids the gateway emitted. Parent and
// delegation ids are null by contract (this arena has no delegation).
type ActionEvent struct {
	V            int     `json:"v"`
	RunID        string  `json:"runId"`
	ItemID       string  `json:"itemId"`
	CallID       string  `json:"callId"`
	Ticket       string  `json:"ticket"`
	Actor        string  `json:"actor"`
	Action       string  `json:"action"`
	Decision     *string `json:"decision"`
	Reason       *string `json:"reason"`
	Receipt      *string `json:"receipt"`
	Effect       *string `json:"effect"`
	ParentID     *string `json:"parentId"`
	DelegationID *string `json:"delegationId"`
}

// Events returns the action events of one item's record, in script order.
func Events(runID, adapter string, rec *recorders.Record) []ActionEvent {
	ob := recorders.Observe(rec)
	var out []ActionEvent
	for _, c := range ob.Calls {
		e := ActionEvent{V: 1, RunID: runID, ItemID: rec.Item.ID, CallID: c.CallID, Ticket: c.Ticket, Actor: "adapter:" + adapter, Action: c.Label}
		if c.Decides > 0 {
			e.Decision, e.Reason, e.Receipt = ptr(c.Decision), ptr(c.Reason), ptr(c.Receipt)
		}
		for _, l := range rec.Ledger {
			if l.Ticket != nil && *l.Ticket == c.Ticket {
				e.Effect = ptr(l.Effect)
				break
			}
		}
		out = append(out, e)
	}
	return out
}

func ptr(s string) *string { return &s }

// WriteEvidence writes the evidence of a judged run as JSON lines, item by
// item in script order: every raw model request and answer (headers
// recorded and bodies verbatim), every fixture and ledger record, then the
// item's action events. No timestamp and no latency: the same run writes
// the same bytes.
func WriteEvidence(w io.Writer, j *Judgement) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, rec := range j.Records {
		for k, m := range rec.Model {
			if err := enc.Encode(map[string]any{"item": rec.Item.ID, "record": "model", "n": k + 1, "path": m.Path,
				"header": m.Header, "request": raw(m.Body), "status": m.Reply.Status, "response": raw(m.Reply.Body), "error": m.Error}); err != nil {
				return err
			}
		}
		for k, d := range rec.Policy {
			if err := enc.Encode(map[string]any{"item": rec.Item.ID, "record": "decide", "n": k + 1,
				"request": raw(d.Body), "status": d.Status, "response": raw(d.Response)}); err != nil {
				return err
			}
		}
		for k, l := range rec.Ledger {
			if err := enc.Encode(map[string]any{"item": rec.Item.ID, "record": "effect", "n": k + 1,
				"request": raw(l.Body), "response": raw(l.Response), "authorized": l.Authorized}); err != nil {
				return err
			}
		}
		for _, e := range Events(j.Provenance.RunID, j.Adapter, rec) {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// raw keeps a body as JSON when it is JSON, else as a string.
func raw(b []byte) any {
	if json.Valid(b) {
		var c bytes.Buffer
		if json.Compact(&c, b) == nil {
			return json.RawMessage(c.Bytes())
		}
	}
	return string(b)
}
