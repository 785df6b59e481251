package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// renderAs writes r in the format called name.
func renderAs(t testing.TB, name string, r *Report) string {
	t.Helper()
	f, err := Lookup(name, Text{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, f.Reporter.Write(&buf, r))
	return buf.String()
}

// TestStrengthVerdict: a report with a strength section states the
// strength verdict in JSON and first in every headline; the cases'
// verdict stays what it was.
func TestStrengthVerdict(t *testing.T) {
	all := withStrength(t)
	caught := *all
	s := *all.Strength
	s.Results = nil
	for _, f := range all.Strength.Results {
		if f.Caught {
			s.Results = append(s.Results, f)
		}
	}
	s.Faults, s.Caught = len(s.Results), len(s.Results)
	caught.Strength, caught.StrengthVerdict = &s, "pass"
	legacy := *all
	legacy.StrengthVerdict = ""

	for _, tt := range []struct {
		name     string
		report   *Report
		verdict  string
		markdown string
		text     string
		why      string
	}{
		{"missed faults", all, "fail",
			fmt.Sprintf("## deskcheck: strength FAIL — %d of %d faults caught · cases PASS — 15 passed, 0 failed\n", all.Strength.Caught, all.Strength.Faults),
			fmt.Sprintf("deskcheck: strength FAIL — %d of %d faults caught · cases PASS — 15 passed, 0 failed\n", all.Strength.Caught, all.Strength.Faults),
			"every case passes but faults are missed: the headline must not say just PASS"},
		{"every fault caught", &caught, "pass",
			fmt.Sprintf("## deskcheck: strength PASS — %d of %d faults caught · cases PASS — 15 passed, 0 failed\n", s.Caught, s.Faults),
			fmt.Sprintf("deskcheck: strength PASS — %d of %d faults caught · cases PASS — 15 passed, 0 failed\n", s.Caught, s.Faults),
			"both verdicts pass"},
		{"saved before strengthVerdict existed", &legacy, "",
			fmt.Sprintf("## deskcheck: strength FAIL — %d of %d faults caught · cases PASS — 15 passed, 0 failed\n", all.Strength.Caught, all.Strength.Faults),
			fmt.Sprintf("deskcheck: strength FAIL — %d of %d faults caught · cases PASS — 15 passed, 0 failed\n", all.Strength.Caught, all.Strength.Faults),
			"an older formatVersion 2 report with a strength section takes the verdict from its counts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := renderAs(t, "json", tt.report)
			require.NoError(t, CheckJSON([]byte(doc)), tt.why)
			assert.Equal(t, tt.verdict, gjson.Get(doc, "strengthVerdict").String(), tt.why)
			assert.Equal(t, "pass", gjson.Get(doc, "verdict").String(), "the cases' verdict is unchanged")
			assert.True(t, strings.HasPrefix(renderAs(t, "markdown", tt.report), tt.markdown), tt.why)
			assert.True(t, strings.HasPrefix(renderAs(t, "text", tt.report), tt.text), tt.why)
			md := renderAs(t, "markdown", tt.report)
			assert.Less(t, strings.Index(md, "### Suite strength"), strings.Index(md, "### Source-only claims"), "the strength table comes before the cases")
		})
	}
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(renderAs(t, "json", all)), &v))
	delete(v, "strength")
	b, _ := json.Marshal(v)
	assert.Error(t, CheckJSON(b), "a strength verdict without a strength section is not evidence")
}

