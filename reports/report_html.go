package reports

import (
	"cmp"
	_ "embed"
	"html/template"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	// one shows case data on one line, every acting character escaped.
	"one": oneLine,
	// lines shows case data that may span lines.
	"lines":     func(s string) string { return visible(s, true) },
	"thousands": verifier.Thousands,
	"seq":       seqLabel,
}).Parse(htmlSource))

// HTML renders one self-contained page: inline CSS, no script, no external
// request. It is laid out to be read from the top, whatever the suite's
// size:
//
//   - the verdicts (strength first when it was measured) and the counts,
//     each a link to its section;
//   - a summary: a small inline SVG of outcomes per desk, a table per desk
//     (cases, passed, failed, errored, the first failed ids linked to their
//     cards), the first failure, what the failures have in common
//     ("effects mismatched in 5,000 cases"), and the provenance folded;
//   - the boundary-response dimensions, then the suite strength, missed
//     faults first;
//   - the failed and errored cases as cards (the first FailureCards), each
//     with its expected-versus-observed table and its trace as a timeline;
//   - the passing cases: cards up to PassingCards, else a compact table of
//     the first PassingRows;
//   - the source-only claims, marked not executed.
//
// What a capped section leaves out is counted, with a pointer to
// report.json, which holds every case.
type HTML struct {
	// Registry finds each case's scenario, whose picture of the run the
	// page draws; when nil, the registry of the run the report was built
	// from (none for a report read back from report.json).
	Registry *scenario.Registry
}

// Bounds of the page.
const (
	// PassingCards is the most passing cases shown as full cards; with
	// more, they are listed in a compact table.
	PassingCards = 500
	// PassingRows is the most passing cases listed in the compact table.
	PassingRows = 2000
	// FailureCards is the most failed or errored cases shown as cards.
	FailureCards = 200
	// htmlDeskRows bounds the desk tables and the files listed.
	htmlDeskRows = 500
	// chartDesks is the most desks drawn in the outcomes chart.
	chartDesks = 200
	// cardEvents is the most trace events a card shows.
	cardEvents = 200
	// deskLinks is the most failed ids linked from a desk's row.
	deskLinks = 3
	// caughtByShown is the most cases named per caught fault.
	caughtByShown = 10
	// PictureCards is the most cards drawn with their pictures, failures
	// first: a page of hundreds of charts is slow to lay out, and the
	// first failures are the ones read.
	PictureCards = 100
)

type htmlCase struct {
	C      *Case
	Status string
	// Releases says which host releases the case was judged on, where it
	// failed and where it is not applicable.
	Releases  []string
	Rows      []row
	Location  string
	Trace     []traceEvent
	MoreTrace int
	// Pictures are the case's charts, each with its text equivalent.
	Pictures []picture
}

type traceEvent struct {
	Label string
	Text  string
}

// newHTMLCase is c's card, and c with its held evidence read back
// (whole), which the card's pictures are drawn from: it is read once for
// both.
func newHTMLCase(c *Case, files map[string]string) (htmlCase, *Case) {
	w := c.whole()
	h := htmlCase{C: c, Status: cardStatus(c), Rows: rows(*w, htmlCell), Location: location(files[c.Desk], c.Line)}
	for _, s := range []string{JudgedOn(c), FailedOn(c), NotApplicableOn(c)} {
		if s != "" {
			h.Releases = append(h.Releases, s)
		}
	}
	if j := JudgedOn(c); j != "" {
		h.Releases[0] = "judged on " + j
	}
	if c.Status == verifier.NotApplicable {
		h.Rows = nil
	}
	for i, e := range w.Trace {
		if i == cardEvents {
			h.MoreTrace = len(w.Trace) - i
			break
		}
		h.Trace = append(h.Trace, traceEvent{Label: seqLabel(c.Unit, e), Text: e.Text})
	}
	return h, w
}

// cardStatus is the status a card shows.
func cardStatus(c *Case) string {
	switch c.Status {
	case verifier.Errored:
		return "ERROR"
	case verifier.NotApplicable:
		return "N/A"
	}
	return strings.ToUpper(string(c.Status))
}

// location is file:line, or the file alone when the line is unknown.
func location(file string, line int) string {
	if file == "" || line <= 0 {
		return file
	}
	return file + ":" + strconv.Itoa(line)
}

