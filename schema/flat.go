package schema

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// A flat is a JSON document read once into a list of its values in text
// order, each container followed by its members (a key's string, then
// its value) or elements: what the fast check walks instead of a decoded
// tree of maps and slices, which cost a document of a thousand cases a
// map for every object it holds.
//
// It holds exactly the value DecodeUseNumberLibrary gives (flatten
// refuses every text that one refuses, and also an object with a key
// twice, where the decoded map keeps the last), so decode(0) is that
// value; FuzzFast holds the two to each other.
type flat struct {
	nodes []fnode
}

// fnode is one value of a flat.
type fnode struct {
	// text is a string's (or key's) value, a number's literal.
	text string
	// next is the index of the node after this value and everything in
	// it; count is an object's members or an array's elements.
	next, count int32
	kind        uint8
}

const (
	kNull uint8 = iota
	kFalse
	kTrue
	kString
	kNumber
	kObject
	kArray
)

// flatten reads doc, one JSON value with optional surrounding white
// space; false where DecodeUseNumberLibrary would refuse it, or an object
// holds a key twice or more than mostKeys keys.
func flatten(doc []byte) (*flat, bool) { return flattenText(doc, "") }

// flattenText is flatten of doc, whose strings are substrings of text, a
// string of the same bytes as doc, when there is one ("" when not): the
// caller has already made that copy.
func flattenText(doc []byte, text string) (*flat, bool) {
	if jsontext.HasSurrogateEscape(doc) {
		return nil, false
	}
	f, _ := flats.Get().(*flat)
	if f == nil {
		f = &flat{}
	}
	if n := min(nodesAtMost(doc), len(doc)/8+1); cap(f.nodes) < n {
		f.nodes = make([]fnode, 0, n)
	}
	r := flattener{b: doc, s: text, f: f}
	end := r.value(jsontext.SkipSpace(doc, 0), 0)
	if end < 0 || jsontext.SkipSpace(doc, end) != len(doc) {
		f.release()
		return nil, false
	}
	return f, true
}

// nodesAtMost is how many nodes doc can make at most: every value but
// the first follows a comma, a colon or an opening bracket, and every
// key a comma or an opening brace (counted inside strings too, so the
// bound is high for a text of long strings). The list is made at once
// with that room, or one node per 8 bytes if less (a node takes 32
// bytes: a text of strings full of colons would otherwise ask for 32
// times its size), and a desk of cases, about one node per 18 bytes,
// never grows it: growing it by doubling, from a guess, made and copied
// about twice the list.
func nodesAtMost(doc []byte) int {
	return bytes.Count(doc, []byte{','}) + bytes.Count(doc, []byte{':'}) + bytes.Count(doc, []byte{'{'}) + bytes.Count(doc, []byte{'['}) + 1
}

// flats keeps the node lists of flats released, for the next document.
var flats sync.Pool

// release hands f's node list to the next flatten; f is not used after.
// A list longer than a desk of a few thousand cases needs is let go.
func (f *flat) release() {
	if cap(f.nodes) > 1<<20 {
		return
	}
	clear(f.nodes) // no text of this document kept alive
	f.nodes = f.nodes[:0]
	flats.Put(f)
}

// flattener reads one text into a flat. Its strings are substrings of
// one copy of the text.
type flattener struct {
	b []byte
	s string
	f *flat
}

func (r *flattener) text(i, j int) string {
	if r.s == "" {
		r.s = string(r.b)
	}
	return r.s[i:j]
}

// str adds the string token at b[i] and returns the index after it, or -1.
func (r *flattener) str(i int) int {
	end, plain := jsontext.ScanString(r.b, i)
	if end < 0 {
		return -1
	}
	n := fnode{kind: kString}
	if plain {
		n.text = r.text(i+1, end-1)
	} else {
		n.text = jsontext.StringValue(r.b[i:end], false)
	}
	n.next = int32(len(r.f.nodes) + 1)
	r.f.nodes = append(r.f.nodes, n)
	return end
}