// TestMarkdownCapped: a step summary stays well under GitHub's 1 MiB
// whatever the failures, and says how many it leaves out and where they
// are.
func TestMarkdownCapped(t *testing.T) {
	huge := scaleReport(t, 100, 1000, 50)
	title, why := strings.Repeat("<long title> ", 5000), strings.Repeat("\x1b\n", 30000)
	trace := make([]scenario.Event, 1000)
	for j := range trace {
		trace[j] = scenario.Event{Seq: j + 1, Kind: "k", Text: strings.Repeat("\"event\" ", 2000)}
	}
	var changes []scenario.Change
	for j := 0; j < 100; j++ {
		changes = append(changes, scenario.Change{Path: strings.Repeat("[0]", 1000), Kind: "changed", Expected: strings.Repeat("<", 1000), Observed: 1})
	}
	mismatches := []verifier.Mismatch{{Field: "effects", Comparison: "exact", Expected: strings.Repeat("e", 65536), Observed: 1}}
	for j := 0; j < 30; j++ {
		mismatches = append(mismatches, verifier.Mismatch{Field: strings.Repeat("f", 1000), Comparison: "JSON-equal", Expected: strings.Repeat("&", 65536), Observed: strings.Repeat("\u0000", 1000), Changes: changes})
	}
	for i := range huge.Cases {
		c := &huge.Cases[i]
		if c.Status != verifier.Pass {
			c.Title, c.Why, c.Trace, c.Mismatches = title, why, trace, mismatches
		}
	}
	for _, tt := range []struct {
		name   string
		report *Report
		blocks int
		limit  int
		why    string
	}{
		{"5,000 failures", scaleReport(t, 100, 1000, 50), MarkdownFailures, 256 << 10, "the first 50 failures in full, then a count"},
		{"5,000 failures with 64 KiB values, 1,000-event traces and 31 mismatches of 100 changes", huge, 0, 900 << 10, "the byte budget stops the blocks before GitHub's limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			md := renderAs(t, "markdown", tt.report)
			t.Logf("%s: %d bytes of Markdown", tt.name, len(md))
			assert.Less(t, len(md), tt.limit, tt.why)
			assert.Less(t, len(md), 1<<20, "under GitHub's 1 MiB step-summary limit")
			blocks := strings.Count(md, "<details>\n<summary><b>FAIL</b>")
			if tt.blocks > 0 {
				assert.Equal(t, tt.blocks, blocks, tt.why)
			} else {
				assert.Positive(t, blocks)
				assert.Less(t, blocks, MarkdownFailures, tt.why)
			}
			assert.Contains(t, md, fmt.Sprintf("%d of 5,000 failed or errored cases are shown, the first failure of each file before the second of any; %s more are not shown here. `report.json` in the report folder holds the evidence of every case.", blocks, verifier.Thousands(5000-blocks)))
			assert.Contains(t, md, "<tr><td><code>effects</code> mismatched</td><td align=\"right\">5,000</td>", "the mass failure is one line")
			checkMarkdown(t, md, blocks, false)
		})
	}
}

// TestNoCallZero: an event outside any call is never numbered, in any
// format; a case whose trace begins with such an event is made to fail,
// so that its trace is shown.
func TestNoCallZero(t *testing.T) {
	r := stableReport(t, mutatedDesk(t))
	outside := 0
	for i := range r.Cases {
		if len(r.Cases[i].Trace) > 0 && r.Cases[i].Trace[0].Seq == 0 {
			outside++
			r.Cases[i].Status = verifier.Fail
			r.Cases[i].Mismatches = []verifier.Mismatch{{Field: "effects", Comparison: "exact", Expected: 1, Observed: 0}}
		}
	}
	require.Positive(t, outside, "a case's trace begins outside any call")
	for _, f := range Formats(Text{Verbose: true}) {
		out := renderAs(t, f.Name, r)
		assert.NotContains(t, out, "call 0", f.Name)
		assert.NotContains(t, out, "[0]", f.Name)
	}
	for _, tt := range []struct {
		seq  int
		unit string
		want string
	}{
		{0, "call", ""}, {-1, "call", ""}, {1, "call", "[call 1] "}, {2, "", "[call 2] "}, {3, "step", "[step 3] "},
	} {
		assert.Equal(t, tt.want, seqLabel(tt.unit, scenario.Event{Seq: tt.seq}), "seq %d unit %q", tt.seq, tt.unit)
	}
}

