package verifier

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tidwall/gjson"
)

// scan walks a document that is known to be valid JSON once, byte by byte,
// and reports duplicate keys, nesting beyond the limit, numbers out of
// range and over-long strings or keys. Unlike a walk with a JSON library,
// which finds the end of every nested value before descending into it, it
// reads each byte once. Pointers are only computed for the problems found.
func (d *Desk) scan(limits Limits) Diagnostics {
	sc := &scanner{d: d, s: d.text, limits: limits}
	sc.value(1)
	return sc.ds
}

type scanner struct {
	d      *Desk
	s      string
	i      int
	limits Limits
	ds     Diagnostics
}

func (sc *scanner) problem(off int, ptr string, format string, args ...any) {
	line, col := sc.d.position().at(off)
	sc.ds = append(sc.ds, Diagnostic{Severity: Error, File: sc.d.Path, Line: line, Col: col, Pointer: ptr, Summary: fmt.Sprintf(format, args...)})
}

func (sc *scanner) space() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// value reads the value at the cursor.
func (sc *scanner) value(depth int) {
	sc.space()
	start := sc.i
	switch c := sc.s[sc.i]; {
	case depth > sc.limits.Depth:
		sc.problem(start, sc.d.pointerAt(start), "nesting deeper than %d levels", sc.limits.Depth)
		sc.skip()
	case c == '{':
		sc.object(depth)
	case c == '[':
		sc.i++
		sc.space()
		if sc.s[sc.i] == ']' {
			sc.i++
			return
		}
		for {
			sc.value(depth + 1)
			sc.space()
			c := sc.s[sc.i]
			sc.i++
			if c == ']' {
				return
			}
		}
	case c == '"':
		end := sc.str()
		if end-start > sc.limits.String+2 {
			sc.problem(start, sc.d.pointerAt(start), "%s", overLimit("the length of a string", int64(end-start-2), int64(sc.limits.String)))
		}
	case c == 't' || c == 'n':
		sc.i += 4
	case c == 'f':
		sc.i += 5
	default:
		sc.number(start)
	}
}

// object reads the object at the cursor.
func (sc *scanner) object(depth int) {
	sc.i++ // {
	var small [16]scanKey
	keys := small[:0]
	var many map[string]int
	for {
		sc.space()
		if sc.s[sc.i] == '}' {
			sc.i++
			return
		}
		if sc.s[sc.i] == ',' {
			sc.i++
			sc.space()
		}
		kstart := sc.i
		kend := sc.str()
		if kend-kstart > sc.limits.String+2 {
			sc.problem(kstart, sc.d.pointerAt(kstart), "%s", overLimit("the length of a key", int64(kend-kstart-2), int64(sc.limits.String)))
			sc.i = kstart
			sc.skipRestOfObject()
			return
		}
		name := sc.s[kstart+1 : kend-1]
		if containsBackslash(name) {
			name = gjson.Parse(sc.s[kstart:kend]).Str
		}
		sc.space()
		sc.i++ // :
		first := -1
		if many != nil {
			if off, ok := many[name]; ok {
				first = off
			}
			many[name] = kstart
		} else {
			for _, k := range keys {
				if k.name == name {
					first = k.off
					break
				}
			}
			if keys = append(keys, scanKey{name, kstart}); len(keys) > len(small) {
				many = make(map[string]int, 2*len(keys))
				for _, k := range keys {
					many[k.name] = k.off
				}
			}
		}
		if first >= 0 {
			fl, fc := sc.d.position().at(first)
			sc.problem(kstart, sc.d.pointerAt(kstart)+"/"+pointerToken(name), "duplicate key %q (first at %d:%d)", name, fl, fc)
			sc.space()
			sc.skip()
			continue
		}
		sc.value(depth + 1)
	}
}

type scanKey struct {
	name string
	off  int
}

func containsBackslash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			return true
		}
	}
	return false
}

// str moves past the string at the cursor and returns its end offset.
func (sc *scanner) str() int {
	sc.i++ // opening quote
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case '\\':
			sc.i += 2
		case '"':
			sc.i++
			return sc.i
		default:
			sc.i++
		}
	}
	return sc.i
}

// number moves past the number at the cursor and checks its range.
func (sc *scanner) number(start int) {
	simple := true
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		if c >= '0' && c <= '9' || c == '-' {
			sc.i++
			continue
		}
		if c == '.' || c == 'e' || c == 'E' || c == '+' {
			simple = false
			sc.i++
			continue
		}
		break
	}
	raw := sc.s[start:sc.i]
	if simple && len(raw) <= 300 {
		return // digits alone stay far inside float64's range
	}
	if f, err := strconv.ParseFloat(raw, 64); err != nil || math.IsInf(f, 0) {
		sc.problem(start, sc.d.pointerAt(start), "number %s is out of range", raw)
	}
}

// skip moves past the value at the cursor without looking inside.
func (sc *scanner) skip() {
	sc.space()
	depth := 0
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case '"':
			sc.str()
			if depth == 0 {
				return
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				sc.i++
				return
			}
			if depth < 0 {
				return
			}
		case ',':
			if depth == 0 {
				return
			}
		}
		sc.i++
	}
}

// skipRestOfObject moves past the closing brace of the object the cursor
// is in.
func (sc *scanner) skipRestOfObject() {
	depth := 1
	for sc.i < len(sc.s) && depth > 0 {
		switch sc.s[sc.i] {
		case '"':
			sc.str()
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		sc.i++
	}
}
