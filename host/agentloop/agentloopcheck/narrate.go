package agentloopcheck

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/scenario"
)

// maxShownArgs bounds, in code points, the arguments a step's narration
// quotes.
const maxShownArgs = 80

// maxNamesShown bounds the entries never reached that the narration names.
const maxNamesShown = 6

// narrate writes the run to the trace as explain shows it: the settings,
// then per step the published table's row (tool | result | observation)
// and what the runner did with the request and why, then why the run
// stopped and its final state (narrateBoundary adds how the case counts in
// the boundary-response dimensions). Lines are built by concatenation, the
// numbers with strconv: fmt's reflection cost more than the run itself.
func narrate(t *scenario.Trace, g given, res agentloop.Result) {
	t.Start(0)
	t.AddText("runner", "runner: maxSteps "+strconv.Itoa(g.maxSteps())+", maxCalls "+strconv.Itoa(g.maxCalls())+
		", save_draft "+granted(g.WriteGranted)+"; script of "+plural(len(g.Script), "entry", "entries")+
		" ("+plural(g.requests(), "tool request", "tool requests")+", "+plural(len(g.Script)-g.requests(), "final answer", "final answers")+")")
	t.AddText("runner", "trace table: [step] tool | result | observation, each row followed by what the runner did and why")
	row := 0
	for _, e := range res.Events {
		if e.Kind == agentloop.EventStop {
			t.Start(0)
			t.AddText("stop", stopText(e, g, res))
			continue
		}
		if row >= len(res.Rows) {
			t.Start(e.Step)
			t.AddText("why", e.Text)
			continue
		}
		r := res.Rows[row]
		t.Start(r.Step)
		t.AddText("row", r.Tool+" | "+r.Result+" | "+r.Observation)
		t.AddText("why", "  "+whyText(e, r, g, res, row))
		row++
	}
	t.Start(0)
	t.AddText("state", "final state: outcome "+string(res.Outcome)+", effects "+strconv.Itoa(res.Effects)+", blocked "+strconv.Itoa(res.Blocked)+
		", executed "+strconv.Itoa(res.Executed)+", steps "+strconv.Itoa(res.Steps)+"; validated series "+series(res.ValidatedSeries)+
		", blocked series "+series(res.BlockedSeries)+"; drafts "+quoted(res.Drafts))
}

// narrateBoundary ends the narration of a run with how it counts in the
// boundary-response dimensions, b, and where its script came from.
func narrateBoundary(t *scenario.Trace, b *scenario.Boundary, fromRows bool) {
	t.Start(0)
	source := "the given block (no rows expected)"
	if fromRows {
		source = "the expected rows"
	}
	closed := "no draft from a denied request"
	if !b.FailClosed {
		closed = "NOT fail-closed: a draft from a denied or unscripted request, " + strconv.Itoa(b.ExtraEffects) + " beyond those permitted"
	}
	t.AddText("boundary", "boundary, scripted from "+source+": "+strconv.Itoa(b.Permitted)+" permitted ("+strconv.Itoa(b.Worked)+" worked), "+
		strconv.Itoa(b.Denied)+" denied ("+strconv.Itoa(b.DeniedVisible)+" shown in their row); "+strconv.Itoa(b.ServiceRequests)+
		" tool runs for "+strconv.Itoa(b.ServiceExpected)+" permitted; "+closed+"; "+completeText(b))
}

// whyText says what the runner did with the decision of a step and why,
// and quotes the request's arguments.
func whyText(e agentloop.Event, r agentloop.Row, g given, res agentloop.Result, row int) string {
	args := ""
	if row < len(g.Script) && !g.Script[row].isFinal() {
		args = " — args " + showArgs(g.Script[row].Args)
	}
	switch e.Kind {
	case agentloop.EventRefused:
		spent := "no attempt spent"
		if row < len(res.ValidatedSeries) {
			before := 0
			if row > 0 {
				before = res.ValidatedSeries[row-1]
			}
			if now := res.ValidatedSeries[row]; now > before {
				spent = "yet the attempts rose to " + strconv.Itoa(now) + " of " + strconv.Itoa(g.maxCalls())
			}
		}
		return "why: " + e.Text + ", " + spent + args
	case agentloop.EventExecuted, agentloop.EventFailed:
		return "checks passed: " + strings.Replace(e.Text, ": "+r.Observation, "", 1) + args
	}
	return e.Text
}

// stopText says why the run stopped and which script entries it never
// reached.
func stopText(e agentloop.Event, g given, res agentloop.Result) string {
	text := "stop: " + e.Text
	if strings.HasPrefix(e.Text, "step limit") {
		text = "stop: limit reached: " + e.Text
	}
	if taken := len(res.Rows); taken < len(g.Script) {
		left := len(g.Script) - taken
		names := make([]string, 0, min(left, maxNamesShown+1))
		for _, x := range g.Script[taken:] {
			if len(names) == maxNamesShown {
				names = append(names, "…")
				break
			}
			if x.isFinal() {
				names = append(names, "final answer")
			} else {
				names = append(names, *x.Tool)
			}
		}
		text += "; " + plural(left, "script entry", "script entries") + " never reached (" + strings.Join(names, ", ") + ")"
	}
	return text
}

func completeText(b *scenario.Boundary) string {
	if b.Complete {
		return "requests, decisions, tool runs and rows reconcile one to one"
	}
	return "requests, decisions, tool runs and rows do NOT reconcile with the script"
}

func granted(yes bool) string {
	if yes {
		return "granted"
	}
	return "not granted"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// showArgs renders raw arguments compactly for the narration, cut after
// maxShownArgs code points.
func showArgs(raw json.RawMessage) string {
	if raw == nil {
		return "(no args)"
	}
	// Valid arguments (the case's) are compacted directly; anything else
	// goes to json.Compact, which also says when it is not JSON.
	var s string
	if jsontext.WholeValue(raw) {
		var buf [128]byte
		s = string(jsonx.Compact(buf[:0], raw))
	} else {
		var buf bytes.Buffer
		if json.Compact(&buf, raw) != nil {
			return string(raw)
		}
		s = buf.String()
	}
	if n := utf8.RuneCountInString(s); n > maxShownArgs {
		cut := 0
		for i := range s {
			if cut == maxShownArgs {
				s = s[:i] + "… (" + strconv.Itoa(n) + " characters)"
				break
			}
			cut++
		}
	}
	return s
}

// series writes counts as a JSON array.
func series(xs []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
	return b.String()
}

// quoted writes strings as a JSON array, as a json.Encoder without HTML
// escaping writes it.
func quoted(xs []string) string {
	if len(xs) == 0 {
		return "[]"
	}
	b := []byte{'['}
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, x)
	}
	return string(append(b, ']'))
}
