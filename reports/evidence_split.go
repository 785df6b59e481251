package reports

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

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
// splitBytes (each chunk as the array itself), and an object whose
// schema says only its type, properties, required keys, key dependencies
// and whether other keys are allowed is validated with each long object
// or array member replaced by an empty one, that member validated on its
// own against its property's schema. A part whose schema says more (one
// of, if, a minimum of items, ...) is validated whole. The problems are
// those the whole would give, at the same pointers. The same holds a
// case (whose schema is of the plain kind) to pieces of splitBytes: the
// validator's problems take about a kilobyte each, and a piece of empty
// objects that should hold their keys gives a few per two bytes.

// splitBytes is the length from which a part is validated a piece at a
// time, and about the length of a piece: a piece's problems then take a
// few megabytes at most.
const splitBytes = 4 << 10

// evidenceProblemsKept is how many problems the check of a report finds
// before it stops.
const evidenceProblemsKept = 1000

// problemBudget counts the problems a check has found.
type problemBudget struct{ n atomic.Int64 }

// spent tells whether the check has found enough.
func (b *problemBudget) spent() bool { return b.n.Load() >= evidenceProblemsKept }

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
			switch x := at.(type) {
			case map[string]any:
				at = x[jsontext.UnescapePointerToken(part)]
			case []any:
				i, err := strconv.Atoi(part)
				if err != nil || i < 0 || i >= len(x) {
					return nil, loc
				}
				at = x[i]
			default:
				return nil, loc
			}
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
func (s *evidenceSplitter) validate(loc, ptr string, text []byte, b *problemBudget) ([]schema.Problem, error) {
	if len(text) >= splitBytes {
		n, at := s.node(loc)
		switch {
		case n == nil:
		case (text[0] == '[' || text[0] == '{') && s.contentBlind(n, at, text[0], 0):
			// A list or object where the schema does not look inside one
			// (it wants a scalar, by its type or one of scalar values, or
			// any object): its problems are those of any list or object,
			// whatever it holds.
			empty := "[]"
			if text[0] == '{' {
				empty = "{}"
			}
			return s.whole(loc, ptr, []byte(empty), b)
		case text[0] == '[' && only(n, "type", "items"):
			if _, isSchema := n["items"].(map[string]any); isSchema {
				return s.array(at, ptr, text, b)
			}
		case text[0] == '{':
			if parts, ok := s.objectParts(n, at); ok {
				return s.object(parts, ptr, text, b)
			}
		}
	}
	return s.whole(loc, ptr, text, b)
}

