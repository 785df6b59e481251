package verifier

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// check is the first thing that reads a case file, and the only reader
// that sees it before its nesting is known to be within the limit. It
// walks the bytes once, without recursion, keeping an explicit stack of
// the open objects and arrays, and finds:
//
//   - every way the text is not JSON (the messages and positions are
//     encoding/json's);
//   - a top level that is not an object;
//   - nesting beyond the depth limit;
//   - duplicate keys, at any depth;
//   - numbers beyond float64;
//   - strings and keys longer than the string limit, measured on the
//     decoded text (an escape such as \u0041 counts as the one byte it
//     stands for).
//
// Its time and memory are linear in the size of the file: a JSON pointer is
// built from the stack only for a problem that is reported, and at most
// limits.Diagnostics problems are reported; the rest are counted. Only a
// document it passes is handed to readers that recurse (gjson, the schema
// validator and its decoder), so their recursion is bounded by the depth
// limit.
func (d *Desk) check(limits Limits) Diagnostics {
	c := &checker{d: d, s: d.text, limits: limits, rep: newReporter(d, limits.Diagnostics)}
	c.run()
	return c.rep.done()
}

// read is check for Load, which goes on past a duplicate key: it also
// says whether any problem is of another kind (fatal), which leaves the
// later readers nothing they can read, and returns the text those
// readers are to read. That is the file itself, or, when a key repeats,
// a copy in which every repeated member, from the comma before it to
// the end of its value, is overwritten with spaces: the first value of
// each key is the one read, and every byte keeps its offset, so that
// positions found in the copy are those of the file.
//
// The copy is returned as doc, and as text without a second copy: neither
// is written to again.
//
// It also returns what the walk found on the way for the loader
// (walked).
func (d *Desk) read(limits Limits) (ds Diagnostics, fatal bool, text string, doc []byte, w walked) {
	c := &checker{d: d, s: d.text, limits: limits, rep: newReporter(d, limits.Diagnostics), firstOnly: true, entries: [2]int{-1, -1}, indexing: true, index: newIndex()}
	c.run()
	ds = c.rep.done()
	fatal = c.syntax || c.rep.fatal
	w = walked{entries: c.entries, index: c.index}
	if c.blank == nil || fatal {
		return ds, fatal, d.text, nil, w
	}
	return ds, fatal, unsafe.String(&c.blank[0], len(c.blank)), c.blank, w
}

// walked is what read's walk found for the loader besides the problems.
type walked struct {
	// entries gives, for "cases" and "sourceOnly" (entryKeys), the
	// number of elements of the top-level array that key holds, or -1
	// when the walk did not count it (the key is missing or holds no
	// array, or the depth limit is 1): the loader counts those itself.
	entries [2]int
	// index is where the values the loader reads lie.
	index textIndex
}

// entryKeys are the top-level keys whose arrays the limit on entries
// bounds, in the order of read's entries.
var entryKeys = [2]string{"cases", "sourceOnly"}

// entryOf is the place in entryKeys of the key whose first value the
// container at depth 2 is, or -1: that container is a top-level member of
// the index, whose key is the top-level object's current key.
func (c *checker) entryOf() int {
	if len(c.frames) < 2 || c.frames[1].level != topMember {
		return -1
	}
	for i, k := range entryKeys {
		if c.frames[0].key == k {
			return i
		}
	}
	return -1
}

// reporter collects one file's problems up to a cap and counts the rest.
type reporter struct {
	d    *Desk
	cap  int
	ds   Diagnostics
	more int
	// fatal is set by any problem but a duplicate key.
	fatal bool
}

func newReporter(d *Desk, cap int) *reporter {
	if cap <= 0 {
		cap = DefaultLimits.Diagnostics
	}
	return &reporter{d: d, cap: cap}
}

// full reports whether further problems are only counted.
func (r *reporter) full() bool { return len(r.ds) >= r.cap }

// add records a problem at byte offset off; pointer is called only when
// the problem is kept.
func (r *reporter) add(off int, pointer func() string, format string, args ...any) {
	r.fatal = true
	r.duplicate(off, pointer, format, args...)
}

