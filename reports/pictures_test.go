package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// bundledDesks are the desks of every host family.
var bundledDesks = []string{"../cases/boundary-desk.json", "../cases/gateway-desk.json", "../cases/runner-desk.json", "../cases/household-desk.json"}

// breakDesks copies the bundled desks with one expectation of each changed
// so that its first case fails where its picture draws the expected value
// beside the observed one.
func breakDesks(t testing.TB) []string {
	t.Helper()
	dir := t.TempDir()
	changes := []struct {
		key    string
		change func(map[string]any) bool
	}{
		{"validatedSeries", func(e map[string]any) bool { e["validatedSeries"] = []any{1, 1, 1}; return true }},
		{"decisions", func(e map[string]any) bool {
			d, ok := e["decisions"].([]any)
			if !ok || len(d) < 3 {
				return false
			}
			d[1] = "allow"
			return true
		}},
		{"statuses", func(e map[string]any) bool { e["statuses"] = []any{"ok", "ok"}; return true }},
		{"prompts", func(e map[string]any) bool {
			n, err := e["prompts"].(json.Number).Int64()
			require.NoError(t, err)
			e["prompts"] = n + 2
			return true
		}},
	}
	var out []string
	for _, p := range bundledDesks {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		// Numbers keep their text: a Python host tells 5 from 5.0.
		var desk map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&desk))
	cases:
		for _, c := range desk["cases"].([]any) {
			e, ok := c.(map[string]any)["expected"].(map[string]any)
			if !ok {
				continue
			}
			for _, ch := range changes {
				if _, has := e[ch.key]; has && ch.change(e) {
					break cases
				}
			}
		}
		b, err := json.MarshalIndent(desk, "", "  ")
		require.NoError(t, err)
		path := filepath.Join(dir, filepath.Base(p))
		require.NoError(t, os.WriteFile(path, b, 0o600))
		out = append(out, path)
	}
	return out
}

func findCase(t *testing.T, r *Report, id string) *Case {
	t.Helper()
	for i := range r.Cases {
		if r.Cases[i].Desk+"/"+r.Cases[i].ID == id {
			return &r.Cases[i]
		}
	}
	t.Fatalf("no case %s", id)
	return nil
}

func TestPicturesOfEachHost(t *testing.T) {
	r := Build(suiteOf(t, bundledDesks...), fixedOrigin)
	for _, tt := range []struct {
		id, title, text string
	}{
		{"runner-desk/seed-normal", "Trace by step", "Validated executions attempted, cumulative by step: 1, 2, 2. Blocked or failed requests: 0, 0, 0."},
		{"boundary-desk/boundary-approval-does-not-persist", "Calls", "call 1: resolve → tool_call → resolve → approval → select → execute → return; call 2: resolve → tool_call → resolve → approval → select → throw."},
		{"household-desk/fv-typed-claim", "Attempts by decision", "Attempts by status: ok. Decisions taken: 2 of a budget of 4. Outcome: answered."},
	} {
		t.Run(tt.id, func(t *testing.T) {
			pics := casePictures(findCase(t, r, tt.id), testReg)
			require.Len(t, pics, 1, "a passing case has its run's picture and no mismatch bars")
			assert.Equal(t, tt.title, pics[0].Title)
			assert.Equal(t, tt.text, pics[0].Text)
			assert.Contains(t, string(pics[0].SVG), "<title>"+tt.title+"</title>", "the drawing carries its title")
		})
	}
	gw := casePictures(findCase(t, r, "gateway-desk/"+firstGatewayCase(t, r)), testReg)
	require.Len(t, gw, 1)
	assert.True(t, strings.HasPrefix(gw[0].Text, "Decisions by request: "), gw[0].Text)

	// Every case that ran has a picture, whatever its scenario.
	for i := range r.Cases {
		c := &r.Cases[i]
		pics := casePictures(c, testReg)
		require.NotEmpty(t, pics, "%s/%s (%s) has a picture", c.Desk, c.ID, c.Scenario)
		for _, p := range pics {
			assert.NotEmpty(t, p.Text)
			if p.SVG != "" {
				assert.True(t, strings.HasPrefix(string(p.SVG), `<svg class="pic" role="img"`))
				_, err := html.Parse(strings.NewReader(string(p.SVG)))
				assert.NoError(t, err)
			}
		}
	}
}

