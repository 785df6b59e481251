package agentloop

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/calc"
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
		if r.step >= r.cfg.MaxSteps && !(f.Has(FaultStepLimitOffByOne) && r.step == r.cfg.MaxSteps) {
			r.event(EventStop, fmt.Sprintf("step limit %d reached", r.cfg.MaxSteps))
			return StepLimit
		}
		if next >= len(r.cfg.Script) {
			r.event(EventStop, fmt.Sprintf("script exhausted: the mock model has no decision left after %d decisions", next))
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
			r.event(EventAnswer, fmt.Sprintf("final answer after %d validated attempts and %d blocked or failed requests", r.attempts, r.failed))
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
		r.failed++
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
		r.failed++
		q.Failed, q.Observation = true, errText
		r.res.Rows = append(r.res.Rows, Row{r.step, d.Tool, ResultBlocked, errText})
		r.res.LastBlocked = errText
		r.res.Requests = append(r.res.Requests, q)
		r.event(EventFailed, fmt.Sprintf("%s failed inside the tool, %s: %s%s", d.Tool, r.attemptText(), errText, why))
		return
	}
	if f.Has(FaultBudgetSkipsFailures) {
		r.attempts++
	}
	q.Observation = obs
	r.res.Executed++
	r.res.Rows = append(r.res.Rows, Row{r.step, d.Tool, ResultExecuted, obs})
	r.res.Requests = append(r.res.Requests, q)
	r.event(EventExecuted, fmt.Sprintf("%s ran, %s: %s", d.Tool, r.attemptText(), obs))
}

func (r *run) attemptText() string {
	return fmt.Sprintf("attempt %d of %d counted", r.attempts, r.cfg.MaxCalls)
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
		return "", RefusedUnknownTool, fmt.Sprintf("unknown tool: %q is not calc, lookup_user or save_draft", d.Tool)
	}
	if t.write && !r.cfg.WriteGranted && !f.Has(FaultWriteGrantedByDefault) {
		return "", RefusedNotGranted, fmt.Sprintf("not granted: %s needs writeGranted", d.Tool)
	}
	if f.Has(FaultDenyAll) {
		return "", RefusedNotGranted, fmt.Sprintf("not granted: this host refuses every tool, %s included", d.Tool)
	}
	if f.Has(FaultBudgetCheckedFirst) {
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
	if !f.Has(FaultBudgetCheckedFirst) {
		if refusal, why = r.budget(); refusal != NotRefused {
			return "", refusal, why
		}
	}
	return value, NotRefused, ""
}

func (r *run) budget() (Refusal, string) {
	allowed := r.attempts < r.cfg.MaxCalls
	if r.cfg.Faults.Has(FaultBudgetOffByOne) {
		allowed = r.attempts <= r.cfg.MaxCalls
	}
	if !allowed {
		return RefusedBudget, fmt.Sprintf("budget exhausted: %d of %d attempts used", r.attempts, r.cfg.MaxCalls)
	}
	return NotRefused, ""
}

// argument applies the exact-names check and returns the raw value of the
// tool's argument.
func (r *run) argument(d Entry, t tool) (json.RawMessage, Refusal, string) {
	raw := trimSpace(d.Args)
	if d.Args == nil {
		raw = json.RawMessage("{}")
	}
	want := "{" + t.arg + "}"
	var args map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &args) != nil {
		return nil, RefusedArgumentNames, fmt.Sprintf("argument names: the arguments are %s, not an object with %s", kind(raw), want)
	}
	value, has := args[t.arg]
	exact := has && len(args) == 1
	if r.cfg.Faults.Has(FaultArgsSubset) {
		exact = has
	}
	if !exact {
		names := make([]string, 0, len(args))
		for k := range args {
			names = append(names, k)
		}
		sort.Strings(names)
		return nil, RefusedArgumentNames, fmt.Sprintf("argument names {%s} ≠ %s", strings.Join(names, ", "), want)
	}
	return trimSpace(value), NotRefused, ""
}

// shortString applies the short-string check to the argument's raw value
// and returns the decoded string.
func (r *run) shortString(name string, raw json.RawMessage) (string, Refusal, string) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", RefusedShortStrings, fmt.Sprintf("short strings: %s is %s, not a string", name, kind(raw))
	}
	if n := utf8.RuneCountInString(s); n > MaxArgChars && !r.cfg.Faults.Has(FaultStringLengthUnchecked) {
		return "", RefusedShortStrings, fmt.Sprintf("short strings: %s has %d characters > %d", name, n, MaxArgChars)
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
			if ce, ok := err.(*calc.Error); ok && ce.Detail != "" {
				detail = " (" + ce.Detail + ")"
			}
			return "", err.Error(), detail, false
		}
		return pyrepr.Repr(pyrepr.Dict{{Key: "result", Value: v}}), "", "", false
	case "lookup_user":
		entry, ok := directory(value)
		if !ok {
			return "", textUnknownUser, fmt.Sprintf(" (%q is not in the fictional directory)", value), false
		}
		return pyrepr.Repr(entry), "", "", false
	default: // save_draft
		r.res.Drafts = append(r.res.Drafts, value)
		return pyrepr.Repr(pyrepr.Dict{{Key: "saved", Value: true}, {Key: "drafts", Value: len(r.res.Drafts)}}), "", "", true
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
	for i < j && isSpace(raw[i]) {
		i++
	}
	for j > i && isSpace(raw[j-1]) {
		j--
	}
	return raw[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

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
