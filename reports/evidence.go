package reports

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/schema"
	"github.com/deskcheck/deskcheck/verifier"
)

// Evidence is validated a case at a time: the report without its cases
// against the whole report schema, then each case against the schema's
// case definition. The schema validator decodes what it validates into
// Go values, many times the size of the text; one case at a time, its
// memory is that of the largest case rather than of the whole report.

// validateEvidence validates well-formed evidence (scanEvidence passed)
// against the report schema, a case at a time, and returns the problems
// sorted by pointer and then key, as schema.Validate sorts them. The
// check stops once it has found evidenceProblemsKept problems (more says
// so): each problem the validator finds takes about a kilobyte, and a
// list of empty objects where each should hold its keys gives a few per
// two bytes of text.
func validateEvidence(data []byte) (problems []schema.Problem, more bool, err error) {
	split, err := reportSplitter()
	if err != nil {
		return nil, false, fmt.Errorf("compiling the report schema: %w", err)
	}
	var b problemBudget
	start, end, ok := memberSpan(data, "cases")
	if !ok || data[start] != '[' {
		problems, err = split.validate("", "", data, &b) // no list of cases to split off
		return problems, b.spent(), err
	}
	skeleton := make([]byte, 0, len(data)-(end-start)+2)
	skeleton = append(append(append(skeleton, data[:start]...), "[]"...), data[end:]...)
	if ps := pastPointCases(skeleton); ps != nil {
		return ps, false, nil
	}
	problems, err = split.validate("", "", skeleton, &b)
	if err != nil {
		return nil, false, err
	}
	var spans [][2]int
	for i := jsontext.SkipSpace(data, start+1); i < end-1 && data[i] != ']'; {
		e := valueEnd(data, i)
		spans = append(spans, [2]int{i, e})
		i = jsontext.SkipSpace(data, e)
		if i < len(data) && data[i] == ',' {
			i = jsontext.SkipSpace(data, i+1)
		}
	}
	// A few cases at a time, one per processor: the memory of each is
	// that of its own case.
	found := make([][]schema.Problem, len(spans))
	errs := make([]error, len(spans))
	parallel.For(len(spans), func(k int) {
		c := data[spans[k][0]:spans[k][1]]
		if found[k] = pastMembers(c); found[k] == nil {
			found[k], errs[k] = split.validate("/definitions/case", "", leanCase(c), &b)
		}
	})
	for k, ps := range found {
		if errs[k] != nil {
			return nil, false, errs[k]
		}
		for _, p := range ps {
			p.Pointer = "/cases/" + strconv.Itoa(k) + p.Pointer
			problems = append(problems, p)
		}
	}
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i], problems[j]
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.Key < b.Key
	})
	return problems, b.spent(), nil
}

// memberSpan finds the value of a top-level key of a JSON object that is
// known to be well formed: its first byte and the byte after it. It does
// not recurse, whatever the nesting.
func memberSpan(data []byte, key string) (start, end int, ok bool) {
	i := jsontext.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return 0, 0, false
	}
	i = jsontext.SkipSpace(data, i+1)
	for i < len(data) && data[i] == '"' {
		kEnd := jsontext.SkipString(data, i)
		if kEnd < 0 {
			return 0, 0, false
		}
		name, _ := jsontext.StringToken(data[i:kEnd])
		i = jsontext.SkipSpace(data, kEnd)
		i = jsontext.SkipSpace(data, i+1) // the colon
		vEnd := valueEnd(data, i)
		if name == key {
			return i, vEnd, true
		}
		i = jsontext.SkipSpace(data, vEnd)
		if i < len(data) && data[i] == ',' {
			i = jsontext.SkipSpace(data, i+1)
		}
	}
	return 0, 0, false
}

// valueEnd returns the byte after the JSON value that starts at i, in
// text known to be well formed, counting brackets outside strings instead
// of recursing.
func valueEnd(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			if i = jsontext.SkipString(data, i); i < 0 {
				return len(data) // not well formed after all
			}
			if depth == 0 {
				return i
			}
			continue
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		default:
			if depth == 0 && !jsontext.IsSpace(c) {
				// A number or a literal: up to the next delimiter.
				for i < len(data) && data[i] != ',' && data[i] != ']' && data[i] != '}' && !jsontext.IsSpace(data[i]) {
					i++
				}
				return i
			}
		}
		i++
	}
	return i
}

// caseMembers is the most members each of a case's lists and objects that
// deskcheck reads as such (not as a value) may hold in a report: its
// expected and observed blocks (keys), comparisons, sourceRefs, releases,
// dimensions, mismatches and suggestions. What a run writes holds a few
// dozen at most, one per key a scenario records; a hand-written report
// past it is refused before it is read, since each member takes many
// times its text once read. Values (given, the values of expected and
// observed, mismatches' values) and the trace have their own bounds.
const caseMembers = 4096

// caseMembersOf are the members of a case that pastMembers counts.
var caseMembersOf = []string{"comparisons", "dimensions", "expected", "mismatches", "observed", "releases", "sourceRefs", "suggested"}

// pastMembers is the problem of each of the case's lists and objects
// (caseMembersOf) that holds more than caseMembers members; nil when none
// does. c is one well-formed case.
func pastMembers(c []byte) []schema.Problem {
	var out []schema.Problem
	for _, key := range caseMembersOf {
		if countOf(c, key, caseMembers) > caseMembers {
			out = append(out, schema.Problem{Pointer: "/" + key, Message: "holds more than " + verifier.Thousands(caseMembers) + " members, the most a case's " + key + " holds in a report"})
		}
	}
	return out
}

// pastPointCases is the problem of each coverage line of the report
// (without its cases) that lists more than caseMembers points, and of
// each point that lists more than CoverageCases cases, the most a report
// lists, counted without reading them; nil when none does. (A line lists
// its family's points, a few dozen.)
func pastPointCases(report []byte) []schema.Problem {
	start, end, ok := memberSpan(report, "coverage")
	if !ok || report[start] != '{' {
		return nil
	}
	cov := report[start:end]
	var out []schema.Problem
	for _, group := range []string{"desks", "families"} {
		elementsOf(cov, group, func(i int, line []byte) {
			at := "/coverage/" + group + "/" + strconv.Itoa(i) + "/list"
			if countOf(line, "list", caseMembers) > caseMembers {
				out = append(out, schema.Problem{Pointer: at, Message: "lists more than " + verifier.Thousands(caseMembers) + " points, the most a coverage line lists in a report"})
				return
			}
			elementsOf(line, "list", func(j int, point []byte) {
				if countOf(point, "cases", CoverageCases) > CoverageCases {
					out = append(out, schema.Problem{Pointer: at + "/" + strconv.Itoa(j) + "/cases", Message: "lists more than " + strconv.Itoa(CoverageCases) + " cases, the most a point lists in a report"})
				}
			})
		})
	}
	return out
}

// elementsOf calls f with the place and the text of each element of the
// list object (one well-formed object) holds under key, if it holds one.
func elementsOf(object []byte, key string, f func(i int, element []byte)) {
	start, _, ok := memberSpan(object, key)
	if !ok || object[start] != '[' {
		return
	}
	i := 0
	jsontext.EachElement(object, start, func(at int) int {
		end := valueEnd(object, at)
		f(i, object[at:end])
		i++
		return end
	})
}