// duplicate is add for a duplicate key, the one problem after which the
// file is still read by the later checks.
func (r *reporter) duplicate(off int, pointer func() string, format string, args ...any) {
	if r.full() {
		r.more++
		return
	}
	line, col := r.d.position().at(off)
	ptr := ""
	if pointer != nil {
		ptr = pointer()
	}
	r.ds = append(r.ds, Diagnostic{Severity: Error, File: r.d.Path, Line: line, Col: col, Pointer: ptr, Summary: fmt.Sprintf(format, args...)})
}

func (r *reporter) done() Diagnostics {
	if r.more > 0 {
		r.ds = append(r.ds, moreDiagnostic(r.d.Path, r.more, r.more, 0))
	}
	return r.ds
}

// frame is an open object or array within the depth limit.
type frame struct {
	obj bool
	// tok is the pointer token of the container in its parent.
	tok string
	// index counts the elements of an array, key is the current key of
	// an object.
	index int
	key   string
	// keys seen so far in an object: a short list for the usual small
	// object, a map once it grows large.
	keys []scanKey
	many map[string]int
	// rising holds the offsets of the keys while they rise, last the
	// last of them (claim); risingRoom is rising's room kept from object
	// to object.
	rising     []uint32
	risingRoom []uint32
	last       string
	// set holds the keys once they stop rising.
	set *keySet
	// repeat is the offset of the comma before a member whose key
	// repeats an earlier one, while its value is read; -1 when none.
	repeat int
	// level is what the container is to the index (textIndex).
	level indexLevel
}

type scanKey struct {
	name string
	off  int
}

type checker struct {
	d      *Desk
	s      string
	i      int
	limits Limits
	rep    *reporter
	// kinds holds '{' or '[' for every open container, frames the ones
	// within the depth limit (the first len(frames) of kinds).
	kinds  []byte
	frames []frame
	// syntax is set once the text is found not to be JSON.
	syntax bool
	// firstOnly asks for the text with every repeated member blanked
	// out: blank is that copy, made at the first repeat, comma is the
	// offset of the last comma read between members, and repeats counts
	// the open frames whose repeated member is being read.
	firstOnly bool
	blank     []byte
	comma     int
	repeats   int
	// entries counts the elements of the arrays of entryKeys (see read).
	entries [2]int
	// index is where the values the loader reads lie (textIndex), made
	// when indexing is set.
	index    textIndex
	indexing bool
}

// syntaxError reports where the text stops being JSON, in encoding/json's
// words, and stops the walk.
func (c *checker) syntaxError(off int, format string, args ...any) {
	c.syntax = true
	line, col := c.d.position().at(off)
	// A syntax error is reported even when the cap is reached: it is the
	// one problem that explains why the rest of the file was not read.
	c.rep.ds = append(c.rep.ds, Diagnostic{Severity: Error, File: c.d.Path, Line: line, Col: col, Summary: "malformed JSON: " + fmt.Sprintf(format, args...)})
}

// eof reports a file that ends where a value or a closing bracket should
// follow, at its last byte.
func (c *checker) eof() { c.syntaxError(max(len(c.s)-1, 0), "unexpected end of JSON input") }

// cut reports a file that ends inside a token. encoding/json reads the end
// as a space, so it names a space as the offending character.
func (c *checker) cut(where string) {
	c.i = len(c.s)
	c.syntaxError(max(len(c.s)-1, 0), "invalid character ' ' %s", where)
}

// quoteChar quotes a byte as encoding/json does in its messages.
func quoteChar(b byte) string {
	switch b {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(b)))
	return "'" + q[1:len(q)-1] + "'"
}

