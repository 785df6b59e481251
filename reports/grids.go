package reports

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// Bounds of the grids.
const (
	// gridColumns is the most cases (coverage) or releases drawn across.
	gridColumns = 40
	// gridRows is the most points or cases drawn down.
	gridRows = 60
	gridCell = 12
	// gridDesks is the most desks whose coverage is drawn.
	gridDesks = 10
	// gridLabelRunes is the most characters of a column's label.
	gridLabelRunes = 16
)

// A grid is a picture of a matrix — points by cases, cases by releases —
// drawn as inline SVG, with its text equivalent beside it.
type grid struct {
	Title string
	Text  string
	SVG   template.HTML
}

// coverageGrid draws one desk's points (rows) by the cases that reach them
// (columns): a filled square where a case reaches a point, an unreached
// point's row marked with a cross and shaded. A point reached by more
// cases than the report lists counts the rest in the last column.
func coverageGrid(pc PointCoverage) *grid {
	if len(pc.List) == 0 {
		return nil
	}
	var cases []string
	col := map[string]int{}
	for _, p := range pc.List {
		for _, c := range p.Cases {
			if _, ok := col[c]; !ok && len(cases) < gridColumns {
				col[c] = len(cases)
				cases = append(cases, c)
			}
		}
	}
	rows := pc.List[:min(len(pc.List), gridRows)]
	var unreached []string
	for _, p := range pc.List {
		if p.Reached == 0 {
			unreached = append(unreached, p.Point)
		}
	}
	text := pc.Desk + " (" + pc.Host + "): " + strconv.Itoa(pc.Reached) + " of " + strconv.Itoa(pc.Points) + " points reached, by " + strconv.Itoa(len(cases)) + " cases"
	if len(unreached) > 0 {
		text += "; unreached: " + strings.Join(unreached[:min(len(unreached), pictureUnits)], ", ") + more(len(unreached))
	}
	text += "."
	if len(pc.List) > len(rows) {
		text += " The first " + strconv.Itoa(len(rows)) + " of " + strconv.Itoa(len(pc.List)) + " points are drawn."
	}
	// Each column is labelled with its case's id (without the desk), written
	// slanting up from the top of the grid.
	const left, top = 230, 64
	w := left + (len(cases)+1)*gridCell + 60
	h := top + len(rows)*gridCell + 8
	s := newDrawing("pic grid", w, h, "Points by cases")
	// The ids' common start, up to a dash, is left out of the labels.
	var ids []string
	for _, c := range cases {
		ids = append(ids, strings.TrimPrefix(c, pc.Desk+"/"))
	}
	common := commonDashPrefix(ids)
	for i, c := range cases {
		x := left + i*gridCell + gridCell/2
		id := strings.TrimPrefix(ids[i], common)
		s.open("text", "x", strconv.Itoa(x), "y", strconv.Itoa(top-2), "class", "tiny s", "transform", "rotate(-60 "+strconv.Itoa(x)+" "+strconv.Itoa(top-2)+")")
		s.b.WriteString("><title>" + esc(c) + "</title>" + esc(clipRunes(id, gridLabelRunes)) + "</text>")
	}
	for r, p := range rows {
		y := top + 4 + r*gridCell
		cls := "lbl"
		if p.Reached == 0 {
			s.add("rect", "x", "0", "y", strconv.Itoa(y), "width", strconv.Itoa(w), "height", strconv.Itoa(gridCell), "class", "unreached-row")
			s.text(left+len(cases)*gridCell+gridCell/2, y+gridCell-3, "middle", "tiny", "✕")
			cls = "lbl gap"
		}
		s.text(left-6, y+gridCell-3, "end", cls, p.Point)
		for _, c := range p.Cases {
			if x, ok := col[c]; ok {
				s.add("rect", "x", strconv.Itoa(left+x*gridCell+1), "y", strconv.Itoa(y+1), "width", strconv.Itoa(gridCell-2), "height", strconv.Itoa(gridCell-2), "class", "cell")
			}
		}
		if extra := p.Reached - len(p.Cases); extra > 0 {
			s.text(left+len(cases)*gridCell+2, y+gridCell-3, "start", "tiny", "+"+strconv.Itoa(extra))
		}
	}
	return &grid{Title: "Boundary coverage of " + pc.Desk, Text: text, SVG: s.done()}
}