// value adds the value at b[i] and returns the index after it, or -1.
func (r *flattener) value(i, depth int) int {
	b := r.b
	if i >= len(b) {
		return -1
	}
	at := len(r.f.nodes)
	switch c := b[i]; {
	case c == '"':
		return r.str(i)
	case c == '{' || c == '[':
		if depth >= jsontext.MaxDepth {
			return -1
		}
		r.f.nodes = append(r.f.nodes, fnode{kind: kArray})
		count := int32(0)
		var end int
		if c == '{' {
			r.f.nodes[at].kind = kObject
			var seen map[string]bool
			end = jsontext.EachMember(b, i, func(keyTok []byte, _ bool, start int) int {
				if r.str(cap(b)-cap(keyTok)) < 0 {
					return -1
				}
				key := r.f.nodes[len(r.f.nodes)-1].text
				if count == mostKeys {
					return -1
				}
				if count == fewKeys {
					seen = r.keys(at)
				}
				if seen != nil && seen[key] || seen == nil && r.repeats(at, key) {
					return -1
				}
				if seen != nil {
					seen[key] = true
				}
				count++
				return r.value(start, depth+1)
			})
		} else {
			end = jsontext.EachElement(b, i, func(start int) int {
				count++
				return r.value(start, depth+1)
			})
		}
		if end < 0 {
			return -1
		}
		r.f.nodes[at].count = count
		r.f.nodes[at].next = int32(len(r.f.nodes))
		return end
	case c == '-' || jsontext.IsDigit(c):
		end := jsontext.ScanNumber(b, i)
		if end < 0 {
			return -1
		}
		r.f.nodes = append(r.f.nodes, fnode{kind: kNumber, text: r.text(i, end), next: int32(at + 1)})
		return end
	case c == 't':
		r.f.nodes = append(r.f.nodes, fnode{kind: kTrue, next: int32(at + 1)})
		return jsontext.ScanLiteral(b, i, "true")
	case c == 'f':
		r.f.nodes = append(r.f.nodes, fnode{kind: kFalse, next: int32(at + 1)})
		return jsontext.ScanLiteral(b, i, "false")
	case c == 'n':
		r.f.nodes = append(r.f.nodes, fnode{kind: kNull, next: int32(at + 1)})
		return jsontext.ScanLiteral(b, i, "null")
	}
	return -1
}

// fewKeys is the most keys an object's new key is compared with one by
// one; past it they are kept in a set. An object of more than mostKeys is
// not read into a flat: the decoded map is the cheaper way to hold it.
const (
	fewKeys  = 16
	mostKeys = 1024
)

// repeats reports whether key, just added to the object at obj, is one of
// its earlier keys.
func (r *flattener) repeats(obj int, key string) bool {
	nodes := r.f.nodes
	for k := obj + 1; k < len(nodes)-1; k = int(nodes[k+1].next) {
		if nodes[k].text == key {
			return true
		}
	}
	return false
}

// keys returns the set of the keys the object at obj holds so far.
func (r *flattener) keys(obj int) map[string]bool {
	nodes := r.f.nodes
	seen := make(map[string]bool, 2*fewKeys)
	for k := obj + 1; k < len(nodes)-1; k = int(nodes[k+1].next) {
		seen[nodes[k].text] = true
	}
	return seen
}

// member returns the index of the value of obj's member key, or -1.
func (f *flat) member(obj int32, key string) int32 {
	n := f.nodes[obj]
	if n.kind != kObject {
		return -1
	}
	k := obj + 1
	for m := int32(0); m < n.count; m++ {
		if f.nodes[k].text == key {
			return k + 1
		}
		k = f.nodes[k+1].next
	}
	return -1
}

// decode returns the value at i as DecodeUseNumberLibrary decodes it.
func (f *flat) decode(i int32) any {
	n := f.nodes[i]
	switch n.kind {
	case kFalse:
		return false
	case kTrue:
		return true
	case kString:
		return n.text
	case kNumber:
		return json.Number(n.text)
	case kObject:
		m := make(map[string]any, n.count)
		k := i + 1
		for c := int32(0); c < n.count; c++ {
			m[f.nodes[k].text] = f.decode(k + 1)
			k = f.nodes[k+1].next
		}
		return m
	case kArray:
		list := make([]any, 0, n.count)
		for e, c := i+1, int32(0); c < n.count; c++ {
			list = append(list, f.decode(e))
			e = f.nodes[e].next
		}
		return list
	}
	return nil
}

// flatOf makes a flat of v, a value decoded with UseNumber (its object
// keys are different by nature); false for any other kind of value, one
// nested deeper than jsontext.MaxDepth or an object of more than mostKeys
// keys, as flatten.
func flatOf(v any) (*flat, bool) {
	f := &flat{}
	return f, f.add(v, 0)
}

func (f *flat) add(v any, depth int) bool {
	at := len(f.nodes)
	switch x := v.(type) {
	case nil:
		f.nodes = append(f.nodes, fnode{kind: kNull})
	case bool:
		n := fnode{kind: kFalse}
		if x {
			n.kind = kTrue
		}
		f.nodes = append(f.nodes, n)
	case string:
		f.nodes = append(f.nodes, fnode{kind: kString, text: x})
	case json.Number:
		f.nodes = append(f.nodes, fnode{kind: kNumber, text: string(x)})
	case map[string]any:
		if depth >= jsontext.MaxDepth || len(x) > mostKeys {
			return false
		}
		f.nodes = append(f.nodes, fnode{kind: kObject, count: int32(len(x))})
		for k, e := range x {
			f.nodes = append(f.nodes, fnode{kind: kString, text: k, next: int32(len(f.nodes) + 1)})
			if !f.add(e, depth+1) {
				return false
			}
		}
	case []any:
		if depth >= jsontext.MaxDepth {
			return false
		}
		f.nodes = append(f.nodes, fnode{kind: kArray, count: int32(len(x))})
		for _, e := range x {
			if !f.add(e, depth+1) {
				return false
			}
		}
	default:
		return false
	}
	f.nodes[at].next = int32(len(f.nodes))
	return true
}