type htmlDesk struct {
	*deskTally
	Links []htmlLink
	More  int
}

// htmlLink names a case, with the anchor of its card when it has one.
type htmlLink struct {
	Desk, ID string
	Anchor   bool
}

type htmlChart struct {
	// Height is the bars'; SVGHeight adds the labels under them.
	Width, Height, SVGHeight int
	Bars                     []htmlBar
	// More counts the desks left out of Total.
	More, Total int
}

// htmlBar is one desk's column: errored on top of failed on top of passed.
type htmlBar struct {
	Desk  string
	Title string
	// Label is the desk's name under its bar, clipped (empty when the
	// bars are too narrow to carry one: the desks table names them);
	// LX, LY where it starts.
	Label        string
	LX, LY       int
	X, W         int
	ErrY, ErrH   int
	FailY, FailH int
	PassY, PassH int
	// NotY and NotH place the share of cases not applicable, in grey.
	NotY, NotH            int
	Cases, Failed, Errors int
}

type htmlFirst struct {
	Case       *Case
	Status     string
	Location   string
	Mismatches []string
	More       int
}

type htmlGroup struct {
	Field, Error string
	Count        int
	Links        []htmlLink
}

type htmlStrengthResult struct {
	FaultResult
	Shown []string
	More  int
}

type htmlPage struct {
	R         *Report
	RealCode  template.HTML // the real-code section (realcode_section.go)
	registry  *scenario.Registry
	Line      string
	Verdicts  []verdict
	Overall   string
	Desks     []htmlDesk
	MoreDesks int
	Files     []File
	MoreFiles int
	Chart     *htmlChart
	First     *htmlFirst
	Groups    []htmlGroup
	// MoreGroups counts the groups left out.
	MoreGroups int
	Dims       *htmlDimensions
	Coverage   []PointCoverage
	// CoverageGrids draw the first desks' points by cases; ReleaseGrid
	// the cases judged on several releases, by release.
	CoverageGrids []grid
	ReleaseGrid   *grid
	Strength      []htmlStrengthResult
	Failures      []htmlCase
	// FailureCount is every failed or errored case; MoreFailures those
	// without a card.
	FailureCount int
	MoreFailures int
	Passing      []htmlCase
	// CompactPassing lists the passing cases in a table instead of cards.
	CompactPassing bool
	Claims         []Claim
	MoreClaims     int
	// Drawn counts the cards drawn with pictures, Undrawn those left
	// without.
	Drawn, Undrawn int
	// Lessons are the lessons asked of several hosts the page lists;
	// MoreLessons counts those left out.
	Lessons     []shownLesson
	MoreLessons int
}

// draw gives a card its pictures, drawn from its case read back whole (w),
// while the page has drawn fewer than PictureCards, and counts the cards
// it leaves undrawn.
func (p *htmlPage) draw(h *htmlCase, w *Case) {
	if p.Drawn == PictureCards {
		p.Undrawn++
		return
	}
	if h.Pictures = casePictures(w, p.registry); len(h.Pictures) > 0 {
		p.Drawn++
	}
}