// TestObserveKeepsEveryAssertionThatHolds: pasting the printed block over
// expected never deletes an assertion: every authored key that holds is
// kept with its authored value, a key that does not hold takes the
// observed value or is listed as left out, and suggested keys are added.
func TestObserveKeepsEveryAssertionThatHolds(t *testing.T) {
	for _, tt := range []struct {
		name       string
		expected   string
		mismatches []verifier.Mismatch
		suggested  []verifier.Suggestion
		block      string
		diff       []string
		why        string
	}{
		{
			name:      "a key that holds but is not suggested stays",
			expected:  `{"answer":"return","effects":1,"handlerCalls":0}`,
			suggested: []verifier.Suggestion{{Key: "answer", Value: "return"}, {Key: "effects", Value: 1}},
			block:     "{\n  \"answer\": \"return\",\n  \"effects\": 1,\n  \"handlerCalls\": 0\n}",
			why:       "handlerCalls holds; the old block dropped it silently",
		},
		{
			name:      "a substring that holds keeps the author's substring",
			expected:  `{"answer":"throw","errorIncludes":"denied"}`,
			suggested: []verifier.Suggestion{{Key: "answer", Value: "throw"}, {Key: "errorIncludes", Value: "Tool call denied by user: seed_note"}},
			block:     "{\n  \"answer\": \"throw\",\n  \"errorIncludes\": \"denied\"\n}",
			why:       "the author chose the substring; it holds, so it is not rewritten",
		},
		{
			name:       "a key that does not hold takes the observed value",
			expected:   `{"answer":"throw","prompts":2}`,
			mismatches: []verifier.Mismatch{{Field: "prompts", Comparison: "exact", Expected: 2, Observed: 1}},
			suggested:  []verifier.Suggestion{{Key: "answer", Value: "throw"}, {Key: "prompts", Value: 1}},
			block:      "{\n  \"answer\": \"throw\",\n  \"prompts\": 1\n}",
			diff:       []string{"  ~ prompts: authored 2, observed 1 (exact)"},
			why:        "the mismatch is replaced and marked ~",
		},
		{
			name:       "a key that does not hold and has nothing to take its place is listed",
			expected:   `{"answer":"return","promptIncludes":"Reason: audit"}`,
			mismatches: []verifier.Mismatch{{Field: "promptIncludes", Comparison: "substring of any", Expected: "Reason: audit", Observed: []any{}}},
			suggested:  []verifier.Suggestion{{Key: "answer", Value: "return"}},
			block:      "{\n  \"answer\": \"return\"\n}",
			diff:       []string{`  - promptIncludes: authored "Reason: audit" does not hold (observed [], substring of any); left out of the block above, decide what it should say`},
			why:        "nothing disappears unsaid",
		},
		{
			name:      "suggested keys the author did not assert are added after the authored ones",
			expected:  `{"effects":0,"answer":"throw"}`,
			suggested: []verifier.Suggestion{{Key: "answer", Value: "throw"}, {Key: "effects", Value: 0}, {Key: "toolCalls", Value: 1}},
			block:     "{\n  \"effects\": 0,\n  \"answer\": \"throw\",\n  \"toolCalls\": 1\n}",
			diff:      []string{"  + toolCalls: 1 (observed, not asserted)"},
			why:       "authored order is kept so the pasted block diffs cleanly",
		},
		{
			name:      "an object that holds keeps the author's key order",
			expected:  `{"input":{"b":1,"a":2}}`,
			suggested: []verifier.Suggestion{{Key: "input", Value: map[string]any{"a": 2, "b": 1}}},
			block:     "{\n  \"input\": {\"b\":1,\"a\":2}\n}",
			why:       "JSON-equal holds; the author's text stays",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := Case{Desk: "d", ID: "c", Title: "t", Status: verifier.Pass, Expected: json.RawMessage(tt.expected), Mismatches: tt.mismatches, Suggested: tt.suggested}
			if len(tt.mismatches) > 0 {
				c.Status = verifier.Fail
			}
			block, diff := observeBlock(c)
			assert.Equal(t, tt.block, formatBlock(block), tt.why)
			assert.Equal(t, tt.diff, diff, tt.why)
			assert.True(t, json.Valid([]byte(formatBlock(block))), "the block is JSON")
		})
	}
}