// otherKeywords are the keywords that say nothing of a list ('[') or an
// object ('{') other than its type: those of scalars and of the other
// kind.
func otherKeywords(c byte) []string {
	k := []string{"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format"}
	if c == '[' {
		return append(k, "properties", "additionalProperties", "required", "minProperties", "maxProperties", "dependencies", "propertyNames", "patternProperties")
	}
	return append(k, "items", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains")
}

// contentBlind tells whether the schema n (at loc) says nothing of a list
// ('[') or an object ('{') but whether it takes one: none of its
// keywords, nor those of the parts of its allOf, looks inside one (an
// enum or a const of scalars takes no list or object whatever it holds).
func (s *evidenceSplitter) contentBlind(n map[string]any, loc string, c byte, depth int) bool {
	if depth > 8 || !only(n, append(otherKeywords(c), "enum", "const", "allOf")...) {
		return false
	}
	if _, ok := n["enum"]; ok && !scalarEnum(n) {
		return false
	}
	switch n["const"].(type) {
	case []any, map[string]any:
		return false
	}
	all, _ := n["allOf"].([]any)
	for i := range all {
		p, at := s.node(loc + "/allOf/" + strconv.Itoa(i))
		if p == nil || !s.contentBlind(p, at, c, depth+1) {
			return false
		}
	}
	return true
}

// scalarEnum tells whether the schema n takes one of a list of values
// none of which is a list or an object.
func scalarEnum(n map[string]any) bool {
	values, ok := n["enum"].([]any)
	if !ok {
		return false
	}
	for _, v := range values {
		switch v.(type) {
		case []any, map[string]any:
			return false
		}
	}
	return true
}

// typeAllows tells whether the schema n's type takes the kind of value
// that starts with c ('[' or '{'): true when it names no type.
func typeAllows(n map[string]any, c byte) bool {
	kind := "array"
	if c == '{' {
		kind = "object"
	}
	switch t := n["type"].(type) {
	case string:
		return t == kind
	case []any:
		for _, x := range t {
			if x == kind {
				return true
			}
		}
		return false
	}
	return true
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
func (s *evidenceSplitter) whole(loc, ptr string, text []byte, b *problemBudget) ([]schema.Problem, error) {
	if b.spent() {
		return nil, nil
	}
	c, err := s.compiled(loc)
	if err != nil {
		return nil, err
	}
	ps, err := c.Validate(text)
	b.n.Add(int64(len(ps)))
	for i := range ps {
		ps[i].Pointer = ptr + ps[i].Pointer
	}
	return ps, err
}

// array validates a long array whose schema (at loc) is its type and
// items: in chunks of elements, each chunk as the array, a long element
// on its own against the items' schema.
func (s *evidenceSplitter) array(loc, ptr string, text []byte, b *problemBudget) ([]schema.Problem, error) {
	var out []schema.Problem
	var err error
	chunk := []byte{'['}
	first, n := 0, 0 // the index of the chunk's first element; elements seen
	flush := func() {
		if err != nil || len(chunk) == 1 {
			return
		}
		var ps []schema.Problem
		ps, err = s.whole(loc, "", append(chunk, ']'), b)
		for _, p := range ps {
			p.Pointer = ptr + reindex(p.Pointer, first)
			out = append(out, p)
		}
		chunk = append(chunk[:0], '[')
	}
	jsontext.EachElement(text, 0, func(start int) int {
		end := valueEnd(text, start)
		if end-start >= splitBytes {
			flush()
			var ps []schema.Problem
			if err == nil {
				ps, err = s.validate(loc+"/items", ptr+"/"+strconv.Itoa(n), text[start:end], b)
			}
			out = append(out, ps...)
		} else {
			if len(chunk) == 1 {
				first = n
			} else {
				chunk = append(chunk, ',')
			}
			chunk = append(chunk, text[start:end]...)
			if len(chunk) >= splitBytes {
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
// in the object, its property's schemas (none: any value) and its span.
type splitMember struct {
	ptr        string
	locs       []string
	start, end int
}

// objectPart is a schema an object is held to, and where it lies.
type objectPart struct {
	n   map[string]any
	loc string
}

// objectParts are the schemas an object held to n (at loc) is held to —
// n and, where n has allOf, each of its parts — when each says only its
// type, properties, required keys, key dependencies and whether other
// keys are allowed or the schema they are held to; false when one says
// more.
func (s *evidenceSplitter) objectParts(n map[string]any, loc string) ([]objectPart, bool) {
	parts := []objectPart{{n, loc}}
	if all, ok := n["allOf"].([]any); ok {
		for i := range all {
			p, at := s.node(loc + "/allOf/" + strconv.Itoa(i))
			if p == nil {
				return nil, false
			}
			parts = append(parts, objectPart{p, at})
		}
	}
	for i, p := range parts {
		keys := []string{"type", "properties", "additionalProperties", "required", "dependencies", "$schema", "definitions"}
		if i == 0 {
			keys = append(keys, "allOf")
		}
		if !only(p.n, keys...) || !keyDependencies(p.n) || !typeAllows(p.n, '{') {
			return nil, false
		}
		if ap, ok := p.n["additionalProperties"]; ok && ap != false {
			if _, isSchema := ap.(map[string]any); !isSchema {
				return nil, false
			}
		}
	}
	return parts, true
}

// object validates a long object held to parts (objectParts): each long
// object or array member is replaced by an empty one and validated on its
// own against each property schema the parts give it, or the schema of
// other keys (a member none names is an unknown key, whatever it holds,
// or any value).
func (s *evidenceSplitter) object(parts []objectPart, ptr string, text []byte, b *problemBudget) ([]schema.Problem, error) {
	var split []splitMember
	jsontext.EachMember(text, 0, func(keyTok []byte, plain bool, at int) int {
		end := valueEnd(text, at)
		if end-at < splitBytes || (text[at] != '{' && text[at] != '[') || !plain {
			return end
		}
		key := string(keyTok[1 : len(keyTok)-1])
		if strings.ContainsAny(key, "~/") {
			return end
		}
		m := splitMember{ptr: "/" + key, start: at, end: end}
		for _, p := range parts {
			if props, _ := p.n["properties"].(map[string]any); props[key] != nil {
				m.locs = append(m.locs, p.loc+"/properties/"+key)
			} else if _, isSchema := p.n["additionalProperties"].(map[string]any); isSchema {
				m.locs = append(m.locs, p.loc+"/additionalProperties")
			}
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
	ps, err := s.whole(parts[0].loc, "", lean, b)
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
		for _, loc := range m.locs {
			mps, err := s.validate(loc, ptr+m.ptr, text[m.start:m.end], b)
			if err != nil {
				return nil, err
			}
			out = append(out, mps...)
		}
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
