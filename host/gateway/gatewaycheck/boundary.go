package gatewaycheck

import (
	"bytes"
	"encoding/json"
	"strings"

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
}

// readScript reads the script from an expected block.
func readScript(expected []scenario.Field) caseScript {
	var s caseScript
	for _, f := range expected {
		switch f.Key {
		case "decisions":
			list, ok := readDecisions(f.Raw)
			if !ok {
				list, ok = decisionsJSON(f.Raw)
			}
			if ok {
				s.decisions = list
			}
		case "draftEffects", "publicationEffects":
			n, ok := jsontext.Int(f.Raw)
			if !ok {
				ok = json.Unmarshal(f.Raw, &n) == nil
			}
			if ok {
				s.effects += n
			}
		}
	}
	return s
}

// decisionsJSON reads expected.decisions through encoding/json, the
// reference: each entry a string or "" for any other value; ok is false
// when the value is no array (or null, read as an empty list).
func decisionsJSON(raw []byte) ([]string, bool) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, false
	}
	out := make([]string, len(list))
	for i, raw := range list {
		_ = json.Unmarshal(raw, &out[i])
	}
	return out, true
}

// readDecisions reads an array as decisionsJSON does (each entry a string
// or "") when it is one valid array whose strings need no unescaping.
func readDecisions(raw []byte) ([]string, bool) {
	list := make([]string, 0, 8)
	ok := jsontext.WholeArray(raw, func(start int) int {
		end := jsontext.ScanValue(raw, start, 1)
		if end < 0 {
			return -1
		}
		if raw[start] != '"' {
			// Unmarshal into a string leaves "" for any other value.
			list = append(list, "")
			return end
		}
		s, ok := jsontext.PlainString(raw[start:end])
		if !ok {
			return -1
		}
		list = append(list, s)
		return end
	})
	return list, ok
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

// script is the scenario's Script: the steps expected.decisions permits
// and denies, from the case alone.
func script(givenJSON []byte, expected []scenario.Field) (permitted, denied int) {
	n, ok := topLevelCount(givenJSON, "steps")
	if !ok {
		n = stepsJSON(givenJSON)
	}
	return readScript(expected).split(n)
}

// stepsJSON counts the steps of a given block through encoding/json, the
// reference (as much of the list as decodes).
func stepsJSON(givenJSON []byte) int {
	var g struct {
		Steps []json.RawMessage `json:"steps"`
	}
	_ = json.Unmarshal(givenJSON, &g)
	return len(g.Steps)
}

// requestAction is the action a request names, when it is an object with a
// string action; "" otherwise.
func requestAction(raw json.RawMessage) string {
	if action, ok := requestActionFast(raw); ok {
		return action
	}
	return requestActionJSON(raw)
}

// requestActionJSON is requestAction through encoding/json, the reference.
func requestActionJSON(raw json.RawMessage) string {
	var env struct {
		Action json.RawMessage `json:"action"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return ""
	}
	var action string
	if json.Unmarshal(env.Action, &action) != nil {
		return ""
	}
	return action
}

// boundary counts one case: denominators from the given steps and the
// script, numerators from the result the recorders hold.
func boundary(steps []givenStep, s caseScript, res *gateway.Result) *scenario.Boundary {
	n := len(steps)
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
			switch requestAction(steps[k].Request) {
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

// requestActionFast is requestAction for a valid request whose keys are
// plain ASCII, none but "action" itself equal to "action" when case is
// ignored (json.Unmarshal would match it), "action" at most once, and
// whose action is not a string with escapes. ok is false otherwise.
func requestActionFast(raw []byte) (action string, ok bool) {
	i := jsontext.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		// Unmarshal into a struct fails for any other value but null,
		// which leaves the action unset: "" either way.
		return "", jsontext.ScanValue(raw, i, 0) >= 0
	}
	seen := false
	end := jsontext.EachMember(raw, i, func(keyTok []byte, plain bool, start int) int {
		end := jsontext.ScanValue(raw, start, 1)
		k := keyTok[1 : len(keyTok)-1]
		if end < 0 || !plain || !isASCII(k) {
			return -1
		}
		if string(k) != "action" {
			if strings.EqualFold(string(k), "action") {
				return -1
			}
			return end
		}
		if seen {
			return -1
		}
		seen = true
		if raw[start] != '"' {
			return end // not a string: ""
		}
		s, ok := jsontext.PlainString(raw[start:end])
		if !ok {
			return -1
		}
		action = s
		return end
	})
	return action, end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
}
