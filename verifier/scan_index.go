package verifier

import (
	"sync"

	"github.com/tidwall/gjson"
)

// A textIndex is where the walk of read found the values the loader
// reads: the top-level members, the elements of the "cases" array and
// the members of each case, each as its key and the span of its value.
// The loader reads the desk from it instead of finding each value's end
// again with gjson, level by level: once for the top-level object, once
// for the array of cases and once for each case, every byte of a case
// was passed over three times more than the walk already had.
//
// Only the first value of a repeated key is indexed, as only it is read
// (read blanks the others out), and only the keys the loader reads. The
// spans are offsets into the text read returns, which keeps every offset
// of the file.
type textIndex struct {
	top     []spanned
	cases   []caseSpan
	members []spanned
}

// indexes keeps the lists of indexes released, for the next desk.
var indexes sync.Pool

// newIndex is an empty index, with the room of one released before.
func newIndex() textIndex {
	if x, ok := indexes.Get().(*textIndex); ok {
		return *x
	}
	return textIndex{}
}

// release hands x's lists to the next desk's walk; x is not used after.
// Lists longer than a desk of a few thousand cases needs are let go.
func (x *textIndex) release() {
	if cap(x.members) > 1<<16 || cap(x.cases) > 1<<14 {
		return
	}
	clear(x.top) // no key of this desk kept alive
	clear(x.members)
	y := &textIndex{top: x.top[:0], cases: x.cases[:0], members: x.members[:0]}
	*x = textIndex{}
	indexes.Put(y)
}

// spanned is one member of an object: its key as decoded, and its value
// from start to end (exclusive).
type spanned struct {
	key        string
	start, end int
}

// caseSpan is one element of the "cases" array: its members,
// members[from:to] of the index, when it is an object (the loader reads
// a case through its members alone).
type caseSpan struct {
	from, to int
}

// indexLevel says what the value about to be read at the walk's current
// depth is to the index: a top-level member, an element of the cases
// array, a member of a case, or nothing the loader reads.
type indexLevel uint8

const (
	notIndexed indexLevel = iota
	topMember
	caseElement
	caseMember
)

// level is indexLevel of the value read next, at the walk's depth. Only
// the keys the loader reads are indexed (readTop, readCaseKey), and at
// most limits.Cases cases, the most Load goes on with: the index stays
// within a few times what the loader keeps of the desk.
func (c *checker) level() indexLevel {
	if !c.indexing {
		return notIndexed
	}
	switch depth := len(c.kinds); {
	case depth != len(c.frames):
		return notIndexed
	case depth == 1:
		if c.frames[0].repeat < 0 && readTop(c.frames[0].key) {
			return topMember
		}
	case depth == 2:
		if c.entryOf() == 0 && !c.frames[1].obj && len(c.index.cases) < c.limits.Cases {
			return caseElement
		}
	case depth == 3:
		if f := &c.frames[2]; f.level == caseElement && f.obj && f.repeat < 0 && readCaseKey(f.key) {
			return caseMember
		}
	}
	return notIndexed
}

// readTop tells whether the loader reads the top-level key name.
func readTop(name string) bool {
	switch name {
	case "id", "title", "label", "hosts", "acknowledge", "schemaVersion", "sources", "cases", "sourceOnly":
		return true
	}
	return false
}

// readCaseKey tells whether the loader reads the key name of a case.
func readCaseKey(name string) bool {
	switch name {
	case "id", "title", "scenario", "family", "lesson", "acknowledge", "why", "sourceRefs", "hosts", "given", "expected":
		return true
	}
	return false
}

// begin records that a value of level l starts at start.
func (c *checker) begin(l indexLevel, start int) {
	x := &c.index
	switch l {
	case topMember:
		x.top = append(x.top, spanned{key: c.frames[0].key, start: start})
	case caseElement:
		x.cases = append(x.cases, caseSpan{from: len(x.members), to: len(x.members)})
	case caseMember:
		x.members = append(x.members, spanned{key: c.frames[2].key, start: start})
		x.cases[len(x.cases)-1].to = len(x.members)
	}
}

// ends records the end of the value of level l begun last: no value of
// the same level begins before it ends. A case's own end is not kept.
func (c *checker) ends(l indexLevel, end int) {
	x := &c.index
	switch l {
	case topMember:
		x.top[len(x.top)-1].end = end
	case caseMember:
		x.members[len(x.members)-1].end = end
	}
}

// topValue is the value of the top-level key name, as root.Get(name)
// finds it; no value when the key is missing.
func (x *textIndex) topValue(text, name string) gjson.Result {
	for _, m := range x.top {
		if m.key == name {
			return resultAt(text, m.start, m.end)
		}
	}
	return gjson.Result{}
}

// indexed marks the container just opened as a value of level l, whose
// end pop records.
func (c *checker) indexed(l indexLevel) {
	if l != notIndexed && len(c.frames) == len(c.kinds) {
		c.frames[len(c.frames)-1].level = l
	}
}

// scalarEnds records the end of a value of level l other than a
// container, read if ok, and passes ok on.
func (c *checker) scalarEnds(l indexLevel, ok bool) bool {
	if ok && l != notIndexed {
		c.ends(l, c.i)
	}
	return ok
}

// resultAt is the value of text from start to end as gjson's ForEach
// hands it to its iterator: the same type, raw text, string, number and
// index.
func resultAt(text string, start, end int) gjson.Result {
	r := gjson.Parse(text[start:end])
	r.Index = start
	return r
}
