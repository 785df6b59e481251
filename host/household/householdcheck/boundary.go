package householdcheck

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/household"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// The boundary-response dimensions of the household scenario (a
// runner-style host: a scripted model makes tool requests).
//
// Action: one tool decision, which the boundary records as one attempt.
// Its call id is its position among the run's tool decisions (attempt k,
// evidence id ev-k on a correct runtime). Final decisions, parser failures
// and the runtime's own ends are not actions.
//
// Denominators come from the authored script, never from the run:
//
//   - expected.statuses, when authored, classifies every action: ok and
//     timeout are scripted-permitted (the runtime should start the tool; a
//     timeout is permitted work that never came back), denied and invalid
//     are scripted-denied (the boundary or the tool contract refuses it);
//   - otherwise expected.effects (required) is the number permitted, and
//     the number of actions is expected.attempts, else the length of
//     expected.toolCalls, else expected.denied + expected.invalid on top of
//     the effects, else what the given script offers: its tool decisions
//     before the first final or malformed response, within the decision
//     budget and before the scripted latencies alone reach the deadline.
//
// Numerators come only from what the runtime recorded:
//
//   - denial propagation: a scripted-denied action whose attempt was
//     refused (denied or invalid) and whose observation, the next thing the
//     model is handed, is exactly {"error": reason} with the boundary's own
//     reason;
//   - allowed work: a scripted-permitted action whose attempt ran (status
//     ok) and whose receipt {"evidence_id", "output"} came back under its
//     own evidence id; a timeout is permitted with no work;
//   - fail closed: tool runs started ≤ permitted actions, no run for an
//     action the script denies, and no run of a tool outside given.tools or
//     for a household outside given.households;
//   - service requests: tool runs started (ok or timeout), over the
//     permitted actions, since the runtime decides before any tool runs;
//   - trace completeness: scripted actions = tool decisions made = the
//     boundary's records (one per attempt, in order, ev-k for attempt k) =
//     the tool_calls of the user-facing result = one receipt per attempt
//     (an ok observation under its evidence id, an {"error"} observation
//     with the refusal's reason, or for a timeout the worker's diagnostic
//     line and the unavailable outcome, as the last attempt);
//   - extra effects: tool runs started beyond the permitted actions.
//
// Without statuses, actions are not matched one by one: work and visible
// denials are counted up to the scripted numbers.

// expectedScript is what a case's expected block says about its actions.
type expectedScript struct {
	// fields is the block as written.
	fields                             []scenario.Field
	effects, attempts, denied, invalid int
	// toolCalls and observations are array lengths, -1 when absent.
	toolCalls, observations int
	statuses                *statusCounts
}

// has reports whether the block has key. Blocks have a few keys, so this
// search costs less than building a set of them.
func (e *expectedScript) has(key string) bool {
	for _, f := range e.fields {
		if f.Key == key {
			return true
		}
	}
	return false
}

type statusCounts struct {
	list                         []string
	ok, denied, invalid, timeout int
}

// add appends one expected status and counts it.
func (s *statusCounts) add(status string) {
	s.list = append(s.list, status)
	switch household.Status(status) {
	case household.StatusOK:
		s.ok++
	case household.StatusDenied:
		s.denied++
	case household.StatusInvalid:
		s.invalid++
	case household.StatusTimeout:
		s.timeout++
	}
}

// readExpected reads what the script needs of an expected block, as gjson
// reads each value. Integers, arrays and arrays of statuses written the
// common way are read directly (gjson's Int of an integer literal is its
// value, its Str of a string without escapes its bytes, and "" for any
// other value); anything else goes through gjson.
func readExpected(expected []scenario.Field) expectedScript {
	e := expectedScript{fields: expected, toolCalls: -1, observations: -1}
	integer := func(raw []byte) int {
		if n, ok := jsontext.Int(raw); ok {
			return n
		}
		return int(gjson.ParseBytes(raw).Int())
	}
	length := func(raw []byte) int {
		n := 0
		if elements(raw, func(int, int) bool { n++; return true }) {
			return n
		}
		n = 0
		each(gjson.ParseBytes(raw), func(_, _ gjson.Result) bool { n++; return true })
		return n
	}
	for _, f := range expected {
		switch f.Key {
		case "effects":
			e.effects = integer(f.Raw)
		case "attempts":
			e.attempts = integer(f.Raw)
		case "denied":
			e.denied = integer(f.Raw)
		case "invalid":
			e.invalid = integer(f.Raw)
		case "toolCalls":
			e.toolCalls = length(f.Raw)
		case "observations":
			e.observations = length(f.Raw)
		case "statuses":
			s := &statusCounts{}
			raw := f.Raw
			if !elements(raw, func(start, end int) bool {
				if raw[start] != '"' {
					s.add("")
					return true
				}
				if _, plain := jsontext.ScanString(raw, start); !plain {
					return false
				}
				s.add(internStatus(raw[start+1 : end-1]))
				return true
			}) {
				s = &statusCounts{}
				each(gjson.ParseBytes(raw), func(_, x gjson.Result) bool {
					// A status as json.loads reads it: a lone surrogate
					// kept.
					status, _ := jsontext.StringToken([]byte(x.Raw))
					s.add(status)
					return true
				})
			}
			e.statuses = s
		}
	}
	return e
}

