package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// hostileText holds, in one string, every way case text has tried to
// escape a report: terminal escapes that erase a line and print PASS,
// blank lines, a Markdown heading, link and closing tag, bytes XML
// forbids, C1 controls, a bidirectional override, HTML and CDATA markup,
// bare URLs, table pipes and workflow commands.
const hostileText = "T\x1b[2K\rPASS boundary-desk/fake  all good\x1b[0m" +
	"\n\n## Injected heading\n\n[a link](https://evil.example/)\n</details>\n</pre>\n" +
	"\x00\x01\x07\x08\x0b\x0c\x7f\u0085\u009b31m\ufffe\uffff" +
	" \u202eevil\u202c \u2066x\u2069 \u2028" +
	" <script>alert(1)</script> & \"q\" 'a' ]]> <![CDATA[" +
	" http://evil.example www.evil.example me@evil.example | pipe |" +
	"\r\n::error file=x.json,line=1::injected %0A%25 :,"

// hostileReport is the failing boundary report with every string of its
// cases, claims and provenance replaced by text: a failed case, a
// passing one, an errored one and a claim, each carrying it.
func hostileReport(t testing.TB, text string) *Report {
	t.Helper()
	r := stableReport(t, mutatedDesk(t))
	return withText(r, text)
}

// withText returns a copy of r in which every string that comes from a
// case file or from what a model recorded is text (ids too: a saved
// report.json given to report render is not held to the id pattern).
func withText(base *Report, text string) *Report {
	r := *base
	r.Cases = append([]Case{}, base.Cases...)
	r.Provenance.Files = append([]File{}, base.Provenance.Files...)
	for i := range r.Provenance.Files {
		r.Provenance.Files[i].Path = text + ".json"
	}
	given, _ := json.Marshal(map[string]any{"args": map[string]any{"action": text}, "choices": []string{text}})
	// Every trace ends with an event of the kind that ends the base's
	// first trace (a run's result), holding the text.
	last := ""
	for _, c := range base.Cases {
		if len(c.Trace) > 0 {
			last = c.Trace[len(c.Trace)-1].Kind
			break
		}
	}
	for i := range r.Cases {
		c := &r.Cases[i]
		c.Title, c.Why = text, text
		c.Given = given
		c.SourceRefs = []SourceRef{{Key: text, Source: text}}
		var trace []scenario.Event
		for _, e := range c.Trace {
			trace = append(trace, scenario.Event{Seq: e.Seq, Kind: text, Text: e.Text + text})
		}
		c.Trace = append(trace, scenario.Event{Seq: 0, Kind: last, Text: text})
		var ms []verifier.Mismatch
		for _, m := range c.Mismatches {
			m.Expected, m.Observed = text, map[string]any{"x": text}
			m.Changes = []scenario.Change{{Path: text, Kind: "changed", Expected: text, Observed: text}}
			ms = append(ms, m)
		}
		c.Mismatches = ms
		obs := map[string]any{}
		for k, v := range c.Observed {
			obs[k] = v
		}
		obs["errorIncludes"] = text
		c.Observed = obs
	}
	// One case could not run, with the text as its error.
	for i := range r.Cases {
		if r.Cases[i].Status == verifier.Pass {
			r.Cases[i].Status, r.Cases[i].Error, r.Cases[i].Observed = verifier.Errored, text+"\nsecond line "+text, nil
			r.Summary.Passed--
			r.Summary.Errored++
			break
		}
	}
	r.SourceOnly = append([]Claim{}, base.SourceOnly...)
	for i := range r.SourceOnly {
		r.SourceOnly[i].Claim, r.SourceOnly[i].NotExecuted = text, text
		r.SourceOnly[i].SourceRefs = []SourceRef{{Key: text, Source: text}}
	}
	return &r
}

// withIDs gives every case and claim of r the desk and id text, and the
// files and dimensions the same desk.
func withIDs(r *Report, desk, id string) {
	for i := range r.Cases {
		r.Cases[i].Desk, r.Cases[i].ID = desk, id+strings.Repeat("x", i)
	}
	for i := range r.SourceOnly {
		r.SourceOnly[i].Desk, r.SourceOnly[i].ID = desk, id+strings.Repeat("y", i)
	}
	for i := range r.Provenance.Files {
		r.Provenance.Files[i].Desk = desk
	}
	if r.Dimensions != nil {
		d := *r.Dimensions
		d.Desks = append([]DeskDimensions{}, d.Desks...)
		for i := range d.Desks {
			d.Desks[i].Desk = desk
		}
		r.Dimensions = &d
	}
}

