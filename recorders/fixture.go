package recorders

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// Fixture endpoints.
const (
	DecidePath = "/v1/decide"
	EffectPath = "/v1/effect"
)

// Decide answers one decide request (body at most FixtureBodyLimit+1
// bytes) with the policy's decision, and records it in the open item
// before answering.
func (s *Session) Decide(body []byte) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		s.strays = append(s.strays, Stray{Endpoint: "fixture " + DecidePath, Body: clip(body)})
		return Reply{Status: 409, Header: jsonHeader(), Body: []byte(`{"decision":"deny","reason":"no_item_open"}`)}
	}
	w := s.cur
	d := Decision{Body: bytes.Clone(body), Status: 200}
	ticket, action, ok := readDecide(body)
	d.Ticket, d.Action = ticket, action
	switch {
	case len(body) > FixtureBodyLimit:
		d.Ticket, d.Action = nil, nil
		d.Malformed, d.Status = true, 413
		d.Decision, d.Reason = "deny", ReasonMalformedRequest
	case !ok:
		d.Malformed = true
		d.Decision, d.Reason = "deny", ReasonMalformedRequest
	default:
		call, known := w.calls[*ticket]
		if known && !w.emitted[call.turn] {
			known = false
		}
		switch {
		case !known:
			d.UnknownTicket = true
			d.Decision, d.Reason = "deny", ReasonUnknownTicket
		default:
			d.Decision, d.Reason, d.Status = s.decide(call.Action, *action)
		}
	}
	if d.Malformed || d.UnknownTicket {
		w.anonymous++
		d.Receipt = "rcpt-x" + strconv.Itoa(w.rec.Ordinal) + "-" + strconv.Itoa(w.anonymous)
	} else {
		w.decides[*ticket]++
		d.Receipt = "rcpt-" + *ticket + "-" + strconv.Itoa(w.decides[*ticket])
		w.receipts[d.Receipt] = receiptOf{ticket: *ticket, allow: d.Decision == "allow"}
	}
	d.Response = decisionBody(&d)
	w.rec.Policy = append(w.rec.Policy, d)
	return Reply{Status: d.Status, Header: jsonHeader(), Body: d.Response}
}

// decisionBody is the fixture's answer to d.
func decisionBody(d *Decision) []byte {
	b := make([]byte, 0, 128)
	b = append(b, `{"receipt":`...)
	ok := utf8.ValidString(d.Receipt) && utf8.ValidString(d.Decision) && utf8.ValidString(d.Reason)
	if ok {
		b = jsonx.AppendString(b, d.Receipt)
		b = append(b, `,"ticket":`...)
		b, ok = appendNullable(b, d.Ticket)
	}
	if ok {
		b = append(b, `,"action":`...)
		b, ok = appendNullable(b, d.Action)
	}
	if ok {
		b = append(b, `,"decision":`...)
		b = jsonx.AppendString(b, d.Decision)
		b = append(b, `,"reason":`...)
		b = jsonx.AppendString(b, d.Reason)
		return append(b, '}')
	}
	return mustCompact(struct {
		Receipt  string  `json:"receipt"`
		Ticket   *string `json:"ticket"`
		Action   *string `json:"action"`
		Decision string  `json:"decision"`
		Reason   string  `json:"reason"`
	}{d.Receipt, d.Ticket, d.Action, d.Decision, d.Reason})
}

// Effect writes one ledger entry (body at most FixtureBodyLimit+1 bytes)
// and answers its receipt. The ledger is the synthetic world, not the
// policy: it never refuses an effect; an entry is authorized when its
// receipt names an allow decision of the same ticket.
func (s *Session) Effect(body []byte) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		s.strays = append(s.strays, Stray{Endpoint: "fixture " + EffectPath, Body: clip(body)})
		return Reply{Status: 409, Header: jsonHeader(), Body: []byte(`{"status":"no_item_open"}`)}
	}
	w := s.cur
	if len(body) > FixtureBodyLimit {
		w.rec.Rejected++
		return Reply{Status: 413, Header: jsonHeader(), Body: []byte(`{"status":"body_too_large"}`)}
	}
	e := Entry{Body: bytes.Clone(body)}
	e.Ticket, e.Receipt = readEffect(body)
	if e.Ticket != nil {
		w.effects[*e.Ticket]++
		e.Effect = "eff-" + *e.Ticket + "-" + strconv.Itoa(w.effects[*e.Ticket])
	} else {
		w.anonEff++
		e.Effect = "eff-x" + strconv.Itoa(w.rec.Ordinal) + "-" + strconv.Itoa(w.anonEff)
	}
	if e.Ticket != nil && e.Receipt != nil {
		r, ok := w.receipts[*e.Receipt]
		e.Authorized = ok && r.allow && r.ticket == *e.Ticket
	}
	e.Response = entryBody(&e)
	w.rec.Ledger = append(w.rec.Ledger, e)
	return Reply{Status: 200, Header: jsonHeader(), Body: e.Response}
}

// entryBody is the ledger's answer to e.
func entryBody(e *Entry) []byte {
	b := make([]byte, 0, 96)
	b = append(b, `{"effect":`...)
	ok := utf8.ValidString(e.Effect)
	if ok {
		b = jsonx.AppendString(b, e.Effect)
		b = append(b, `,"ticket":`...)
		b, ok = appendNullable(b, e.Ticket)
	}
	if ok {
		b = append(b, `,"receipt":`...)
		b, ok = appendNullable(b, e.Receipt)
	}
	if ok {
		return append(b, `,"status":"done"}`...)
	}
	return mustCompact(struct {
		Effect  string  `json:"effect"`
		Ticket  *string `json:"ticket"`
		Receipt *string `json:"receipt"`
		Status  string  `json:"status"`
	}{e.Effect, e.Ticket, e.Receipt, "done"})
}

func jsonHeader() map[string]string { return map[string]string{"content-type": "application/json"} }

// readDecide reads {"action": string, "ticket": string}, exactly those two
// members. ticket and action are returned when they are strings, ok only
// when the body is exactly that.
func readDecide(body []byte) (ticket, action *string, ok bool) {
	if m, plain := plainMembers(body); plain {
		ticket, action = rawStringMember(m, "ticket"), rawStringMember(m, "action")
		return ticket, action, len(m) == 2 && ticket != nil && action != nil
	}
	return readDecideLibrary(body)
}

// readDecideLibrary is readDecide through encoding/json.
func readDecideLibrary(body []byte) (ticket, action *string, ok bool) {
	m, isObject := members(body)
	ticket, action = stringMember(m, "ticket"), stringMember(m, "action")
	return ticket, action, isObject && len(m) == 2 && ticket != nil && action != nil
}

// readEffect reads {"ticket": string, "receipt": string}; a member that is
// absent or not a string is nil.
func readEffect(body []byte) (ticket, receipt *string) {
	if m, plain := plainMembers(body); plain {
		return rawStringMember(m, "ticket"), rawStringMember(m, "receipt")
	}
	return readEffectLibrary(body)
}

// readEffectLibrary is readEffect through encoding/json.
func readEffectLibrary(body []byte) (ticket, receipt *string) {
	m, _ := members(body)
	return stringMember(m, "ticket"), stringMember(m, "receipt")
}

func members(body []byte) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

func stringMember(m map[string]json.RawMessage, key string) *string {
	raw, ok := m[key]
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return &s
}