// Write renders r as HTML.
func (x HTML) Write(w io.Writer, r *Report) error {
	files := deskFiles(r)
	page := htmlPage{R: r, registry: cmp.Or(x.Registry, r.registry), Line: Headline(r), Verdicts: verdicts(r), Overall: "pass", Dims: newHTMLDimensions(r.Dimensions), Claims: r.SourceOnly}
	if r.Coverage != nil {
		page.Coverage = r.Coverage.Desks
		if len(page.Coverage) > htmlDeskRows {
			page.Coverage = page.Coverage[:htmlDeskRows]
		}
		for _, pc := range page.Coverage[:min(len(page.Coverage), gridDesks)] {
			if g := coverageGrid(pc); g != nil {
				page.CoverageGrids = append(page.CoverageGrids, *g)
			}
		}
	}
	page.ReleaseGrid = releaseGrid(r)
	page.Lessons, page.MoreLessons = shownLessons(r.Lessons, htmlLessonRows)
	if len(page.Claims) > htmlDeskRows {
		page.MoreClaims = len(page.Claims) - htmlDeskRows
		page.Claims = page.Claims[:htmlDeskRows]
	}
	for _, v := range page.Verdicts {
		if !v.Pass {
			page.Overall = "fail"
		}
	}
	fails := failures(r.Cases)
	page.FailureCount = len(fails)
	carded := map[*Case]bool{}
	for i, c := range fails {
		if i == FailureCards {
			page.MoreFailures = len(fails) - i
			break
		}
		carded[c] = true
		h, w := newHTMLCase(c, files)
		page.Failures = append(page.Failures, h)
		page.draw(&page.Failures[len(page.Failures)-1], w)
	}
	link := func(c *Case) htmlLink { return htmlLink{Desk: c.Desk, ID: c.ID, Anchor: carded[c]} }

	ts := tallies(r)
	for i, t := range ts {
		if i == htmlDeskRows {
			page.MoreDesks = len(ts) - i
			break
		}
		d := htmlDesk{deskTally: t}
		for j, c := range t.Failures {
			if j == deskLinks {
				d.More = len(t.Failures) - j
				break
			}
			d.Links = append(d.Links, link(c))
		}
		page.Desks = append(page.Desks, d)
	}
	page.Files = r.Provenance.Files
	if len(page.Files) > htmlDeskRows {
		page.MoreFiles = len(page.Files) - htmlDeskRows
		page.Files = page.Files[:htmlDeskRows]
	}
	page.Chart = newChart(ts)

	if len(fails) > 0 {
		c := fails[0]
		f := &htmlFirst{Case: c, Status: cardStatus(c), Location: location(files[c.Desk], c.Line)}
		w := c.whole()
		for i, m := range w.Mismatches {
			if i == 5 {
				f.More = len(w.Mismatches) - i
				break
			}
			f.Mismatches = append(f.Mismatches, mismatchText(m, ""))
		}
		page.First = f
		groups, more := groupFailures(r.Cases)
		page.MoreGroups = more
		for _, g := range groups {
			hg := htmlGroup{Field: g.Field, Error: g.Error, Count: len(g.Cases)}
			for i, c := range g.Cases {
				if i == 3 {
					break
				}
				hg.Links = append(hg.Links, link(c))
			}
			page.Groups = append(page.Groups, hg)
		}
	}
	if s := r.Strength; s != nil {
		for _, f := range missedFirst(s.Results) {
			x := htmlStrengthResult{FaultResult: f, Shown: f.CaughtBy}
			if len(x.Shown) > caughtByShown {
				x.More = len(x.Shown) - caughtByShown
				x.Shown = x.Shown[:caughtByShown]
			}
			page.Strength = append(page.Strength, x)
		}
	}

	var passing []*Case
	for i := range r.Cases {
		if !failed(&r.Cases[i]) {
			passing = append(passing, &r.Cases[i])
		}
	}
	page.CompactPassing = len(passing) > PassingCards
	if !page.CompactPassing {
		for _, c := range passing {
			h, w := newHTMLCase(c, files)
			page.Passing = append(page.Passing, h)
			page.draw(&page.Passing[len(page.Passing)-1], w)
		}
	}
	var err error
	if page.RealCode, err = realCodeHTMLSection(r.RealCode); err != nil {
		return err
	}
	if err := htmlTemplate.ExecuteTemplate(w, "top", page); err != nil {
		return err
	}
	if page.CompactPassing {
		if err := writePassingRows(w, passing); err != nil {
			return err
		}
	}
	return htmlTemplate.ExecuteTemplate(w, "bottom", page)
}

// writePassingRows writes the compact table of passing cases straight to
// w: a large suite has many, and this is the page's hot loop.
func writePassingRows(w io.Writer, cases []*Case) error {
	p := &printer{w: w}
	shown := min(len(cases), PassingRows)
	na := 0
	for _, c := range cases {
		if c.Status == verifier.NotApplicable {
			na++
		}
	}
	p.printf("<p class=\"meta\">%s passed", plural(len(cases)-na, "case", "cases"))
	if na > 0 {
		p.printf(", %s not applicable to the release asked for (marked N/A)", verifier.Thousands(na))
	}
	p.printf("; the expected block, observations and trace of each are in report.json.")
	if shown < len(cases) {
		p.printf(" The first %s are listed here; the desks table above counts them all.", verifier.Thousands(shown))
	}
	p.printf("</p>\n<table class=\"passing\">\n<thead><tr><th>case</th><th>scenario</th><th>title</th></tr></thead>\n<tbody>\n")
	for _, c := range cases[:shown] {
		id := htmlLine(c.Desk + "/" + c.ID)
		title := htmlLine(c.Title)
		if c.Status == verifier.NotApplicable {
			title = "N/A — " + htmlLine(NotApplicableOn(c)) + " — " + title
		}
		p.printf("<tr id=\"case-%s\"><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n", id, id, htmlLine(c.Scenario), title)
	}
	p.printf("</tbody>\n</table>\n")
	return p.err
}

