package agentloop

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/calc"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/pyrepr"
)

// tool describes one known tool.
type tool struct {
	arg   string // its single argument name
	write bool
}

// known returns the tool called name.
func known(name string) (tool, bool) {
	switch name {
	case "calc":
		return tool{arg: "expression"}, true
	case "lookup_user":
		return tool{arg: "user_id"}, true
	case "save_draft":
		return tool{arg: "text", write: true}, true
	}
	return tool{}, false
}

// directory returns a fresh copy of the fictional directory entry for id.
func directory(id string) (pyrepr.Dict, bool) {
	switch id {
	case "u-100":
		return pyrepr.Dict{{Key: "name", Value: "Linh"}, {Key: "tier", Value: "gold"}}, true
	case "u-200":
		return pyrepr.Dict{{Key: "name", Value: "Bao"}, {Key: "tier", Value: "silver"}}, true
	}
	return nil, false
}

// textUnknownUser is lookup_user's error.
const textUnknownUser = "LookupError: Unknown fictional user"

// run is the state of one Run.
type run struct {
	cfg      Config
	step     int
	attempts int
	failed   int
	res      Result
	// args holds the members of the arguments being checked.
	args members
	// calcKind is the kind of the last calculator refusal.
	calcKind calc.ErrorKind
}

// Run executes the decision loop over cfg.Script and returns what it
// shows.
func Run(cfg Config) Result {
	r := &run{cfg: cfg}
	r.res = Result{
		Rows:            make([]Row, 0, len(cfg.Script)),
		ValidatedSeries: make([]int, 0, len(cfg.Script)),
		BlockedSeries:   make([]int, 0, len(cfg.Script)),
		Drafts:          []string{},
		Requests:        []Request{},
	}
	r.res.Outcome = r.loop()
	res := r.res
	res.Steps = r.step
	res.Blocked = r.failed
	if n := len(res.ValidatedSeries); n > 0 {
		res.Effects = res.ValidatedSeries[n-1]
	}
	return res
}

func (r *run) loop() Outcome {
	f := r.cfg.Faults
	next, calls := 0, 0
	for {
		stop := r.step >= r.cfg.MaxSteps+r.cfg.Mutation.delta(MutStepLimit)
		if r.cfg.Mutation.Kind == MutStepLimitInverted {
			stop = r.step < r.cfg.MaxSteps
		}
		if stop && !(f.Has(FaultStepLimitOffByOne) && r.step == r.cfg.MaxSteps) {
			r.event(EventStop, "step limit "+strconv.Itoa(r.cfg.MaxSteps)+" reached")
			return StepLimit
		}
		if next >= len(r.cfg.Script) {
			r.event(EventStop, "script exhausted: the mock model has no decision left after "+strconv.Itoa(next)+" decisions")
			return ScriptExhausted
		}
		d := r.cfg.Script[next]
		entry := next
		next++
		if !(d.Final && f.Has(FaultFinalNotCounted)) {
			r.step++
		}
		if d.Final {
			r.res.Rows = append(r.res.Rows, Row{r.step, "final", ResultAnswer, d.Text})
			r.res.Answer = d.Text
			r.event(EventAnswer, "final answer after "+strconv.Itoa(r.attempts)+" validated attempts and "+strconv.Itoa(r.failed)+" blocked or failed requests")
			r.endStep()
			r.event(EventStop, "answered")
			return Answered
		}
		r.request(d, calls, entry)
		calls++
		r.endStep()
	}
}

func (r *run) endStep() {
	r.res.ValidatedSeries = append(r.res.ValidatedSeries, r.attempts)
	r.res.BlockedSeries = append(r.res.BlockedSeries, r.failed)
}

func (r *run) event(kind, text string) {
	r.res.Events = append(r.res.Events, Event{Step: r.step, Kind: kind, Text: text})
}

