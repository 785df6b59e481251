package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/deskcheck/deskcheck/verifier"
)

// keep, when set, is a folder the browser tests leave their pages and
// screenshots in, to look at.
var keep = flag.String("keep", "", "leave the pages and screenshots of the browser tests in this folder")

// pageFacts is what a reader must find on the page.
type pageFacts struct {
	ids      map[string]bool   // element ids
	text     map[string]string // text of elements with an id
	order    []string          // ids of sections and tables, in page order
	cards    []string          // ids of case cards, in page order
	classes  []string          // class of each case card, in page order
	links    []string          // fragment links (#...)
	external []string          // src/href attributes that leave the page (there must be none)
	scripts  int
	details  map[string]bool // ids of elements inside a <details>
}

func readPage(t *testing.T, doc string) pageFacts {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	require.NoError(t, err)
	f := pageFacts{ids: map[string]bool{}, text: map[string]string{}, details: map[string]bool{}}
	var walk func(n *html.Node, inDetails bool)
	walk = func(n *html.Node, inDetails bool) {
		if n.Type == html.ElementNode {
			if n.Data == "script" {
				f.scripts++
			}
			if n.Data == "details" {
				inDetails = true
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "id":
					f.ids[a.Val] = true
					f.text[a.Val] = textOf(n)
					if inDetails {
						f.details[a.Val] = true
					}
					if n.Data == "section" || n.Data == "table" || n.Data == "details" {
						f.order = append(f.order, a.Val)
					}
					if n.Data == "section" && strings.HasPrefix(a.Val, "case-") {
						f.cards = append(f.cards, strings.TrimPrefix(a.Val, "case-"))
						f.classes = append(f.classes, classOf(n))
					}
				case "src", "href":
					if strings.HasPrefix(a.Val, "#") {
						f.links = append(f.links, a.Val)
					} else {
						f.external = append(f.external, a.Val)
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inDetails)
		}
	}
	walk(root, false)
	return f
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

func classOf(n *html.Node) string {
	for _, a := range n.Attr {
		if a.Key == "class" {
			return a.Val
		}
	}
	return ""
}

// index is the position of id in the page order, or -1.
func (f pageFacts) index(id string) int {
	for i, x := range f.order {
		if x == id {
			return i
		}
	}
	return -1
}

// checkPage asserts what every page of r must show: the verdicts and
// counts, a card for each failure up to FailureCards (failures first), the
// passing cases as cards or rows, every claim, sections in summary-first
// order, links that all land on the page, and no script or external
// request.
func checkPage(t *testing.T, r *Report, doc string) {
	t.Helper()
	f := readPage(t, doc)
	fails := failures(r.Cases)
	for i, c := range fails {
		assert.Equal(t, i < FailureCards, f.ids["case-"+c.Desk+"/"+c.ID], "failure %s/%s has a card exactly when it is among the first %d", c.Desk, c.ID, FailureCards)
	}
	passed := 0
	for _, c := range r.Cases {
		if c.Status == verifier.Pass {
			passed++
			assert.Equal(t, passed <= PassingRows, f.ids["case-"+c.Desk+"/"+c.ID], "passing case %s/%s is listed within the cap", c.Desk, c.ID)
		}
	}
	for _, c := range r.SourceOnly {
		assert.True(t, f.ids["claim-"+c.Desk+"/"+c.ID], "claim %s is on the page", c.ID)
		assert.Contains(t, f.text["claim-"+c.Desk+"/"+c.ID], "NOT EXECUTED")
	}
	s := r.Summary
	for id, n := range map[string]int{"count-cases": s.Cases, "count-passed": s.Passed, "count-failed": s.Failed, "count-errored": s.Errored, "count-sourceonly": s.SourceOnly} {
		assert.Equal(t, verifier.Thousands(n), f.text[id], id)
	}
	assert.Equal(t, strings.ToUpper(r.Verdict), f.text["verdict"])
	assert.Equal(t, Headline(r), f.text["headline"])
	seenPass := false
	for _, cl := range f.classes {
		if strings.Contains(cl, "pass") {
			seenPass = true
		} else {
			assert.False(t, seenPass, "failures come before passes")
		}
	}
	order := []string{"summary", "desks", "boundary-response", "failures", "passing", "source-only"}
	if r.Strength != nil {
		order = []string{"summary", "desks", "strength", "boundary-response", "failures", "passing", "source-only"}
	}
	last := -1
	for _, id := range order {
		i := f.index(id)
		require.GreaterOrEqual(t, i, 0, "section %s is on the page", id)
		assert.Greater(t, i, last, "section %s comes after the one before it in %v", id, order)
		last = i
	}
	if len(fails) > 0 {
		assert.True(t, f.ids["first-failure"], "the summary shows the first failure")
		assert.Less(t, f.index("first-failure"), f.index("boundary-response"))
	}
	assert.True(t, f.details["provenance"] || f.ids["provenance"] && strings.Contains(doc, `<details class="provenance" id="provenance">`), "provenance is folded")
	for _, l := range f.links {
		target, err := url.PathUnescape(l[1:])
		require.NoError(t, err)
		assert.True(t, f.ids[target], "link %s lands on the page", l)
	}
	assert.Empty(t, f.external, "no external request")
	assert.Zero(t, f.scripts, "no script")
}

func TestHTMLPage(t *testing.T) {
	for _, r := range []*Report{
		stableReport(t, "../cases/boundary-desk.json"),
		stableReport(t, mutatedDesk(t)),
		withStrength(t),
	} {
		var buf bytes.Buffer
		require.NoError(t, HTML{}.Write(&buf, r))
		checkPage(t, r, buf.String())
	}
}

func TestHTMLMarksMismatchedRows(t *testing.T) {
	r := Build(suiteOf(t, mutatedDesk(t)), fixedOrigin)
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	assert.Equal(t, 1, strings.Count(buf.String(), `<tr class="mismatch">`))
	assert.Contains(t, buf.String(), `<tr class="mismatch"><td>prompts</td><td>exact</td><td><code>2</code></td><td><code>1</code></td></tr>`)
}

// TestHTMLHeadlineStatesBothVerdicts: a strength run whose cases all pass
// but whose faults are not all caught must not read as a pass.
func TestHTMLHeadlineStatesBothVerdicts(t *testing.T) {
	strength := withStrength(t)
	require.Less(t, strength.Strength.Caught, strength.Strength.Faults, "the bundled desk misses faults")
	for _, tt := range []struct {
		name     string
		report   *Report
		headline string
		badges   string
		why      string
	}{
		{"cases only", stableReport(t, "../cases/boundary-desk.json"), "PASS — 15 passed, 0 failed",
			`<h1>deskcheck report <span class="verdict pass" id="verdict">PASS</span> </h1>`, "without a strength run the cases' verdict is the only one"},
		{"strength missed", strength, fmt.Sprintf("strength FAIL — %d of %d faults caught · cases PASS — 15 passed, 0 failed", strength.Strength.Caught, strength.Strength.Faults),
			`<h1>deskcheck report <span class="vname">strength</span> <span class="verdict fail" id="strength-verdict">FAIL</span> <span class="vname">cases</span> <span class="verdict pass" id="verdict">PASS</span> </h1>`,
			"missed faults fail the strength verdict, stated first"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, HTML{}.Write(&buf, tt.report))
			page := buf.String()
			assert.Equal(t, tt.headline, Headline(tt.report), tt.why)
			assert.Contains(t, page, tt.badges, tt.why)
			assert.Contains(t, page, "<title>deskcheck report — "+tt.headline+"</title>", tt.why)
			if tt.report.Strength != nil {
				assert.Contains(t, page, `<header class="fail">`, "the page's colour follows the failing verdict")
			}
		})
	}
}

