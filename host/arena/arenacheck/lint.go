package arenacheck

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/deskcheck/deskcheck/recorders"
	"github.com/deskcheck/deskcheck/scenario"
)

// planArena reads a case once: its script (each call's expected decision,
// the expected effects) and its lint.
//
// Errors: a label outside the pattern; a reason outside the vocabulary; a
// turn of more than 8 calls.
//
// Warnings: decisions or reasons whose length is not the number of calls
// (the dimensions then count the table's decisions: a warning, not an
// error, so that deskcheck try can run any item with the template's
// expected block first); an expected decision or reason that contradicts
// the table; an expected malformed_request or unknown_ticket; effects that
// are not the number of allow decisions; a label near a table label; more
// than 5 tool turns (the adapters stop at 6 model requests).
func planArena(g given, expected []scenario.Field) scenario.Plan[script] {
	var out []scenario.Problem
	fail := func(ptr, format string, args ...any) {
		out = append(out, scenario.Problem{Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	warn := func(name, ptr, format string, args ...any) {
		out = append(out, scenario.Problem{Pointer: ptr, Warning: true, Name: name, Message: fmt.Sprintf(format, args...)})
	}
	calls := g.calls()
	for t, turn := range g.Turns {
		if len(turn) > 8 {
			fail(fmt.Sprintf("/given/turns/%d", t), "a tool turn holds at most 8 calls, this one %d", len(turn))
		}
		for i, c := range turn {
			ptr := fmt.Sprintf("/given/turns/%d/%d/action", t, i)
			if !recorders.LabelPattern.MatchString(c.Action) {
				fail(ptr, "the label %q does not match ^[a-z0-9][a-z0-9._-]{0,63}$", c.Action)
				continue
			}
			if _, _, listed := recorders.Policy(c.Action); !listed {
				if near := nearLabel(c.Action); near != "" {
					warn("near-label", ptr, "%q: did you mean %q? It is denied as unknown_action", c.Action, near)
				}
			}
		}
	}
	if len(g.Turns) > 5 {
		warn("turn-limit", "/given/turns", "%d tool turns need %d model requests; the adapters stop at 6, so the item cannot complete", len(g.Turns), len(g.Turns)+1)
	}

	var decisions []*string
	var reasons []*string
	effects := -1
	for _, f := range expected {
		switch f.Key {
		case "decisions":
			if json.Unmarshal(f.Raw, &decisions) != nil {
				decisions = nil
			} else if len(decisions) != len(calls) {
				warn("list-vs-calls", "/expected/decisions", "%s for %s: one per call, in script order; the dimensions count the table's decisions instead", plural(len(decisions), "decision", "decisions"), plural(len(calls), "call", "calls"))
				decisions = nil
			}
		case "reasons":
			if json.Unmarshal(f.Raw, &reasons) != nil {
				reasons = nil
			} else if len(reasons) != len(calls) {
				warn("list-vs-calls", "/expected/reasons", "%s for %s: one per call, in script order", plural(len(reasons), "reason", "reasons"), plural(len(calls), "call", "calls"))
				reasons = nil
			}
		case "effects":
			var n int
			if json.Unmarshal(f.Raw, &n) == nil {
				effects = n
			}
		}
	}
	for i, r := range reasons {
		ptr := fmt.Sprintf("/expected/reasons/%d", i)
		switch {
		case r == nil:
		case !slices.Contains(recorders.Reasons, *r):
			fail(ptr, "%q is not a reason; the reasons are %v", *r, recorders.Reasons)
		case *r == recorders.ReasonMalformedRequest || *r == recorders.ReasonUnknownTicket:
			warn("broken-adapter-reason", ptr, "%s: a correct adapter never produces it", *r)
		default:
			if _, want := tableDecision(calls[i]); *r != want {
				warn("contradicts-table", ptr, "%s: the table gives %s the reason %s", *r, labelOf(calls[i]), want)
			}
		}
	}
	s := script{decisions: make([]string, len(calls)), effects: effects}
	permitted, denied := 0, 0
	for i := range calls {
		d, _ := tableDecision(calls[i])
		if decisions != nil {
			if decisions[i] == nil {
				d = ""
			} else if *decisions[i] != d {
				warn("contradicts-table", fmt.Sprintf("/expected/decisions/%d", i), "%s: the table decides %s %s", *decisions[i], labelOf(calls[i]), d)
				d = *decisions[i]
			}
		}
		s.decisions[i] = d
		switch d {
		case "allow":
			permitted++
		case "deny":
			denied++
		}
	}
	if effects < 0 {
		s.effects = permitted
	} else if effects != permitted {
		warn("effects-vs-allows", "/expected/effects", "%d effects expected for %s: an allowed call writes one ledger entry", effects, plural(permitted, "allow decision", "allow decisions"))
	}
	return scenario.Plan[script]{Problems: out, Permitted: permitted, Denied: denied, Script: s}
}

// tableDecision is the decision and reason contract v1 gives a call.
func tableDecision(c call) (decision, reason string) {
	if c.Unavailable {
		return "deny", recorders.ReasonPolicyUnavailable
	}
	decision, reason, _ = recorders.Policy(c.Action)
	return decision, reason
}

// nearLabel returns the table label within edit distance 2 of label, or
// "".
func nearLabel(label string) string {
	for _, r := range recorders.Table {
		if scenario.EditDistance(label, r.Label) <= 2 {
			return r.Label
		}
	}
	return ""
}
