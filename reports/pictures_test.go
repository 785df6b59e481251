package reports

import (
	"bytes"
	"encoding/json"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// bundledDesks are the desks of the bundled suite, every family's.
var bundledDesks = func() []string {
	var out []string
	for _, d := range all.Desks() {
		out = append(out, "../"+d.Path)
	}
	return out
}()

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

// drawingOf is the drawing c's scenario declares of its run, as the
// registry's scenario returns it.
func drawingOf(t *testing.T, c *Case) *scenario.Drawing {
	t.Helper()
	sc, _, ok := testReg.Lookup(c.Scenario)
	require.True(t, ok, c.Scenario)
	require.NotNil(t, sc.Picture, c.Scenario)
	var expected map[string]any
	if c.Status == verifier.Fail {
		require.NoError(t, json.Unmarshal(c.Expected, &expected))
	}
	return sc.Picture(scenario.Seen{Observed: c.Observed, Expected: expected, Trace: c.Trace, Unit: c.Unit})
}

// shapeOf names the shape a drawing draws; "" for its text alone.
func shapeOf(d *scenario.Drawing) string {
	switch {
	case d.Lanes != nil:
		return "lanes"
	case d.Series != nil:
		return "series"
	case d.Sequence != nil:
		return "sequence"
	case d.Strip != nil:
		return "strip"
	}
	return ""
}

// TestPicturesOfEveryScenario: every case of the bundled suite that ran
// has a picture, the drawing its scenario declares, titled and said in
// words as the scenario says, and drawn in the shape it names; the suite
// draws every shape.
func TestPicturesOfEveryScenario(t *testing.T) {
	r := Build(suiteOf(t, bundledDesks...), fixedOrigin)
	scenarios, shapes := map[string]bool{}, map[string]bool{}
	for i := range r.Cases {
		c := &r.Cases[i]
		pics := casePictures(c, testReg)
		require.NotEmpty(t, pics, "%s/%s (%s) has a picture", c.Desk, c.ID, c.Scenario)
		if c.Status == verifier.Pass {
			require.Len(t, pics, 1, "%s/%s: a passing case has its run's picture and no mismatch bars", c.Desk, c.ID)
		}
		d := drawingOf(t, c)
		require.NotNil(t, d, "%s/%s (%s) is drawn", c.Desk, c.ID, c.Scenario)
		assert.Equal(t, d.Title, pics[0].Title)
		assert.Equal(t, d.Text, pics[0].Text)
		shape := shapeOf(d)
		shapes[shape] = true
		scenarios[c.Scenario] = true
		if shape == "" {
			assert.Empty(t, pics[0].SVG, "%s/%s: a drawing without a shape is its text alone", c.Desk, c.ID)
		}
		for _, p := range pics {
			assert.NotEmpty(t, p.Text)
			if p.SVG != "" {
				assert.True(t, strings.HasPrefix(string(p.SVG), `<svg class="pic" role="img"`))
				assert.Contains(t, string(p.SVG), "<title>"+html.EscapeString(p.Title)+"</title>", "the drawing carries its title")
				_, err := html.Parse(strings.NewReader(string(p.SVG)))
				assert.NoError(t, err)
			}
		}
	}
	for _, name := range testReg.Names() {
		assert.True(t, scenarios[name], "a bundled case of %s is drawn", name)
	}
	for _, shape := range []string{"lanes", "series", "sequence", "strip"} {
		assert.True(t, shapes[shape], "a bundled case is drawn as %s", shape)
	}
}

// TestPicturesDrawExpectedBesideObserved: a failing case's picture shows
// the expected value drawn with the observed one, in marks and in words,
// and the counts it got wrong as bars.
func TestPicturesDrawExpectedBesideObserved(t *testing.T) {
	r := Build(suiteOf(t, breakDesks(t)...), fixedOrigin)
	beside, bars := map[string]bool{}, 0
	exp := regexp.MustCompile(`class="(s-)?exp( |")`)
	for i := range r.Cases {
		c := &r.Cases[i]
		if c.Status != verifier.Fail {
			continue
		}
		var expected map[string]any
		require.NoError(t, json.Unmarshal(c.Expected, &expected))
		with, without := draw(c, expected, testReg), draw(c, nil, testReg)
		require.NotNil(t, with, "%s/%s", c.Desk, c.ID)
		require.NotNil(t, without, "%s/%s", c.Desk, c.ID)
		pics := casePictures(c, testReg)
		assert.Equal(t, *with, pics[0], "%s/%s: the run's picture is drawn with the expected block", c.Desk, c.ID)
		if with.Text != without.Text && with.SVG != "" {
			beside[c.Scenario] = true
			assert.NotEqual(t, with.SVG, without.SVG, "%s/%s: what the words say expected is drawn", c.Desk, c.ID)
			assert.Regexp(t, exp, string(with.SVG), "%s/%s: in the marks of the expected", c.Desk, c.ID)
			assert.NotRegexp(t, exp, string(without.SVG), "%s/%s", c.Desk, c.ID)
		}
		for _, p := range pics[1:] {
			bars++
			assert.Equal(t, "Expected against observed", p.Title)
			assert.Regexp(t, `^Counts that differ: [^ ]+ expected \d+, observed \d+`, p.Text)
		}
	}
	assert.GreaterOrEqual(t, len(beside), 3, "the pictures of several scenarios draw the expected beside the observed: %v", beside)
	assert.Positive(t, bars, "a count that differs is drawn as bars")
}

// TestShapesDrawTheExpectedMark: each shape draws a mark of the expected
// tone in the page's class for it, and its shape's mark.
func TestShapesDrawTheExpectedMark(t *testing.T) {
	row := []scenario.Row{{Label: "seen", Marks: []scenario.Placed{{At: 1, Mark: scenario.Cross, Tone: scenario.Expected, Letter: "E"}}}}
	assert.Contains(t, string(drawSeries("t", &scenario.Series{Lines: []scenario.Line{{Name: "expected", Tone: scenario.Expected, Mark: scenario.Ring, Values: []int{1, 1, 1}}}})), `class="s-exp hollow"`)
	assert.Contains(t, string(drawSequence("t", &scenario.Sequence{Rows: row})), `class="exp stroke"`)
	row[0].Marks[0].Mark = scenario.Circle
	assert.Contains(t, string(drawStrip("t", &scenario.Strip{Cells: 2, Rows: row})), `class="exp"`)
}

// TestPicturesAreBounded: a run of thousands of units draws a bounded
// picture in every shape.
func TestPicturesAreBounded(t *testing.T) {
	const n = 5000
	long := make([]int, n)
	marks := make([]scenario.Placed, n)
	lanes := make(scenario.Lanes, n)
	for i := range long {
		long[i] = i
		marks[i] = scenario.Placed{At: i + 1, Mark: scenario.Circle, Tone: scenario.Good, Letter: "a"}
		lanes[i] = scenario.Lane{Label: "u", Steps: make([]scenario.Step, 2), End: scenario.EndsWell}
	}
	for name, svg := range map[string]template.HTML{
		"series":   drawSeries("t", &scenario.Series{Lines: []scenario.Line{{Name: "a", Values: long}, {Name: "b", Values: long}}}),
		"sequence": drawSequence("t", &scenario.Sequence{Rows: []scenario.Row{{Label: "r", Marks: marks}}, Bars: long}),
		"strip":    drawStrip("t", &scenario.Strip{Cells: n, Rows: []scenario.Row{{Label: "r", Marks: marks}}, Rules: []scenario.Rule{{At: n / 2}}}),
		"lanes":    drawLanes("t", lanes),
	} {
		assert.NotEmpty(t, svg, name)
		assert.Less(t, len(svg), 16000, name)
	}
	long2 := drawLanes("t", scenario.Lanes{{Label: "u", Steps: make([]scenario.Step, n)}})
	assert.Equal(t, scenario.LaneSteps, strings.Count(string(long2), `class="step`), "a lane draws its first steps only")
}

// TestPicturesEscapeCaseText: text from a case reaches the drawing only
// escaped: every bundled case's run, with every string it observed and
// every event's text made hostile, is drawn without markup of its own.
func TestPicturesEscapeCaseText(t *testing.T) {
	hostile := `</title></svg><script>alert(1)</script>`
	var spoil func(v any) any
	spoil = func(v any) any {
		switch x := v.(type) {
		case string:
			return hostile
		case []any:
			out := make([]any, len(x))
			for i := range x {
				out[i] = spoil(x[i])
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = spoil(e)
			}
			return out
		}
		return v
	}
	r := Build(suiteOf(t, breakDesks(t)...), fixedOrigin)
	drawn := 0
	for i := range r.Cases {
		c := r.Cases[i]
		c.Observed = spoil(c.Observed).(map[string]any)
		c.Trace = slices.Clone(c.Trace)
		for k := range c.Trace {
			c.Trace[k].Text = hostile
		}
		pics := casePictures(&c, testReg)
		for _, p := range pics {
			drawn++
			assert.NotContains(t, string(p.SVG), "<script", "%s/%s", c.Desk, c.ID)
			assert.NotContains(t, string(p.SVG), "</title></svg>", "%s/%s", c.Desk, c.ID)
		}
		var buf bytes.Buffer
		require.NoError(t, htmlTemplate.ExecuteTemplate(&buf, "card", htmlCase{C: &c, Status: "FAIL", Pictures: pics}))
		assert.NotContains(t, buf.String(), "<script")
	}
	assert.Positive(t, drawn)
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
			// The cards drawn with their pictures, as the page was written.
			wantPics, wantCaptions := 0, 0
			for _, fig := range strings.Split(buf.String(), `<figure class="pics">`)[1:] {
				fig = fig[:strings.Index(fig, "</figure>")]
				wantPics += strings.Count(fig, `<svg class="pic" role="img"`)
				wantCaptions += strings.Count(fig, "<figcaption>")
			}
			require.Positive(t, wantPics)
			assert.Equal(t, wantPics, pics, "every picture is on the page")
			assert.Equal(t, wantCaptions, captions, "every picture has its text beside it")
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