// actingRune reports the first character in s that visible would have
// escaped (line feeds and tabs are fine), or -1.
func actingRune(s string) rune {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return rune(s[i])
		}
		if acts(r, true) {
			return r
		}
		i += size
	}
	return -1
}

// checkWellFormed renders r in every format and checks that each output
// is still a document of its kind, shaped by r and not by the text in it.
// With cmark, the Markdown is also rendered by cmark-gfm when installed.
func checkWellFormed(t *testing.T, r *Report, cmark bool) {
	t.Helper()
	fails := failures(r.Cases)
	out := map[string]string{}
	for _, f := range append(Formats(Text{Verbose: true, Dimensions: true}), Format{Name: "explain", Reporter: Explain{}}, Format{Name: "observe", Reporter: Observe{}}) {
		var buf bytes.Buffer
		require.NoError(t, f.Reporter.Write(&buf, r), f.Name)
		out[f.Name] = buf.String()
	}

	// JSON: valid, the evidence schema holds, and it reads back.
	require.True(t, json.Valid([]byte(out["json"])), "json")
	require.NoError(t, CheckJSON([]byte(out["json"])), "json")

	// SARIF: valid against the published schema, one result per
	// mismatch, and no message text that acts on a terminal.
	checkSARIF(t, []byte(out["sarif"]))
	var log struct {
		Runs []struct {
			Results []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out["sarif"]), &log), "sarif")
	want := 0
	for _, c := range fails {
		want += max(1, len(c.Mismatches))
	}
	assert.Len(t, log.Runs[0].Results, min(want, SARIFResults), "sarif: a result per mismatched key")
	for _, res := range log.Runs[0].Results {
		assert.Equal(t, rune(-1), actingRune(strings.ReplaceAll(res.Message.Text, "\n", " ")), "sarif messages hold no acting character")
	}

	// Text formats: nothing that acts on a terminal, and a line per case
	// that starts with its own status.
	for _, name := range []string{"text", "explain", "observe", "github"} {
		assert.Equal(t, rune(-1), actingRune(out[name]), "%s holds no acting character", name)
	}
	status := map[string]int{}
	for _, line := range strings.Split(out["text"], "\n") {
		for _, w := range []string{"PASS ", "FAIL ", "ERROR ", "NOT EXECUTED "} {
			if strings.HasPrefix(line, w) {
				status[w]++
			}
		}
	}
	assert.Equal(t, map[string]int{"PASS ": r.Summary.Passed, "FAIL ": r.Summary.Failed, "ERROR ": r.Summary.Errored, "NOT EXECUTED ": len(r.SourceOnly)},
		map[string]int{"PASS ": status["PASS "], "FAIL ": status["FAIL "], "ERROR ": status["ERROR "], "NOT EXECUTED ": status["NOT EXECUTED "]}, "text: one line per case, none made by case text")

	// GitHub: every line a well-formed workflow command, but the last.
	lines := strings.Split(strings.TrimSuffix(out["github"], "\n"), "\n")
	command := regexp.MustCompile(`^::(error|warning|notice)( [a-z]+=[^:,]*(,[a-z]+=[^:,]*)*)?::[^\r\n]*$`)
	annotated := 0
	for _, line := range lines[:len(lines)-1] {
		assert.Regexp(t, command, line, "github: a workflow command")
		if strings.HasPrefix(line, "::error file=") {
			annotated++
		}
	}
	assert.Equal(t, min(len(fails), GitHubLimit), annotated, "github: one annotation per failure, within the limit")
	assert.Equal(t, Headline(r), lines[len(lines)-1], "github: the headline closes")

	// JUnit: encoding/xml reads the whole document.
	var suites junitSuites
	require.NoError(t, xml.Unmarshal([]byte(out["junit"]), &suites), "junit")
	dec := xml.NewDecoder(strings.NewReader(out["junit"]))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "junit")
	}
	tests := 0
	for _, s := range suites.Suites {
		tests += len(s.Cases)
	}
	assert.Equal(t, len(r.Cases)+len(r.SourceOnly), tests, "junit: a testcase per case and claim")
	assert.Equal(t, rune(-1), actingRune(out["junit"]), "junit holds no character XML forbids")

	// HTML: parses, a card per failure, no script, no external request.
	root, err := html.Parse(strings.NewReader(out["html"]))
	require.NoError(t, err)
	cards, scripts, external := 0, 0, 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "iframe", "img", "object", "embed":
				scripts++
			case "section":
				if strings.Contains(classOf(n), "card fail") || strings.Contains(classOf(n), "card errored") {
					cards++
				}
			}
			for _, a := range n.Attr {
				if (a.Key == "href" || a.Key == "src") && !strings.HasPrefix(a.Val, "#") {
					external++
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	assert.Equal(t, min(len(fails), FailureCards), cards, "html: a card per failure")
	assert.Zero(t, scripts, "html: no script or embedded content")
	assert.Zero(t, external, "html: no external request")
	assert.Equal(t, rune(-1), actingRune(out["html"]), "html holds no acting character")

	checkMarkdown(t, out["markdown"], min(len(fails), MarkdownFailures), cmark)
}

// mdOwnLine is every line the Markdown page writes outside an HTML
// block: its own headings, the counts table and notes, none with case
// text in them.
var mdOwnLine = regexp.MustCompile(`^(` +
	`## deskcheck: (strength (PASS|FAIL) — [0-9]+ of [0-9]+ (addressed )?faults caught(, [0-9]+ not addressed)? · cases )?(PASS|FAIL) — [0-9]+ passed, [0-9]+ failed(, [0-9]+ errored)?(, [0-9]+ not applicable)?` +
	`|\| cases \| passed \| failed \| errored \| not applicable \| source-only \(not executed\) \||\|---:\|---:\|---:\|---:\|---:\|---:\||\|( [0-9]+ \|){6}` +
	`|### Host releases|### Lessons across hosts` +
	`|## Boundary response|## Boundary coverage|### What failed|### Failures|### Source-only claims \(not executed\)|### Suite strength: [0-9]+ of [0-9]+ (addressed )?faults caught(, [0-9]+ not addressed)?` +
	`|Separate dimensions, not a combined score; n/a = zero denominator\. denial propagation: [a-z ·:]+\.( The figures of each of the [0-9,]+ desks are in ` + "`report.json`" + `\.)?` +
	`|[0-9,]+ of [0-9,]+ failed or errored cases? are shown, the first failure of each file before the second of any; [0-9,]+ more (is|are) not shown here\. ` + "`report.json`" + ` in the report folder holds the evidence of every case\.` +
	`|[0-9,]+ more files? with failures could not fit here; ` + "`report.json`" + ` names them\.` +
	`|[0-9,]+ more (desks? (is|are) not listed|source-only claims? (is|are) in|smaller groups? (is|are) not listed).*` +
	`)$`)

// checkMarkdown reads a Markdown page as CommonMark does at block level:
// a line that starts with <details>, <table> or <p> opens an HTML block
// that lasts to the next blank line, and Markdown reads nothing inside it.
// Every block must close itself before that blank line, every other line
// must be one of the page's own, and the page must hold one failure block
// per failure shown. When cmark-gfm (GitHub's renderer) is installed, the
// page is also rendered and must hold no link and no injected heading.
func checkMarkdown(t *testing.T, md string, failureBlocks int, render bool) {
	t.Helper()
	lines := strings.Split(md, "\n")
	details := 0
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		open := ""
		for _, tag := range []string{"<details>", "<table>", "<p>"} {
			if strings.HasPrefix(line, tag) {
				open = tag
			}
		}
		if open == "" {
			if line != "" {
				assert.Regexp(t, mdOwnLine, line, "markdown: line %d is the page's own", i+1)
			}
			continue
		}
		start := i
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			i++
		}
		last := lines[i-1]
		closer := map[string]string{"<details>": "</details>", "<table>": "</table>", "<p>": "</p>"}[open]
		assert.True(t, strings.HasSuffix(last, closer), "markdown: the block opened on line %d closes itself (%q) before a blank line", start+1, last)
		if open == "<details>" && strings.HasPrefix(lines[start+1], "<summary><b>") {
			details++
		}
	}
	assert.Equal(t, failureBlocks, details, "markdown: one block per failure shown")

	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil || !render {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmark, "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter")
	cmd.Stdin = strings.NewReader(md)
	rendered, err := cmd.Output()
	require.NoError(t, err)
	root, err := html.Parse(bytes.NewReader(rendered))
	require.NoError(t, err)
	counts := map[string]int{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			counts[n.Data]++
			if len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6' {
				assert.NotContains(t, textOf(n), "Injected", "markdown: no heading made by case text")
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	assert.Zero(t, counts["a"], "markdown rendered by cmark-gfm: no link")
	assert.Zero(t, counts["script"], "markdown rendered by cmark-gfm: no script")
	summaries := strings.Count(string(rendered), "<summary><b>")
	assert.Equal(t, failureBlocks, summaries, "markdown rendered by cmark-gfm: one block per failure")
}

