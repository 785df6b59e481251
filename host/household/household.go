package household

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Decision is one scripted model response.
type Decision struct {
	// Object, when not nil, is an already-parsed decision: the JSON text
	// of an object. A repeated key keeps its last value.
	Object json.RawMessage
	// Text is a raw response, used when Object is nil. It is parsed as
	// strict JSON when the runtime processes it; "" is the empty response.
	Text string
}

// Config is the input of one run.
type Config struct {
	// Decisions are the scripted responses, in order. After the last one
	// the model answers with the empty response.
	Decisions []Decision
	// Latencies are the seconds the k-th model request takes; missing
	// entries are 0.
	Latencies []float64
	// Households are the authorised households, as given (nil: none).
	Households []string
	// Tools are the catalogue tools available to the caller (nil: none).
	Tools []string
	// Timeouts are the tools whose worker times out when run.
	Timeouts []string
	// ToolSeconds is the time each successful tool execution takes.
	ToolSeconds float64
	// MaxDecisions is the decision budget.
	MaxDecisions int
	// DeadlineSeconds is the total deadline; it must be positive.
	DeadlineSeconds float64
	// Faults switches the model into boundary bugs.
	Faults Faults
}

// Defaults of a Config.
const (
	DefaultMaxDecisions    = 4
	DefaultDeadlineSeconds = 30.0
)

// NewConfig returns a Config with the given decisions and every other
// input at its default: household hh-anand, all three tools, no
// timeouts, no latency, four decisions, a 30-second deadline, no fault.
func NewConfig(decisions ...Decision) Config {
	return Config{
		Decisions:       decisions,
		Households:      []string{DefaultHousehold},
		Tools:           Catalogue(),
		MaxDecisions:    DefaultMaxDecisions,
		DeadlineSeconds: DefaultDeadlineSeconds,
	}
}

// validate checks a Config and parses its already-parsed decisions.
func (c Config) validate() ([]any, error) {
	parsed := make([]any, len(c.Decisions))
	for i, d := range c.Decisions {
		if d.Object == nil {
			continue
		}
		v, err := parseJSON(string(d.Object), false)
		if err != nil {
			return nil, fmt.Errorf("decision %d: %v", i+1, err)
		}
		if _, ok := v.(*object); !ok {
			return nil, fmt.Errorf("decision %d: not a JSON object", i+1)
		}
		parsed[i] = v
	}
	for i, l := range c.Latencies {
		if !finiteAtLeastZero(l) {
			return nil, fmt.Errorf("latency %d: must be a finite number ≥ 0", i+1)
		}
	}
	for _, t := range c.Tools {
		if !InCatalogue(t) {
			return nil, fmt.Errorf("tools: %q is not in the catalogue", t)
		}
	}
	for _, t := range c.Timeouts {
		if !InCatalogue(t) {
			return nil, fmt.Errorf("timeouts: %q is not in the catalogue", t)
		}
	}
	if !finiteAtLeastZero(c.ToolSeconds) {
		return nil, fmt.Errorf("toolSeconds: must be a finite number ≥ 0")
	}
	if c.MaxDecisions < 0 {
		return nil, fmt.Errorf("maxDecisions: must be ≥ 0")
	}
	if math.IsInf(c.DeadlineSeconds, 0) || !(c.DeadlineSeconds > 0) {
		return nil, fmt.Errorf("deadlineSeconds: must be a finite number > 0")
	}
	return parsed, nil
}

func finiteAtLeastZero(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }

// NameSet is a set of names: tools or households, as the runtime holds the
// lists of its Config (adapters ask it the same questions). The lists of a
// case are a few names long, which a search reads faster than a map is
// built; a long list gets a map.
type NameSet struct {
	list []string
	m    map[string]bool
}

