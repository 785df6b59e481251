package reports

import (
	"encoding/json"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// A picture is a small chart of what one case's run shows, drawn as
// inline SVG: no script, no external file, and readable without colour
// (every mark has a shape or a letter as well as a colour). Its Text says
// the same in words and numbers; the page prints it beside the drawing,
// whose own <title> is the picture's Title.
type picture struct {
	Title string
	Text  string
	SVG   template.HTML
}

// Bounds of a picture.
const (
	// pictureUnits is the most calls, steps or requests drawn; the text
	// counts the rest.
	pictureUnits = scenario.PictureUnits
	// pictureCell is the width of one unit along the x axis, in pixels.
	pictureCell = 26
)

// casePictures draws the picture its scenario declares of a case's run
// (reg finds the scenario) and, when the case failed, the counts it got
// wrong as expected-against-observed bars. A case that did not run has
// none.
func casePictures(c *Case, reg *scenario.Registry) []picture {
	c = c.whole()
	if c.Status == verifier.Errored && len(c.Trace) == 0 {
		return nil
	}
	if n, long := tooLongToDraw(c); long {
		return []picture{{Title: "No picture", Text: "This case's " + n + " longer than " + strconv.Itoa(pictureBytes>>10) + " KiB of JSON, the most a picture is drawn from; the card's table shows them."}}
	}
	var expected map[string]any
	if c.Status == verifier.Fail {
		_ = json.Unmarshal(c.Expected, &expected)
	}
	var out []picture
	if p := draw(c, expected, reg); p != nil {
		out = append(out, *p)
	}
	if m := mismatchBars(c, expected); m != nil {
		out = append(out, *m)
	}
	return out
}

// pictureBytes is the most JSON text a case's observed values (between
// them, as deskcheck writes them) and its expected block may hold for the
// case to be drawn. A picture looks into the values it draws, decoded; a
// longer value is kept as its text when a report is read back (rawValue),
// and decoding it for a picture would take many times that text. Both a
// run and a report read back measure the same text, so a page drawn by
// verify and one rendered from its report.json are the same.
const pictureBytes = rawValueBytes

// tooLongToDraw says whether a case's values are past pictureBytes, and
// which of its blocks is.
func tooLongToDraw(c *Case) (string, bool) {
	if len(c.Expected) > pictureBytes {
		return "expected block is", true
	}
	n := 0
	var buf []byte
	for _, v := range c.Observed {
		if r, ok := v.(*rawValue); ok {
			n += len(r.text)
		} else {
			buf = jsonx.Append(buf[:0], v)
			n += len(buf)
		}
		if n > pictureBytes {
			return "observed values are", true
		}
	}
	return "", false
}

// draw lays out the drawing the case's scenario returns for its run.
func draw(c *Case, expected map[string]any, reg *scenario.Registry) *picture {
	if reg == nil {
		return nil
	}
	sc, _, ok := reg.Lookup(c.Scenario)
	if !ok || sc.Picture == nil {
		return nil
	}
	// A picture looks into the values it draws: those kept as text
	// (rawValue) are decoded for it.
	observed, _ := decodedValues(c.Observed).(map[string]any)
	d := sc.Picture(scenario.Seen{Observed: observed, Expected: expected, Trace: c.Trace, Unit: c.Unit})
	if d == nil {
		return nil
	}
	p := &picture{Title: d.Title, Text: d.Text}
	switch {
	case d.Lanes != nil:
		p.SVG = drawLanes(d.Title, *d.Lanes)
	case d.Series != nil:
		p.SVG = drawSeries(d.Title, d.Series)
	case d.Sequence != nil:
		p.SVG = drawSequence(d.Title, d.Sequence)
	case d.Strip != nil:
		p.SVG = drawStrip(d.Title, d.Strip)
	}
	return p
}

// svg collects the marks of one drawing.
type svg struct {
	b    strings.Builder
	w, h int
}

// newSVG starts a drawing titled with its picture's title; the words and
// numbers it shows are the picture's Text, printed beside it.
func newSVG(w, h int, title string) *svg { return newDrawing("pic", w, h, title) }

// newDrawing starts a drawing of the given class: "pic" for a case's
// picture, "pic grid" for a grid of the page.
func newDrawing(class string, w, h int, title string) *svg {
	s := &svg{w: w, h: h}
	s.b.WriteString(`<svg class="` + class + `" role="img" width="` + strconv.Itoa(w) + `" height="` + strconv.Itoa(h) + `" viewBox="0 0 ` + strconv.Itoa(w) + ` ` + strconv.Itoa(h) + `"><title>`)
	s.b.WriteString(esc(title))
	s.b.WriteString(`</title>`)
	return s
}

// esc makes case text fit for the drawing: every acting character shown
// as an escape, then HTML-escaped.
func esc(t string) string { return template.HTMLEscapeString(oneLine(t)) }

// add writes one element; attrs alternate names and values, each value
// escaped.
func (s *svg) add(tag string, attrs ...string) {
	s.open(tag, attrs...)
	s.b.WriteString(`/>`)
}

func (s *svg) open(tag string, attrs ...string) {
	s.b.WriteString("<" + tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		s.b.WriteString(" " + attrs[i] + `="` + template.HTMLEscapeString(attrs[i+1]) + `"`)
	}
}

// text writes a label; anchor is start, middle or end.
func (s *svg) text(x, y int, anchor, class, t string) {
	s.open("text", "x", strconv.Itoa(x), "y", strconv.Itoa(y), "class", class+" "+anchor[:1])
	s.b.WriteString(">" + esc(t) + "</text>")
}

func (s *svg) done() template.HTML {
	s.b.WriteString("</svg>")
	return template.HTML(s.b.String())
}

// mark draws one point's shape: a filled circle, a square, a cross, a
// triangle, a diamond or a hollow circle, by name.
func (s *svg) mark(shape string, x, y int, class string) {
	xs, ys := strconv.Itoa(x), strconv.Itoa(y)
	switch shape {
	case "circle":
		s.add("circle", "cx", xs, "cy", ys, "r", "4", "class", class)
	case "ring":
		s.add("circle", "cx", xs, "cy", ys, "r", "4", "class", class+" hollow")
	case "square":
		s.add("rect", "x", strconv.Itoa(x-4), "y", strconv.Itoa(y-4), "width", "8", "height", "8", "class", class)
	case "cross":
		s.add("path", "d", "M"+strconv.Itoa(x-4)+" "+strconv.Itoa(y-4)+"l8 8m0 -8l-8 8", "class", class+" stroke")
	case "triangle":
		s.add("path", "d", "M"+xs+" "+strconv.Itoa(y-5)+"l5 9h-10z", "class", class)
	default:
		s.add("path", "d", "M"+xs+" "+strconv.Itoa(y-5)+"l5 5l-5 5l-5 -5z", "class", class)
	}
}

func more(n int) string {
	if n <= pictureUnits {
		return ""
	}
	return " … (" + strconv.Itoa(n) + " in all)"
}

// markNames are the shapes of mark by scenario.Mark.
var markNames = map[scenario.Mark]string{
	scenario.Circle: "circle", scenario.Ring: "ring", scenario.Square: "square",
	scenario.Cross: "cross", scenario.Triangle: "triangle", scenario.Diamond: "diamond",
}

// The page's classes for each tone, by shape: a line of a series, a mark
// of a sequence, a mark of a strip. A tone a shape does not colour is
// drawn in the page's plain colour.
var (
	lineClasses  = map[scenario.Tone]string{scenario.Measured: "s-valid", scenario.Bad: "s-block", scenario.Expected: "s-exp"}
	seqClasses   = map[scenario.Tone]string{scenario.Good: "allow", scenario.Bad: "deny", scenario.Expected: "exp"}
	stripClasses = map[scenario.Tone]string{
		scenario.Good: "st-ok", scenario.Bad: "st-denied", scenario.Invalid: "st-invalid",
		scenario.Late: "st-timeout", scenario.Other: "st-other", scenario.Expected: "exp",
	}
)

// drawSeries draws lines of values by step on a shared scale from 0,
// each point marked, with a legend to the right.
func drawSeries(title string, sr *scenario.Series) template.HTML {
	steps, top := 0, 1
	for _, l := range sr.Lines {
		steps = max(steps, len(l.Values))
		for _, x := range l.Values {
			top = max(top, x)
		}
	}
	if steps == 0 {
		return ""
	}
	steps = min(steps, pictureUnits)
	const left, plotH, bottom = 28, 80, 30
	w := left + steps*pictureCell + 140
	h := plotH + bottom + 8
	s := newSVG(w, h, title)
	y := func(v int) int { return 6 + plotH - v*plotH/top }
	x := func(i int) int { return left + i*pictureCell + pictureCell/2 }
	s.add("line", "x1", strconv.Itoa(left), "y1", strconv.Itoa(y(0)), "x2", strconv.Itoa(left+steps*pictureCell), "y2", strconv.Itoa(y(0)), "class", "axis")
	s.add("line", "x1", strconv.Itoa(left), "y1", strconv.Itoa(y(top)), "x2", strconv.Itoa(left), "y2", strconv.Itoa(y(0)), "class", "axis")
	s.text(left-4, y(top)+4, "end", "lbl", strconv.Itoa(top))
	s.text(left-4, y(0)+4, "end", "lbl", "0")
	for i := 0; i < steps; i++ {
		s.text(x(i), y(0)+14, "middle", "lbl", strconv.Itoa(i+1))
	}
	s.text(left+steps*pictureCell/2, y(0)+26, "middle", "lbl", sr.XLabel)
	for k, l := range sr.Lines {
		class := lineClasses[l.Tone]
		if l.Dashed {
			class += " dash"
		}
		shape := markNames[l.Mark]
		xs := l.Values[:min(len(l.Values), steps)]
		var pts []string
		for i, v := range xs {
			pts = append(pts, strconv.Itoa(x(i))+","+strconv.Itoa(y(v)))
		}
		if len(pts) > 0 {
			s.add("polyline", "points", strings.Join(pts, " "), "class", "line "+class)
		}
		for i, v := range xs {
			s.mark(shape, x(i), y(v), class)
		}
		ly := 12 + k*14
		lx := left + steps*pictureCell + 12
		s.mark(shape, lx, ly-4, class)
		s.text(lx+10, ly, "start", "lbl", l.Name)
	}
	return s.done()
}

// drawSequence draws rows of marks, one per unit in order, numbered along
// the bottom, with a bar per unit above them when any bar is above zero.
func drawSequence(title string, sq *scenario.Sequence) template.HTML {
	n := 0
	for _, r := range sq.Rows {
		n = max(n, len(r.Marks))
	}
	n = min(n, pictureUnits)
	if n == 0 {
		return ""
	}
	bars := slices.ContainsFunc(sq.Bars, func(b int) bool { return b > 0 })
	left, barH := 64, 18
	if !bars {
		barH = 0
	}
	top := 1
	for _, b := range sq.Bars {
		top = max(top, b)
	}
	w := left + n*pictureCell + 8
	h := barH + 8 + len(sq.Rows)*20 + 18
	s := newSVG(w, h, title)
	x := func(i int) int { return left + i*pictureCell + pictureCell/2 }
	if bars {
		s.text(left-6, barH, "end", "lbl", sq.BarLabel)
		for i, b := range sq.Bars[:min(len(sq.Bars), n)] {
			bh := b * barH / top
			if b > 0 {
				s.add("rect", "x", strconv.Itoa(x(i)-5), "y", strconv.Itoa(4+barH-bh), "width", "10", "height", strconv.Itoa(max(bh, 2)), "class", "bar")
				s.text(x(i), 4+barH-bh-2, "middle", "lbl", strconv.Itoa(b))
			}
		}
	}
	for r, row := range sq.Rows {
		cy := barH + 16 + r*20
		s.text(left-6, cy+4, "end", "lbl", row.Label)
		for i, m := range row.Marks[:min(len(row.Marks), n)] {
			s.mark(markNames[m.Mark], x(i), cy, seqClasses[m.Tone])
			s.text(x(i)+7, cy+4, "start", "tiny", m.Letter)
		}
	}
	for i := 0; i < n; i++ {
		s.text(x(i), h-4, "middle", "lbl", strconv.Itoa(i+1))
	}
	return s.done()
}

// drawStrip draws rows of marks at numbered positions, side by side where
// they share one (the first lettered), with rules across the rows: a
// bound dashed, labelled before it, a moment passed solid, labelled after
// it.
func drawStrip(title string, st *scenario.Strip) template.HTML {
	n := min(max(st.Cells, 1), pictureUnits)
	const left = 64
	w := left + n*pictureCell + 8
	h := 10 + len(st.Rows)*22 + 20
	s := newSVG(w, h, title)
	x := func(i int) int { return left + (i-1)*pictureCell + pictureCell/2 }
	for r, row := range st.Rows {
		cy := 16 + r*22
		s.text(left-6, cy+4, "end", "lbl", row.Label)
		count := map[int]int{}
		for _, m := range row.Marks {
			if m.At < 1 || m.At > n {
				continue
			}
			off := count[m.At] * 5
			count[m.At]++
			s.mark(markNames[m.Mark], x(m.At)+off, cy, stripClasses[m.Tone])
			if off == 0 {
				s.text(x(m.At)+7, cy+4, "start", "tiny", m.Letter)
			}
		}
	}
	for _, ru := range st.Rules {
		if ru.At < 1 || ru.At > n {
			continue
		}
		class, rx, lx, anchor := "limit dash", left+(ru.At-1)*pictureCell, 0, "start"
		if ru.Tone == scenario.Bad {
			class = "late"
		}
		if ru.AtEnd {
			rx += pictureCell
			lx, anchor = rx-2, "end"
		} else {
			lx = rx + 2
		}
		s.add("line", "x1", strconv.Itoa(rx), "y1", "4", "x2", strconv.Itoa(rx), "y2", strconv.Itoa(h-16), "class", class)
		s.text(lx, 10, anchor, "tiny", ru.Label)
	}
	for i := 1; i <= n; i++ {
		s.text(x(i), h-4, "middle", "lbl", strconv.Itoa(i))
	}
	return s.done()
}

// drawLanes draws one lane per unit: lettered boxes joined by lines
// (filled where the step acted), ending in a return (✓) or a throw (✕).
func drawLanes(title string, lanes scenario.Lanes) template.HTML {
	lanes = lanes[:min(len(lanes), pictureUnits)]
	if len(lanes) == 0 {
		return ""
	}
	const left, box, gap = 52, 16, 6
	widest := 0
	for _, l := range lanes {
		widest = max(widest, min(len(l.Steps), scenario.LaneSteps)+1)
	}
	w := left + widest*(box+gap) + 8
	h := len(lanes)*22 + 6
	s := newSVG(w, h, title)
	for r, l := range lanes {
		cy := 4 + r*22
		s.text(left-6, cy+12, "end", "lbl", l.Label)
		x := left
		for i, st := range l.Steps[:min(len(l.Steps), scenario.LaneSteps)] {
			if i > 0 {
				s.add("line", "x1", strconv.Itoa(x-gap), "y1", strconv.Itoa(cy+8), "x2", strconv.Itoa(x), "y2", strconv.Itoa(cy+8), "class", "axis")
			}
			cls := "step"
			if st.Acted {
				cls = "step did"
			}
			s.add("rect", "x", strconv.Itoa(x), "y", strconv.Itoa(cy), "width", strconv.Itoa(box), "height", strconv.Itoa(box), "rx", "3", "class", cls)
			s.text(x+box/2, cy+12, "middle", "tiny", st.Letter)
			x += box + gap
		}
		if l.End != scenario.NoEnd {
			cls, sign := "ret", "✓"
			if l.End == scenario.EndsBad {
				cls, sign = "thr", "✕"
			}
			s.add("circle", "cx", strconv.Itoa(x+box/2), "cy", strconv.Itoa(cy+8), "r", "8", "class", cls)
			s.text(x+box/2, cy+12, "middle", "tiny", sign)
		}
	}
	return s.done()
}

// mismatchBars draws, for a failed case, each mismatched whole-number key
// as a pair of bars — expected (hatched, E) over observed (solid, O) — so
// the difference shows at a glance.
func mismatchBars(c *Case, expected map[string]any) *picture {
	if c.Status != verifier.Fail {
		return nil
	}
	type pair struct {
		key      string
		exp, obs int
	}
	var pairs []pair
	for _, m := range c.Mismatches {
		e, ok1 := expected[m.Field].(float64)
		o, ok2 := c.Observed[m.Field].(float64)
		if !ok1 || !ok2 || e != math.Trunc(e) || o != math.Trunc(o) || math.Abs(e) > 1e9 || math.Abs(o) > 1e9 || e < 0 || o < 0 {
			continue
		}
		pairs = append(pairs, pair{m.Field, int(e), int(o)})
		if len(pairs) == 6 {
			break
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	var words []string
	top := 1
	for _, p := range pairs {
		words = append(words, p.key+" expected "+strconv.Itoa(p.exp)+", observed "+strconv.Itoa(p.obs))
		top = max(top, p.exp, p.obs)
	}
	text := "Counts that differ: " + strings.Join(words, "; ") + "."
	const left, full = 120, 160
	h := len(pairs)*28 + 4
	s := newSVG(left+full+40, h, "Expected against observed")
	for i, p := range pairs {
		y := 4 + i*28
		s.text(left-6, y+14, "end", "lbl", oneLine(p.key))
		for j, v := range []int{p.exp, p.obs} {
			bw := v * full / top
			cls, tag := "bar exp-bar", "E"
			if j == 1 {
				cls, tag = "bar", "O"
			}
			by := y + j*12
			if v > 0 {
				s.add("rect", "x", strconv.Itoa(left), "y", strconv.Itoa(by), "width", strconv.Itoa(max(bw, 2)), "height", "10", "class", cls)
			}
			s.text(left+max(bw, 2)+4, by+9, "start", "tiny", tag+" "+strconv.Itoa(v))
		}
	}
	return &picture{Title: "Expected against observed", Text: text, SVG: s.done()}
}
