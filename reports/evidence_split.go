package reports

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/schema"
)

// The report without its cases (the skeleton validateEvidence checks) can
// itself be long: a hand-written report's diagnostics, lessons, coverage
// or real-code runs, or a coverage point naming 600,000 cases. The
// validator decodes what it validates into Go values, several times the
// text, so a long part is validated a piece at a time, where the schema
// allows it without changing the result: an array whose schema says only
// its type and its items is validated in chunks of elements of about
// traceSplit bytes (each chunk as the array itself), and an object whose
// schema says only its type, properties, required keys, key dependencies
// and whether other keys are allowed is validated with each long object
// or array member replaced by an empty one, that member validated on its
// own against its property's schema. A part whose schema says more (one
// of, if, a minimum of items, ...) is validated whole. The problems are
// those the whole would give, at the same pointers.

// evidenceSplitter validates parts of the report schema's instances.
type evidenceSplitter struct {
	root map[string]any // the report schema, decoded
	mu   sync.Mutex
	at   map[string]*schema.Schema // compiled, by location
}

// reportSplitter is the report schema's splitter.
var reportSplitter = sync.OnceValues(func() (*evidenceSplitter, error) {
	var root map[string]any
	if err := json.Unmarshal(ReportSchema, &root); err != nil {
		return nil, err
	}
	return &evidenceSplitter{root: root, at: map[string]*schema.Schema{}}, nil
})

// holder is the definition the report schema's own root is moved under
// when a part of it is compiled on its own, so that its keywords apply to
// the part and not to the document's root.
const holder = "deskcheckReport"

// compiled is the schema at loc (a JSON pointer into the report schema:
// "" its root), compiled on its own.
func (s *evidenceSplitter) compiled(loc string) (*schema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.at[loc]; ok {
		return c, nil
	}
	defs := map[string]any{}
	if d, ok := s.root["definitions"].(map[string]any); ok {
		for k, v := range d {
			defs[k] = v
		}
	}
	own := map[string]any{}
	for k, v := range s.root {
		if k != "$schema" && k != "definitions" {
			own[k] = v
		}
	}
	defs[holder] = own
	ref := "#" + loc
	if !strings.HasPrefix(loc, "/definitions/") {
		ref = "#/definitions/" + holder + loc
	}
	doc, err := json.Marshal(map[string]any{"$schema": s.root["$schema"], "definitions": defs, "allOf": []any{map[string]any{"$ref": ref}}})
	if err != nil {
		return nil, err
	}
	c, err := schema.Compile(doc)
	if err != nil {
		return nil, err
	}
	s.at[loc] = c
	return c, nil
}

// node is the schema at loc, its $ref followed, and the location it was
// found at.
func (s *evidenceSplitter) node(loc string) (map[string]any, string) {
	for range 8 {
		var at any = s.root
		for _, part := range strings.Split(loc, "/")[1:] {
			m, ok := at.(map[string]any)
			if !ok {
				return nil, loc
			}
			at = m[strings.NewReplacer("~1", "/", "~0", "~").Replace(part)]
		}
		m, ok := at.(map[string]any)
		if !ok {
			return nil, loc
		}
		ref, isRef := m["$ref"].(string)
		if !isRef {
			return m, loc
		}
		if !strings.HasPrefix(ref, "#/") {
			return nil, loc
		}
		loc = ref[1:]
	}
	return nil, loc
}

// only tells whether the schema n says nothing but the keywords given.
func only(n map[string]any, keys ...string) bool {
	for k := range n {
		ok := k == "description" || k == "title"
		for _, want := range keys {
			ok = ok || k == want
		}
		if !ok {
			return false
		}
	}
	return true
}

// validate gives the problems of text, the value at pointer ptr of the
// report, against the schema at loc, validating a long part a piece at a
// time where that gives the same problems.
func (s *evidenceSplitter) validate(loc, ptr string, text []byte) ([]schema.Problem, error) {
	if len(text) >= traceSplit {
		n, at := s.node(loc)
		switch {
		case n == nil:
		case text[0] == '[' && only(n, "type", "items"):
			if _, isSchema := n["items"].(map[string]any); isSchema {
				return s.array(at, ptr, text)
			}
		case text[0] == '{' && only(n, "type", "properties", "additionalProperties", "required", "dependencies", "$schema", "definitions") && keyDependencies(n):
			if ap, ok := n["additionalProperties"]; !ok || ap == false {
				return s.object(n, at, ptr, text)
			}
		}
	}
	return s.whole(loc, ptr, text)
}

// keyDependencies tells whether n's dependencies, if any, name keys only
// (which ask whether a key is there, not what it holds).
func keyDependencies(n map[string]any) bool {
	d, ok := n["dependencies"].(map[string]any)
	if !ok {
		_, has := n["dependencies"]
		return !has
	}
	for _, v := range d {
		if _, isList := v.([]any); !isList {
			return false
		}
	}
	return true
}