// request handles one tool request: the checks, the budget and the tool.
func (r *run) request(d Entry, index, entry int) {
	f := r.cfg.Faults
	q := Request{Index: index, Entry: entry, Step: r.step, Tool: d.Tool}
	value, refusal, why := r.check(d)
	if refusal != NotRefused {
		if r.cfg.Mutation.Kind != MutDropBlockedCount {
			r.failed++
		}
		if f.Has(FaultBudgetCountsBlocked) && refusal != RefusedBudget {
			r.attempts++
		}
		q.Refusal, q.Observation = refusal, refusal.Text()
		r.block(q, why)
		return
	}
	if !f.Has(FaultBudgetSkipsFailures) {
		r.attempts++
	}
	q.Ran = true
	r.res.ServiceCalls++
	obs, errText, why, effect := r.execute(d.Tool, value)
	q.Effect = effect
	if errText != "" {
		q.CalcError = r.calcKind
		r.failed++
		q.Failed, q.Observation = true, errText
		r.res.Rows = append(r.res.Rows, Row{r.step, d.Tool, ResultBlocked, errText})
		r.res.LastBlocked = errText
		r.res.Requests = append(r.res.Requests, q)
		r.event(EventFailed, d.Tool+" failed inside the tool, "+r.attemptText()+": "+errText+why)
		return
	}
	if f.Has(FaultBudgetSkipsFailures) {
		r.attempts++
	}
	q.Observation = obs
	r.res.Executed++
	r.res.Rows = append(r.res.Rows, Row{r.step, d.Tool, ResultExecuted, obs})
	r.res.Requests = append(r.res.Requests, q)
	r.event(EventExecuted, d.Tool+" ran, "+r.attemptText()+": "+obs)
}

func (r *run) attemptText() string {
	return "attempt " + strconv.Itoa(r.attempts) + " of " + strconv.Itoa(r.cfg.MaxCalls) + " counted"
}

func (r *run) block(q Request, why string) {
	r.res.Rows = append(r.res.Rows, Row{r.step, q.Tool, ResultBlocked, q.Observation})
	r.res.LastBlocked = q.Observation
	r.res.Requests = append(r.res.Requests, q)
	r.event(EventRefused, why+"; nothing ran")
}

// check runs the checks before execution in order. It returns the
// argument's string value, or the first refusal with its explanation.
func (r *run) check(d Entry) (value string, refusal Refusal, why string) {
	f := r.cfg.Faults
	t, ok := known(d.Tool)
	if !ok {
		return "", RefusedUnknownTool, "unknown tool: " + jsontext.Quote(d.Tool) + " is not calc, lookup_user or save_draft"
	}
	if t.write && !r.cfg.WriteGranted && !f.Has(FaultWriteGrantedByDefault) && r.cfg.Mutation.Kind != MutDropGrant {
		return "", RefusedNotGranted, "not granted: " + d.Tool + " needs writeGranted"
	}
	if f.Has(FaultDenyAll) {
		return "", RefusedNotGranted, "not granted: this host refuses every tool, " + d.Tool + " included"
	}
	if f.Has(FaultBudgetCheckedFirst) || r.cfg.Mutation.Kind == MutBudgetFirst {
		if refusal, why = r.budget(); refusal != NotRefused {
			return "", refusal, why
		}
	}
	raw, refusal, why := r.argument(d, t)
	if refusal != NotRefused {
		return "", refusal, why
	}
	if value, refusal, why = r.shortString(t.arg, raw); refusal != NotRefused {
		return "", refusal, why
	}
	if !f.Has(FaultBudgetCheckedFirst) && r.cfg.Mutation.Kind != MutBudgetFirst {
		if refusal, why = r.budget(); refusal != NotRefused {
			return "", refusal, why
		}
	}
	return value, NotRefused, ""
}

func (r *run) budget() (Refusal, string) {
	allowed := r.attempts < r.cfg.MaxCalls+r.cfg.Mutation.delta(MutBudget)
	switch r.cfg.Mutation.Kind {
	case MutBudgetInverted:
		allowed = r.attempts >= r.cfg.MaxCalls
	case MutDropBudget:
		allowed = true
	}
	if r.cfg.Faults.Has(FaultBudgetOffByOne) {
		allowed = r.attempts <= r.cfg.MaxCalls
	}
	if !allowed {
		return RefusedBudget, "budget exhausted: " + strconv.Itoa(r.attempts) + " of " + strconv.Itoa(r.cfg.MaxCalls) + " attempts used"
	}
	return NotRefused, ""
}