// TestObservePastedBlockHolds: for every case of the bundled and the
// failing desk, every authored key that holds is in the printed block
// with its authored value.
func TestObservePastedBlockHolds(t *testing.T) {
	for _, r := range []*Report{stableReport(t, "../cases/boundary-desk.json"), stableReport(t, mutatedDesk(t))} {
		out := renderAs(t, "text", r)
		require.NotEmpty(t, out)
		var buf bytes.Buffer
		require.NoError(t, Observe{}.Write(&buf, r))
		for _, c := range r.Cases {
			block, _ := observeBlock(c)
			doc := gjson.Parse(formatBlock(block))
			bad := map[string]bool{}
			for _, m := range c.Mismatches {
				bad[m.Field] = true
			}
			gjson.ParseBytes(c.Expected).ForEach(func(k, v gjson.Result) bool {
				if !bad[k.String()] {
					assert.Equal(t, v.Raw, doc.Get(gjson.Escape(k.String())).Raw, "%s/%s keeps %s", c.Desk, c.ID, k.String())
				}
				return true
			})
			assert.Contains(t, buf.String(), "\"expected\": "+formatBlock(block))
		}
	}
}

// TestGitHubEscaping follows GitHub's workflow-command rules: %, CR and
// LF in the message; also : and , in properties.
func TestGitHubEscaping(t *testing.T) {
	for _, tt := range []struct {
		in, property, data, why string
	}{
		{"plain", "plain", "plain", "nothing to escape"},
		{"50%", "50%25", "50%25", "a percent sign is escaped first"},
		{"a\nb", `a\nb`, "a%0Ab", "a line feed ends a command: escaped (properties hold one line, shown as \\n)"},
		{"a\rb", `a\rb`, `a\rb`, "a carriage return is shown, not sent"},
		{"x.json:3,4", "x.json%3A3%2C4", "x.json:3,4", "colon and comma end a property"},
		{"::error::x", "%3A%3Aerror%3A%3Ax", "::error::x", "a command in the message stays text on the command's line"},
		{"\x1b[31mred", `\u001b[31mred`, `\u001b[31mred`, "a terminal escape would colour the log"},
	} {
		var buf bytes.Buffer
		ghCommand(&printer{w: &buf}, "error", [][2]string{{"title", tt.in}}, tt.in)
		assert.Equal(t, "::error title="+tt.property+"::"+tt.data+"\n", buf.String(), tt.why)
	}
}

func TestGitHubAnnotations(t *testing.T) {
	r := stableReport(t, mutatedDesk(t))
	assert.Equal(t, "::error file=testdata/boundary-desk-mutated.json,line=140,col=5,title=FAIL boundary-desk/boundary-deny-one-call%3A Deny stops execution::prompts (exact): expected 2, observed 1\nFAIL — 14 passed, 1 failed\n",
		renderAs(t, "github", r), "one annotation at the failing case's line, then the headline")

	many := scaleReport(t, 2, 100, 60)
	out := renderAs(t, "github", many)
	assert.Equal(t, GitHubLimit, strings.Count(out, "::error "), "at most the annotations GitHub shows")
	assert.Contains(t, out, "::notice title=deskcheck%3A more than GitHub shows::110 more errors in 2 files not annotated (GitHub shows 10 of each kind per step); every one is in the step summary and report.json in the report folder\n")
	assert.Contains(t, out, "::error file=desks/generated-0000.json,line=8,col=5,title=FAIL generated-0000/case-0000000%3A ")
	assert.Contains(t, out, "::error file=desks/generated-0001.json,", "the second file's first failure before the first file's second")
	many.Cases[0].Line = 0
	out = renderAs(t, "github", many)
	assert.Contains(t, out, "::error file=desks/generated-0000.json,title=FAIL generated-0000/case-0000000%3A ", "a case the report did not locate is annotated at its file")
}

func TestGitHubDiagnostics(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, GitHubDiagnostics(&buf, verifier.Diagnostics{
		{Severity: verifier.Error, File: "desks/a.json", Line: 12, Col: 55, Pointer: "/cases/0/expected/promts", Summary: `expected key "promts" is not observed by scenario alpha; did you mean "prompts"?`},
		{Severity: verifier.Warning, File: "desks/b,c.json", Summary: "the label does not say DO NOT EXECUTE"},
	}))
	assert.Equal(t, "::error file=desks/a.json,line=12,col=55,title=deskcheck error::expected key \"promts\" is not observed by scenario alpha; did you mean \"prompts\"? (/cases/0/expected/promts)\n"+
		"::warning file=desks/b%2Cc.json,title=deskcheck warning::the label does not say DO NOT EXECUTE\n", buf.String())
}

