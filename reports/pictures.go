package reports

import (
	"encoding/json"
	"html/template"
	"math"
	"regexp"
	"strconv"
	"strings"

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
	pictureUnits = 24
	// pictureSteps is the most marks drawn in one lane of an OMP call.
	pictureSteps = 8
	// pictureCell is the width of one unit along the x axis, in pixels.
	pictureCell = 26
)

// casePictures draws the natural picture of a case's run, chosen by its
// scenario's host, and, when the case failed, the counts it got wrong as
// expected-against-observed bars. A case that did not run has none.
func casePictures(c *Case) []picture {
	if c.Status == verifier.Errored && len(c.Trace) == 0 {
		return nil
	}
	var expected map[string]any
	if c.Status == verifier.Fail {
		_ = json.Unmarshal(c.Expected, &expected)
	}
	var out []picture
	var p *picture
	switch c.Scenario {
	case "runner":
		p = runnerPicture(c, expected)
	case "gateway":
		p = gatewayPicture(c, expected)
	case "household":
		p = householdPicture(c, expected)
	case "wrapper", "fallback", "classify-error":
		p = lanePicture(c)
	}
	if p != nil {
		out = append(out, *p)
	}
	if m := mismatchBars(c, expected); m != nil {
		out = append(out, *m)
	}
	return out
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

// ints reads an observed or expected array of whole numbers; ok is false
// when the value is not one.
func ints(v any) ([]int, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]int, 0, len(arr))
	for _, x := range arr {
		f, ok := x.(float64)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1e9 {
			return nil, false
		}
		out = append(out, int(f))
	}
	return out, true
}

