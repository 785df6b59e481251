package reports

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// A streamed report keeps whole the cases its pages show in full and the
// failed ones, but what grows with a case's run — its trace, observed
// values, mismatches and suggestions — is set aside in a hold (an
// unlinked temporary file, or memory when no temporary file can be made),
// in a compact encoding that gives back the very values, and read back a
// case at a time by the writers that show it (Case.whole). What a run
// holds in memory is then the lean cases, not the evidence of every
// failure and card.

// hold is where a Stream sets aside the heavy evidence of the cases it
// keeps.
type hold struct {
	f    *os.File // nil: held in mem
	w    *bufio.Writer
	mem  []byte
	size int64
	// buf is the encoders' room, kept from case to case.
	buf []byte
}

// heldAt is where one case's evidence sits in its hold.
type heldAt struct {
	h   *hold
	off int64
	n   int
}

func newHold() *hold {
	f, err := os.CreateTemp("", "deskcheck-held-*")
	if err != nil {
		return &hold{}
	}
	// Unlinked at once, as the spill is.
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return &hold{}
	}
	return &hold{f: f, w: bufio.NewWriterSize(f, 256<<10)}
}

// put sets aside c's trace, observed values, mismatches and suggestions,
// which c then no longer holds. A case holding a value the encoding does
// not know keeps its evidence.
func (h *hold) put(c *Case) error {
	if !holdable(c) {
		return nil
	}
	// Encoded a piece at a time straight into the hold: a case's
	// evidence is never in memory twice.
	e := heldEncoder{b: h.buf[:0], h: h}
	off := h.size
	encodeHeld(&e, c)
	e.spill()
	if e.err != nil {
		return fmt.Errorf("writing the cases' evidence to a temporary file: %w", e.err)
	}
	if cap(e.b) <= 4*heldPiece {
		h.buf = e.b[:0]
	}
	c.Trace, c.Observed, c.Mismatches, c.Suggested = nil, nil, nil, nil
	c.held = &heldAt{h: h, off: off, n: int(h.size - off)}
	return nil
}

// holdable reports whether every value of c's evidence is of a kind the
// encoding knows.
func holdable(c *Case) bool {
	if !valuesKnown(c.Observed) {
		return false
	}
	for _, m := range c.Mismatches {
		if !valuesKnown(m.Expected) || !valuesKnown(m.Observed) {
			return false
		}
		for _, ch := range m.Changes {
			if !valuesKnown(ch.Expected) || !valuesKnown(ch.Observed) {
				return false
			}
		}
	}
	for _, s := range c.Suggested {
		if !valuesKnown(s.Value) {
			return false
		}
	}
	return true
}

func valuesKnown(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, float64, json.Number, *rawValue:
		return true
	case []any:
		for _, y := range x {
			if !valuesKnown(y) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, y := range x {
			if !valuesKnown(y) {
				return false
			}
		}
		return true
	}
	return false
}

// flush makes what was put readable; nothing is put after it.
func (h *hold) flush() error {
	if h.w == nil {
		return nil
	}
	if err := h.w.Flush(); err != nil {
		return fmt.Errorf("writing the cases' evidence to a temporary file: %w", err)
	}
	return nil
}

func (h *hold) close() error {
	if h.f == nil {
		return nil
	}
	f := h.f
	h.f, h.w, h.mem = nil, nil, nil
	return f.Close()
}

// whole is c with its evidence: c itself when none was set aside, else a
// copy holding what was read back. Where it cannot be read back, the
// copy's error says so.
func (c *Case) whole() *Case {
	if c.held == nil {
		return c
	}
	x := *c
	x.held = nil
	if err := c.held.read(&x); err != nil {
		x.Error = "the case's evidence could not be read back: " + err.Error()
	}
	return &x
}

func (at *heldAt) read(c *Case) error {
	var b []byte
	if at.h.f == nil {
		if at.h.mem == nil {
			return errors.New("the report was closed")
		}
		b = at.h.mem[at.off : at.off+int64(at.n)]
	} else {
		b = make([]byte, at.n)
		if _, err := at.h.f.ReadAt(b, at.off); err != nil {
			return err
		}
	}
	d := heldDecoder{b: b}
	d.into(c)
	if d.bad || len(d.b) > 0 {
		return errors.New("its encoding is damaged")
	}
	return nil
}

