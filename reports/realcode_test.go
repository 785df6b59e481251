package reports

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/verifier"
)

// realCodeFixture is the section of testdata/realcode-section.json: a run
// with a case of each verdict, and a run on a second host.
func realCodeFixture(t testing.TB) RealCode {
	t.Helper()
	data, err := os.ReadFile("testdata/realcode-section.json")
	require.NoError(t, err)
	var rc RealCode
	require.NoError(t, json.Unmarshal(data, &rc))
	return rc
}

// realCodeReport is the boundary report with the fixture's section.
func realCodeReport(t testing.TB) *Report {
	t.Helper()
	r := stableReport(t, "../cases/boundary-desk.json")
	r.RealCode = realCodeFixture(t)
	return r
}

var goldenExt = map[string]string{"text": "txt", "json": "json", "html": "html", "markdown": "md", "junit": "junit.xml", "github": "github.txt", "sarif": "sarif"}

// TestRealCodeGoldens: the section in every format of a report, and on
// its own as deskcheck-host verify prints it.
func TestRealCodeGoldens(t *testing.T) {
	r := realCodeReport(t)
	for _, f := range Formats(Text{}) {
		t.Run("report."+f.Name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, f.Reporter.Write(&buf, r))
			golden(t, "realcode."+goldenExt[f.Name], buf.Bytes())
		})
	}
	for _, f := range RealCodeFormats {
		for _, verbose := range []bool{false, true} {
			name := "realcode-alone." + goldenExt[f]
			if verbose {
				name = "realcode-alone-v." + goldenExt[f]
			}
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				require.NoError(t, WriteRealCode(&buf, f, r.RealCode, verbose))
				if f != "text" && verbose {
					var quiet bytes.Buffer
					require.NoError(t, WriteRealCode(&quiet, f, r.RealCode, false))
					assert.Equal(t, quiet.String(), buf.String(), "-v changes the text format only")
					return
				}
				golden(t, name, buf.Bytes())
			})
		}
	}
	assert.Error(t, WriteRealCode(new(bytes.Buffer), "sarif", r.RealCode, false), "the section alone has five formats")
}

// TestRealCodeShownInEveryFormat: each format of a report with the
// section names it and each host, and a saved report.json renders again
// to the same bytes: render shows what the run showed.
func TestRealCodeShownInEveryFormat(t *testing.T) {
	r := realCodeReport(t)
	var saved bytes.Buffer
	require.NoError(t, JSON{}.Write(&saved, r))
	require.NoError(t, CheckJSON(saved.Bytes()), "the section matches the report schema")
	assert.Equal(t, "model and real code disagree", gjson.GetBytes(saved.Bytes(), "realCode.0.cases.2.verdict").String())
	second := r.RealCode[1].Host
	assert.Equal(t, second.Name, gjson.GetBytes(saved.Bytes(), "realCode.1.host.name").String())
	back, err := ReadJSON(saved.Bytes())
	require.NoError(t, err)
	for _, f := range Formats(Text{}) {
		t.Run(f.Name, func(t *testing.T) {
			var a, b bytes.Buffer
			require.NoError(t, f.Reporter.Write(&a, r))
			again := f.Reporter
			if f.Name == "html" {
				again = HTML{Registry: testReg} // render is told the registry, as the pictures need
			}
			require.NoError(t, again.Write(&b, back))
			assert.Equal(t, a.String(), b.String(), "rendered from report.json, the %s format is the same", f.Name)
			out := a.String()
			switch f.Name {
			case "junit":
				require.NoError(t, xml.Unmarshal(a.Bytes(), new(struct{})))
				assert.Contains(t, out, `<testsuite name="real host `+hostLine(r.RealCode[0].Host)+`" tests="5" failures="2" errors="1" skipped="1">`)
			case "sarif":
				assert.Contains(t, out, `"ruleId":"real-code/model-and-real-code-disagree"`)
				assert.Contains(t, out, `"ruleId":"real-code/could-not-run-on-the-real-code"`)
				assert.NotContains(t, out, "real-code/holds")
			case "json":
			default:
				assert.Contains(t, strings.ToLower(out), "model against real code", f.Name)
			}
			if f.Name != "sarif" {
				assert.Contains(t, out, second.Source, f.Name)
			}
		})
	}
	plain := stableReport(t, "../cases/boundary-desk.json")
	for _, f := range Formats(Text{}) {
		assert.NotContains(t, strings.ToLower(renderAs(t, f.Name, plain)), "real code", "a report without the section does not mention it (%s)", f.Name)
	}
}