func strs(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// joinInts lists whole numbers, the first pictureUnits of them.
func joinInts(xs []int) string {
	parts := make([]string, 0, min(len(xs), pictureUnits))
	for _, x := range xs[:min(len(xs), pictureUnits)] {
		parts = append(parts, strconv.Itoa(x))
	}
	return strings.Join(parts, ", ") + more(len(xs))
}

// joinStrs lists words, the first pictureUnits of them.
func joinStrs(xs []string) string {
	return strings.Join(xs[:min(len(xs), pictureUnits)], ", ") + more(len(xs))
}

func more(n int) string {
	if n <= pictureUnits {
		return ""
	}
	return " … (" + strconv.Itoa(n) + " in all)"
}

// shown cuts a list to the units a picture draws and says how many are
// left out.
func shown[T any](xs []T) ([]T, string) {
	if len(xs) <= pictureUnits {
		return xs, ""
	}
	return xs[:pictureUnits], " The first " + strconv.Itoa(pictureUnits) + " of " + strconv.Itoa(len(xs)) + " are drawn."
}

// runnerPicture draws the runner's two cumulative series by decision step,
// as the showcase draws them: validated executions attempted (solid line,
// circles) and blocked or failed requests (dashed line, squares); when the
// case failed, the expected series in grey with hollow marks.
func runnerPicture(c *Case, expected map[string]any) *picture {
	val, ok1 := ints(c.Observed["validatedSeries"])
	blk, ok2 := ints(c.Observed["blockedSeries"])
	if !ok1 || !ok2 {
		return nil
	}
	type series struct {
		name, class, shape string
		xs                 []int
	}
	all := []series{{"validated", "s-valid", "circle", val}, {"blocked", "s-block", "square", blk}}
	text := "Validated executions attempted, cumulative by step: " + orNone(val) + ". Blocked or failed requests: " + orNone(blk) + "."
	if ev, ok := ints(expected["validatedSeries"]); ok {
		all = append(all, series{"expected validated", "s-exp", "ring", ev})
		text += " Expected validated: " + orNone(ev) + "."
	}
	if eb, ok := ints(expected["blockedSeries"]); ok {
		all = append(all, series{"expected blocked", "s-exp dash", "ring", eb})
		text += " Expected blocked: " + orNone(eb) + "."
	}
	steps, top := 0, 1
	for _, s := range all {
		steps = max(steps, len(s.xs))
		for _, x := range s.xs {
			top = max(top, x)
		}
	}
	if steps == 0 {
		return &picture{Title: "Trace by step", Text: text + " The run took no step."}
	}
	if steps > pictureUnits {
		text += " The first " + strconv.Itoa(pictureUnits) + " of " + strconv.Itoa(steps) + " steps are drawn."
		steps = pictureUnits
	}
	const left, plotH, bottom = 28, 80, 30
	w := left + steps*pictureCell + 140
	h := plotH + bottom + 8
	s := newSVG(w, h, "Trace by step")
	y := func(v int) int { return 6 + plotH - v*plotH/top }
	x := func(i int) int { return left + i*pictureCell + pictureCell/2 }
	s.add("line", "x1", strconv.Itoa(left), "y1", strconv.Itoa(y(0)), "x2", strconv.Itoa(left+steps*pictureCell), "y2", strconv.Itoa(y(0)), "class", "axis")
	s.add("line", "x1", strconv.Itoa(left), "y1", strconv.Itoa(y(top)), "x2", strconv.Itoa(left), "y2", strconv.Itoa(y(0)), "class", "axis")
	s.text(left-4, y(top)+4, "end", "lbl", strconv.Itoa(top))
	s.text(left-4, y(0)+4, "end", "lbl", "0")
	for i := 0; i < steps; i++ {
		s.text(x(i), y(0)+14, "middle", "lbl", strconv.Itoa(i+1))
	}
	s.text(left+steps*pictureCell/2, y(0)+26, "middle", "lbl", "decision step")
	for k, sr := range all {
		xs := sr.xs[:min(len(sr.xs), steps)]
		var pts []string
		for i, v := range xs {
			pts = append(pts, strconv.Itoa(x(i))+","+strconv.Itoa(y(v)))
		}
		if len(pts) > 0 {
			s.add("polyline", "points", strings.Join(pts, " "), "class", "line "+sr.class)
		}
		for i, v := range xs {
			s.mark(sr.shape, x(i), y(v), sr.class)
		}
		ly := 12 + k*14
		lx := left + steps*pictureCell + 12
		s.mark(sr.shape, lx, ly-4, sr.class)
		s.text(lx+10, ly, "start", "lbl", sr.name)
	}
	return &picture{Title: "Trace by step", Text: text, SVG: s.done()}
}

func orNone(xs []int) string {
	if len(xs) == 0 {
		return "none"
	}
	return joinInts(xs)
}

// gatewayPicture draws each request's decision along the step axis —
// allow a filled circle marked A, deny a cross marked D — with the audit's
// effect count as a bar above it; when the case failed and expected its
// decisions, they are drawn as a second row.
func gatewayPicture(c *Case, expected map[string]any) *picture {
	dec, ok := strs(c.Observed["decisions"])
	if !ok {
		return nil
	}
	var effects []int
	anyEffect := false
	if audit, ok := c.Observed["audit"].([]any); ok {
		for _, a := range audit {
			n := 0
			if m, ok := a.(map[string]any); ok {
				if f, ok := m["effectCount"].(float64); ok && f > 0 && f < 1e9 {
					n = int(f)
				}
			}
			effects = append(effects, n)
			anyEffect = anyEffect || n > 0
		}
	}
	rowsOf := [][]string{dec}
	names := []string{"observed"}
	text := "Decisions by request: " + joinStrs(dec) + "."
	if len(dec) == 0 {
		text = "No request was decided."
	}
	if len(effects) > 0 {
		text += " Audit effect counts: " + joinInts(effects) + "."
	}
	if ed, ok := strs(expected["decisions"]); ok {
		rowsOf = append(rowsOf, ed)
		names = append(names, "expected")
		text += " Expected decisions: " + joinStrs(ed) + "."
	}
	n := 0
	for _, r := range rowsOf {
		n = max(n, len(r))
	}
	n = min(n, pictureUnits)
	_, cut := shown(dec)
	text += cut
	if n == 0 {
		return &picture{Title: "Requests", Text: text}
	}
	left, barH := 64, 18
	if !anyEffect {
		barH = 0
	}
	top := 1
	for _, e := range effects {
		top = max(top, e)
	}
	w := left + n*pictureCell + 8
	h := barH + 8 + len(rowsOf)*20 + 18
	s := newSVG(w, h, "Requests")
	x := func(i int) int { return left + i*pictureCell + pictureCell/2 }
	if anyEffect {
		s.text(left-6, barH, "end", "lbl", "effects")
		for i, e := range effects[:min(len(effects), n)] {
			bh := e * barH / top
			if e > 0 {
				s.add("rect", "x", strconv.Itoa(x(i)-5), "y", strconv.Itoa(4+barH-bh), "width", "10", "height", strconv.Itoa(max(bh, 2)), "class", "bar")
				s.text(x(i), 4+barH-bh-2, "middle", "lbl", strconv.Itoa(e))
			}
		}
	}
	for r, row := range rowsOf {
		cy := barH + 16 + r*20
		s.text(left-6, cy+4, "end", "lbl", names[r])
		for i, d := range row[:min(len(row), n)] {
			cls := "deny"
			if r > 0 {
				cls = "exp"
			}
			switch d {
			case "allow":
				if r == 0 {
					cls = "allow"
				}
				s.mark("circle", x(i), cy, cls)
				s.text(x(i)+7, cy+4, "start", "tiny", "A")
			default:
				s.mark("cross", x(i), cy, cls)
				s.text(x(i)+7, cy+4, "start", "tiny", "D")
			}
		}
	}
	for i := 0; i < n; i++ {
		s.text(x(i), h-4, "middle", "lbl", strconv.Itoa(i+1))
	}
	return &picture{Title: "Requests", Text: text, SVG: s.done()}
}

var (
	budgetRE   = regexp.MustCompile(`budget (\d+)`)
	deadlineRE = regexp.MustCompile(`≥ deadline (\S+ s)`)
)

// householdPicture draws the runtime's attempts by status along the
// decision axis (ok a circle, denied a cross, invalid a triangle, timeout
// a diamond, anything else a square), with the decision budget and the
// step at which the deadline passed marked; when the case failed and
// expected the statuses, they are a second row.
func householdPicture(c *Case, expected map[string]any) *picture {
	statuses, ok := strs(c.Observed["statuses"])
	if !ok {
		return nil
	}
	// Each attempt is drawn at the decision that made it.
	var at []int
	budget, lateAt, late := 0, 0, ""
	for _, e := range c.Trace {
		switch e.Kind {
		case "attempt":
			at = append(at, e.Seq)
		case "budget":
			if m := budgetRE.FindStringSubmatch(e.Text); m != nil {
				budget, _ = strconv.Atoi(m[1])
			}
		case "clock":
			if m := deadlineRE.FindStringSubmatch(e.Text); m != nil && lateAt == 0 {
				lateAt, late = max(e.Seq, 1), m[1]
			}
		}
	}
	decisions := 0
	if f, ok := c.Observed["decisions"].(float64); ok && f >= 0 && f < 1e9 {
		decisions = int(f)
	}
	text := "Attempts by status: " + joinStrs(statuses) + "."
	if len(statuses) == 0 {
		text = "No attempt was made."
	}
	text += " Decisions taken: " + strconv.Itoa(decisions)
	if budget > 0 {
		text += " of a budget of " + strconv.Itoa(budget)
	}
	text += "."
	if lateAt > 0 {
		text += " The deadline (" + late + ") had passed at decision " + strconv.Itoa(lateAt) + "."
	}
	if o, ok := c.Observed["outcome"].(string); ok {
		text += " Outcome: " + o + "."
	}
	var exp []string
	if es, ok := strs(expected["statuses"]); ok {
		exp = es
		text += " Expected statuses: " + joinStrs(es) + "."
	}
	n := min(max(decisions, budget, lateAt, len(at), 1), pictureUnits)
	const left = 64
	w := left + n*pictureCell + 8
	rows := 1
	if exp != nil {
		rows = 2
	}
	h := 10 + rows*22 + 20
	s := newSVG(w, h, "Attempts by decision")
	x := func(i int) int { return left + (i-1)*pictureCell + pictureCell/2 }
	shape := map[string]string{"ok": "circle", "denied": "cross", "invalid": "triangle", "timeout": "diamond"}
	place := func(row int, sts []string, seqs func(int) int, cls func(string) string) {
		cy := 16 + row*22
		count := map[int]int{}
		for i, st := range sts {
			d := seqs(i)
			if d < 1 || d > n {
				continue
			}
			off := count[d] * 5
			count[d]++
			sh, ok := shape[st]
			if !ok {
				sh = "square"
			}
			s.mark(sh, x(d)+off, cy, cls(st))
			if off == 0 {
				s.text(x(d)+7, cy+4, "start", "tiny", statusLetter(st))
			}
		}
	}
	s.text(left-6, 20, "end", "lbl", "observed")
	place(0, statuses, func(i int) int {
		if i < len(at) {
			return at[i]
		}
		return 0
	}, func(st string) string { return "st-" + statusClass(st) })
	if exp != nil {
		s.text(left-6, 42, "end", "lbl", "expected")
		place(1, exp, func(i int) int {
			if i < len(at) {
				return at[i]
			}
			return i + 1
		}, func(string) string { return "exp" })
	}
	if budget > 0 && budget <= n {
		bx := left + budget*pictureCell
		s.add("line", "x1", strconv.Itoa(bx), "y1", "4", "x2", strconv.Itoa(bx), "y2", strconv.Itoa(h-16), "class", "limit dash")
		s.text(bx-2, 10, "end", "tiny", "budget")
	}
	if lateAt > 0 && lateAt <= n {
		lx := left + (lateAt-1)*pictureCell
		s.add("line", "x1", strconv.Itoa(lx), "y1", "4", "x2", strconv.Itoa(lx), "y2", strconv.Itoa(h-16), "class", "late")
		s.text(lx+2, 10, "start", "tiny", "deadline")
	}
	for i := 1; i <= n; i++ {
		s.text(x(i), h-4, "middle", "lbl", strconv.Itoa(i))
	}
	return &picture{Title: "Attempts by decision", Text: text, SVG: s.done()}
}

// statusLetter marks an attempt's status in a letter as well as a shape:
// O ok, D denied, I invalid, T timeout, ? anything else.
func statusLetter(st string) string {
	switch st {
	case "ok":
		return "O"
	case "denied":
		return "D"
	case "invalid":
		return "I"
	case "timeout":
		return "T"
	}
	return "?"
}

func statusClass(st string) string {
	switch st {
	case "ok", "denied", "invalid", "timeout":
		return st
	}
	return "other"
}

// laneSteps are the OMP trace's kinds drawn in a call's lane, with the
// letter each is marked with; other kinds are left out of the drawing (the
// timeline below it lists every event).
var laneSteps = map[string]string{
	"resolve": "R", "tool_call": "T", "approval": "A", "select": "S", "execute": "E",
	"fallback": "F", "write": "W", "classify": "C",
}

// lanePicture draws an OMP case as one lane per call: resolve → tool_call
// → approval → select → execute, each a lettered box, ending in a return
// (✓) or a throw (✕).
func lanePicture(c *Case) *picture {
	type lane struct {
		seq   int
		steps []string
		end   string
	}
	var lanes []lane
	for _, e := range c.Trace {
		// A scenario of one call numbers nothing: its events are call 1.
		seq := max(e.Seq, 1)
		if len(lanes) == 0 || lanes[len(lanes)-1].seq != seq {
			lanes = append(lanes, lane{seq: seq})
		}
		l := &lanes[len(lanes)-1]
		if e.Kind == "outcome" {
			l.end = e.Text
			continue
		}
		if _, ok := laneSteps[e.Kind]; ok {
			l.steps = append(l.steps, e.Kind)
		}
	}
	if len(lanes) == 0 {
		return nil
	}
	drawn, cut := shown(lanes)
	var words []string
	for _, l := range drawn {
		w := c.Unit + " " + strconv.Itoa(l.seq) + ": " + strings.Join(l.steps, " → ")
		if l.end != "" {
			w += " → " + endWord(l.end)
		}
		words = append(words, w)
	}
	text := strings.Join(words, "; ") + "." + cut
	const left, box, gap = 52, 16, 6
	widest := 0
	for _, l := range drawn {
		widest = max(widest, min(len(l.steps), pictureSteps)+1)
	}
	w := left + widest*(box+gap) + 8
	h := len(drawn)*22 + 6
	s := newSVG(w, h, "Calls")
	for r, l := range drawn {
		cy := 4 + r*22
		s.text(left-6, cy+12, "end", "lbl", c.Unit+" "+strconv.Itoa(l.seq))
		steps := l.steps
		if len(steps) > pictureSteps {
			steps = steps[:pictureSteps]
		}
		x := left
		for i, st := range steps {
			if i > 0 {
				s.add("line", "x1", strconv.Itoa(x-gap), "y1", strconv.Itoa(cy+8), "x2", strconv.Itoa(x), "y2", strconv.Itoa(cy+8), "class", "axis")
			}
			cls := "step"
			if st == "execute" || st == "write" {
				cls = "step did"
			}
			s.add("rect", "x", strconv.Itoa(x), "y", strconv.Itoa(cy), "width", strconv.Itoa(box), "height", strconv.Itoa(box), "rx", "3", "class", cls)
			s.text(x+box/2, cy+12, "middle", "tiny", laneSteps[st])
			x += box + gap
		}
		if l.end != "" {
			cls, sign := "ret", "✓"
			if strings.HasPrefix(l.end, "throw") {
				cls, sign = "thr", "✕"
			}
			s.add("circle", "cx", strconv.Itoa(x+box/2), "cy", strconv.Itoa(cy+8), "r", "8", "class", cls)
			s.text(x+box/2, cy+12, "middle", "tiny", sign)
		}
	}
	return &picture{Title: "Calls", Text: text, SVG: s.done()}
}

// endWord is a lane's last step in a word: return or throw.
func endWord(outcome string) string {
	if strings.HasPrefix(outcome, "throw") {
		return "throw"
	}
	if i := strings.IndexAny(outcome, ": "); i > 0 {
		return outcome[:i]
	}
	return outcome
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
