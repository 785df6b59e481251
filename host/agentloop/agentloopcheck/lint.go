package agentloopcheck

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/scenario"
)

// lintRunner checks a schema-valid runner case for what the schema cannot
// see.
//
// Errors: a step in rows or a value of validatedSeries or blockedSeries
// that is not written as a plain whole number (the schema accepts 2.0 and
// 2e0 as integers; counts are written 2).
//
// Warnings, for likely slips:
//   - script entries after a final answer, which is never passed;
//   - a tool name that is a near miss of a tool (Calc, lookup-user), which
//     the runner refuses as unknown;
//   - rows that do not follow the script: a row's step is not its position,
//     its tool is not the entry's, an answer row for a tool request or the
//     other way round, more rows than script entries;
//   - steps, validatedSeries or blockedSeries whose length differs from the
//     rows (one each per step);
//   - more effects expected than the script has tool requests, or than the
//     budget allows;
//   - drafts expected while save_draft is not granted;
//   - errorIncludes "", which every observation holds.
func lintRunner(g given, expected []scenario.Field) []scenario.Problem {
	var out []scenario.Problem
	warn := func(name, ptr, format string, args ...any) {
		out = append(out, scenario.Problem{Pointer: ptr, Warning: true, Name: name, Message: fmt.Sprintf(format, args...)})
	}
	lintScript(g, warn)
	exp := map[string]gjson.Result{}
	for _, f := range expected {
		exp[f.Key] = gjson.ParseBytes(f.Raw)
	}
	out = append(out, wholeNumbers(exp)...)
	if rows, ok := exp["rows"]; ok && rows.IsArray() {
		lintRows(g, rows, warn)
		n := len(rows.Array())
		if s, ok := exp["steps"]; ok && s.Type == gjson.Number && s.Int() != int64(n) {
			warn("steps-vs-rows", "/expected/steps", "%d steps expected but %s: the runner writes one row per step", s.Int(), plural(n, "row", "rows"))
		}
		for _, key := range []string{"validatedSeries", "blockedSeries"} {
			if s, ok := exp[key]; ok && s.IsArray() && len(s.Array()) != n {
				warn("series-vs-rows", "/expected/"+key, "%s has %d values but %s are expected: the runner appends one value per step", key, len(s.Array()), plural(n, "row", "rows"))
			}
		}
	}
	if e, ok := exp["effects"]; ok && e.Type == gjson.Number {
		if requests := g.requests(); e.Int() > int64(requests) {
			warn("effects-vs-requests", "/expected/effects", "%d effects expected from %s: each request spends at most one attempt", e.Int(), plural(requests, "tool request", "tool requests"))
		} else if e.Int() > int64(g.maxCalls()) {
			warn("effects-vs-budget", "/expected/effects", "%d effects expected but the budget (maxCalls) is %d", e.Int(), g.maxCalls())
		}
	}
	if d, ok := exp["drafts"]; ok && d.IsArray() && len(d.Array()) > 0 && !g.WriteGranted {
		warn("drafts-not-granted", "/expected/drafts", "drafts expected but save_draft is not granted (writeGranted is false)")
	}
	if e, ok := exp["errorIncludes"]; ok && e.Type == gjson.String && e.Str == "" {
		warn("empty-error-includes", "/expected/errorIncludes", `errorIncludes "" holds for every observation: name the text of the last blocked row`)
	}
	return out
}

// lintScript warns about entries after a final answer and tool names that
// are near misses.
func lintScript(g given, warn func(name, ptr, format string, args ...any)) {
	final := -1
	for j, e := range g.Script {
		if final >= 0 {
			warn("after-final", "/given/script/"+strconv.Itoa(j), "script entry %d comes after the final answer of entry %d and is never reached", j, final)
			break
		}
		if e.isFinal() {
			final = j
			continue
		}
		if _, _, known := toolArgument(*e.Tool); !known {
			if near := nearTool(*e.Tool); near != "" {
				warn("near-tool", "/given/script/"+strconv.Itoa(j)+"/tool", "tool %s is not %q: the runner refuses it as an unknown tool (names are compared exactly)", jsontext.Quote(*e.Tool), near)
			}
		}
	}
}