func (c *checker) space() {
	for c.i < len(c.s) {
		switch c.s[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// pointer is the JSON pointer of the value being read: the tokens of the
// open containers within the limit and the current key or index.
func (c *checker) pointer() string {
	var n int
	for i := 1; i < len(c.frames); i++ {
		n += 1 + len(c.frames[i].tok)
	}
	b := make([]byte, 0, n+16)
	for i := 1; i < len(c.frames); i++ {
		b = append(b, '/')
		b = append(b, c.frames[i].tok...)
	}
	if len(c.frames) > 0 && len(c.frames) == len(c.kinds) {
		top := &c.frames[len(c.frames)-1]
		b = append(b, '/')
		if top.obj {
			b = append(b, jsontext.PointerToken(top.key)...)
		} else {
			b = strconv.AppendInt(b, int64(top.index), 10)
		}
	}
	return string(b)
}

// containerPointer is the pointer of the innermost open container.
func (c *checker) containerPointer() string {
	var b []byte
	for i := 1; i < len(c.frames); i++ {
		b = append(b, '/')
		b = append(b, c.frames[i].tok...)
	}
	return string(b)
}

// push opens a container.
func (c *checker) push(kind byte) {
	depth := len(c.kinds) + 1
	c.kinds = append(c.kinds, kind)
	if depth > c.limits.Depth {
		return
	}
	tok := ""
	if n := len(c.frames); n > 0 {
		if top := &c.frames[n-1]; top.obj {
			tok = jsontext.PointerToken(top.key)
		} else {
			tok = strconv.Itoa(top.index)
		}
	}
	if len(c.frames) < cap(c.frames) {
		c.frames = c.frames[:len(c.frames)+1]
	} else {
		c.frames = append(c.frames, frame{})
	}
	f := &c.frames[len(c.frames)-1]
	f.obj, f.tok, f.index, f.key = kind == '{', tok, 0, ""
	f.keys = f.keys[:0]
	if cap(f.rising) > cap(f.risingRoom) {
		f.risingRoom = f.rising
	}
	f.many, f.rising, f.last, f.set = nil, nil, "", nil
	f.repeat = -1
	f.level = notIndexed
}

// endMember is called, while a repeated member is being read, at the
// comma or closing brace that ends a member of the innermost object: a
// repeated member ends there, and is blanked out unless a repeated member
// around it will be, whole.
func (c *checker) endMember() {
	if len(c.frames) != len(c.kinds) {
		return
	}
	f := &c.frames[len(c.frames)-1]
	if f.repeat < 0 {
		return
	}
	from := f.repeat
	f.repeat = -1
	c.repeats--
	if c.repeats > 0 {
		return
	}
	if c.blank == nil {
		c.blank = []byte(c.s)
	}
	for i := from; i < c.i; i++ {
		c.blank[i] = ' '
	}
}

// popArray closes the innermost container, an array of n elements.
func (c *checker) popArray(n int) {
	if len(c.kinds) == 2 && len(c.frames) == 2 {
		if e := c.entryOf(); e >= 0 {
			c.entries[e] = n
		}
	}
	c.pop()
}

// pop closes the innermost container; the walk has just read past its
// closing bracket.
func (c *checker) pop() {
	if len(c.frames) == len(c.kinds) {
		if l := c.frames[len(c.frames)-1].level; l != notIndexed {
			c.ends(l, c.i)
		}
		c.frames = c.frames[:len(c.frames)-1]
	}
	c.kinds = c.kinds[:len(c.kinds)-1]
}

// deep reports whether the value about to be read lies beyond the limit.
func (c *checker) deep() bool { return len(c.kinds) >= c.limits.Depth }

func (c *checker) run() {
	c.space()
	if c.i < len(c.s) && c.s[c.i] != '{' {
		// Still read it all: a file that is not JSON says so first.
		defer func() {
			if !c.syntax {
				c.rep.ds = nil
				c.rep.more = 0
				c.rep.add(firstNonSpace(c.s), nil, "the top level must be a JSON object")
			}
		}()
	}
	// The walk alternates between reading a value and reading what
	// follows a value (a comma, a colon, a closing bracket).
	for {
		if !c.value() {
			return
		}
		for {
			if len(c.kinds) == 0 {
				c.space()
				if c.i < len(c.s) {
					c.syntaxError(c.i, "invalid character %s after top-level value", quoteChar(c.s[c.i]))
				}
				return
			}
			c.space()
			if c.i >= len(c.s) {
				c.eof()
				return
			}
			b := c.s[c.i]
			if c.kinds[len(c.kinds)-1] == '{' {
				switch b {
				case ',':
					if c.repeats > 0 {
						c.endMember()
					}
					c.comma = c.i
					c.i++
					if !c.key() {
						return
					}
				case '}':
					if c.repeats > 0 {
						c.endMember()
					}
					c.i++
					c.pop()
					continue
				default:
					c.syntaxError(c.i, "invalid character %s after object key:value pair", quoteChar(b))
					return
				}
			} else {
				switch b {
				case ',':
					c.i++
					if len(c.frames) == len(c.kinds) {
						c.frames[len(c.frames)-1].index++
					}
				case ']':
					c.i++
					n := -1
					if len(c.frames) == len(c.kinds) {
						n = c.frames[len(c.frames)-1].index + 1
					}
					c.popArray(n)
					continue
				default:
					c.syntaxError(c.i, "invalid character %s after array element", quoteChar(b))
					return
				}
			}
			break
		}
	}
}

// value reads one value; an object or array is only opened (with its
// first key read), its contents follow in run's loop. It returns false
// when the walk must stop.
func (c *checker) value() bool {
	for {
		c.space()
		if c.i >= len(c.s) {
			c.eof()
			return false
		}
		start := c.i
		if len(c.kinds) == c.limits.Depth {
			c.rep.add(start, c.pointer, "nesting deeper than %d levels", c.limits.Depth)
		}
		checked := !c.deep()
		l := c.level()
		if l != notIndexed {
			c.begin(l, start)
		}
		switch b := c.s[c.i]; {
		case b == '{':
			c.i++
			c.push('{')
			c.indexed(l)
			c.space()
			if c.i < len(c.s) && c.s[c.i] == '}' {
				c.i++
				c.pop()
				return true
			}
			if !c.key() {
				return false
			}
			continue // the first member's value
		case b == '[':
			c.i++
			c.push('[')
			c.indexed(l)
			c.space()
			if c.i < len(c.s) && c.s[c.i] == ']' {
				c.i++
				c.popArray(0)
				return true
			}
			continue // the first element
		case b == '"':
			n, _, ok := c.str()
			if !ok {
				return false
			}
			if checked && n > c.limits.String {
				c.rep.add(start, c.pointer, "%s", overLimit("the length of a string", int64(n), int64(c.limits.String)))
			}
			return c.scalarEnds(l, true)
		case b == '-' || '0' <= b && b <= '9':
			return c.scalarEnds(l, c.number(checked))
		case b == 't':
			return c.scalarEnds(l, c.literal("true"))
		case b == 'f':
			return c.scalarEnds(l, c.literal("false"))
		case b == 'n':
			return c.scalarEnds(l, c.literal("null"))
		default:
			if word := notANumber(c.s[c.i:]); word != "" {
				c.syntaxError(start, "%s is not JSON: JSON has no such number (write a finite number, or null)", word)
				return false
			}
			c.syntaxError(start, "invalid character %s looking for beginning of value", quoteChar(b))
			return false
		}
	}
}

// notANumber returns the NaN or infinity that s starts with, as written
// ("NaN", "Infinity", "-Infinity", "+Infinity"), or "" for anything else.
func notANumber(s string) string {
	for _, w := range []string{"NaN", "Infinity", "-Infinity", "+Infinity", "-NaN", "+NaN"} {
		if strings.HasPrefix(s, w) {
			return w
		}
	}
	return ""
}

// underflows reports whether a number literal that parsed to 0 was written
// with a nonzero digit before its exponent: a value too small for a double,
// which every reader after this one would take as 0.
func underflows(raw string) bool {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == 'e' || c == 'E':
			return false
		case '1' <= c && c <= '9':
			return true
		}
	}
	return false
}

// key reads an object key and its colon, and checks it for duplicates and
// length.
func (c *checker) key() bool {
	c.space()
	if c.i >= len(c.s) {
		c.eof()
		return false
	}
	if c.s[c.i] != '"' {
		c.syntaxError(c.i, "invalid character %s looking for beginning of object key string", quoteChar(c.s[c.i]))
		return false
	}
	kstart := c.i
	n, escaped, ok := c.str()
	if !ok {
		return false
	}
	if len(c.frames) == len(c.kinds) {
		f := &c.frames[len(c.frames)-1]
		name := c.s[kstart+1 : c.i-1]
		if escaped {
			name = decodeString(name)
		}
		f.key = name
		if n > c.limits.String {
			c.rep.add(kstart, c.containerPointer, "%s", overLimit("the length of a key", int64(n), int64(c.limits.String)))
		} else if first := f.claim(c.s, name, kstart); first >= 0 {
			if c.rep.full() {
				c.rep.more++
			} else {
				fl, fc := c.d.position().at(first)
				c.rep.duplicate(kstart, c.pointer, "duplicate key %s (first at %d:%d)", jsontext.Quote(name), fl, fc)
			}
			// A repeat is never an object's first member: a comma
			// came before it.
			if c.firstOnly {
				f.repeat = c.comma
				c.repeats++
			}
		}
	}
	c.space()
	if c.i >= len(c.s) {
		c.eof()
		return false
	}
	if c.s[c.i] != ':' {
		c.syntaxError(c.i, "invalid character %s after object key", quoteChar(c.s[c.i]))
		return false
	}
	c.i++
	return true
}

// claim records a key of the object, whose text is text, and returns the
// offset of an earlier equal key, or -1. Past a few keys, while they rise
// (as every object deskcheck writes has them), a key that rises past the
// last repeats none and only its offset is kept; at the first that does
// not rise, the keys go into a set of their hashes and offsets (keySet).
// A map of a million short keys took several times their text.
func (f *frame) claim(text, name string, off int) int {
	if f.rising != nil {
		if name > f.last && off < math.MaxUint32 {
			f.rising = append(f.rising, uint32(off))
			f.last = name
			return -1
		}
		f.set = &keySet{}
		for _, at := range f.rising {
			f.set.claim(text, keyAt(text, int(at)), int(at))
		}
		if cap(f.rising) > cap(f.risingRoom) {
			f.risingRoom = f.rising
		}
		f.rising, f.last = nil, ""
	}
	if f.set != nil && off < math.MaxUint32 {
		return f.set.claim(text, name, off)
	}
	if f.set != nil { // past where a set's offsets reach: a map from here
		f.many = f.set.toMap(text)
		f.set = nil
	}
	if f.many != nil {
		if first, ok := f.many[name]; ok {
			return first
		}
		f.many[name] = off
		return -1
	}
	for _, k := range f.keys {
		if k.name == name {
			return k.off
		}
	}
	f.keys = append(f.keys, scanKey{name, off})
	if len(f.keys) > 16 {
		if off < math.MaxUint32 && slices.IsSortedFunc(f.keys, func(a, b scanKey) int { return strings.Compare(a.name, b.name) }) {
			// Rising so far (and no two equal: claim found none).
			f.rising = f.risingRoom[:0]
			for _, k := range f.keys {
				f.rising = append(f.rising, uint32(k.off))
			}
			f.last = name
			return -1
		}
		if off < math.MaxUint32 {
			f.set = &keySet{}
			for _, k := range f.keys {
				f.set.claim(text, k.name, k.off)
			}
			return -1
		}
		f.many = make(map[string]int, 2*len(f.keys))
		for _, k := range f.keys {
			f.many[k.name] = k.off
		}
	}
	return -1
}

// keySet is a set of an object's keys: an open-addressed table whose
// slots hold the high half of a key's hash and its offset in the text
// plus one (0 is an empty slot), eight bytes a key where a map took
// some forty; a key is compared with the text at the offset its hash
// finds.
type keySet struct {
	slots []uint64
	n     int
}

var keySeed = maphash.MakeSeed()

// claim adds the key name at off and returns the offset of an equal key
// already in the set, or -1.
func (s *keySet) claim(text, name string, off int) int {
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow(text)
	}
	h := maphash.String(keySeed, name)
	tag := h >> 32
	mask := uint64(len(s.slots) - 1)
	i := h & mask
	for s.slots[i] != 0 {
		if s.slots[i]>>32 == tag {
			if at := int(uint32(s.slots[i])) - 1; keyAt(text, at) == name {
				return at
			}
		}
		i = (i + 1) & mask
	}
	s.slots[i] = tag<<32 | uint64(off+1)
	s.n++
	return -1
}

