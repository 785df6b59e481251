package reports

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/scenario"
)

// A value of a case read back from a report (an observed value, a
// mismatch's or a change's expected and observed values, a suggestion's
// value) is decoded into Go values, which take an interface (16 bytes)
// per element and more per map entry: a list of three million zeros,
// two bytes of text apiece, took almost nine times its text. A list or object
// whose text is longer than rawValueBytes is therefore not decoded: it is
// kept as its JSON text, in the very form every writer prints the value
// it holds (jsonx.Append of the decoded value: compact, keys sorted,
// numbers and strings as deskcheck writes them). A writer that prints a
// value through jsonx (report.json, show, render, rawJSON, the rows of
// every page) prints that text, byte for byte what it printed of the
// decoded value; only what must look into a value (a scenario's picture)
// decodes it (rawValue.decoded).

// rawValueBytes is the length of text past which a case's list or
// object is kept as text rather than decoded.
const rawValueBytes = 64 << 10

// rawValue is a large list or object of a case kept as its canonical
// JSON text (see above); host tells whether it is read as the host
// decoders read (hostValue) or as encoding/json does, and depth how deep
// in the case's value it lies, which is how it decodes.
type rawValue struct {
	text  []byte
	host  bool
	depth int
}

// AppendJSON appends the value as jsonx.Append appends the decoded value:
// its text, which is in that form.
func (r *rawValue) AppendJSON(b []byte) []byte { return append(b, r.text...) }

// MarshalJSON is AppendJSON for encoding/json.
func (r *rawValue) MarshalJSON() ([]byte, error) { return r.text, nil }

// decoded is the value decoded, as the lean reader would have read it.
func (r *rawValue) decoded() any {
	d := leanDecoder{b: r.text, host: r.host}
	v, end := d.value(0, r.depth)
	if end != len(r.text) {
		return nil // not reached: the text was read once already
	}
	return v
}

// decodedValues is v with every rawValue in it decoded: the value the lean
// reader would have made.
func decodedValues(v any) any {
	switch x := v.(type) {
	case *rawValue:
		return x.decoded()
	case map[string]any:
		var out map[string]any
		for k, y := range x {
			if r, ok := y.(*rawValue); ok {
				if out == nil {
					out = make(map[string]any, len(x))
					for k2, y2 := range x {
						out[k2] = y2
					}
				}
				out[k] = r.decoded()
			}
		}
		if out != nil {
			return out
		}
	}
	return v
}

// rawOf keeps the list or object text (b, well formed) as a rawValue when
// it is long enough, in its canonical form: the text itself when it is
// already in that form, as what deskcheck writes is, else the canonical
// form made of it. false: it is to be decoded (short, or a text the lean
// decoder does not read).
func (d *leanDecoder) rawOf(b []byte, depth int) (*rawValue, bool) {
	if len(b) <= rawValueBytes {
		return nil, false
	}
	// First the text is compared with its canonical form as that is
	// made, a piece at a time; only a text that differs is made again
	// whole.
	c := canonicaliser{host: d.host, check: b}
	out, end := c.value(make([]byte, 0, checkPiece+1024), b, 0, 0)
	if end == len(b) && !c.differs && bytes.Equal(out, b[c.checked:]) {
		return &rawValue{text: b, host: d.host, depth: depth}, true
	}
	c = canonicaliser{host: d.host}
	out, end = c.value(make([]byte, 0, len(b)), b, 0, 0)
	if end != len(b) {
		return nil, false
	}
	return &rawValue{text: slices.Clip(out), host: d.host, depth: depth}, true
}

// checkPiece is how much canonical text the check of a text (canonicaliser.check)
// holds before it compares it with the text.
const checkPiece = 32 << 10

// canonicaliser writes a JSON text as jsonx.Append writes the value the
// lean decoder reads of it (with host, as hostValue reads it), in one
// pass, without decoding it: white space dropped, strings and numbers
// written as the decoded ones are, and the members of each object in
// the order of their keys, the last of equal keys kept (as a map keeps
// it). It walks the text once; an object whose keys are out of order is
// laid out again from an index of its members.
type canonicaliser struct {
	host bool
	key  []byte // room for a decoded key
	// With check, the text itself, what is made is compared with it
	// every checkPiece bytes and let go: checked is how much of it
	// matched so far, and differs is set, and the walk stopped, at the
	// first difference or at an object whose keys do not rise.
	check   []byte
	checked int
	differs bool
}

// compare, with check, compares what dst holds with the text from where
// the last compare stopped, once it holds checkPiece bytes, and empties
// it: false at a difference.
func (c *canonicaliser) compare(dst []byte) ([]byte, bool) {
	if c.check == nil || len(dst) < checkPiece {
		return dst, true
	}
	if !bytes.HasPrefix(c.check[c.checked:], dst) {
		c.differs = true
		return dst, false
	}
	c.checked += len(dst)
	return dst[:0], true
}