// releaseGrid draws the cases judged on more than one release (rows) by
// the host's releases (columns, grouped by behaviour group): ✓ held, ✕
// failed, – not applicable, blank not judged there.
func releaseGrid(r *Report) *grid {
	var releases []string
	for _, h := range r.Provenance.Hosts {
		if len(h.Releases) > 0 {
			releases = h.Releases
			break
		}
	}
	if len(releases) == 0 {
		return nil
	}
	col := map[string]int{}
	for i, v := range releases[:min(len(releases), gridColumns)] {
		col[v] = i
	}
	var rows []*Case
	total := 0
	for i := range r.Cases {
		if len(r.Cases[i].Releases) > 1 {
			total++
			if len(rows) < gridRows {
				rows = append(rows, &r.Cases[i])
			}
		}
	}
	if total == 0 {
		return nil
	}
	group := map[string]string{}
	failed := 0
	for _, c := range rows {
		for _, v := range c.Releases {
			group[v.Release] = v.Group
		}
		if c.Status == verifier.Fail || c.Status == verifier.Errored {
			failed++
		}
	}
	text := strconv.Itoa(total) + " cases judged on more than one release; " + strconv.Itoa(failed) + " of those drawn fail on at least one."
	if total > len(rows) {
		text += " The first " + strconv.Itoa(len(rows)) + " are drawn."
	}
	const left, top = 300, 58
	w := left + len(col)*gridCell + 8
	h := top + len(rows)*gridCell + 4
	s := newDrawing("pic grid", w, h, "Cases by releases")
	for i, v := range releases[:len(col)] {
		x := left + i*gridCell + gridCell/2
		s.open("text", "x", strconv.Itoa(x), "y", strconv.Itoa(top-4), "class", "tiny s", "transform", "rotate(-60 "+strconv.Itoa(x)+" "+strconv.Itoa(top-4)+")")
		s.b.WriteString(">" + esc(v+" "+group[v]) + "</text>")
	}
	for r, c := range rows {
		y := top + r*gridCell
		s.text(left-6, y+gridCell-3, "end", "lbl", c.Desk+"/"+c.ID)
		for _, v := range c.Releases {
			i, ok := col[v.Release]
			if !ok {
				continue
			}
			x := left + i*gridCell
			switch v.Status {
			case verifier.Pass:
				s.add("rect", "x", strconv.Itoa(x+1), "y", strconv.Itoa(y+1), "width", strconv.Itoa(gridCell-2), "height", strconv.Itoa(gridCell-2), "class", "cell ok")
				s.text(x+gridCell/2, y+gridCell-3, "middle", "tiny", "✓")
			case verifier.NotApplicable:
				s.text(x+gridCell/2, y+gridCell-3, "middle", "tiny", "–")
			default:
				s.add("rect", "x", strconv.Itoa(x+1), "y", strconv.Itoa(y+1), "width", strconv.Itoa(gridCell-2), "height", strconv.Itoa(gridCell-2), "class", "cell bad")
				s.text(x+gridCell/2, y+gridCell-3, "middle", "tiny", "✕")
			}
		}
	}
	return &grid{Title: "Cases by release", Text: text, SVG: s.done()}
}

// commonDashPrefix is the longest start all of ids share that ends with a
// dash and leaves each of them something; "" for fewer than two ids.
func commonDashPrefix(ids []string) string {
	if len(ids) < 2 {
		return ""
	}
	p := ids[0]
	for _, id := range ids[1:] {
		n := 0
		for n < len(p) && n < len(id) && p[n] == id[n] {
			n++
		}
		p = p[:n]
	}
	for _, id := range ids {
		if len(p) >= len(id) {
			p = p[:max(0, len(id)-1)]
		}
	}
	if i := strings.LastIndexByte(p, '-'); i >= 0 {
		return p[:i+1]
	}
	return ""
}