// nearTool returns the tool name a misspelt one is closest to, "" when
// none is close.
func nearTool(name string) string {
	for _, t := range []string{"calc", "lookup_user", "save_draft"} {
		if strings.EqualFold(name, t) || scenario.EditDistance(strings.ToLower(name), t) <= 2 {
			return t
		}
	}
	return ""
}

// lintRows warns about rows that do not follow the script.
func lintRows(g given, rows gjson.Result, warn func(name, ptr, format string, args ...any)) {
	j := 0
	rows.ForEach(func(_, r gjson.Result) bool {
		ptr := "/expected/rows/" + strconv.Itoa(j)
		step, tool, result := r.Get("0"), hostText(r.Get("1")), hostText(r.Get("2"))
		switch {
		case j >= len(g.Script):
			warn("rows-vs-script", ptr, "row %d has no script entry: the script has %s and each step takes one", j+1, plural(len(g.Script), "entry", "entries"))
			return false
		case step.Type == gjson.Number && step.Int() != int64(j+1):
			warn("rows-vs-script", ptr+"/0", "row %d is numbered step %d: steps are numbered from 1, one per row", j+1, step.Int())
		}
		e := g.Script[j]
		switch {
		case e.isFinal() && (result != agentloop.ResultAnswer || tool != "final"):
			warn("rows-vs-script", ptr, "script entry %d is a final answer, so its row is [%d, \"final\", \"answer\", TEXT]", j, j+1)
		case !e.isFinal() && result == agentloop.ResultAnswer:
			warn("rows-vs-script", ptr+"/2", "script entry %d is a tool request, so its row is executed or blocked, not answer", j)
		case !e.isFinal() && tool != *e.Tool:
			warn("rows-vs-script", ptr+"/1", "row %d names tool %s but script entry %d requests %s", j+1, jsontext.Quote(tool), j, jsontext.Quote(*e.Tool))
		}
		j++
		return true
	})
}

// hostText is a string value as the runner's json.loads reads it (a lone
// surrogate kept, where gjson's own reading replaces it), or the text of
// any other value.
func hostText(v gjson.Result) string {
	if s, ok := jsontext.HostString([]byte(v.Raw)); ok {
		return s
	}
	return v.String()
}

// wholeNumbers reports counts inside rows and the series that are not
// written as plain whole numbers.
func wholeNumbers(exp map[string]gjson.Result) []scenario.Problem {
	var out []scenario.Problem
	// The pointer is written only for a problem: most counts have none.
	check := func(ptr func() string, v gjson.Result) {
		if v.Type == gjson.Number && !isWholeNumber(v.Raw) {
			out = append(out, scenario.Problem{Pointer: ptr(), Message: fmt.Sprintf("a whole number is expected (digits only, at most 15), found %s", v.Raw)})
		}
	}
	if rows, ok := exp["rows"]; ok {
		i := 0
		rows.ForEach(func(_, r gjson.Result) bool {
			check(func() string { return "/expected/rows/" + strconv.Itoa(i) + "/0" }, r.Get("0"))
			i++
			return true
		})
	}
	for _, key := range []string{"validatedSeries", "blockedSeries"} {
		i := 0
		exp[key].ForEach(func(_, v gjson.Result) bool {
			check(func() string { return "/expected/" + key + "/" + strconv.Itoa(i) }, v)
			i++
			return true
		})
	}
	return out
}

// isWholeNumber tells whether raw is a count as deskcheck reads counts: no
// sign, fraction or exponent and at most 15 digits.
func isWholeNumber(raw string) bool {
	if raw == "0" {
		return true
	}
	if raw == "" || len(raw) > 15 || raw[0] == '0' {
		return false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
}