// argument applies the exact-names check and returns the raw value of the
// tool's argument.
func (r *run) argument(d Entry, t tool) (json.RawMessage, Refusal, string) {
	raw := trimSpace(d.Args)
	if d.Args == nil {
		return nil, RefusedArgumentNames, "argument names {} ≠ {" + t.arg + "}"
	}
	args, ok := r.readArgs(raw)
	if !ok {
		return nil, RefusedArgumentNames, "argument names: the arguments are " + kind(raw) + ", not an object with {" + t.arg + "}"
	}
	value, has := args.Get(t.arg)
	exact := has && len(args) == 1
	if r.cfg.Faults.Has(FaultArgsSubset) {
		exact = has
	}
	if !exact {
		return nil, RefusedArgumentNames, "argument names {" + strings.Join(args.SortedKeys(), ", ") + "} ≠ {" + t.arg + "}"
	}
	return trimSpace(value), NotRefused, ""
}

// readArgs reads trimmed raw arguments as the runner's json.loads reads
// them into a dict (keys compared exactly, a repeated key keeping its last
// value), into the run's buffer, and refuses them when they are not one
// object.
func (r *run) readArgs(raw []byte) (members, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	m, ok := jsontext.ReadHostMembers(raw, r.args)
	if ok {
		r.args = m
	}
	return m, ok
}

// shortString applies the short-string check to the argument's raw value
// and returns the decoded string.
func (r *run) shortString(name string, raw json.RawMessage) (string, Refusal, string) {
	s, ok := jsontext.StringToken(raw)
	if !ok {
		return "", RefusedShortStrings, "short strings: " + name + " is " + kind(raw) + ", not a string"
	}
	if n := jsontext.CodePoints(s); n > MaxArgChars+r.cfg.Mutation.delta(MutArgChars) && !r.cfg.Faults.Has(FaultStringLengthUnchecked) && r.cfg.Mutation.Kind != MutDropLength {
		return "", RefusedShortStrings, "short strings: " + name + " has " + strconv.Itoa(n) + " characters > " + strconv.Itoa(MaxArgChars)
	}
	return s, NotRefused, ""
}

// execute runs a validated request's tool on its argument value. It
// returns the observation of a result, or the error text with its
// explanation, and whether a draft was written.
func (r *run) execute(name, value string) (obs, errText, why string, effect bool) {
	switch name {
	case "calc":
		v, err := calc.Eval(value, r.calcOptions())
		if err != nil {
			detail := ""
			if ce, ok := err.(*calc.Error); ok {
				r.calcKind = ce.Kind
				if ce.Detail != "" {
					detail = " (" + ce.Detail + ")"
				}
			}
			return "", err.Error(), detail, false
		}
		// The repr of {'result': v}, written without building the dict.
		return "{'result': " + v.PyRepr() + "}", "", "", false
	case "lookup_user":
		entry, ok := directory(value)
		if !ok {
			return "", textUnknownUser, " (" + jsontext.Quote(value) + " is not in the fictional directory)", false
		}
		return pyrepr.Repr(entry), "", "", false
	default: // save_draft
		if r.cfg.Mutation.Kind != MutDropDraftRecord {
			r.res.Drafts = append(r.res.Drafts, value)
		}
		// The repr of {'saved': True, 'drafts': n}.
		return "{'saved': True, 'drafts': " + strconv.Itoa(len(r.res.Drafts)) + "}", "", "", true
	}
}

func (r *run) calcOptions() calc.Options {
	f := r.cfg.Faults
	return calc.Options{
		AllowPow:    f.Has(FaultCalcAllowsPow),
		IntDivision: f.Has(FaultCalcIntDivision),
		Unbounded:   f.Has(FaultCalcUnbounded),
		NoNodeLimit: f.Has(FaultCalcNodeLimitUnchecked),
	}
}

// trimSpace drops JSON whitespace around raw.
func trimSpace(raw json.RawMessage) json.RawMessage {
	i, j := 0, len(raw)
	for i < j && jsontext.IsSpace(raw[i]) {
		i++
	}
	for j > i && jsontext.IsSpace(raw[j-1]) {
		j--
	}
	return raw[i:j]
}

// kind names the JSON type of raw for explanations.
func kind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