// The encoding: lists and strings are a length (plus one for a list, so
// that 0 is nil) and their elements; a value is a tag and its payload.
const (
	tagNil byte = iota
	tagFalse
	tagTrue
	tagString
	tagFloat
	tagNumber
	tagList
	tagNilList
	tagObject
	tagNilObject
	// tagRaw is a rawValue: a flag (host), its depth and its text.
	tagRaw
	// tagRawAgain is a rawValue the case's evidence holds a second time
	// (a suggestion of an observed value): the number of the tagRaw
	// before it in the case's encoding, counted from 0. A long value is
	// held, and read back, once.
	tagRawAgain
)

// encodeHeld encodes c's evidence, whose values are all holdable.
func encodeHeld(e *heldEncoder, c *Case) {
	clear(e.raws)
	e.count(len(c.Trace), c.Trace == nil)
	for _, ev := range c.Trace {
		e.b = binary.AppendVarint(e.b, int64(ev.Seq))
		e.str(ev.Kind)
		e.str(ev.Text)
	}
	if c.Observed == nil {
		e.b = append(e.b, tagNilObject)
	} else {
		e.value(c.Observed)
	}
	e.count(len(c.Mismatches), c.Mismatches == nil)
	for _, m := range c.Mismatches {
		e.str(m.Field)
		e.str(m.Comparison)
		e.value(m.Expected)
		e.value(m.Observed)
		e.count(len(m.Changes), m.Changes == nil)
		for _, ch := range m.Changes {
			e.str(ch.Path)
			e.str(ch.Kind)
			e.value(ch.Expected)
			e.value(ch.Observed)
		}
	}
	e.count(len(c.Suggested), c.Suggested == nil)
	for _, s := range c.Suggested {
		e.str(s.Key)
		e.value(s.Value)
		e.bool(s.Shaped)
	}
}

// heldEncoder encodes into b and moves what b holds into its hold every
// heldPiece bytes.
type heldEncoder struct {
	b   []byte
	h   *hold
	err error
	// raws numbers the rawValues of the case being encoded.
	raws map[*rawValue]int
}

// heldPiece is about how much an encoder holds before it moves it on.
const heldPiece = 64 << 10

func (e *heldEncoder) spill() {
	if len(e.b) == 0 {
		return
	}
	h := e.h
	if h.f == nil {
		h.mem = append(h.mem, e.b...)
	} else if _, err := h.w.Write(e.b); err != nil && e.err == nil {
		e.err = err
	}
	h.size += int64(len(e.b))
	e.b = e.b[:0]
}

func (e *heldEncoder) count(n int, isNil bool) {
	if isNil {
		e.b = append(e.b, 0)
		return
	}
	e.b = binary.AppendUvarint(e.b, uint64(n)+1)
}

func (e *heldEncoder) str(s string) {
	if len(e.b) >= heldPiece {
		e.spill()
	}
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	if len(s) < heldPiece {
		e.b = append(e.b, s...)
		return
	}
	e.spill()
	h := e.h
	if h.f == nil {
		h.mem = append(h.mem, s...)
	} else if _, err := h.w.WriteString(s); err != nil && e.err == nil {
		e.err = err
	}
	h.size += int64(len(s))
}

func (e *heldEncoder) bool(v bool) {
	if v {
		e.b = append(e.b, tagTrue)
	} else {
		e.b = append(e.b, tagFalse)
	}
}

func (e *heldEncoder) value(v any) {
	if len(e.b) >= heldPiece {
		e.spill()
	}
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, tagNil)
	case bool:
		e.bool(x)
	case string:
		e.b = append(e.b, tagString)
		e.str(x)
	case float64:
		e.b = binary.LittleEndian.AppendUint64(append(e.b, tagFloat), math.Float64bits(x))
	case json.Number:
		e.b = append(e.b, tagNumber)
		e.str(string(x))
	case *rawValue:
		if i, again := e.raws[x]; again {
			e.b = binary.AppendUvarint(append(e.b, tagRawAgain), uint64(i))
			return
		}
		if e.raws == nil {
			e.raws = map[*rawValue]int{}
		}
		e.raws[x] = len(e.raws)
		e.b = append(e.b, tagRaw)
		e.bool(x.host)
		e.b = binary.AppendUvarint(e.b, uint64(x.depth))
		e.str(unsafeString(x.text))
	case []any:
		if x == nil {
			e.b = append(e.b, tagNilList)
			return
		}
		e.b = binary.AppendUvarint(append(e.b, tagList), uint64(len(x)))
		for _, y := range x {
			e.value(y)
		}
	case map[string]any:
		if x == nil {
			e.b = append(e.b, tagNilObject)
			return
		}
		e.b = binary.AppendUvarint(append(e.b, tagObject), uint64(len(x)))
		for k, y := range x {
			e.str(k)
			e.value(y)
		}
	}
}