// TestHTMLAtScale: 100 desks of 1,000 cases with 5,000 failures make a
// page that starts with its summary, groups the failures, caps the cards
// and stays under 2 MB.
func TestHTMLAtScale(t *testing.T) {
	r := scaleReport(t, 100, 1000, 50)
	require.Equal(t, 5000, r.Summary.Failed)
	var buf bytes.Buffer
	start := time.Now()
	require.NoError(t, HTML{}.Write(&buf, r))
	t.Logf("100,000 cases, 5,000 failures: %d bytes of HTML in %v", buf.Len(), time.Since(start))
	page := buf.String()
	assert.Less(t, buf.Len(), 2<<20, "under 2 MB")
	checkPage(t, r, page)
	f := readPage(t, page)
	assert.Len(t, f.cards, FailureCards, "200 failure cards")
	assert.Equal(t, PassingRows, strings.Count(page, `<tr id="case-`), "the first 2,000 passing cases as rows")
	assert.Contains(t, f.text["more-failures"], "4,800 more failed or errored cases are not shown as cards")
	assert.Equal(t, PictureCards, strings.Count(page, `<figure class="pics">`), "the first cards are drawn")
	assert.Contains(t, page, `<svg class="pic grid"`, "the coverage grid is drawn")
	assert.Contains(t, f.text["undrawn"], "The pictures of the first 100 cards are drawn; 100 more cards show their tables and traces only.")
	assert.Contains(t, page, "<td><code>effects</code> mismatched in 5,000 cases</td>", "mass failures are grouped")
	assert.Equal(t, 100, strings.Count(page, `<tr id="desk-`), "a row per desk")
	assert.Equal(t, 100, strings.Count(page, `<a href="#desk-`), "a column per desk in the chart")
	assert.Contains(t, page, `<tr id="desk-generated-0099" class="bad"><td>generated-0099</td><td><code>desks/generated-0099.json</code></td><td class="num">1000</td><td class="num">950</td><td class="num">50</td><td class="num">0</td><td><code>case-0099000</code>, <code>case-0099001</code>`,
		"a desk whose failures have no card lists them unlinked")
	assert.Contains(t, page, `<td><a href="#case-generated-0000/case-0000000"><code>case-0000000</code></a>, `, "failed ids with a card are linked")
}