// grow doubles the table, its keys hashed again from the text.
func (s *keySet) grow(text string) {
	old := s.slots
	s.slots = make([]uint64, max(64, 2*len(old)))
	s.n = 0
	for _, slot := range old {
		if slot != 0 {
			at := int(uint32(slot)) - 1
			s.claim(text, keyAt(text, at), at)
		}
	}
}

// toMap is the set as a map of keys to offsets.
func (s *keySet) toMap(text string) map[string]int {
	m := make(map[string]int, 2*s.n)
	for _, slot := range s.slots {
		if slot != 0 {
			at := int(uint32(slot)) - 1
			m[keyAt(text, at)] = at
		}
	}
	return m
}

// keyAt is the key whose string token starts at text[off].
func keyAt(text string, off int) string {
	j := off + 1
	escaped := false
	for j < len(text) && text[j] != '"' {
		if text[j] == '\\' {
			escaped = true
			j++
		}
		j++
	}
	name := text[off+1 : min(j, len(text))]
	if escaped {
		name = decodeString(name)
	}
	return name
}

// str moves past the string at the cursor, checking it, and returns the
// length of its decoded text in bytes and whether it holds an escape.
func (c *checker) str() (n int, escaped, ok bool) {
	c.i++ // opening quote
	for c.i < len(c.s) {
		b := c.s[c.i]
		switch {
		case b == '"':
			c.i++
			return n, escaped, true
		case b == '\\':
			escaped = true
			if c.i+1 >= len(c.s) {
				c.cut("in string escape code")
				return 0, false, false
			}
			switch e := c.s[c.i+1]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				c.i += 2
				n++
			case 'u':
				r, ok := c.hex4(c.i + 2)
				if !ok {
					return 0, false, false
				}
				c.i += 6
				if utf16.IsSurrogate(r) {
					// A pair decodes to one 4-byte character; an
					// unpaired half to U+FFFD.
					if r < 0xDC00 && c.i+1 < len(c.s) && c.s[c.i] == '\\' && c.s[c.i+1] == 'u' {
						r2, ok := c.hex4(c.i + 2)
						if !ok {
							return 0, false, false
						}
						if 0xDC00 <= r2 && r2 < 0xE000 {
							c.i += 6
							n += 4
							continue
						}
					}
					n += 3
					continue
				}
				n += utf8.RuneLen(r)
			default:
				c.syntaxError(c.i+1, "invalid character %s in string escape code", quoteChar(e))
				return 0, false, false
			}
		case b < 0x20:
			c.syntaxError(c.i, "invalid character %s in string literal", quoteChar(b))
			return 0, false, false
		default:
			c.i++
			n++
		}
	}
	c.eof()
	return 0, false, false
}