// TestRealCodeContradictions: a section that contradicts itself is
// refused by both readers, naming where.
func TestRealCodeContradictions(t *testing.T) {
	var saved bytes.Buffer
	require.NoError(t, JSON{}.Write(&saved, realCodeReport(t)))
	doc := saved.String()
	edit := func(path string, v any) string {
		t.Helper()
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(doc), &m))
		parts := strings.Split(path, ".")
		var at any = m
		for i, p := range parts {
			last := i == len(parts)-1
			switch x := at.(type) {
			case map[string]any:
				switch {
				case last && v == nil:
					delete(x, p)
				case last:
					x[p] = v
				default:
					at = x[p]
				}
			case []any:
				k := int(gjson.Parse(p).Int())
				if last {
					x[k] = v
				} else {
					at = x[k]
				}
			}
		}
		b, err := json.Marshal(m)
		require.NoError(t, err)
		return string(b)
	}
	twice := gjson.Get(doc, "realCode.0.cases").Array()
	var dup []any
	for _, c := range append(twice, twice[0]) {
		dup = append(dup, c.Value())
	}
	first := realCodeFixture(t)[0].Host
	mismatch := []any{map[string]any{"field": "effects", "comparison": "exact", "expected": 0, "observed": 1}}
	for _, tt := range []struct {
		name, doc, want string
	}{
		{"holds with a mismatch", edit("realCode.0.cases.0.realMismatches", mismatch),
			"/realCode/0/cases/0: case boundary-desk/boundary-approval-does-not-persist holds on the real code, yet lists 1 mismatch there"},
		{"holds while model and real code differ", edit("realCode.0.cases.0.differ", []any{"effects"}),
			"/realCode/0/cases/0: case boundary-desk/boundary-approval-does-not-persist holds on the real code, yet model and real code differ on effects"},
		{"does not hold without a mismatch", edit("realCode.0.cases.1.realMismatches", []any{}),
			"/realCode/0/cases/1: case boundary-desk/boundary-auto-approve-mode does not hold on the real code, yet lists no mismatch there"},
		{"disagree on nothing", edit("realCode.0.cases.2.differ", nil),
			"/realCode/0/cases/2: case boundary-desk/boundary-auto-approve-still-denied has model and real code disagree, yet names no key they differ on and no reason"},
		{"not applicable with a mismatch", edit("realCode.0.cases.3.realMismatches", mismatch),
			"/realCode/0/cases/3: case boundary-desk/boundary-approve-one-call is not applicable, yet lists 1 mismatch on the real code"},
		{"a case twice", edit("realCode.0.cases", dup),
			"/realCode/0/cases/5: case boundary-desk/boundary-approval-does-not-persist is listed twice on " + first.Source + " (first at /realCode/0/cases/0)"},
		{"a summary the cases do not add up to", edit("realCode.1.summary.notApplicable", 2),
			"/realCode/1/summary: the summary counts 1 cases: 0 hold on the real code, 0 do not hold, 0 model and real code disagree, 2 not applicable, 0 could not run, but the cases are 1 cases: 0 hold on the real code, 0 do not hold, 0 model and real code disagree, 1 not applicable, 0 could not run"},
		{"an unknown verdict", edit("realCode.0.cases.0.verdict", "mostly holds"), "/realCode/0/cases/0/verdict"},
		{"an unknown key", edit("realCode.0.cases.0.note", "x"), "/realCode/0/cases/0"},
		{"a host without its source", edit("realCode.0.host", map[string]any{"name": first.Name}), "/realCode/0/host"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadJSON([]byte(tt.doc))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "not deskcheck evidence"), err.Error())
			_, err = ReadForDiff([]byte(tt.doc))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestRealCodeDiff: diff reports each real-code verdict that changed, per