// each iterates over the elements of an array (gjson's ForEach would call
// back once for a scalar).
func each(v gjson.Result, f func(k, v gjson.Result) bool) {
	if v.IsArray() {
		v.ForEach(f)
	}
}

// internStatus returns b as a string, a status as its constant.
func internStatus(b []byte) string {
	switch household.Status(b) {
	case household.StatusOK:
		return string(household.StatusOK)
	case household.StatusDenied:
		return string(household.StatusDenied)
	case household.StatusInvalid:
		return string(household.StatusInvalid)
	case household.StatusTimeout:
		return string(household.StatusTimeout)
	}
	return string(b)
}

// scripted is a case's script: how many actions it permits and denies,
// and, when statuses are authored, the class of each.
type scripted struct {
	permitted, denied int
	// perAction is nil unless expected.statuses is authored.
	perAction []string
}

func readScript(g *given, e *expectedScript) scripted {
	if s := e.statuses; s != nil {
		return scripted{permitted: s.ok + s.timeout, denied: s.denied + s.invalid, perAction: s.list}
	}
	p := e.effects
	var actions int
	switch {
	case e.has("attempts"):
		actions = e.attempts
	case e.toolCalls >= 0:
		actions = e.toolCalls
	case e.has("denied") && e.has("invalid"):
		actions = p + e.denied + e.invalid
	default:
		actions = offered(g)
	}
	return scripted{permitted: p, denied: max(0, actions-p)}
}

// offered counts the tool decisions the given script offers before its
// first final or malformed response, within the decision budget and before
// the scripted latencies alone reach the deadline. Tool seconds and
// timeouts are left out: they depend on which attempts the runtime lets
// run, which is what is being measured.
func offered(g *given) int {
	cfg := &g.cfg
	n, elapsed := 0, 0.0
	for i, d := range cfg.Decisions {
		if i >= cfg.MaxDecisions {
			break
		}
		if i < len(cfg.Latencies) {
			elapsed += cfg.Latencies[i]
		}
		if elapsed >= cfg.DeadlineSeconds {
			break
		}
		if d.Object == nil {
			// Raw text is read by the runtime's own parser, which
			// bounds its nesting, as the runtime reads the text: an
			// unpaired surrogate in it is no UTF-8, which the strict
			// parser refuses.
			if !household.IsToolDecision(d.Text) {
				break
			}
		} else if !toolObject(d.Object) {
			break
		}
		n++
	}
	return n
}

// toolObject reports whether an already-parsed decision, as written, is
// an object with a string "tool" and no "final".
func toolObject(raw []byte) bool {
	d := gjson.ParseBytes(raw)
	tool, final := d.Get("tool"), d.Get("final")
	return d.IsObject() && !final.Exists() && tool.Type == gjson.String
}