func firstGatewayCase(t *testing.T, r *Report) string {
	for _, c := range r.Cases {
		if c.Scenario == "gateway" {
			return c.ID
		}
	}
	t.Fatal("no gateway case")
	return ""
}

// TestPicturesDrawExpectedBesideObserved: a failing case's picture shows
// the expected value drawn with the observed one, in marks and in words.
func TestPicturesDrawExpectedBesideObserved(t *testing.T) {
	r := Build(suiteOf(t, breakDesks(t)...), fixedOrigin)
	want := map[string][]string{
		"runner":    {"Expected validated: 1, 1, 1.", `class="s-exp hollow"`},
		"gateway":   {"Expected decisions: ", `class="exp stroke"`},
		"household": {"Expected statuses: ok, ok.", `class="exp"`},
		"wrapper":   {"Counts that differ: ", "prompts expected "},
	}
	seen := map[string]bool{}
	for i := range r.Cases {
		c := &r.Cases[i]
		if c.Status != verifier.Fail {
			continue
		}
		var all strings.Builder
		for _, p := range casePictures(c, testReg) {
			all.WriteString(p.Text)
			all.WriteString(string(p.SVG))
		}
		for _, w := range want[c.Scenario] {
			assert.Contains(t, all.String(), w, "%s/%s", c.Desk, c.ID)
		}
		seen[c.Scenario] = true
	}
	for sc := range want {
		assert.True(t, seen[sc], "a %s case failed", sc)
	}
}

// TestPicturesAreBounded: a run of thousands of steps draws a bounded
// picture and says how much it left out.
func TestPicturesAreBounded(t *testing.T) {
	long := make([]any, 5000)
	for i := range long {
		long[i] = float64(i)
	}
	c := &Case{Scenario: "runner", Status: verifier.Pass, Observed: map[string]any{"validatedSeries": long, "blockedSeries": long}}
	pics := casePictures(c, testReg)
	require.Len(t, pics, 1)
	assert.Contains(t, pics[0].Text, "The first 24 of 5000 steps are drawn.")
	assert.Contains(t, pics[0].Text, "23 … (5000 in all)")
	assert.Less(t, len(pics[0].SVG)+len(pics[0].Text), 16000)

	var trace []scenario.Event
	for i := 1; i <= 3000; i++ {
		trace = append(trace, scenario.Event{Seq: i, Kind: "resolve"}, scenario.Event{Seq: i, Kind: "outcome", Text: "return"})
	}
	c = &Case{Scenario: "wrapper", Unit: "call", Status: verifier.Pass, Trace: trace}
	pics = casePictures(c, testReg)
	require.Len(t, pics, 1)
	assert.Contains(t, pics[0].Text, "The first 24 of 3000 are drawn.")
	assert.Less(t, len(pics[0].SVG)+len(pics[0].Text), 16000)
}

// TestPicturesEscapeCaseText: text from a case reaches the drawing only
// escaped.
func TestPicturesEscapeCaseText(t *testing.T) {
	hostile := `</title></svg><script>alert(1)</script>`
	c := &Case{Scenario: "gateway", Status: verifier.Fail, Expected: json.RawMessage(`{"decisions":["` + strings.ReplaceAll(hostile, `"`, `\"`) + `"],"prompts":1}`),
		Observed:   map[string]any{"decisions": []any{hostile}, "prompts": float64(2)},
		Mismatches: []verifier.Mismatch{{Field: "decisions"}, {Field: "prompts"}}}
	pics := casePictures(c, testReg)
	require.Len(t, pics, 2)
	for _, p := range pics {
		assert.NotContains(t, string(p.SVG), "<script")
		assert.NotContains(t, string(p.SVG), "</title></svg>")
	}
	var buf bytes.Buffer
	require.NoError(t, htmlTemplate.ExecuteTemplate(&buf, "card", htmlCase{C: c, Status: "FAIL", Pictures: pics}))
	assert.NotContains(t, buf.String(), "<script")
}

