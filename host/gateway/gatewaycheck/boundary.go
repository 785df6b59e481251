package gatewaycheck

import (
	"bytes"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// The boundary-response dimensions of the gateway scenario.
//
// Each step is one scripted action. Step k is scripted-permitted when
// expected.decisions[k] is "allow" and scripted-denied when it is "deny"
// (a step beyond the end of decisions is neither). Everything counted as
// having happened comes from the model's recorders:
//
//   - a denial propagated when the step's response is a deny whose reason
//     is the reason of the step's audit event;
//   - work was done when the step's response is an allow and, for a read
//     request, the result returned is not null, or for a create_draft or
//     publish_summary request, the effect ledger holds exactly one effect
//     of that kind from the step;
//   - the case fails closed when every ledger effect comes from a step that
//     is scripted-permitted and was answered allow, no step appended more
//     than one effect, and the ledger holds no more effects than
//     expected.draftEffects + expected.publicationEffects;
//   - the service requests are the mock-tool dispatches the model counted
//     (reads and appends); the gateway decides before the tool, so the
//     scripted-permitted steps are the requests expected to reach it;
//   - the trace is complete when responses, audit events and steps are as
//     many, audit sequences run 1..n, each audit decision and reason is the
//     response's, the last effectCount is the ledger's length and every
//     effect is included in the effectCount of its step's audit event;
//   - extra effects are the ledger entries beyond the expected effects.

// caseScript is what a case's expected block says should happen.
type caseScript struct {
	// decisions is expected.decisions as written ("" for an entry that is
	// not a string).
	decisions []string
	// effects is expected.draftEffects + expected.publicationEffects.
	effects int
	// actions is the action each step's request names ("" for none).
	actions []string
}

// readScript reads the script from an expected block.
func readScript(expected []scenario.Field) caseScript {
	var s caseScript
	for _, f := range expected {
		switch f.Key {
		case "decisions":
			if list, ok := decisionsOf(f.Raw); ok {
				s.decisions = list
			}
		case "draftEffects", "publicationEffects":
			if n, ok := jsontext.Int(f.Raw); ok {
				s.effects += n
			}
		}
	}
	return s
}

// decisionsOf reads expected.decisions: each entry a string or "" for any
// other value; ok is false when the value is no array (null reads as an
// empty list).
func decisionsOf(raw []byte) ([]string, bool) {
	list, ok := listOf(raw)
	if !ok {
		return nil, false
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = stringOf(x)
	}
	return out, true
}

// at returns the scripted decision of step index k (from 0), or "".
func (s caseScript) at(k int) string {
	if k < len(s.decisions) {
		return s.decisions[k]
	}
	return ""
}

// split counts the scripted-permitted and scripted-denied steps of a case
// with the given number of steps.
func (s caseScript) split(steps int) (permitted, denied int) {
	for k := range steps {
		switch s.at(k) {
		case gateway.DecisionAllow:
			permitted++
		case gateway.DecisionDeny:
			denied++
		}
	}
	return permitted, denied
}

// plan is the scenario's Plan: the lint problems of a case, and the steps
// its expected.decisions permits and denies.
func plan(g givenBlock, expected []scenario.Field) scenario.Plan[caseScript] {
	s := readScript(expected)
	s.actions = make([]string, len(g.Steps))
	for k, st := range g.Steps {
		s.actions[k] = requestAction(st.Request)
	}
	permitted, denied := s.split(len(g.Steps))
	return scenario.Plan[caseScript]{Problems: lintGateway(g, expected), Permitted: permitted, Denied: denied, Script: s}
}

// boundary counts one case: denominators from the script, numerators from
// the result the recorders hold.
func boundary(s caseScript, res *gateway.Result) *scenario.Boundary {
	n := len(s.actions)
	permitted, denied := s.split(n)
	b := &scenario.Boundary{
		Actions:         n,
		Permitted:       permitted,
		Denied:          denied,
		ServiceRequests: res.ServiceRequests,
		ServiceExpected: permitted,
		ExtraEffects:    max(0, len(res.Effects)-s.effects),
	}

	responses := make(map[int]gateway.Response, len(res.Responses))
	for _, r := range res.Responses {
		if _, seen := responses[r.Step]; !seen {
			responses[r.Step] = r
		}
	}
	audit := make(map[int]gateway.AuditEvent, len(res.Audit))
	for _, e := range res.Audit {
		if _, seen := audit[e.Sequence]; !seen {
			audit[e.Sequence] = e
		}
	}
	effects := map[int]map[string]int{} // step → effect kind → count
	for _, e := range res.Effects {
		if effects[e.Step] == nil {
			effects[e.Step] = map[string]int{}
		}
		effects[e.Step][e.Kind]++
	}

	for k := range n {
		resp, answered := responses[k+1]
		switch s.at(k) {
		case gateway.DecisionDeny:
			ev, audited := audit[k+1]
			if answered && audited && resp.Decision == gateway.DecisionDeny && resp.Reason != "" && ev.Reason == resp.Reason {
				b.DeniedVisible++
			}
		case gateway.DecisionAllow:
			if !answered || resp.Decision != gateway.DecisionAllow {
				continue
			}
			switch s.actions[k] {
			case gateway.ActionRead:
				if !bytes.Equal(bytes.TrimSpace(resp.Result), []byte("null")) && len(resp.Result) > 0 {
					b.Worked++
				}
			case gateway.ActionCreateDraft:
				if total(effects[k+1]) == 1 && effects[k+1][gateway.EffectDraft] == 1 {
					b.Worked++
				}
			case gateway.ActionPublishSummary:
				if total(effects[k+1]) == 1 && effects[k+1][gateway.EffectPublication] == 1 {
					b.Worked++
				}
			}
		}
	}

	b.FailClosed = b.ExtraEffects == 0
	for step, kinds := range effects {
		resp, answered := responses[step]
		if s.at(step-1) != gateway.DecisionAllow || !answered || resp.Decision != gateway.DecisionAllow || total(kinds) > 1 {
			b.FailClosed = false
		}
	}

	b.Complete = complete(n, res)
	return b
}

func total(kinds map[string]int) int {
	t := 0
	for _, c := range kinds {
		t += c
	}
	return t
}

// complete reconciles steps, responses, audit events and the effect
// ledger one to one.
func complete(steps int, res *gateway.Result) bool {
	if len(res.Audit) != steps || len(res.Responses) != steps {
		return false
	}
	for i, e := range res.Audit {
		r := res.Responses[i]
		if e.Sequence != i+1 || r.Step != i+1 || e.Decision != r.Decision || e.Reason != r.Reason {
			return false
		}
	}
	if steps > 0 && res.Audit[steps-1].EffectCount != len(res.Effects) {
		return false
	}
	for j, eff := range res.Effects {
		if eff.Step < 1 || eff.Step > steps || res.Audit[eff.Step-1].EffectCount < j+1 {
			return false
		}
	}
	return true
}
