package agentloopcheck

import (
	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// The script of a runner case: which tool requests it takes and whether
// each should be permitted or denied. It is read from the case alone,
// never from a run.
//
// One action is one scripted tool request the runner takes; a final answer
// is not an action. Actions are numbered by their index among the script's
// tool requests, the call id the model gives each request it takes.
//
// When the case's expected block has rows, row j is the script's word on
// script entry j (each step takes one entry): a tool request whose row is
// executed, or blocked with a tool's own failure (ZeroDivisionError,
// LookupError, the calculator's ValueErrors), is permitted; one whose row
// is blocked with one of the runner's five refusal texts (unknown tool,
// write not granted, argument names, short strings, budget exhausted) is
// denied with that text. A request with no row, because the rows stop
// first, is never reached and is no action; nor is one whose row is an
// answer, which contradicts the script (lint warns).
//
// Without rows the given block alone decides, by the runner's rules: the
// loop takes entries until the step limit or a final answer, and each
// request taken is denied by the first of the checks of §3.3 that refuses
// it (known tool, write grant, exact argument names, short string, then
// the budget, counting the requests validated before it), permitted
// otherwise. Requests past the step limit or the final answer are never
// reached and are no action. Nothing here looks at what the tools would
// return: a request that passes the checks is permitted whether or not its
// tool then fails.

// action is one scripted tool request the runner takes.
type action struct {
	// index is the request's position among the script's tool requests.
	index int
	// entry is its position in the script.
	entry int
	tool  string
	// denied: the script refuses it, showing reason in its row.
	denied bool
	reason string
}

// isRefusal reports whether text is the observation of one of the
// runner's refusals before execution, the texts that make a blocked row a
// denial.
func isRefusal(text string) bool {
	for r := agentloop.RefusedUnknownTool; r <= agentloop.RefusedBudget; r++ {
		if r.Text() == text {
			return true
		}
	}
	return false
}

// scriptRow is one row of the expected block, as the script needs it.
type scriptRow struct {
	tool, result, observation string
}

// expectedRows returns the rows of the expected block; ok is false when
// the block has none, or its rows are no array.
func expectedRows(expected []scenario.Field) (rows []scriptRow, ok bool) {
	for _, f := range expected {
		if f.Key != "rows" {
			continue
		}
		v, _ := jsontext.DecodePy(f.Raw)
		list, isList := v.([]any)
		if !isList {
			return nil, false
		}
		rows = make([]scriptRow, len(list))
		for i, r := range list {
			cell := func(k int) string {
				row, _ := r.([]any)
				if k < len(row) {
					s, _ := row[k].(string)
					return s
				}
				return ""
			}
			rows[i] = scriptRow{tool: cell(1), result: cell(2), observation: cell(3)}
		}
		return rows, true
	}
	return nil, false
}

// scriptedActions returns the actions the case scripts, in order, and
// whether they were read from its rows.
func scriptedActions(g given, expected []scenario.Field) ([]action, bool) {
	if rows, ok := expectedRows(expected); ok {
		return actionsFromRows(g, rows), true
	}
	return actionsFromGiven(g), false
}

func actionsFromRows(g given, rows []scriptRow) []action {
	var out []action
	index := 0
	for j, e := range g.Script {
		if e.isFinal() {
			continue
		}
		if j < len(rows) && rows[j].result != agentloop.ResultAnswer {
			a := action{index: index, entry: j, tool: *e.Tool}
			if rows[j].result == agentloop.ResultBlocked && isRefusal(rows[j].observation) {
				a.denied, a.reason = true, rows[j].observation
			}
			out = append(out, a)
		}
		index++
	}
	return out
}

func actionsFromGiven(g given) []action {
	var out []action
	maxSteps, maxCalls := g.maxSteps(), g.maxCalls()
	validated, index := 0, 0
	for j, e := range g.Script {
		if j >= maxSteps || e.isFinal() {
			break
		}
		a := action{index: index, entry: j, tool: *e.Tool}
		if r := refusal(e, g.WriteGranted, validated, maxCalls); r != agentloop.NotRefused {
			a.denied, a.reason = true, r.Text()
		} else {
			validated++
		}
		out = append(out, a)
		index++
	}
	return out
}

// toolArgument returns the one argument name of a known tool and whether
// the tool writes (and so needs the write grant).
func toolArgument(tool string) (name string, write, known bool) {
	switch tool {
	case "calc":
		return "expression", false, true
	case "lookup_user":
		return "user_id", false, true
	case "save_draft":
		return "text", true, true
	}
	return "", false, false
}

// refusal applies the checks of §3.3 to a tool request, in their order,
// given the requests validated so far. It reads the arguments as the
// runner's json.loads does, once per case: keys compared exactly, a string's
// characters counted as code points (an unpaired surrogate one of them).
func refusal(e entry, writeGranted bool, validated, maxCalls int) agentloop.Refusal {
	name, write, known := toolArgument(*e.Tool)
	switch {
	case !known:
		return agentloop.RefusedUnknownTool
	case write && !writeGranted:
		return agentloop.RefusedNotGranted
	}
	// No args is {}: the name is missing.
	if e.Args == nil || firstByte(e.Args) != '{' {
		return agentloop.RefusedArgumentNames
	}
	args, ok := jsontext.ReadHostMembers(e.Args, nil)
	if !ok {
		return agentloop.RefusedArgumentNames
	}
	value, has := args.Get(name)
	if !has || len(args) != 1 {
		return agentloop.RefusedArgumentNames
	}
	s, ok := jsontext.StringToken(value)
	if !ok || jsontext.CodePoints(s) > agentloop.MaxArgChars {
		return agentloop.RefusedShortStrings
	}
	if validated >= maxCalls {
		return agentloop.RefusedBudget
	}
	return agentloop.NotRefused
}

// firstByte is the first byte of raw after JSON whitespace, 0 when none.
func firstByte(raw []byte) byte {
	for _, c := range raw {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

// script is what a case's expected block (or, without rows, its given
// block) says the runner should do with each request it takes.
type script struct {
	actions []action
	// fromRows: the actions were read from the expected rows.
	fromRows bool
}

// planRunner reads a case once: its lint problems, its actions and how
// many of them are permitted and denied.
func planRunner(g given, expected []scenario.Field) scenario.Plan[script] {
	actions, fromRows := scriptedActions(g, expected)
	p := scenario.Plan[script]{Problems: lintRunner(g, expected), Script: script{actions, fromRows}}
	for _, a := range actions {
		if a.denied {
			p.Denied++
		} else {
			p.Permitted++
		}
	}
	return p
}