func TestHTMLCompactsManyPassingCases(t *testing.T) {
	r := stableReport(t, "../cases/boundary-desk.json")
	base := r.Cases
	r.Cases = nil
	for i := 0; i < PassingCards+2; i++ {
		c := base[i%len(base)]
		c.ID = fmt.Sprintf("%s-%d", c.ID, i)
		r.Cases = append(r.Cases, c)
	}
	r.Cases[3].Status = verifier.Fail
	r.Summary = verifier.Summary{Cases: len(r.Cases), Passed: len(r.Cases) - 1, Failed: 1, SourceOnly: r.Summary.SourceOnly}
	r.Verdict = "fail"
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	checkPage(t, r, buf.String())
	f := readPage(t, buf.String())
	assert.Len(t, f.classes, 1, "only the failure is a card")
	assert.Equal(t, "card fail", f.classes[0])
	assert.Contains(t, buf.String(), "501 cases passed; the expected block")
}

// browser finds headless Chromium: skipped without it locally, a failure
// in CI.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed; .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium is not installed (apt-get install chromium); skipped outside CI")
	return ""
}

// chrome runs headless Chromium on page with extra flags and returns its
// standard output and the processor time it used.
func chrome(t *testing.T, bin, dir, page string, extra ...string) ([]byte, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append(ChromiumFlags(filepath.Join(dir, "profile")), extra...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	start := time.Now()
	out, err := cmd.Output()
	require.NoError(t, err, "chromium %v", extra)
	return out, processorTime(cmd.ProcessState, time.Since(start))
}

// screenshot takes a PNG of page at width×height and checks that it shows
// something.
func screenshot(t *testing.T, bin, dir, page, name string, width, height int) {
	t.Helper()
	shot := filepath.Join(dir, name)
	chrome(t, bin, dir, page, fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+shot)
	png, err := os.ReadFile(shot)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")), "a PNG screenshot")
	assert.Greater(t, len(png), 10_000, "the screenshot shows a page, not a blank")
	if *keep != "" {
		require.NoError(t, os.MkdirAll(*keep, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(*keep, name), png, 0o644))
	}
}

// TestHTMLInChromium loads the page in headless Chromium and checks the
// rendered DOM, then takes a screenshot.
func TestHTMLInChromium(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()
	r := Build(suiteOf(t, mutatedDesk(t)), fixedOrigin)
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	require.NoError(t, os.WriteFile(page, buf.Bytes(), 0o600))
	out, _ := chrome(t, bin, dir, page, "--dump-dom")
	checkPage(t, r, string(out))
	screenshot(t, bin, dir, page, "report.png", 1200, 1600)
}

// probe is a script the test adds to a copy of the page (the report itself
// has none): once the page is parsed it lays it out and records where the
// summary's parts are and how long loading took.
const probe = `<script>
(function () {
  function box(id) { var e = document.getElementById(id); if (!e) return null; var r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }
  var facts = {viewport: window.innerHeight, desks: box("desks-box"), first: box("first-failure"), ms: performance.now()};
  var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = JSON.stringify(facts); document.body.appendChild(pre);
})();
</script>
</body>`

// TestHTMLAtScaleInChromium renders the page of 100 files and 5,000
// failures in Chromium at 1280×800: the first screen shows the whole desks
// box and the first failure, and the page is parsed and laid out in a few
// seconds of processor time. The measure is the processor time of a
// Chromium that runs in one process (renderer included) on the page, less
// that of the same Chromium on a blank page in the same test: the
// machine's other work, which moves wall time, does not move it.
func TestHTMLAtScaleInChromium(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()
	r := scaleReport(t, 100, 1000, 50)
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	require.Less(t, buf.Len(), 2<<20, "under 2 MB")
	page := filepath.Join(dir, "report.html")
	require.NoError(t, os.WriteFile(page, buf.Bytes(), 0o600))
	probed := filepath.Join(dir, "probed.html")
	require.NoError(t, os.WriteFile(probed, []byte(strings.Replace(buf.String(), "</body>", probe, 1)), 0o600))
	blank := filepath.Join(dir, "blank.html")
	require.NoError(t, os.WriteFile(blank, []byte(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body><p>blank</p></body></html>`), 0o600))

	oneProcess := []string{"--single-process", "--no-zygote", "--window-size=1280,800", "--dump-dom"}
	_, idle := chrome(t, bin, dir, blank, oneProcess...)
	out, busy := chrome(t, bin, dir, probed, oneProcess...)
	f := readPage(t, string(out))
	var facts struct {
		Viewport float64
		Desks    *struct{ Top, Bottom float64 }
		First    *struct{ Top, Bottom float64 }
		MS       float64
	}
	require.NoError(t, json.Unmarshal([]byte(f.text["probe"]), &facts), f.text["probe"])
	require.NotNil(t, facts.Desks)
	require.NotNil(t, facts.First)
	t.Logf("page %d bytes; Chromium used %v of processor time on it and %v on a blank page; laid out %.0f ms after navigation; viewport %v, desks box %v–%v, first failure %v–%v",
		buf.Len(), busy.Round(time.Millisecond), idle.Round(time.Millisecond), facts.MS, facts.Viewport, facts.Desks.Top, facts.Desks.Bottom, facts.First.Top, facts.First.Bottom)
	assert.LessOrEqual(t, facts.Desks.Bottom, facts.Viewport, "the desks table is on the first screen")
	assert.LessOrEqual(t, facts.First.Bottom, facts.Viewport, "the first failure is on the first screen")
	assert.Less(t, busy-idle, 4*time.Second, "parsed and laid out in a few seconds of processor time")
	if *keep != "" {
		require.NoError(t, os.MkdirAll(*keep, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(*keep, "scale.html"), buf.Bytes(), 0o644))
	}
	screenshot(t, bin, dir, page, "scale.png", 1280, 800)
}

// ChromiumFlags are the flags that let headless Chromium load a report page
// on a machine with no network and no display: no sandbox (root in CI), no
// GPU, and none of the background connections that would stall on a closed
// network. profile is a new, empty user-data folder.
func ChromiumFlags(profile string) []string {
	return []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile,
	}
}