// hex4 reads the four hexadecimal digits of a \u escape at off.
func (c *checker) hex4(off int) (rune, bool) {
	var r rune
	for k := 0; k < 4; k++ {
		if off+k >= len(c.s) {
			c.cut(`in \u hexadecimal character escape`)
			return 0, false
		}
		b := c.s[off+k]
		var v byte
		switch {
		case '0' <= b && b <= '9':
			v = b - '0'
		case 'a' <= b && b <= 'f':
			v = b - 'a' + 10
		case 'A' <= b && b <= 'F':
			v = b - 'A' + 10
		default:
			c.syntaxError(off+k, "invalid character %s in \\u hexadecimal character escape", quoteChar(b))
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// number moves past the number at the cursor, checking its grammar and,
// when checked, its range.
func (c *checker) number(checked bool) bool {
	start := c.i
	simple := true
	digits := func() int {
		k := c.i
		for c.i < len(c.s) && '0' <= c.s[c.i] && c.s[c.i] <= '9' {
			c.i++
		}
		return c.i - k
	}
	if c.s[c.i] == '-' {
		if word := notANumber(c.s[c.i:]); word != "" {
			c.syntaxError(start, "%s is not JSON: JSON has no such number (write a finite number, or null)", word)
			return false
		}
		c.i++
	}
	switch {
	case c.i >= len(c.s):
		c.cut("in numeric literal")
		return false
	case c.s[c.i] == '0':
		c.i++
	case '1' <= c.s[c.i] && c.s[c.i] <= '9':
		digits()
	default:
		c.syntaxError(c.i, "invalid character %s in numeric literal", quoteChar(c.s[c.i]))
		return false
	}
	if c.i < len(c.s) && c.s[c.i] == '.' {
		simple = false
		c.i++
		if c.i >= len(c.s) {
			c.cut("after decimal point in numeric literal")
			return false
		}
		if digits() == 0 {
			c.syntaxError(c.i, "invalid character %s after decimal point in numeric literal", quoteChar(c.s[c.i]))
			return false
		}
	}
	if c.i < len(c.s) && (c.s[c.i] == 'e' || c.s[c.i] == 'E') {
		simple = false
		c.i++
		if c.i < len(c.s) && (c.s[c.i] == '+' || c.s[c.i] == '-') {
			c.i++
		}
		if c.i >= len(c.s) {
			c.cut("in exponent of numeric literal")
			return false
		}
		if digits() == 0 {
			c.syntaxError(c.i, "invalid character %s in exponent of numeric literal", quoteChar(c.s[c.i]))
			return false
		}
	}
	raw := c.s[start:c.i]
	if !checked || simple && len(raw) <= 300 {
		return true // digits alone stay far inside float64's range
	}
	if f, err := strconv.ParseFloat(raw, 64); err != nil || math.IsInf(f, 0) {
		c.rep.add(start, c.pointer, "number %s is out of range", raw)
	} else if f == 0 && underflows(raw) {
		c.rep.add(start, c.pointer, "number %s is out of range: it is not 0 but too small for a double, which reads it as 0", raw)
	}
	return true
}

// literal moves past true, false or null.
func (c *checker) literal(word string) bool {
	for k := 0; k < len(word); k++ {
		if c.i >= len(c.s) {
			c.cut(fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[k])))
			return false
		}
		if c.s[c.i] != word[k] {
			c.syntaxError(c.i, "invalid character %s in literal %s (expecting %s)", quoteChar(c.s[c.i]), word, quoteChar(word[k]))
			return false
		}
		c.i++
	}
	return true
}

// decodeString decodes the text between the quotes of a JSON string that
// check has read (so its escapes are well formed), as the hosts read it:
// an unpaired surrogate escape is kept (in WTF-8 form), so that two keys
// differing only there are two keys, as they are to JSON.parse and
// json.loads.
func decodeString(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b = append(b, s[i])
			i++
			continue
		}
		switch e := s[i+1]; e {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hexRune(s[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if r2 := hexRune(s[i+2 : i+6]); utf16.DecodeRune(r, r2) != utf8.RuneError {
						b = utf8.AppendRune(b, utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				b = jsontext.AppendSurrogate(b, r)
				continue
			}
			b = utf8.AppendRune(b, r)
			continue
		default: // " \ /
			b = append(b, e)
		}
		i += 2
	}
	return string(b)
}

func hexRune(h string) rune {
	var r rune
	for k := 0; k < 4; k++ {
		b := h[k]
		switch {
		case b <= '9':
			b -= '0'
		case b <= 'F':
			b -= 'A' - 10
		default:
			b -= 'a' - 10
		}
		r = r<<4 | rune(b)
	}
	return r
}