// TestDimensionBars: a k-of-n figure is a bar k/n full; n/a has no bar.
func TestDimensionBars(t *testing.T) {
	_, rows := dimensionTable(&Boundary{Suite: verifier.Dimensions{
		DenialPropagation: verifier.Dimension{Numerator: 3, Denominator: 4, Applicable: true},
		AllowedWork:       verifier.Dimension{Numerator: 0, Denominator: 5, Applicable: true},
	}})
	byKey := map[string]dimensionCell{}
	for _, r := range rows {
		byKey[r.Key] = r.Cells[0]
	}
	assert.Equal(t, dimensionCell{Text: "3/4", Applicable: true, Bar: true, Numerator: 3, Denominator: 4, Fill: 37}, byKey["denialPropagation"])
	assert.Equal(t, dimensionCell{Text: "0/5", Applicable: true, Bar: true, Numerator: 0, Denominator: 5}, byKey["allowedWork"])
	assert.Equal(t, dimensionCell{Text: "n/a"}, byKey["failClosed"], "n/a is said, never drawn as a bar")
	assert.False(t, byKey["extraEffects"].Bar, "a count is not a fraction")
}

// TestPicturesInChromium loads the bundled report and a failing one in
// headless Chromium and finds every card's picture with its text
// equivalent, and the dimension bars; with -keep it leaves screenshots of
// the pictures there (the README's come from
// go test ./reports -run TestPicturesInChromium -keep "$PWD/docs/pictures").
func TestPicturesInChromium(t *testing.T) {
	bin := browser(t)
	for _, tt := range []struct {
		name  string
		paths []string
	}{
		{"bundled", bundledDesks},
		{"failing", breakDesks(t)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := Build(suiteOf(t, tt.paths...), fixedOrigin)
			var buf bytes.Buffer
			require.NoError(t, HTML{}.Write(&buf, r))
			page := filepath.Join(dir, "report.html")
			require.NoError(t, os.WriteFile(page, buf.Bytes(), 0o600))
			out, _ := chrome(t, bin, dir, page, "--dump-dom")
			root, err := html.Parse(bytes.NewReader(out))
			require.NoError(t, err)
			pics, captions, bars, grids := 0, 0, 0, 0
			var walk func(n *html.Node)
			walk = func(n *html.Node) {
				if n.Type == html.ElementNode {
					cls := attr(n, "class")
					switch {
					case n.Data == "svg" && cls == "pic":
						pics++
						require.NotNil(t, n.FirstChild, "a picture has content")
						assert.Equal(t, "title", n.FirstChild.Data, "a picture's first child is its title")
						assert.NotEmpty(t, textOf(n.FirstChild))
					case n.Data == "figcaption" && attr(n.Parent.Parent, "class") == "pics":
						captions++
						assert.NotEmpty(t, textOf(n))
					case n.Data == "svg" && cls == "pic grid":
						grids++
						assert.Equal(t, "title", n.FirstChild.Data, "a grid's first child is its title")
					case n.Data == "svg" && cls == "dimbar":
						bars++
					}
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c)
				}
			}
			walk(root)
			want := 0
			for i := range r.Cases {
				want += len(casePictures(&r.Cases[i], testReg))
			}
			assert.Equal(t, want, pics, "every picture is on the page")
			assert.Equal(t, want, captions, "every picture has its text beside it")
			assert.Positive(t, bars, "the dimensions are drawn as bars")
			assert.Positive(t, grids, "the coverage is drawn as a grid")
			if tt.name == "failing" {
				gallery := filepath.Join(dir, "pictures.html")
				require.NoError(t, os.WriteFile(gallery, galleryPage(t, buf.String()), 0o600))
				screenshot(t, bin, dir, gallery, "pictures.png", 900, 1500)
				dims := filepath.Join(dir, "dimensions.html")
				require.NoError(t, os.WriteFile(dims, sectionPage(t, buf.String(), `<section class="boundary"`, `</section>`), 0o600))
				screenshot(t, bin, dir, dims, "dimensions.png", 1100, 400)
				cov := filepath.Join(dir, "coverage.html")
				require.NoError(t, os.WriteFile(cov, sectionPage(t, buf.String(), `<section class="coverage"`, `</section>`), 0o600))
				screenshot(t, bin, dir, cov, "coverage.png", 1000, 900)
			}
		})
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// galleryPage is the report's head and its failure cards' titles and
// pictures, for a screenshot of what the pictures look like.
func galleryPage(t *testing.T, page string) []byte {
	t.Helper()
	head := page[:strings.Index(page, "<body>")+len("<body>")]
	var b strings.Builder
	b.WriteString(head + "<main>")
	rest := page[strings.Index(page, `<section id="failures">`):strings.Index(page, `<section id="passing">`)]
	for _, card := range strings.Split(rest, `<section class="card`)[1:] {
		h3 := card[strings.Index(card, "<h3>") : strings.Index(card, "</h3>")+len("</h3>")]
		i := strings.Index(card, `<figure class="pics">`)
		if i < 0 {
			continue
		}
		j := strings.Index(card[i:], "</figure>") + i + len("</figure>")
		b.WriteString(`<section class="card fail">` + h3 + card[i:j] + "</section>")
	}
	b.WriteString("</main></body></html>")
	return []byte(b.String())
}