// value appends the canonical form of the value at b[i] and returns the
// index after it, or -1 where the lean decoder would not read it.
func (c *canonicaliser) value(dst, b []byte, i, depth int) ([]byte, int) {
	var ok bool
	if dst, ok = c.compare(dst); !ok {
		return dst, -1
	}
	i = jsontext.SkipSpace(b, i)
	if i >= len(b) || depth > jsontext.MaxDepth {
		return dst, -1
	}
	switch ch := b[i]; {
	case ch == '"':
		end, plain := jsontext.ScanString(b, i)
		if end < 0 {
			return dst, -1
		}
		s, ok := c.str(b[i:end], plain)
		if !ok {
			return dst, -1
		}
		return jsonx.AppendString(dst, s), end
	case ch == '[':
		dst = append(dst, '[')
		n := 0
		end := jsontext.EachElement(b, i, func(start int) int {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			var end int
			dst, end = c.value(dst, b, start, depth+1)
			return end
		})
		return append(dst, ']'), end
	case ch == '{':
		return c.object(dst, b, i, depth)
	case ch == '-' || jsontext.IsDigit(ch):
		end := jsontext.ScanNumber(b, i)
		if end < 0 {
			return dst, -1
		}
		if c.host {
			// A host's number is the double it reads back as, else its
			// literal: written as it stands either way.
			return append(dst, b[i:end]...), end
		}
		f, err := strconv.ParseFloat(unsafeString(b[i:end]), 64)
		if err != nil {
			return dst, -1
		}
		return jsonx.AppendFloat(dst, f), end
	case ch == 't':
		return append(dst, "true"...), jsontext.ScanLiteral(b, i, "true")
	case ch == 'f':
		return append(dst, "false"...), jsontext.ScanLiteral(b, i, "false")
	case ch == 'n':
		return append(dst, "null"...), jsontext.ScanLiteral(b, i, "null")
	}
	return dst, -1
}

// object appends the object at b[i] == '{'. Its members are written as
// they come while their keys rise; at the first that does not, what was
// written of the object is taken back and the object is written again
// from a sorted index of its members.
func (c *canonicaliser) object(dst, b []byte, i, depth int) ([]byte, int) {
	start := len(dst)
	dst = append(dst, '{')
	// last is the last key: a plain one is the text's own bytes, which do
	// not change; an escaped one is decoded into lastRoom.
	var last string
	var lastRoom []byte
	n, sorted := 0, true
	end := jsontext.EachMember(b, i, func(keyTok []byte, plain bool, at int) int {
		key, ok := c.str(keyTok, plain)
		if !ok {
			return -1
		}
		if n > 0 && key <= last {
			sorted = false
			return -1
		}
		if plain {
			last = key
		} else {
			lastRoom = append(lastRoom[:0], key...)
			last = unsafeString(lastRoom)
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(jsonx.AppendString(dst, key), ':')
		var end int
		dst, end = c.value(dst, b, at, depth+1)
		return end
	})
	if sorted || end < 0 && c.differs {
		return append(dst, '}'), end
	}
	if c.check != nil {
		c.differs = true // keys out of order: not the canonical form
		return dst, -1
	}
	// Out of order: an index of the members, four bytes each (where the
	// key's text starts; an escaped key is decoded aside), counted first
	// and made once, sorted by key and then by place, the last of equal
	// keys kept.
	if len(b) >= math.MaxUint32 {
		return dst, -1
	}
	n = 0
	if jsontext.EachMember(b, i, func(_ []byte, _ bool, at int) int {
		n++
		return valueEnd(b, at)
	}) < 0 {
		return dst, -1
	}
	ms := make([]uint32, 0, n)
	escaped := map[uint32]string{}
	end = jsontext.EachMember(b, i, func(keyTok []byte, plain bool, at int) int {
		k := uint32(cap(b) - cap(keyTok) + 1) // keyTok is a slice of b, from its quote
		if !plain {
			key, ok := c.str(keyTok, plain)
			if !ok {
				return -1
			}
			escaped[k] = strings.Clone(key)
		}
		ms = append(ms, k)
		return valueEnd(b, at)
	})
	if end < 0 {
		return dst, -1
	}
	// key is the member's key; valueAt where its value starts.
	keyEnd := func(m uint32) int { return jsontext.SkipString(b, int(m)-1) - 1 }
	key := func(m uint32) string {
		if k, ok := escaped[m]; ok {
			return k
		}
		return unsafeString(b[m:keyEnd(m)])
	}
	valueAt := func(m uint32) int {
		j := jsontext.SkipSpace(b, keyEnd(m)+1) // the colon
		return jsontext.SkipSpace(b, j+1)
	}
	slices.SortFunc(ms, func(x, y uint32) int {
		if c := strings.Compare(key(x), key(y)); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	dst = append(dst[:start], '{')
	written := 0
	for j, m := range ms {
		if j+1 < len(ms) && key(ms[j+1]) == key(m) {
			continue // a later one of the same key stands
		}
		if written > 0 {
			dst = append(dst, ',')
		}
		written++
		dst = append(jsonx.AppendString(dst, key(m)), ':')
		var e int
		if dst, e = c.value(dst, b, valueAt(m), depth+1); e < 0 {
			return dst, -1
		}
	}
	return append(dst, '}'), end
}

// str is the value of a string token as the lean decoder reads it, valid
// until the next call.
func (c *canonicaliser) str(tok []byte, plain bool) (string, bool) {
	if plain {
		return unsafeString(tok[1 : len(tok)-1]), true
	}
	var s string
	if c.host {
		s = jsontext.StringValue(tok, plain)
	} else if err := json.Unmarshal(tok, &s); err != nil {
		return "", false
	}
	c.key = append(c.key[:0], s...)
	return unsafeString(c.key), true
}

// unsafeString is b as a string, without a copy; b must not change while
// the string is used.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// jsonText is scenario.JSONText(v), which a rawValue is the text of: one
// copy of a long value's text, not two.
func jsonText(v any) string {
	if r, ok := v.(*rawValue); ok {
		return string(r.text)
	}
	return scenario.JSONText(v)
}