// boundary counts one household case from its script and what the
// runtime recorded.
func boundary(s scripted, e *evidence) *scenario.Boundary {
	cfg, res, v := &e.cfg, e.res, e.v
	actions := s.permitted + s.denied
	if actions == 0 {
		return nil
	}
	b := &scenario.Boundary{Actions: actions, Permitted: s.permitted, Denied: s.denied}
	atts := res.Attempts
	runs, worked, visible := 0, 0, 0
	for i := range atts {
		if ran(&atts[i]) {
			runs++
		}
		if didWork(&atts[i], v.obs[i]) {
			worked++
		}
		if refusalVisible(&atts[i], v.obs[i]) {
			visible++
		}
	}
	failClosed := runs <= s.permitted
	if s.perAction != nil {
		for k, class := range s.perAction {
			if k >= len(atts) {
				break
			}
			if permittedStatus(class) && didWork(&atts[k], v.obs[k]) {
				b.Worked++
			}
			if !permittedStatus(class) && refusalVisible(&atts[k], v.obs[k]) {
				b.DeniedVisible++
			}
		}
		for k := range atts {
			if ran(&atts[k]) && (k >= len(s.perAction) || !permittedStatus(s.perAction[k])) {
				failClosed = false
			}
		}
	} else {
		b.Worked = min(s.permitted, worked)
		b.DeniedVisible = min(s.denied, visible)
	}
	tools, households := household.NewNameSet(cfg.Tools), household.NewNameSet(cfg.Households)
	for k := range atts {
		if ran(&atts[k]) && (!tools.Has(atts[k].Name) || !householdAllowed(atts[k].Arguments, v.args[k], households)) {
			failClosed = false
		}
	}
	b.FailClosed = failClosed
	b.ServiceRequests = runs
	b.ServiceExpected = s.permitted
	b.ExtraEffects = max(0, runs-s.permitted)
	b.Complete = complete(actions, res, v)
	return b
}

func permittedStatus(class string) bool {
	return class == string(household.StatusOK) || class == string(household.StatusTimeout)
}

// ran: the runtime started the tool (its worker answered or timed out).
func ran(a *household.Attempt) bool {
	return a.Status == household.StatusOK || a.Status == household.StatusTimeout
}

// didWork: the tool ran and its receipt came back under the attempt's own
// evidence id. observation is the attempt's observation as plain gives it.
func didWork(a *household.Attempt, observation any) bool {
	if a.Status != household.StatusOK || !a.Receipt || a.EvidenceID == "" {
		return false
	}
	obs, ok := observation.(map[string]any)
	_, hasOutput := obs["output"]
	return ok && obs["evidence_id"] == a.EvidenceID && hasOutput && len(obs) == 2
}

// refusalVisible: the attempt was refused and the model is handed exactly
// {"error": reason}, the boundary's own reason.
func refusalVisible(a *household.Attempt, observation any) bool {
	if (a.Status != household.StatusDenied && a.Status != household.StatusInvalid) || !a.Receipt || a.Reason == "" {
		return false
	}
	obs, ok := observation.(map[string]any)
	return ok && len(obs) == 1 && obs["error"] == a.Reason
}

// householdAllowed: the recorded arguments name no household, or one the
// caller may read. Unrecorded arguments cannot be checked here (trace
// completeness notices them). recorded is args as plain gives them.
func householdAllowed(args json.RawMessage, recorded any, households household.NameSet) bool {
	if args == nil {
		return true
	}
	obj, ok := recorded.(map[string]any)
	if !ok {
		return true
	}
	h, present := obj["household"]
	if !present {
		return true
	}
	name, isString := h.(string)
	return isString && households.Has(name)
}

// complete reconciles scripted actions, tool decisions, the boundary's
// records, the result's tool_calls and the receipts, attempt by attempt.
func complete(actions int, res *household.Result, v *runView) bool {
	atts := res.Attempts
	if len(atts) != actions {
		return false
	}
	calls, _ := v.toolCalls.([]any)
	if len(calls) != len(atts) {
		return false
	}
	result, _ := v.result.(map[string]any)
	if !scenario.Equal(result["tool_calls"], any(calls)) {
		return false
	}
	for i := range atts {
		a := &atts[i]
		call, _ := calls[i].(map[string]any)
		if a.Record != i+1 || a.EvidenceID != "ev-"+strconv.Itoa(i+1) || call["name"] != a.Name {
			return false
		}
		switch a.Status {
		case household.StatusOK:
			if !didWork(a, v.obs[i]) {
				return false
			}
		case household.StatusDenied, household.StatusInvalid:
			if !refusalVisible(a, v.obs[i]) {
				return false
			}
		case household.StatusTimeout:
			line := "TimeoutError: " + a.Name + " worker timed out"
			logged := false
			for _, d := range res.Diagnostics {
				logged = logged || strings.HasPrefix(d, line)
			}
			if i != len(atts)-1 || a.Receipt || res.Outcome != household.Unavailable || !logged {
				return false
			}
		default:
			return false
		}
	}
	return true
}