// host and case; one that held and now fails is a regression.
func TestRealCodeDiff(t *testing.T) {
	base := realCodeReport(t)
	head := realCodeReport(t)
	run := &head.RealCode[0]
	name, was, other := run.Host.Name, run.Host.Source, head.RealCode[1].Host
	run.Host.Source = name + "@99.0.0"
	// boundary-approval-does-not-persist regresses, boundary-auto-approve-mode
	// is fixed, boundary-deny-one-call leaves; the second host's run is gone.
	run.Cases[0].Verdict, run.Cases[0].Mismatches = RealDoesNotHold, []RealMismatch{{Field: "effects", Comparison: "exact", Expected: json.RawMessage("1"), Observed: json.RawMessage("0")}}
	run.Cases[1].Verdict, run.Cases[1].Mismatches = RealHolds, nil
	run.Cases = run.Cases[:4]
	run.Summary = RealCodeSummary{Cases: 4, Holds: 1, DoesNotHold: 1, Disagree: 1, NotApplicable: 1}
	head.RealCode = head.RealCode[:1]
	d := Compare(base, head, "base.json", "head.json")
	assert.True(t, d.Regressed)
	assert.Equal(t, []RealCodeChange{
		{Host: name, ID: "boundary-desk/boundary-approval-does-not-persist", Change: RealRegressed, Before: RealHolds, After: RealDoesNotHold, BeforeOn: was, AfterOn: run.Host.Source},
		{Host: name, ID: "boundary-desk/boundary-auto-approve-mode", Change: RealFixed, Before: RealDoesNotHold, After: RealHolds, BeforeOn: was, AfterOn: run.Host.Source},
		{Host: name, ID: "boundary-desk/boundary-deny-one-call", Change: RealRemoved, Before: RealErrored, BeforeOn: was},
		{Host: other.Name, Change: RealHostOnly, BeforeOn: other.Source},
	}, d.RealCode)
	var text, md, gh, js bytes.Buffer
	require.NoError(t, DiffText(&text, d))
	require.NoError(t, DiffMarkdown(&md, d))
	require.NoError(t, DiffGitHub(&gh, d, GitHub{}))
	require.NoError(t, DiffJSON(&js, d))
	golden(t, "realcode-diff.txt", text.Bytes())
	golden(t, "realcode-diff.md", md.Bytes())
	golden(t, "realcode-diff.github.txt", gh.Bytes())
	assert.Equal(t, "regressed", gjson.GetBytes(js.Bytes(), "realCode.0.change").String())
	assert.Contains(t, d.Headline(), "REGRESSION — 1 case regressed on the real code")

	same := Compare(base, realCodeReport(t), "a", "b")
	assert.False(t, same.Regressed)
	assert.Empty(t, same.RealCode)
	plain := stableReport(t, "../cases/boundary-desk.json")
	var none bytes.Buffer
	require.NoError(t, DiffJSON(&none, Compare(plain, plain, "a", "b")))
	assert.NotContains(t, none.String(), "realCode", "a diff of reports without the section is as it was")
}

// TestRealCodeHostile: every string of the section may come from a desk
// or from the code that ran; in every format each control character and
// bidirectional override comes out as a visible escape, markup stays
// text, and an unpaired surrogate is written as its escape.
func TestRealCodeHostile(t *testing.T) {
	const evil = "a\x1b[2J\u202eb\u009b31m\x07<script>|`*\r\nz"
	lone := "tool \xed\xa0\x80 end"
	rc := realCodeFixture(t)
	run := &rc[0]
	h := &run.Host
	h.Name, h.Package, h.Release, h.Bun, h.Runtime, h.Root, h.Source, h.Commit, h.Isolation = evil, evil, evil, evil, evil, evil, evil, evil, evil
	h.Adaptations, h.Changed, h.Substituted, h.Modules = []string{evil}, []string{evil}, map[string]string{evil: evil}, map[string]bool{evil: true}
	run.Inertness, run.Substitution, run.Model = evil, evil, evil
	for i := range run.Cases {
		c := &run.Cases[i]
		c.Desk, c.ID, c.Scenario, c.Reason, c.Releases, c.Absent = evil, evil+string(rune('0'+i)), evil, evil, []string{evil}, []string{evil}
		if len(c.Differ) > 0 {
			c.Differ = []string{evil}
		}
		for j := range c.Mismatches {
			c.Mismatches[j].Field, c.Mismatches[j].Comparison = evil, evil
		}
	}
	run.Cases[1].Real = jsonx.Append(nil, map[string]any{"input": lone, evil: evil})
	run.Cases[1].Mismatches[0].Observed = jsonx.Append(nil, lone)
	r := stableReport(t, "../cases/boundary-desk.json")
	r.RealCode = rc
	check := func(t *testing.T, name, out string) {
		for _, raw := range []string{"\x1b", "\u202e", "\u009b", "\x07", "\r", "\xed\xa0\x80"} {
			assert.NotContains(t, out, raw, "%q reached the %s output raw", raw, name)
		}
		switch name {
		case "html", "junit":
			assert.NotContains(t, out, "<script>", "markup is text in %s", name)
		case "markdown":
			assert.NotContains(t, outsideCode(out), "<script>", "markup is text: escaped, or in a code span")
		}
		assert.NotContains(t, out, "\ufffd", name)
		if name != "github" {
			assert.Contains(t, out, `\ud800`, "%s: the lone surrogate is written as its escape", name)
		}
	}
	for _, f := range Formats(Text{Verbose: true}) {
		t.Run(f.Name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, f.Reporter.Write(&buf, r))
			check(t, f.Name, buf.String())
			if f.Name == "json" {
				_, err := ReadJSON(buf.Bytes())
				require.NoError(t, err, "report.json with hostile strings is still evidence")
			}
		})
	}
	for _, f := range RealCodeFormats {
		t.Run("alone."+f, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, WriteRealCode(&buf, f, rc, true))
			check(t, f, buf.String())
		})
	}
}