// TestHostileCaseText feeds every string field of a case, an errored
// case, a claim and a file name with text that has tried every escape,
// and parses each output.
func TestHostileCaseText(t *testing.T) {
	for _, tt := range []struct {
		name     string
		text     string
		desk, id string
		why      string
	}{
		{"hostile strings", hostileText, "boundary-desk", "case", "every string field of a case carries every escape at once"},
		{"hostile ids", hostileText, hostileText, hostileText, "a saved report.json given to report render may hold any id"},
		{"empty strings", "", "boundary-desk", "case", "an empty title or trace line must not leave a blank line in a Markdown block"},
		{"only newlines", "\n\n\n", "d", "c", "blank lines alone must not end a block"},
		{"invalid UTF-8", "\xff\xfe\xc3", "d\xff", "c\xc3", "bytes that are not UTF-8 are shown as escapes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := hostileReport(t, tt.text)
			withIDs(r, tt.desk, tt.id)
			checkWellFormed(t, r, true)
			var text bytes.Buffer
			require.NoError(t, Text{}.Write(&text, r))
			assert.NotContains(t, text.String(), "\x1b", tt.why)
		})
	}
}

// TestHostileTextShownEscaped: the text is not dropped, it is shown, each
// format in its own way.
func TestHostileTextShownEscaped(t *testing.T) {
	r := hostileReport(t, hostileText)
	for _, tt := range []struct {
		format string
		want   string
		why    string
	}{
		{"text", `T\u001b[2K\rPASS boundary-desk/fake  all good\u001b[0m\n\n## Injected heading`, "the title shows its escape sequences instead of running them"},
		{"text", `\u202eevil\u202c`, "a bidirectional override is shown, not obeyed"},
		{"junit", `\u0000\u0001\u0007\u0008\u000b\u000c\u007f\u0085\u009b31m\ufffe\uffff`, "characters XML forbids are written as escapes"},
		{"junit", `]]]]><![CDATA[>`, "a CDATA end inside a body is split"},
		{"markdown", `<summary><b>FAIL</b> boundary-desk/boundary-deny-one-call — T\u001b[2K\rPASS boundary-desk/fake  all good\u001b[0m\n\n## Injected heading\n\n[a link](https://evil.example/)\n&lt;/details&gt;`, "the summary keeps the title on its line"},
		{"html", `T\u001b[2K\rPASS boundary-desk/fake  all good\u001b[0m\n\n## Injected heading`, "the card title shows the escapes"},
		{"github", `title=FAIL boundary-desk/boundary-deny-one-call%3A T\u001b[2K\rPASS boundary-desk/fake  all good\u001b[0m\n\n## Injected heading\n\n[a link](https%3A//evil.example/)`, "properties escape : and , and show every control"},
		{"github", `\r%0A::error file=x.json,line=1::injected %250A%2525 :,`, "a workflow command in case text stays inside the message, on the command's line"},
	} {
		f, err := Lookup(tt.format, Text{})
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, f.Reporter.Write(&buf, r))
		assert.Contains(t, buf.String(), tt.want, "%s: %s", tt.format, tt.why)
	}
}

// FuzzReportFormats puts arbitrary text in the strings of a failing,
// an errored and a passing case and a claim, and checks that every
// report format stays well-formed.
func FuzzReportFormats(f *testing.F) {
	base := stableReport(f, mutatedDesk(f))
	for _, seed := range []string{"", hostileText, "\n", "\r\n\r\n", "]]>", "</details>\n\n# h", "\x1b]8;;http://e\x07link\x1b]8;;\x07", "\xff", "::error::x", "|", "<!--", "```", "\u0085\u2028\ufeff"} {
		f.Add(seed, seed)
	}
	f.Fuzz(func(t *testing.T, text, id string) {
		r := withText(base, text)
		if id != "" {
			withIDs(r, id, id)
		}
		checkWellFormed(t, r, false)
	})
}
