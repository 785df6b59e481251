package householdcheck

import (
	"fmt"
	"strconv"

	"github.com/deskcheck/deskcheck/scenario"
)

// maxDecisionDepth is how deeply the runtime model reads an already-parsed
// decision; the loader's own depth limit (64 unless raised) is far below
// it, so only a raised -max-depth can reach it.
const maxDecisionDepth = 1000

// plan is the scenario's Plan: the case's problems and its script.
func plan(g *given, expected []scenario.Field) scenario.Plan[scripted] {
	e := readExpected(expected)
	s := readScript(g, &e)
	return scenario.Plan[scripted]{Problems: lintHousehold(g, &e), Permitted: s.permitted, Denied: s.denied, Script: s}
}

// lintHousehold finds what the schema cannot see: an already-parsed
// decision nested deeper than the runtime reads (an invalid input, never a
// runtime error), and an authored script that contradicts itself — the
// per-attempt statuses against the counts asserted beside them, from which
// the boundary-response dimensions take their denominators.
func lintHousehold(g *given, exp *expectedScript) []scenario.Problem {
	var out []scenario.Problem
	for i, d := range g.cfg.Decisions {
		if len(d.Object) > 0 && d.Object[0] == '{' && nesting(d.Object) > maxDecisionDepth {
			out = append(out, scenario.Problem{Pointer: "/given/decisions/" + strconv.Itoa(i),
				Message: fmt.Sprintf("the decision is nested more than %d levels deep, deeper than the runtime reads", maxDecisionDepth)})
		}
	}
	warn := func(name, key, format string, args ...any) {
		out = append(out, scenario.Problem{Pointer: "/expected/" + key, Warning: true, Name: name, Message: fmt.Sprintf(format, args...)})
	}
	if exp.statuses != nil {
		st := exp.statuses
		n := len(st.list)
		if exp.has("attempts") && exp.attempts != n {
			warn("statuses-vs-attempts", "attempts", "%d statuses but %d attempts expected", n, exp.attempts)
		}
		if exp.effects != st.ok+st.timeout {
			warn("statuses-vs-effects", "effects", "%d statuses are ok or timeout (tool runs started) but %d effects expected", st.ok+st.timeout, exp.effects)
		}
		if exp.has("denied") && exp.denied != st.denied {
			warn("statuses-vs-denied", "denied", "%d statuses are denied but %d denied expected", st.denied, exp.denied)
		}
		if exp.has("invalid") && exp.invalid != st.invalid {
			warn("statuses-vs-invalid", "invalid", "%d statuses are invalid but %d invalid expected", st.invalid, exp.invalid)
		}
		if st.timeout > 1 || (st.timeout == 1 && st.list[n-1] != "timeout") {
			warn("timeout-not-last", "statuses", "a timeout ends the run: only the last status can be timeout")
		}
		if exp.observations >= 0 && exp.observations != n-st.timeout {
			warn("statuses-vs-observations", "observations", "%d observations but %d statuses that are not timeout (each of them sends one back)", exp.observations, n-st.timeout)
		}
	} else if exp.has("attempts") && exp.effects > exp.attempts {
		warn("effects-vs-attempts", "effects", "%d effects expected from %d attempts: each attempt runs its tool at most once", exp.effects, exp.attempts)
	}
	if exp.toolCalls >= 0 && exp.has("attempts") && exp.toolCalls != exp.attempts {
		warn("toolcalls-vs-attempts", "toolCalls", "%d recorded tool calls but %d attempts expected", exp.toolCalls, exp.attempts)
	}
	return out
}

// nesting returns how many arrays and objects are open at most in JSON
// text.
func nesting(raw []byte) int {
	depth, most := 0, 0
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			most = max(most, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return most
}
