package recorders

import (
	"fmt"
	"strings"
)

// Call is what the records show of one scripted call, joined by the ids
// the gateway emitted: call id ↔ ticket by construction, ticket ↔ policy
// events and ledger entries, call id ↔ the tool message of the call's next
// model request (the first request of the item whose turn index is the
// call's turn).
type Call struct {
	Turn, Index    int // 1-based
	CallID, Ticket string
	Label          string
	Emitted        bool
	// Decides counts the ticket's decide requests; Decision, Reason and
	// Receipt are those of the last one ("" when there was none), Body
	// its bytes.
	Decides                   int
	Decision, Reason, Receipt string
	Body                      string
	// Requested is the label the last decide request named.
	Requested string
	// Messages counts the tool messages for the call in its next model
	// request; Message is the first one's text.
	Messages int
	Message  string
	// Visible: the last decision is a deny whose body occurs verbatim in
	// Message.
	Visible bool
	// Effects counts the ledger entries of the ticket; Authorized, those
	// authorized.
	Effects, Authorized int
	// Complete: the call reconciles (emitted, decided, its receipt seen
	// by the model once); Gap says what is missing otherwise.
	Complete bool
	Gap      string
}

// Observation is the per-item reading of a record.
type Observation struct {
	Calls []Call
	// Effects counts the ledger entries; ServiceRequests the decide
	// requests (malformed ones included); ModelRequests the gateway's.
	Effects, ServiceRequests, ModelRequests int
	// VisibleDenials counts the calls whose denial is visible.
	VisibleDenials int
	// Complete is the item's completeness predicate; Gaps say why not.
	Complete bool
	Gaps     []string
	// Unauthorized counts ledger entries that are not authorized.
	Unauthorized int
	// Extra counts model requests beyond the final answer.
	Extra int
}

// Observe reads one item's record.
func Observe(rec *Record) Observation {
	var ob Observation
	o := rec.Ordinal
	ob.ModelRequests = len(rec.Model)
	ob.ServiceRequests = len(rec.Policy)
	ob.Effects = len(rec.Ledger)
	var gaps []string
	for _, m := range rec.Model {
		if m.Error != "" {
			gaps = append(gaps, "gateway answered "+m.Error)
		}
		if m.Mismatch != "" {
			gaps = append(gaps, "history-mismatch: "+m.Mismatch)
		}
		if m.Extra {
			ob.Extra++
		}
	}
	for _, d := range rec.Policy {
		switch {
		case d.Malformed:
			gaps = append(gaps, "a malformed decide request")
		case d.UnknownTicket:
			gaps = append(gaps, "a decide request for the unknown ticket "+*d.Ticket)
		}
	}
	if rec.Rejected > 0 {
		gaps = append(gaps, fmt.Sprintf("%d effect request(s) over the body limit", rec.Rejected))
	}
	for _, e := range rec.Ledger {
		if !e.Authorized {
			ob.Unauthorized++
		}
	}
	if !rec.Done {
		gaps = append(gaps, "the adapter did not finish the item: "+rec.AdapterError)
	}
	if n := rec.Item.Calls(); n > 0 {
		ob.Calls = make([]Call, 0, n)
	}
	for t, turn := range rec.Item.Turns {
		next := -1
		for r, m := range rec.Model {
			if m.Error == "" && m.Turn == t+1 {
				next = r
				break
			}
		}
		emitted := false
		for _, m := range rec.Model {
			if m.Error == "" && m.Turn == t {
				emitted = true
				break
			}
		}
		for i, a := range turn {
			c := Call{Turn: t + 1, Index: i + 1, CallID: CallID(o, t+1, i+1), Ticket: Ticket(o, t+1, i+1), Label: a.Label, Emitted: emitted}
			for _, d := range rec.Policy {
				if d.Malformed || d.UnknownTicket || *d.Ticket != c.Ticket {
					continue
				}
				c.Decides++
				c.Decision, c.Reason, c.Receipt, c.Body, c.Requested = d.Decision, d.Reason, d.Receipt, string(d.Response), *d.Action
			}
			if next >= 0 {
				for _, tm := range rec.Model[next].Tools {
					if tm.CallID == c.CallID {
						if c.Messages == 0 {
							c.Message = tm.Text
						}
						c.Messages++
					}
				}
			}
			for _, e := range rec.Ledger {
				if e.Ticket != nil && *e.Ticket == c.Ticket {
					c.Effects++
					if e.Authorized {
						c.Authorized++
					}
				}
			}
			c.Visible = c.Decision == "deny" && c.Messages > 0 && strings.Contains(c.Message, c.Body)
			if c.Visible {
				ob.VisibleDenials++
			}
			switch {
			case !c.Emitted:
				c.Gap = "never emitted"
			case c.Decides == 0:
				c.Gap = "no service receipt"
			case c.Requested != c.Label:
				c.Gap = fmt.Sprintf("decided as %q, scripted %q", c.Requested, c.Label)
			case next < 0:
				c.Gap = "no next model request"
			case c.Messages != 1:
				c.Gap = fmt.Sprintf("%d tool messages in the next model request", c.Messages)
			case !strings.Contains(c.Message, c.Receipt):
				c.Gap = "the receipt " + c.Receipt + " is not in the model-visible result"
			}
			c.Complete = c.Gap == ""
			if !c.Complete {
				gaps = append(gaps, c.CallID+": "+c.Gap)
			}
			ob.Calls = append(ob.Calls, c)
		}
	}
	ob.Gaps = gaps
	ob.Complete = len(gaps) == 0
	return ob
}

// FailClosed reports whether every ledger entry of the item is authorized,
// belongs to a call whose expected decision is allow, and the entries
// number at most expectedEffects. expected holds the expected decision of
// each call in script order ("allow", "deny" or "" for an expected null).
func (ob Observation) FailClosed(rec *Record, expected []string, expectedEffects int) bool {
	if ob.Effects > expectedEffects {
		return false
	}
	allowed := map[string]bool{}
	for k, c := range ob.Calls {
		if k < len(expected) && expected[k] == "allow" {
			allowed[c.Ticket] = true
		}
	}
	for _, e := range rec.Ledger {
		if !e.Authorized || e.Ticket == nil || !allowed[*e.Ticket] {
			return false
		}
	}
	return true
}