// outsideCode is the Markdown text outside code spans and fenced blocks:
// what a Markdown reader would take as markup.
func outsideCode(md string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		code := false
		for i := 0; i < len(line); i++ {
			switch {
			case !code && line[i] == '\\' && i+1 < len(line):
				i++
			case line[i] == '`':
				code = !code
			case !code:
				b.WriteByte(line[i])
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestRealCodeMarkdownBounded: inside a report's Markdown, which a step
// summary holds, a host lists a bounded number of cases and one-case
// desks and counts the rest; on its own the section lists every case.
func TestRealCodeMarkdownBounded(t *testing.T) {
	rc := realCodeFixture(t)
	disagree := rc[0].Cases[2]
	run := &rc[0]
	run.Cases = nil
	for i := 0; i < realCodeRows+100; i++ {
		c := disagree
		c.ID = "case-" + strconv.Itoa(i)
		run.Cases = append(run.Cases, c)
	}
	run.Summary = RealCodeSummary{Cases: len(run.Cases), Disagree: len(run.Cases)}
	r := stableReport(t, "../cases/boundary-desk.json")
	r.RealCode = rc
	md := renderAs(t, "markdown", r)
	assert.Contains(t, md, "100 more cases are not listed here; `report.json` holds them all.")
	assert.Equal(t, realCodeRepros, strings.Count(md, ": model and real code disagree on "), "one-case desks shown")
	assert.Contains(t, md, "##### More disagreements")
	var alone bytes.Buffer
	require.NoError(t, WriteRealCode(&alone, "markdown", rc, false))
	assert.Equal(t, realCodeRows+100, strings.Count(alone.String(), ": model and real code disagree on "), "on its own every case")
}

// realCodeWithDimensions is the fixture with the boundary-response
// dimensions and the provenance of a harness that counts them on its
// first run: the real code loses one allowed action the model does not.
func realCodeWithDimensions(t testing.TB) RealCode {
	rc := realCodeFixture(t)
	dim := func(n, d int) verifier.Dimension {
		return verifier.Dimension{Numerator: n, Denominator: d, Applicable: d > 0}
	}
	model := verifier.Dimensions{DenialPropagation: dim(2, 2), AllowedWork: dim(3, 3), FailClosed: dim(4, 4), TraceCompleteness: dim(4, 4),
		RetryAmplification: verifier.Amplification{Dimension: dim(5, 5), Ratio: "1.00", Basis: "scripted"}, Arenas: []verifier.ArenaPairing{}}
	real := model
	real.AllowedWork = dim(2, 3)
	real.RetryAmplification = verifier.Amplification{Dimension: dim(6, 5), Ratio: "1.20", Basis: "scripted"}
	real.ExtraEffects = 1
	rc[0].Dimensions = &RealCodeDimensions{Column: "Framework 1.0", Real: real, Model: model}
	rc[0].Provenance = json.RawMessage(`{"runId": "run-1", "network": "none"}`)
	return rc
}

// TestRealCodeDimensionsInEveryFormat: a run whose harness counts the
// boundary-response dimensions shows the model's row and the real code's
// in every format of the section and of a report, with the harness's
// provenance, and a saved report.json renders them again.
func TestRealCodeDimensionsInEveryFormat(t *testing.T) {
	rc := realCodeWithDimensions(t)
	var text bytes.Buffer
	require.NoError(t, WriteRealCode(&text, "text", rc, false))
	golden(t, "realcode-dimensions.txt", text.Bytes())
	for _, f := range RealCodeFormats {
		var buf bytes.Buffer
		require.NoError(t, WriteRealCode(&buf, f, rc, false))
		out := buf.String()
		switch f {
		case "json":
			assert.Equal(t, int64(2), gjson.Get(out, "realHost.0.dimensions.real.allowedWork.numerator").Int())
			assert.Equal(t, "1.00", gjson.Get(out, "realHost.0.dimensions.model.retryAmplification.ratio").String())
			assert.Equal(t, "run-1", gjson.Get(out, "realHost.0.provenance.runId").String())
		case "junit":
			assert.Contains(t, out, `<property name="boundary.allowedWork" value="2/3"></property>`)
			assert.Contains(t, out, `<property name="model.boundary.allowedWork" value="3/3"></property>`)
			assert.Contains(t, out, `<property name="provenance" value="{&#34;runId&#34;:&#34;run-1&#34;,&#34;network&#34;:&#34;none&#34;}"></property>`)
		case "markdown":
			assert.Contains(t, out, "| release | denials | allowed | fail closed | complete | amplification (scripted) | extra effects |\n|---|---|---|---|---|---|---|\n")
			assert.Contains(t, out, "| Framework 1.0 | 2/2 | 2/3 | 4/4 | 4/4 | 1.20 (6/5) | 1 |\n")
		case "html":
			assert.Contains(t, out, "<tr><td>Framework 1.0</td><td>2/2</td><td>2/3</td>")
			assert.Contains(t, out, "<th>amplification (scripted)</th>")
		}
	}
	r := stableReport(t, "../cases/boundary-desk.json")
	r.RealCode = rc
	var saved bytes.Buffer
	require.NoError(t, JSON{}.Write(&saved, r))
	require.NoError(t, CheckJSON(saved.Bytes()), "the dimensions match the report schema")
	back, err := ReadJSON(saved.Bytes())
	require.NoError(t, err)
	for _, f := range []string{"text", "markdown", "junit"} {
		a, b := renderAs(t, f, r), renderAs(t, f, back)
		assert.Equal(t, a, b, "rendered from report.json, the %s format is the same", f)
		assert.Contains(t, a, "Framework 1.0", f)
	}
	var page, again bytes.Buffer
	require.NoError(t, HTML{}.Write(&page, r))
	require.NoError(t, HTML{Registry: testReg}.Write(&again, back))
	assert.Equal(t, page.String(), again.String(), "rendered from report.json, the html format is the same")
	assert.Contains(t, page.String(), `<section class="real-dimensions"><h3>Boundary response on the real code, by release</h3>`)
	assert.Contains(t, renderAs(t, "text", r), "Model against real code\n")
	assert.Contains(t, renderAs(t, "text", r), "model of Framework 1.0 (Go)  2/2      3/3      4/4          4/4       1.00 (5/5)                0\n")
}

// TestRealCodeDiffOfSeveralReleases: where a report runs one host on
// several releases (the arena's adapters, -host NAME@*), each release is
// compared with the same release of the other report, not with the
// host's last run.
func TestRealCodeDiffOfSeveralReleases(t *testing.T) {
	runOn := func(source string, v RealVerdict) RealCodeRun {
		c := RealCodeCase{Desk: "d", ID: "c", Scenario: "s", Verdict: v, Authored: json.RawMessage("{}")}
		if v == RealDoesNotHold {
			c.Mismatches = []RealMismatch{{Field: "effects", Comparison: "exact", Expected: json.RawMessage("1"), Observed: json.RawMessage("0")}}
		}
		var s RealCodeSummary
		s.Add(v)
		return RealCodeRun{Host: RealCodeHost{Name: "toy", Source: source}, Summary: s, Cases: []RealCodeCase{c}}
	}
	base := RealCode{runOn("toy@a@1", RealHolds), runOn("toy@b@1", RealHolds)}
	head := RealCode{runOn("toy@a@1", RealHolds), runOn("toy@b@1", RealDoesNotHold)}
	assert.Equal(t, []RealCodeChange{
		{Host: "toy@b@1", ID: "d/c", Change: RealRegressed, Before: RealHolds, After: RealDoesNotHold, BeforeOn: "toy@b@1", AfterOn: "toy@b@1"},
	}, compareRealCode(base, head))
	assert.Empty(t, compareRealCode(base, base))
	assert.Equal(t, []RealCodeChange{
		{Host: "toy@a@1", ID: "d/c", Change: RealRegressed, Before: RealHolds, After: RealDoesNotHold, BeforeOn: "toy@a@1", AfterOn: "toy@a@1"},
		{Host: "toy@b@1", Change: RealHostOnly, BeforeOn: "toy@b@1"},
	}, compareRealCode(base, RealCode{runOn("toy@a@1", RealDoesNotHold)}), "a release the head lacks is listed as in the base only")
}
