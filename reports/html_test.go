package reports

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/deskcheck/deskcheck/verifier"
)

// pageFacts is what a reader must find on the page.
type pageFacts struct {
	ids      map[string]bool   // element ids
	text     map[string]string // text of elements with an id
	classes  []string          // class of each case card, in page order
	external []string          // src/href attributes (there must be none)
	scripts  int
}

func readPage(t *testing.T, doc string) pageFacts {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	require.NoError(t, err)
	f := pageFacts{ids: map[string]bool{}, text: map[string]string{}}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.Data == "script" {
				f.scripts++
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "id":
					f.ids[a.Val] = true
					f.text[a.Val] = textOf(n)
					if n.Data == "section" && strings.HasPrefix(a.Val, "case-") {
						f.classes = append(f.classes, classOf(n))
					}
				case "src", "href":
					f.external = append(f.external, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
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

// checkPage asserts that the page shows every case, every claim and the
// counts of r, with failures first.
func checkPage(t *testing.T, r *Report, doc string) {
	t.Helper()
	f := readPage(t, doc)
	for _, c := range r.Cases {
		assert.True(t, f.ids["case-"+c.Desk+"/"+c.ID], "case %s/%s is on the page", c.Desk, c.ID)
	}
	for _, c := range r.SourceOnly {
		assert.True(t, f.ids["claim-"+c.Desk+"/"+c.ID], "claim %s is on the page", c.ID)
		assert.Contains(t, f.text["claim-"+c.Desk+"/"+c.ID], "NOT EXECUTED")
	}
	s := r.Summary
	for id, n := range map[string]int{"count-cases": s.Cases, "count-passed": s.Passed, "count-failed": s.Failed, "count-errored": s.Errored, "count-sourceonly": s.SourceOnly} {
		assert.Equal(t, strconv.Itoa(n), f.text[id], id)
	}
	assert.Equal(t, strings.ToUpper(r.Verdict), f.text["verdict"])
	seenPass := false
	for _, cl := range f.classes {
		if strings.Contains(cl, "pass") {
			seenPass = true
		} else {
			assert.False(t, seenPass, "failures come before passes")
		}
	}
	assert.Empty(t, f.external, "no external request")
	assert.Zero(t, f.scripts, "no script")
}

func TestHTMLPage(t *testing.T) {
	for _, path := range []string{"../cases/boundary-desk.json", mutatedDesk(t)} {
		r := Build(suiteOf(t, path), fixedTime)
		var buf bytes.Buffer
		require.NoError(t, HTML{}.Write(&buf, r))
		checkPage(t, r, buf.String())
	}
}

func TestHTMLMarksMismatchedRows(t *testing.T) {
	r := Build(suiteOf(t, mutatedDesk(t)), fixedTime)
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	assert.Equal(t, 1, strings.Count(buf.String(), `<tr class="mismatch">`))
	assert.Contains(t, buf.String(), `<tr class="mismatch"><td>prompts</td><td>exact</td><td><code>2</code></td><td><code>1</code></td></tr>`)
}

// TestHTMLInChromium loads the page in headless Chromium and checks the
// rendered DOM, then takes a screenshot. Without Chromium the test is
// skipped locally and fails in CI.
func TestHTMLInChromium(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed; .ci/run installs Debian's chromium package")
		}
		t.Skip("chromium is not installed (apt-get install chromium); skipped outside CI")
	}
	dir := t.TempDir()
	r := Build(suiteOf(t, mutatedDesk(t)), fixedTime)
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	require.NoError(t, HTML{}.Write(&buf, r))
	require.NoError(t, os.WriteFile(page, buf.Bytes(), 0o600))

	chrome := func(extra ...string) []byte {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		args := append(ChromiumFlags(filepath.Join(dir, "profile")), extra...)
		args = append(args, "file://"+page)
		out, err := exec.CommandContext(ctx, browser, args...).Output()
		require.NoError(t, err, "chromium %v", extra)
		return out
	}
	checkPage(t, r, string(chrome("--dump-dom")))

	shot := filepath.Join(dir, "report.png")
	chrome("--window-size=1200,1600", "--screenshot="+shot)
	png, err := os.ReadFile(shot)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")), "a PNG screenshot")
	assert.Greater(t, len(png), 10_000, "the screenshot shows a page, not a blank")
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
