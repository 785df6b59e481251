package reports

import (
	"strconv"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// appendCoverageJSON appends c as report.json's head holds it: the bytes
// encoding/json writes for it with SetEscapeHTML(false) and
// SetIndent(indent, "  "), without the final newline. ok is false when c
// holds a made case (cover's) or a string that is not UTF-8, which only
// the encoder writes. A run of
// 10,000 cases has about 1 MB of coverage; the encoder made and copied
// it several times over (TestCoverageJSONIsTheEncoders holds the two to
// the same bytes).
func appendCoverageJSON(b []byte, c *Coverage, indent string) (out []byte, ok bool) {
	if c == nil {
		return append(b, "null"...), true
	}
	// jsonx and the encoder differ only on text that is not UTF-8 (ids
	// and names are, as the schema and the code make them).
	valid := func(ss ...string) bool {
		for _, s := range ss {
			if !utf8.ValidString(s) {
				return false
			}
		}
		return true
	}
	for _, list := range [][]PointCoverage{c.Desks, c.Families} {
		for i := range list {
			p := &list[i]
			if !valid(p.Desk, p.Host) || !valid(p.NotAddressed...) {
				return b, false
			}
			for j := range p.List {
				r := &p.List[j]
				if r.Made != nil || !valid(r.Point, r.Scenario, r.Text) || !valid(r.Cases...) {
					return b, false
				}
			}
		}
	}
	w := indentWriter{b: b, prefix: indent}
	w.open('{')
	w.key("desks")
	w.pointCoverages(c.Desks)
	w.next()
	w.key("families")
	w.pointCoverages(c.Families)
	w.close('}')
	return w.b, true
}

// indentWriter writes JSON indented as encoding/json's Indent does with
// prefix and "  ": each member or element on a line of its own, an empty
// object or array as {} or [].
type indentWriter struct {
	b      []byte
	prefix string
	depth  int
}

func (w *indentWriter) newline() {
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	for range w.depth {
		w.b = append(w.b, "  "...)
	}
}

// open starts an object or array that has at least one member.
func (w *indentWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.newline()
}

func (w *indentWriter) close(c byte) {
	w.depth--
	w.newline()
	w.b = append(w.b, c)
}

// next separates one member or element from the next.
func (w *indentWriter) next() {
	w.b = append(w.b, ',')
	w.newline()
}

func (w *indentWriter) key(k string) {
	w.b = jsonx.AppendString(w.b, k)
	w.b = append(w.b, ": "...)
}

func (w *indentWriter) str(k, v string) {
	w.key(k)
	w.b = jsonx.AppendString(w.b, v)
}

func (w *indentWriter) num(k string, v int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

// list writes list as encoding/json writes a slice: null when nil, []
// when empty, else one element a line, each written by each.
func list[T any](w *indentWriter, list []T, each func(*T)) {
	switch {
	case list == nil:
		w.b = append(w.b, "null"...)
		return
	case len(list) == 0:
		w.b = append(w.b, "[]"...)
		return
	}
	w.open('[')
	for i := range list {
		if i > 0 {
			w.next()
		}
		each(&list[i])
	}
	w.close(']')
}

func (w *indentWriter) strings(l []string) {
	list(w, l, func(s *string) { w.b = jsonx.AppendString(w.b, *s) })
}

func (w *indentWriter) pointCoverages(l []PointCoverage) {
	list(w, l, func(p *PointCoverage) {
		w.open('{')
		if p.Desk != "" {
			w.str("desk", p.Desk)
			w.next()
		}
		w.str("host", p.Host)
		w.next()
		w.num("reached", p.Reached)
		w.next()
		w.num("points", p.Points)
		w.next()
		w.key("list")
		w.pointResults(p.List)
		if len(p.NotAddressed) > 0 {
			w.next()
			w.key("notAddressed")
			w.strings(p.NotAddressed)
		}
		if p.Unaddressed != 0 {
			w.next()
			w.num("unaddressedPoints", p.Unaddressed)
		}
		w.close('}')
	})
}

func (w *indentWriter) pointResults(l []PointResult) {
	list(w, l, func(r *PointResult) {
		w.open('{')
		w.str("point", r.Point)
		w.next()
		w.str("scenario", r.Scenario)
		w.next()
		w.str("text", r.Text)
		w.next()
		w.num("reached", r.Reached)
		w.next()
		w.key("cases")
		w.strings(r.Cases)
		w.close('}')
	})
}