// whole validates text against the schema at loc in one call.
func (s *evidenceSplitter) whole(loc, ptr string, text []byte) ([]schema.Problem, error) {
	c, err := s.compiled(loc)
	if err != nil {
		return nil, err
	}
	ps, err := c.Validate(text)
	for i := range ps {
		ps[i].Pointer = ptr + ps[i].Pointer
	}
	return ps, err
}

// array validates a long array whose schema (at loc) is its type and
// items: in chunks of elements, each chunk as the array, a long element
// on its own against the items' schema.
func (s *evidenceSplitter) array(loc, ptr string, text []byte) ([]schema.Problem, error) {
	var out []schema.Problem
	var err error
	chunk := []byte{'['}
	first, n := 0, 0 // the index of the chunk's first element; elements seen
	flush := func() {
		if err != nil || len(chunk) == 1 {
			return
		}
		var ps []schema.Problem
		ps, err = s.whole(loc, "", append(chunk, ']'))
		for _, p := range ps {
			p.Pointer = ptr + reindex(p.Pointer, first)
			out = append(out, p)
		}
		chunk = append(chunk[:0], '[')
	}
	jsontext.EachElement(text, 0, func(start int) int {
		end := valueEnd(text, start)
		if end-start >= traceSplit {
			flush()
			var ps []schema.Problem
			if err == nil {
				ps, err = s.validate(loc+"/items", ptr+"/"+strconv.Itoa(n), text[start:end])
			}
			out = append(out, ps...)
		} else {
			if len(chunk) == 1 {
				first = n
			} else {
				chunk = append(chunk, ',')
			}
			chunk = append(chunk, text[start:end]...)
			if len(chunk) >= traceSplit {
				flush()
			}
		}
		n++
		return end
	})
	flush()
	return out, err
}

// reindex is a pointer into a chunk of an array as a pointer into the
// array, whose chunk starts at element first.
func reindex(p string, first int) string {
	if p == "" {
		return ""
	}
	seg, rest, _ := strings.Cut(p[1:], "/")
	i, err := strconv.Atoi(seg)
	if err != nil {
		return p
	}
	if rest != "" {
		rest = "/" + rest
	}
	return "/" + strconv.Itoa(first+i) + rest
}

// splitMember is a member of an object validated on its own: its pointer
// in the object, its property's schema ("" for none) and its span.
type splitMember struct {
	ptr, loc   string
	start, end int
}

// object validates a long object whose schema (n, at loc) allows it: each
// long object or array member is replaced by an empty one and validated
// on its own against its property's schema (a member no property names is
// an unknown key, whatever it holds, or any value).
func (s *evidenceSplitter) object(n map[string]any, loc, ptr string, text []byte) ([]schema.Problem, error) {
	props, _ := n["properties"].(map[string]any)
	var split []splitMember
	jsontext.EachMember(text, 0, func(keyTok []byte, plain bool, at int) int {
		end := valueEnd(text, at)
		if end-at < traceSplit || (text[at] != '{' && text[at] != '[') || !plain {
			return end
		}
		key := string(keyTok[1 : len(keyTok)-1])
		if strings.ContainsAny(key, "~/") {
			return end
		}
		m := splitMember{ptr: "/" + key, start: at, end: end}
		if _, named := props[key]; named {
			m.loc = loc + "/properties/" + key
		}
		split = append(split, m)
		return end
	})
	lean := make([]byte, 0, 1024)
	last := 0
	for _, m := range split {
		empty := "{}"
		if text[m.start] == '[' {
			empty = "[]"
		}
		lean = append(append(lean, text[last:m.start]...), empty...)
		last = m.end
	}
	lean = append(lean, text[last:]...)
	ps, err := s.whole(loc, "", lean)
	if err != nil {
		return nil, err
	}
	var out []schema.Problem
	for _, p := range ps {
		if !within(p.Pointer, split) {
			p.Pointer = ptr + p.Pointer
			out = append(out, p)
		}
	}
	for _, m := range split {
		if m.loc == "" {
			continue // an unknown key (the object's problem) or any value
		}
		mps, err := s.validate(m.loc, ptr+m.ptr, text[m.start:m.end])
		if err != nil {
			return nil, err
		}
		out = append(out, mps...)
	}
	return out, nil
}

// within tells whether pointer p lies in one of the members split off (at
// it or inside it).
func within(p string, split []splitMember) bool {
	for _, m := range split {
		if p == m.ptr || strings.HasPrefix(p, m.ptr+"/") {
			return true
		}
	}
	return false
}