// newChart lays out the outcomes per desk: one column per desk, its
// height split by share of cases; a failed or errored share is at least
// 2 pixels high so that one failure among thousands still shows.
// The chart's labels: drawn when a bar is at least chartLabelBar pixels
// wide, at most chartLabelRunes characters, each about chartLabelRuneW
// pixels long.
const (
	chartLabelBar   = 10
	chartLabelRunes = 16
	chartLabelRuneW = 6
)

// clipRunes cuts s to at most n characters, the last an ellipsis when it
// cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func newChart(ts []*deskTally) *htmlChart {
	if len(ts) == 0 {
		return nil
	}
	const height = 64
	n := min(len(ts), chartDesks)
	bar := max(3, min(40, 720/n))
	gap := 1
	if bar >= 8 {
		gap = 2
	}
	ch := &htmlChart{Width: n*(bar+gap) - gap, Height: height, SVGHeight: height, More: len(ts) - n, Total: len(ts)}
	// Each bar carries its desk's name, written downwards under it, when
	// the bars are wide enough for a line of text.
	labels := bar >= chartLabelBar
	if labels {
		longest := 0
		for _, t := range ts[:n] {
			longest = max(longest, min(utf8.RuneCountInString(oneLine(t.Desk)), chartLabelRunes))
		}
		ch.SVGHeight = height + 6 + longest*chartLabelRuneW
	}
	share := func(k, total int) int {
		if k == 0 || total == 0 {
			return 0
		}
		return max(2, k*height/total)
	}
	for i, t := range ts[:n] {
		b := htmlBar{Desk: t.Desk, X: i * (bar + gap), W: bar, Cases: t.Cases, Failed: t.Failed, Errors: t.Errored}
		b.ErrH = share(t.Errored, t.Cases)
		b.FailH = min(share(t.Failed, t.Cases), height-b.ErrH)
		b.NotH = min(share(t.NotApplicable, t.Cases), height-b.ErrH-b.FailH)
		b.PassH = max(0, height-b.ErrH-b.FailH-b.NotH)
		if t.Cases == 0 {
			b.PassH = 0
		}
		b.ErrY, b.FailY, b.NotY, b.PassY = 0, b.ErrH, b.ErrH+b.FailH, b.ErrH+b.FailH+b.NotH
		if labels {
			b.Label = clipRunes(oneLine(t.Desk), chartLabelRunes)
			b.LX, b.LY = b.X+bar/2-4, height+4
		}
		b.Title = oneLine(t.Desk) + ": " + verifier.Thousands(t.Passed) + " passed, " + verifier.Thousands(t.Failed) + " failed"
		if t.Errored > 0 {
			b.Title += ", " + verifier.Thousands(t.Errored) + " errored"
		}
		if t.NotApplicable > 0 {
			b.Title += ", " + verifier.Thousands(t.NotApplicable) + " not applicable"
		}
		ch.Bars = append(ch.Bars, b)
	}
	return ch
}

// htmlDimensions is the boundary-response section as the page lays it out.
type htmlDimensions struct {
	Columns []string
	Rows    []dimensionRow
	Note    string
	// Notes are the lines under the table about the release columns.
	Notes     []string
	Folded    bool
	DeskCount int
	Desks     []DeskDimensions
	MoreDesks int
}

func newHTMLDimensions(b *Boundary) *htmlDimensions {
	if b == nil {
		return nil
	}
	columns, rows, folded := pageTable(b)
	d := &htmlDimensions{Columns: columns, Rows: rows, Note: dimensionsNote, Notes: releaseNotes(b), Folded: folded, DeskCount: len(b.Desks), Desks: b.Desks}
	if len(d.Desks) > htmlDeskRows {
		d.MoreDesks = len(d.Desks) - htmlDeskRows
		d.Desks = d.Desks[:htmlDeskRows]
	}
	return d
}