// sectionPage is the report's head and one section of it.
func sectionPage(t *testing.T, page, start, end string) []byte {
	t.Helper()
	head := page[:strings.Index(page, "<body>")+len("<body>")]
	i := strings.Index(page, start)
	require.GreaterOrEqual(t, i, 0)
	j := strings.Index(page[i:], end) + i + len(end)
	return []byte(head + "<main>" + page[i:j] + "</main></body></html>")
}

// TestPicturesOfASavedReport: a report read back from report.json is drawn
// as the run drew it when the HTML reporter is given the registry, and
// without the runs' pictures (its tables and mismatch bars stay) when it
// is not.
func TestPicturesOfASavedReport(t *testing.T) {
	r := stableReport(t, mutatedDesk(t))
	var saved, direct, given, without bytes.Buffer
	require.NoError(t, JSON{}.Write(&saved, r))
	require.NoError(t, HTML{}.Write(&direct, r))
	back, err := ReadJSON(saved.Bytes())
	require.NoError(t, err)
	require.NoError(t, HTML{Registry: testReg}.Write(&given, back))
	require.NoError(t, HTML{}.Write(&without, back))
	assert.Equal(t, direct.String(), given.String())
	assert.Contains(t, direct.String(), "<title>Calls</title>")
	assert.NotContains(t, without.String(), "<title>Calls</title>")
	assert.Contains(t, without.String(), "<title>Expected against observed</title>")

	// A scenario the registry does not know draws no picture of the run.
	var failed *Case
	for i := range back.Cases {
		if back.Cases[i].Status == verifier.Fail {
			failed = &back.Cases[i]
			break
		}
	}
	require.NotNil(t, failed)
	require.Len(t, casePictures(failed, testReg), 2, "the run's picture and the mismatch bars")
	failed.Scenario = "no-such-scenario"
	pics := casePictures(failed, testReg)
	require.Len(t, pics, 1)
	assert.Equal(t, "Expected against observed", pics[0].Title)
}
