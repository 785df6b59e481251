package gatewaycheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// lintGateway checks a schema-valid gateway case for what the schema
// cannot see. Errors: a timestamp (now, expiresAt) the model does not
// accept, an approval with both or neither of arguments and
// argumentsDigest, arguments holding an unpaired surrogate (which have no
// digest), a duplicate approval id, no step at all, a reason
// outside the vocabulary (in reasons and in audit events) and an audit key
// the gateway does not record. Warnings: decisions or reasons whose length
// is not the number of steps.
func lintGateway(g givenBlock, expected []scenario.Field) []scenario.Problem {
	ps := surrogateProblems(g)
	add := func(p scenario.Problem) { ps = append(ps, p) }

	if g.Now != nil {
		if _, err := gateway.ParseTime(*g.Now); err != nil {
			add(scenario.Problem{Pointer: "/given/now", Message: "now: " + err.Error()})
		}
	}
	firstID := map[string]int{}
	for i, a := range g.Approvals {
		// The pointer is written only for a problem: most approvals have none.
		at := func() string { return "/given/approvals/" + strconv.Itoa(i) }
		if first, dup := firstID[a.ID]; dup {
			add(scenario.Problem{Pointer: at() + "/id", Message: fmt.Sprintf("duplicate approval id %s (first at /given/approvals/%d)", jsontext.Quote(a.ID), first)})
		} else {
			firstID[a.ID] = i
		}
		switch {
		case a.Arguments != nil && a.ArgumentsDigest != nil:
			add(scenario.Problem{Pointer: at() + "/argumentsDigest", Key: true, Message: fmt.Sprintf("approval %s has both arguments and argumentsDigest; give exactly one", jsontext.Quote(a.ID))})
		case a.Arguments == nil && a.ArgumentsDigest == nil:
			add(scenario.Problem{Pointer: at(), Message: fmt.Sprintf("approval %s has neither arguments nor argumentsDigest; give exactly one", jsontext.Quote(a.ID))})
		}
		if _, err := gateway.ParseTime(a.ExpiresAt); err != nil {
			add(scenario.Problem{Pointer: at() + "/expiresAt", Message: "expiresAt: " + err.Error()})
		}
	}
	steps := len(g.Steps)
	if steps == 0 {
		add(scenario.Problem{Pointer: "/given/steps", Message: "steps is empty: a gateway case plays at least one step"})
	}

	for _, f := range expected {
		switch f.Key {
		case "decisions", "reasons":
			list, ok := listOf(f.Raw)
			if !ok {
				continue
			}
			if steps > 0 && len(list) != steps {
				add(scenario.Problem{Pointer: "/expected/" + f.Key, Warning: true, Name: "list-vs-steps", Message: fmt.Sprintf("%d %s expected for %d steps", len(list), f.Key, steps)})
			}
			if f.Key == "reasons" {
				for k, raw := range list {
					if p, bad := lintReason(raw); bad {
						p.Pointer = "/expected/reasons/" + strconv.Itoa(k)
						add(p)
					}
				}
			}
		case "audit":
			events, ok := auditEvents(f.Raw)
			if !ok {
				continue
			}
			for k, ev := range events {
				at := func() string { return "/expected/audit/" + strconv.Itoa(k) }
				for _, key := range ev.SortedKeys() {
					if !slices.Contains(gateway.AuditKeys(), key) {
						add(scenario.Problem{Pointer: at() + "/" + jsontext.PointerToken(key), Key: true, Message: fmt.Sprintf("audit key %q is not recorded by the gateway%s", key, didYouMean(key, gateway.AuditKeys()))})
					}
				}
				for _, key := range []string{"sequence", "effectCount"} {
					// A count as every count of a case is written: the
					// schema's integer takes 1.0 and 1e0 too.
					if raw, _ := ev.Get(key); len(raw) > 0 && (raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9') && !wholeNumber(raw) {
						add(scenario.Problem{Pointer: at() + "/" + key, Message: fmt.Sprintf("a whole number is expected (digits only, at most 15), found %s", raw)})
					}
				}
				if raw, ok := ev.Get("reason"); ok {
					if p, bad := lintReason(raw); bad {
						p.Pointer = at() + "/reason"
						add(p)
					}
				}
			}
		}
	}
	return ps
}

// auditEvents reads expected.audit as a list of objects' members (null
// for no member), as the host reads them; ok is false for any other
// value.
func auditEvents(raw []byte) ([]jsontext.Members, bool) {
	list, ok := listOf(raw)
	if !ok {
		return nil, false
	}
	events := make([]jsontext.Members, len(list))
	for i, x := range list {
		if events[i], ok = membersOf(x); !ok {
			return nil, false
		}
	}
	return events, true
}

// lintReason reports a reason outside the vocabulary; the caller points
// the problem at it.
func lintReason(raw []byte) (scenario.Problem, bool) {
	r, ok := stringOf(raw)
	if !ok || gateway.IsReason(r) {
		return scenario.Problem{}, false
	}
	return scenario.Problem{Message: fmt.Sprintf("reason %q is not one of the gateway's 18 reasons%s", r, didYouMean(r, gateway.Reasons()))}, true
}

// didYouMean names the closest known word when one is a likely
// misspelling; otherwise it lists the known words.
func didYouMean(word string, known []string) string {
	if best := scenario.Closest(word, known); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return " (known: " + strings.Join(known, ", ") + ")"
}

// wholeNumber tells whether raw is a count as deskcheck reads counts: no
// sign, fraction or exponent and at most 15 digits.
func wholeNumber(raw []byte) bool {
	if string(raw) == "0" {
		return true
	}
	if len(raw) == 0 || len(raw) > 15 || raw[0] == '0' {
		return false
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