// NewNameSet makes the set of names.
func NewNameSet(names []string) NameSet {
	if len(names) <= 16 {
		return NameSet{list: names}
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return NameSet{m: m}
}

// Has reports whether name is in the set.
func (s NameSet) Has(name string) bool {
	if s.m != nil {
		return s.m[name]
	}
	for _, n := range s.list {
		if n == name {
			return true
		}
	}
	return false
}

// attemptState is an attempt while the run is under way.
type attemptState struct {
	Attempt
	record *object // the boundary's record of the attempt, if any
	obs    any     // the observation, nil for a timeout
	output *object // the output, for status ok
}

// run is the state of one run. Nothing in it outlives Run.
type run struct {
	cfg        Config
	faults     Faults
	parsed     []any
	households NameSet
	tools      NameSet
	timeouts   NameSet

	step       int // loop iteration, 1-based
	elapsed    float64
	modelCalls int
	taken      int
	k          int

	calls        []any // the boundary's record: *object {name, arguments}
	attempts     []*attemptState
	outputs      map[string]*object // outputs by evidence id
	lastSnapshot string             // household of the last successful read
	effects      int
	diagnostics  []string
	events       []Event
	// buf holds the narration line being written.
	buf lineBuf
}

// Run drives the runtime with cfg until it ends. It executes nothing: tool
// outputs come from fixtures and the clock is the data in cfg. An error
// means cfg is not a valid input.
func Run(cfg Config) (*Result, error) {
	parsed, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	r := &run{
		cfg:        cfg,
		faults:     cfg.Faults,
		parsed:     parsed,
		households: NewNameSet(cfg.Households),
		tools:      NewNameSet(cfg.Tools),
		timeouts:   NewNameSet(cfg.Timeouts),
		buf:        make(lineBuf, 0, 128),
	}
	return r.loop(), nil
}

// note appends one narration line. Callers build the text by
// concatenation, or with line for texts with numbers: fmt's reflection
// cost more than the rest of a turn.
func (r *run) note(kind, text string) {
	r.events = append(r.events, Event{Step: r.step, Kind: kind, Text: text})
}

// lineBuf is a narration line written piece by piece into the run's
// buffer: the line then costs one allocation, where formatting and
// concatenating its pieces cost one per piece.
type lineBuf []byte

func (l lineBuf) str(s string) lineBuf { return append(l, s...) }

func (l lineBuf) num(n int) lineBuf { return strconv.AppendInt(l, int64(n), 10) }

// secs writes x seconds: the shortest decimal that reads back as x, and
// " s".
func (l lineBuf) secs(x float64) lineBuf {
	return append(strconv.AppendFloat(l, x, 'f', -1, 64), " s"...)
}

// line starts a line with s in the run's buffer.
func (r *run) line(s string) lineBuf { return r.buf[:0].str(s) }

// noteLine notes the line l, keeping its buffer for the next one.
func (r *run) noteLine(kind string, l lineBuf) {
	r.buf = l
	r.note(kind, string(l))
}

func itoa(n int) string { return strconv.Itoa(n) }

// Diagnostic lines.
const (
	diagStepBudget = "RuntimeError: step budget exhausted"
	diagDeadline   = "TimeoutError: request deadline exhausted"
)

func diagTimeout(name string) string {
	return "TimeoutError: " + name + " worker timed out (workers/" + name + ".py:88)"
}

// loop is the decision loop.
func (r *run) loop() *Result {
	for {
		r.step++
		// 1. The step budget, before the clock.
		over := r.taken >= r.cfg.MaxDecisions
		if r.faults.Has(FaultStepLimitOffByOne) {
			over = r.taken > r.cfg.MaxDecisions
		}
		if over {
			r.note(EventBudget, "decisions "+itoa(r.taken)+" of budget "+itoa(r.cfg.MaxDecisions)+": no decision left")
			r.diagnostics = append(r.diagnostics, diagStepBudget)
			return r.runtimeEnd(StepLimit, "the decision budget is spent without a final decision")
		}
		r.note(EventBudget, "decisions "+itoa(r.taken)+" < budget "+itoa(r.cfg.MaxDecisions))

		// 2. The clock, before asking the model.
		if r.pastDeadline(FaultDeadlineAfterOnly, "before the request", "no time left to ask the model", "the model is asked") {
			return r.runtimeEnd(DeadlineExceeded, "the deadline passed before a model request")
		}

		// 3. One model request.
		raw, obj, latency := r.next()
		r.modelCalls++
		r.elapsed += latency
		for _, a := range r.attempts {
			if a.Receipt {
				a.Delivered = true
			}
		}
		r.noteLine(EventRequest, r.line("model request ").num(r.modelCalls).str(" took ").secs(latency))

		// 4. The clock, after the response.
		if r.pastDeadline(FaultLateResponseAccepted, "after the response", "the response is late and discarded unparsed", "the response is in time") {
			return r.runtimeEnd(DeadlineExceeded, "the deadline passed while the model answered")
		}

		// 5. The response is a decision.
		r.taken++
		n := r.taken

		// 6. Parse.
		decision := obj
		if decision == nil {
			v, err := parseJSON(raw, true)
			if err != nil {
				if raw == "" {
					r.note(EventParse, "the response is empty (the script has no decision left)")
				} else {
					r.note(EventParse, "the response is not valid JSON: "+err.Error())
				}
				r.diagnostics = append(r.diagnostics, "ValueError: decision "+itoa(n)+" is not valid JSON")
				return r.runtimeEnd(ParserFailure, "the response is not valid JSON; there is no repair")
			}
			decision = v
		}

		// 7. Shape.
		d, isObj := decision.(*object)
		var toolV, finalV any
		var hasTool, hasFinal bool
		if isObj {
			toolV, hasTool = d.get("tool")
			finalV, hasFinal = d.get("final")
		}
		name, nameIsString := toolV.(string)
		if !isObj || hasTool == hasFinal || (hasTool && !nameIsString) {
			r.note(EventParse, "the decision is not an object with exactly one of tool (a string) and final")
			r.diagnostics = append(r.diagnostics, "ValueError: decision "+itoa(n)+" has an invalid shape")
			return r.runtimeEnd(ParserFailure, "the decision has an invalid shape")
		}

		// 8. A final decision.
		if hasFinal {
			final, ok := finalV.(*object)
			var outcome string
			if ok {
				o, _ := final.get("outcome")
				outcome, _ = o.(string)
			}
			allowed := ModelOutcome(Outcome(outcome))
			if r.faults.Has(FaultRuntimeOutcomeClaimable) {
				for _, o := range Outcomes() {
					allowed = allowed || outcome == string(o)
				}
			}
			if !ok || !allowed {
				r.note(EventParse, "the final result is not an object whose outcome is answered, clarify or escalated")
				r.diagnostics = append(r.diagnostics, "ValueError: decision "+itoa(n)+" has an invalid final result")
				return r.runtimeEnd(ParserFailure, "the final result is invalid; a runtime outcome cannot be declared by the model")
			}
			r.note(EventParse, "a final decision with outcome "+outcome)
			return r.finalEnd(Outcome(outcome), final)
		}

		// 9 and 10. A tool decision.
		args, present := d.get("arguments")
		if !present {
			args = &object{}
		}
		r.note(EventParse, "a tool decision for "+jsontext.Quote(name))
		if r.attempt(name, args) {
			return r.runtimeEnd(Unavailable, "the "+name+" worker timed out")
		}
	}
}

// pastDeadline is one of the two checks of the clock against the deadline
// (before a model request, after a response), which fault switches off:
// it narrates the check, where it is made and what follows, and reports
// whether the deadline has passed, with its diagnostic added.
func (r *run) pastDeadline(fault Fault, where, late, inTime string) bool {
	switch {
	case r.faults.Has(fault):
		r.noteLine(EventClock, r.line("clock ").secs(r.elapsed).str(": not checked ").str(where))
		return false
	case r.elapsed >= r.cfg.DeadlineSeconds:
		r.noteLine(EventClock, r.line("clock ").secs(r.elapsed).str(" ≥ deadline ").secs(r.cfg.DeadlineSeconds).str(": ").str(late))
		r.diagnostics = append(r.diagnostics, diagDeadline)
		return true
	}
	r.noteLine(EventClock, r.line("clock ").secs(r.elapsed).str(" < deadline ").secs(r.cfg.DeadlineSeconds).str(": ").str(inTime))
	return false
}

// next returns the next scripted response and its latency.
func (r *run) next() (raw string, obj any, latency float64) {
	k := r.k
	r.k++
	if k < len(r.cfg.Latencies) {
		latency = r.cfg.Latencies[k]
	}
	if k >= len(r.cfg.Decisions) {
		return "", nil, latency
	}
	if r.parsed[k] != nil {
		return "", r.parsed[k], latency
	}
	return r.cfg.Decisions[k].Text, nil, latency
}

// record appends the boundary's record of an attempt.
func (r *run) record(a *attemptState, name string, args any) {
	live := args
	if !r.faults.Has(FaultTraceNotCopied) {
		live = clone(args)
	}
	a.record = newObject("name", name, "arguments", live)
	r.calls = append(r.calls, a.record)
	a.Record = len(r.calls)
	a.EvidenceID = "ev-" + itoa(a.Record)
	how := "a deep copy, before any check"
	if r.faults.Has(FaultAttemptRecordedAfterAdmission) {
		how = "only after admit authorised it"
	}
	if r.faults.Has(FaultTraceNotCopied) {
		how += "; the record holds the live arguments"
	}
	r.note(EventAttempt, "attempt "+itoa(a.Index)+" ("+name+") recorded as "+a.EvidenceID+": "+how)
}

// attempt takes one tool decision through admit, the tool contract and
// execution. It reports whether the worker timed out.
func (r *run) attempt(name string, args any) (timedOut bool) {
	a := &attemptState{Attempt: Attempt{Index: len(r.attempts) + 1, Decision: r.taken, Name: name}}
	r.attempts = append(r.attempts, a)

	// admit: record first.
	late := r.faults.Has(FaultAttemptRecordedAfterAdmission)
	if !late {
		r.record(a, name, args)
	}
	if !r.tools.Has(name) || r.faults.Has(FaultDenyAll) {
		r.refuse(a, StatusDenied, msgToolNotAvailable, jsontext.Quote(name)+" is not among the tools available to this caller")
		return false
	}
	obj, ok := args.(*object)
	if !ok {
		r.refuse(a, StatusInvalid, msgArgumentsNotObject, "the arguments are not a JSON object")
		return false
	}
	if h, ok := obj.get("household"); ok && !r.faults.Has(FaultHouseholdCheckSkipped) {
		if s, isString := h.(string); !isString || !r.households.Has(s) {
			r.refuse(a, StatusDenied, msgHouseholdNotAllowed, "the household argument is not in the authenticated context")
			return false
		}
	}
	if late {
		r.record(a, name, args)
	}

	// The tool's own contract.
	exec, msg, why := r.contract(name, obj)
	if exec == nil {
		r.refuse(a, StatusInvalid, msg, why)
		return false
	}
	r.note(EventAdmitted, "attempt "+itoa(a.Index)+" passed admit and the "+name+" contract")

	// Execution.
	r.effects++
	if r.timeouts.Has(name) {
		a.Status = StatusTimeout
		line := diagTimeout(name)
		r.diagnostics = append(r.diagnostics, line)
		r.note(EventExecuted, "attempt "+itoa(a.Index)+": the "+name+" worker timed out; no observation goes back")
		return true
	}
	out := exec()
	a.Status = StatusOK
	a.output = out
	if a.EvidenceID != "" {
		if r.outputs == nil {
			r.outputs = map[string]*object{}
		}
		r.outputs[a.EvidenceID] = out
	}
	a.obs = newObject("evidence_id", a.EvidenceID, "output", clone(out))
	a.Receipt = true
	r.elapsed += r.cfg.ToolSeconds
	r.noteLine(EventExecuted, r.line("attempt ").num(a.Index).str(" ran as ").str(a.EvidenceID).str("; the tool took ").secs(r.cfg.ToolSeconds).str(", clock ").secs(r.elapsed))
	return false
}

// refuse ends an attempt as denied or invalid; the message goes back to
// the model and the run continues.
func (r *run) refuse(a *attemptState, s Status, msg, why string) {
	a.Status = s
	a.Reason = msg
	a.obs = newObject("error", msg)
	a.Receipt = true
	kind := EventInvalid
	if s == StatusDenied {
		kind = EventDenied
	}
	r.note(kind, "attempt "+itoa(a.Index)+" "+string(s)+": "+msg+" ("+why+")")
}

// contract checks a tool's arguments after admit. It returns the
// execution, or the refusal message and why.
func (r *run) contract(name string, args *object) (exec func() *object, msg, why string) {
	switch name {
	case ToolPortfolioRead:
		if !args.hasExactKeys("household") {
			return nil, msgPortfolioFields, "the read takes exactly {household}"
		}
		h, _ := args.get("household")
		household, _ := h.(string)
		snap, ok := snapshot(household)
		if _, isString := h.(string); !isString || !ok {
			return nil, msgNoSnapshot, "the household has no portfolio snapshot"
		}
		return func() *object {
			r.lastSnapshot = household
			return snap
		}, "", ""

	case ToolFutureValue:
		if !args.hasExactKeys("principal_inr", "annual_rate", "years", "scenario") {
			return nil, msgCalculatorFields, "future_value takes exactly {principal_inr, annual_rate, years, scenario}"
		}
		principal, rate, years, scenario, bad := futureValueInputs(args)
		if bad != "" {
			return nil, msgCalculatorInput, bad
		}
		if old, _ := args.get("scenario"); old != scenario {
			// futureValueInputs accepted the scenario, so old is a string.
			r.note(EventAdmitted, "scenario "+jsontext.Quote(old.(string))+" trimmed to "+jsontext.Quote(scenario)+" on the live arguments")
		}
		args.set("scenario", scenario)
		return func() *object {
			return newObject(
				"value", floatNumber(futureValue(principal, rate, years)),
				"currency", "INR",
				"scenario", scenario,
				"as_of", FixtureDate,
				"method", methodFutureValue,
			)
		}, "", ""

	case ToolConcentration:
		if r.lastSnapshot == "" {
			return nil, msgNoSnapshotRead, "no portfolio snapshot has been read in this run"
		}
		if !args.hasExactKeys("equity_inr", "eligible_inr") {
			return nil, msgCalculatorFields, "concentration takes exactly {equity_inr, eligible_inr}"
		}
		household := r.lastSnapshot
		fig, _ := figures(household)
		if !r.faults.Has(FaultSnapshotArgsUnchecked) {
			numeric := r.faults.Has(FaultSnapshotCompareNumeric)
			eq, _ := args.get("equity_inr")
			el, _ := args.get("eligible_inr")
			if !sameAsSnapshot(eq, fig.equity, numeric) {
				return nil, msgEvidenceDiffers, "str(equity_inr) differs from the snapshot's " + strconv.FormatInt(fig.equity, 10)
			}
			if !sameAsSnapshot(el, fig.eligible, numeric) {
				return nil, msgEvidenceDiffers, "str(eligible_inr) differs from the snapshot's " + strconv.FormatInt(fig.eligible, 10)
			}
		}
		return func() *object {
			return newObject(
				"concentration", floatNumber(round(float64(fig.equity)/float64(fig.eligible), 4)),
				"household", household,
				"as_of", FixtureDate,
				"method", methodConcentration,
			)
		}, "", ""
	}
	// Unreachable: admit lets only catalogue tools through.
	return nil, msgToolNotAvailable, "not in the catalogue"
}

// runtimeEnd ends the run with a runtime outcome.
func (r *run) runtimeEnd(o Outcome, why string) *Result {
	code, _ := PolicyCode(o)
	if o == Unavailable && r.faults.Has(FaultInternalErrorLeaked) {
		code = r.diagnostics[len(r.diagnostics)-1]
	}
	r.note(EventOutcome, string(o)+" (runtime): "+why+"; policy code "+code)
	res := newObject(
		"outcome", string(o),
		"claims", []any{},
		"evidence_ids", []any{},
		"policy_code", code,
		"tool_calls", r.callsValue(),
		"portfolio_writes", json.Number("0"),
	)
	return r.finish(o, res, nil)
}

// finalEnd assembles the result after a valid final decision.
func (r *run) finalEnd(o Outcome, final *object) *Result {
	res := &object{}
	public := []string{"outcome", "claims", "evidence_ids", "policy_code"}
	for _, k := range public {
		v, _ := final.get(k)
		res.set(k, clone(v))
	}
	toolCalls, writes := any(r.callsValue()), any(json.Number("0"))
	kept := map[string]bool{}
	if r.faults.Has(FaultModelTraceKept) {
		if v, ok := final.get("tool_calls"); ok {
			toolCalls, kept["tool_calls"] = clone(v), true
		}
		if v, ok := final.get("portfolio_writes"); ok {
			writes, kept["portfolio_writes"] = clone(v), true
		}
	}
	res.set("tool_calls", toolCalls)
	res.set("portfolio_writes", writes)

	var discarded []string
	for _, m := range final.members {
		if !kept[m.key] && m.key != "outcome" && m.key != "claims" && m.key != "evidence_ids" && m.key != "policy_code" {
			discarded = append(discarded, m.key)
		}
	}
	r.note(EventOutcome, string(o)+" (model): a valid final decision; the result keeps its outcome, claims, evidence_ids and policy_code and attaches the recorded trace")
	if len(discarded) > 0 {
		r.note(EventDiscard, "model-supplied fields discarded: "+strings.Join(discarded, ", "))
	}
	if len(kept) > 0 {
		r.note(EventDiscard, "model-supplied trace fields kept in the result")
	}
	return r.finish(o, res, discarded)
}

// callsValue is the record as a JSON array.
func (r *run) callsValue() []any {
	out := make([]any, len(r.calls))
	copy(out, r.calls)
	return out
}

// finish serialises the run. Serialisation happens last so that the record
// shows every later change to what it holds.
func (r *run) finish(o Outcome, res *object, discarded []string) *Result {
	claims, _ := res.get("claims")
	code, _ := res.get("policy_code")
	// Every JSON text of the result is written into one buffer and handed
	// out as its own capacity-limited slice of it: one allocation instead
	// of one per text.
	buf := make([]byte, 0, 1024)
	text := func(v any) json.RawMessage {
		start := len(buf)
		buf = appendJSON(buf, v)
		return buf[start:len(buf):len(buf)]
	}
	out := &Result{
		Outcome:        o,
		Effects:        r.effects,
		ToolCalls:      text(r.callsValue()),
		UserResult:     text(res),
		PolicyCode:     text(code),
		ModelCalls:     r.modelCalls,
		Decisions:      r.taken,
		ClaimsVerified: claimsVerified(o, claims, r.outputs),
		Diagnostics:    append([]string{}, r.diagnostics...),
		Discarded:      append([]string{}, discarded...),
		Elapsed:        r.elapsed,
		Attempts:       make([]Attempt, 0, len(r.attempts)),
	}
	for _, a := range r.attempts {
		at := a.Attempt
		if a.record != nil {
			v, _ := a.record.get("arguments")
			at.Arguments = text(v)
		}
		if a.output != nil {
			at.Output = text(a.output)
		}
		if a.obs != nil {
			at.Observation = text(a.obs)
		}
		out.Attempts = append(out.Attempts, at)
	}
	out.Events = append(out.Events, r.events...)
	return out
}