func TestVisible(t *testing.T) {
	for _, tt := range []struct {
		in, one, lines, why string
	}{
		{"plain text", "plain text", "plain text", "nothing to do"},
		{"a\nb\tc", `a\nb\tc`, "a\nb\tc", "line feeds and tabs stay where lines are kept"},
		{"\x1b[31m", `\u001b[31m`, `\u001b[31m`, "ESC"},
		{"a\r\nb", `a\r\nb`, "a\\r\nb", "a carriage return is always shown"},
		{"\u0085\u009b", `\u0085\u009b`, `\u0085\u009b`, "C1 controls, including CSI"},
		{"\u202eabc\u202c\u2066\u2069\u200e\u061c", `\u202eabc\u202c\u2066\u2069\u200e\u061c`, `\u202eabc\u202c\u2066\u2069\u200e\u061c`, "bidirectional formatting"},
		{"\ufffe\uffff\u2028", `\ufffe\uffff\u2028`, `\ufffe\uffff\u2028`, "noncharacters XML forbids, and the line separator"},
		{"\xffok\xc3", `\xffok\xc3`, `\xffok\xc3`, "bytes that are not UTF-8"},
		{"é ✓ 日本 🙂 \u00a0", "é ✓ 日本 🙂 \u00a0", "é ✓ 日本 🙂 \u00a0", "printable text is left alone"},
	} {
		assert.Equal(t, tt.one, oneLine(tt.in), "one line: %s", tt.why)
		assert.Equal(t, tt.lines, visible(tt.in, true), "lines: %s", tt.why)
	}
	var v any
	require.NoError(t, json.Unmarshal([]byte(`"`+oneLine("\u0085\u202e\ufffe")+`"`), &v))
	assert.Equal(t, "\u0085\u202e\ufffe", v, "the escapes are JSON's: escaped JSON reads back to the same value")
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 5000: "5,000", 100000: "100,000", 1234567: "1,234,567", -4200: "-4,200"} {
		assert.Equal(t, want, verifier.Thousands(n), "%d", n)
	}
}

// TestLocate: the failed and errored cases carry the line and column of
// their case object, within the bounds that keep locating linear: one walk
// of each file with failures.
func TestLocate(t *testing.T) {
	data := wrongEffects.ReplaceAll(gen.Desk(0, 0, 30), []byte(`"effects": 7`))
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "g.json", Data: data}}, verifier.Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors())
	failed := 0
	for _, r := range suite.Results {
		if r.Status != verifier.Pass {
			failed++
		}
	}
	require.Greater(t, failed, 10)
	for _, tt := range []struct {
		name         string
		most, budget int
		wantLocated  int
		why          string
	}{
		{"every failure", 1000, 1_000_000, failed, "within both bounds every failure is located"},
		{"the first few", 4, 1_000_000, 4, "at most the number asked for"},
		{"one walk locates them all", 1000, 30, failed, "a desk of 30 cases costs 30, however many of its cases are located"},
		{"within the walking budget", 1000, 29, 0, "a desk larger than the budget is not walked"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cases := make([]Case, len(suite.Results))
			locate(suite.Results, cases, tt.most, tt.budget)
			located := 0
			for i, c := range cases {
				if c.Line == 0 {
					continue
				}
				located++
				require.NotEqual(t, verifier.Pass, suite.Results[i].Status, "only failures are located")
				line, col := suite.Results[i].Case.Desk.Locate(suite.Results[i].Case.Pointer, false)
				assert.Equal(t, [2]int{line, col}, [2]int{c.Line, c.Column})
				lines := strings.Split(string(data), "\n")
				assert.True(t, strings.HasPrefix(lines[c.Line-1][c.Column-1:], `{"id": "`+suite.Results[i].Case.ID+`"`), "line %d column %d is where the case object starts", c.Line, c.Column)
			}
			assert.Equal(t, tt.wantLocated, located, tt.why)
		})
	}
}