type heldDecoder struct {
	b   []byte
	bad bool
	// raws are the rawValues read so far, for tagRawAgain.
	raws []*rawValue
	// depth is how deep in a value the decoder reads: an empty object or
	// list nested in one is the shared one (emptyObject, emptyList).
	depth int
}

func (d *heldDecoder) uvarint() uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[k:]
	return n
}

// count reads a list's length: -1 for nil.
func (d *heldDecoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b))+1 {
		d.bad, d.b = true, nil
		return -1
	}
	return int(n) - 1
}

func (d *heldDecoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// internedKinds is how many distinct event kinds the hold's reader keeps
// one string of; a trace has a few.
const internedKinds = 64

// kind reads an event's kind: one string of each of the first
// internedKinds kinds.
func (d *heldDecoder) kind(kinds map[string]string) string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return ""
	}
	b := d.b[:n]
	d.b = d.b[n:]
	if k, ok := kinds[string(b)]; ok {
		return k
	}
	k := string(b)
	if len(kinds) < internedKinds {
		kinds[k] = k
	}
	return k
}

func (d *heldDecoder) tag() byte {
	if len(d.b) == 0 {
		d.bad = true
		return tagNil
	}
	t := d.b[0]
	d.b = d.b[1:]
	return t
}

func (d *heldDecoder) value() any {
	switch d.tag() {
	case tagNil:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagString:
		return d.str()
	case tagFloat:
		if len(d.b) < 8 {
			d.bad, d.b = true, nil
			return nil
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
		d.b = d.b[8:]
		return f
	case tagNumber:
		return json.Number(d.str())
	case tagList:
		n := d.uvarint()
		if n > uint64(len(d.b)) {
			d.bad, d.b = true, nil
			return nil
		}
		if n == 0 && d.depth > 0 {
			return emptyList
		}
		d.depth++
		defer func() { d.depth-- }()
		out := make([]any, n)
		for i := range out {
			out[i] = d.value()
		}
		return out
	case tagNilList:
		return []any(nil)
	case tagObject:
		n := d.uvarint()
		if n > uint64(len(d.b)) {
			d.bad, d.b = true, nil
			return nil
		}
		if n == 0 && d.depth > 0 {
			return emptyObject
		}
		d.depth++
		defer func() { d.depth-- }()
		out := make(map[string]any, n)
		for range n {
			k := d.str()
			out[k] = d.value()
		}
		return out
	case tagNilObject:
		return map[string]any(nil)
	case tagRaw:
		host := d.tag() == tagTrue
		depth := d.uvarint()
		if depth > jsontext.MaxDepth {
			d.bad, d.b = true, nil
			return nil
		}
		n := d.uvarint()
		if n > uint64(len(d.b)) {
			d.bad, d.b = true, nil
			return nil
		}
		// The text is read out of the case's own buffer, not copied.
		r := &rawValue{text: d.b[:n:n], host: host, depth: int(depth)}
		d.b = d.b[n:]
		d.raws = append(d.raws, r)
		return r
	case tagRawAgain:
		i := d.uvarint()
		if i >= uint64(len(d.raws)) {
			d.bad, d.b = true, nil
			return nil
		}
		return d.raws[i]
	}
	d.bad, d.b = true, nil
	return nil
}

func (d *heldDecoder) into(c *Case) {
	if n := d.count(); n >= 0 {
		c.Trace = make([]scenario.Event, n)
		kinds := map[string]string{}
		for i := range c.Trace {
			seq, k := binary.Varint(d.b)
			if k <= 0 {
				d.bad, d.b = true, nil
				return
			}
			d.b = d.b[k:]
			c.Trace[i] = scenario.Event{Seq: int(seq), Kind: d.kind(kinds), Text: d.str()}
		}
	}
	c.Observed, _ = d.value().(map[string]any)
	if n := d.count(); n >= 0 {
		c.Mismatches = make([]verifier.Mismatch, n)
		for i := range c.Mismatches {
			m := &c.Mismatches[i]
			m.Field, m.Comparison = d.str(), d.str()
			m.Expected, m.Observed = d.value(), d.value()
			if k := d.count(); k >= 0 {
				m.Changes = make([]scenario.Change, k)
				for j := range m.Changes {
					ch := &m.Changes[j]
					ch.Path, ch.Kind = d.str(), d.str()
					ch.Expected, ch.Observed = d.value(), d.value()
				}
			}
		}
	}
	if n := d.count(); n >= 0 {
		c.Suggested = make([]verifier.Suggestion, n)
		for i := range c.Suggested {
			s := &c.Suggested[i]
			s.Key = d.str()
			s.Value = d.value()
			s.Shaped = d.tag() == tagTrue
		}
	}
}
