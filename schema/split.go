package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/parallel"
)

// Split validates documents against a schema whose array items are held
// to one of several branches by a tag: the case schema, where each case's
// scenario selects one `if {scenario: const X} then {...}` of the case
// definition's allOf.
//
// gojsonschema evaluates every branch's `if` for every item, and for each
// branch not taken it builds and formats an error it then throws away. A
// Split instead reads the item's tag and holds the item to a schema that
// keeps only the branches that tag can take. The result is the same: for
// an item whose tag is the string X, the `if` of a branch for any other
// constant fails, and a branch without an `else` then asks nothing.
//
// The problems of a document the split does not accept are exactly those
// of the whole schema, with the same pointers and words. When the shell
// accepts it and every item's tag names a branch, each item the split
// refuses is held alone to its own branch and its problems put under the
// item's pointer (ValidateText); when anything else is wrong, or an
// item's tag is missing, not a string or not a branch, the document is
// validated again against the whole schema.
type Split struct {
	// full is compiled on first use: only a document the split does not
	// accept, or a caller of Full, needs it.
	fullOnce sync.Once
	fullDoc  any
	full     *Schema
	fullErr  error

	shell    *Schema
	items    string
	tag      string
	branches map[string]*Schema
	// The same parts read for the fast check (fast.go): a value it finds
	// valid is not handed to gojsonschema.
	fastShell    *fastNode
	fastBranches map[string]*fastNode
}

// NewSplit compiles doc, a schema whose top-level property items is an
// array of {"$ref": "#/definitions/NAME"}, and from it a shell (the same
// schema with that definition accepting anything) and, for each constant
// of tag that a branch of the definition's allOf tests, the definition
// with only the branches that constant can take.
//
// The parts are compiled from the decoded document, on all processors; the
// whole schema is compiled only when first needed.
func NewSplit(doc []byte, items, tag string) (*Split, error) {
	// Numbers stay as written (json.Number), as gojsonschema's own loader
	// reads them, so the parts are the same schema as the text.
	v, err := decode(doc)
	if err != nil {
		return nil, err
	}
	root, _ := v.(map[string]any)
	props, _ := root["properties"].(map[string]any)
	arr, _ := props[items].(map[string]any)
	ref, _ := arr["items"].(map[string]any)
	target, _ := ref["$ref"].(string)
	const prefix = "#/definitions/"
	defs, _ := root["definitions"].(map[string]any)
	if len(ref) != 1 || len(target) <= len(prefix) || target[:len(prefix)] != prefix {
		return nil, fmt.Errorf("split: properties.%s.items is not a reference to a definition", items)
	}
	name := target[len(prefix):]
	item, _ := defs[name].(map[string]any)
	if item == nil {
		return nil, fmt.Errorf("split: no definition %q", name)
	}
	if n := countRefs(root, target); n != 1 {
		// The shell accepts anything where the definition is used: only
		// the items of the array may use it.
		return nil, fmt.Errorf("split: the definition %q is referenced %d times; only properties.%s.items may", name, n, items)
	}
	allOf, _ := item["allOf"].([]any)

	// Which constant each allOf entry tests; entries that are not a branch
	// are kept for every item.
	consts := make([]string, len(allOf))
	branch := make([]bool, len(allOf))
	tags := map[string]bool{}
	for i, e := range allOf {
		if c, ok := branchConst(e, tag); ok {
			consts[i], branch[i] = c, true
			tags[c] = true
		}
	}
	if len(tags) == 0 {
		return nil, fmt.Errorf("split: definition %q has no branch on %q", name, tag)
	}

	s := &Split{fullDoc: v, items: items, tag: tag, branches: map[string]*Schema{}}
	shellDefs := copyMap(defs)
	shellDefs[name] = map[string]any{}
	shell := copyMap(root)
	shell["definitions"] = shellDefs
	pruneDefinitions(shell, shellDefs)
	// The parts, the shell first, then a branch for each tag.
	names := make([]string, 0, len(tags))
	for c := range tags {
		names = append(names, c)
	}
	sort.Strings(names)
	parts := []any{shell}
	for _, c := range names {
		var kept []any
		for i, e := range allOf {
			if !branch[i] || consts[i] == c {
				kept = append(kept, e)
			}
		}
		one := copyMap(item)
		one["allOf"] = kept
		branchDefs := copyMap(defs)
		branchDefs[name] = one
		b := map[string]any{
			"definitions": branchDefs,
			"allOf":       []any{map[string]any{"$ref": target}},
		}
		pruneDefinitions(b, branchDefs)
		parts = append(parts, b)
	}
	compiled := make([]*Schema, len(parts))
	errs := make([]error, len(parts))
	parallel.For(len(parts), func(i int) { compiled[i], errs[i] = compileValue(parts[i]) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	s.shell = compiled[0]
	s.fastShell = compileFast(parts[0])
	s.fastBranches = make(map[string]*fastNode, len(names))
	for i, c := range names {
		s.branches[c] = compiled[i+1]
		s.fastBranches[c] = compileFast(parts[i+1])
	}
	return s, nil
}

// pruneDefinitions removes from defs, the definitions of the schema root,
// every definition root cannot reach through references of the form
// #/definitions/NAME: gojsonschema compiles every definition, and each
// part of a split needs only a few. A schema with any other reference or
// with an $id keeps every definition, as does a name that a pointer would
// have to escape.
func pruneDefinitions(root, defs map[string]any) {
	reached := map[string]bool{}
	top := copyMap(root) // the root without its definitions
	delete(top, "definitions")
	queue := []any{top}
	const prefix = "#/definitions/"
	simple := true
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["$id"]; ok {
				simple = false
			}
			if ref, ok := x["$ref"].(string); ok {
				name, isDef := strings.CutPrefix(ref, prefix)
				if !isDef || strings.ContainsAny(name, "/~%") || defs[name] == nil {
					simple = false
				} else if !reached[name] {
					reached[name] = true
					queue = append(queue, defs[name])
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for len(queue) > 0 && simple {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		walk(v)
	}
	if !simple {
		return
	}
	for name := range defs {
		if !reached[name] {
			delete(defs, name)
		}
	}
}

// branchConst reports the constant an allOf entry of the form
// {"if": {"required": [tag], "properties": {tag: {"const": "X"}}}, "then": ...}
// tests. Any other entry, one with an else among them, is not a branch.
func branchConst(e any, tag string) (string, bool) {
	m, _ := e.(map[string]any)
	if len(m) != 2 || m["then"] == nil {
		return "", false
	}
	cond, _ := m["if"].(map[string]any)
	want := map[string]any{
		"required":   []any{tag},
		"properties": map[string]any{tag: map[string]any{"const": nil}},
	}
	props, _ := cond["properties"].(map[string]any)
	test, _ := props[tag].(map[string]any)
	c, isString := test["const"].(string)
	if !isString {
		return "", false
	}
	want["properties"].(map[string]any)[tag].(map[string]any)["const"] = c
	if !reflect.DeepEqual(cond, want) {
		return "", false
	}
	return c, true
}

// countRefs counts the places in a schema that refer to target.
func countRefs(v any, target string) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		if ref, _ := x["$ref"].(string); ref == target {
			n++
		}
		for _, e := range x {
			n += countRefs(e, target)
		}
	case []any:
		for _, e := range x {
			n += countRefs(e, target)
		}
	}
	return n
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// compileValue compiles a decoded schema. gojsonschema rewrites the
// references of the document it compiles in place, and the parts of a
// split share their pieces, so each compiles a copy of its own.
func compileValue(v any) (*Schema, error) {
	return compileLoader(decoded{gojsonschema.NewBytesLoader(nil), deepCopy(v)})
}

// deepCopy copies the maps and slices of a decoded JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// FullSchema returns the whole schema, compiled on the first call.
func (s *Split) FullSchema() (*Schema, error) {
	s.fullOnce.Do(func() {
		s.full, s.fullErr = compileValue(s.fullDoc)
		s.fullDoc = nil
	})
	return s.full, s.fullErr
}

// Full returns the whole schema, or nil when it does not compile.
func (s *Split) Full() *Schema {
	full, _ := s.FullSchema()
	return full
}

// Validate checks a JSON document against the whole schema, as
// Schema.Validate does and with the same result, decoding it once. The
// same conditions on doc apply.
func (s *Split) Validate(doc []byte) ([]Problem, error) { return s.ValidateText(doc, "") }

// ValidateText is Validate of doc when the caller holds text, a string of
// the same bytes: the strings the check reads are taken from it instead of
// from a copy of doc of the check's own.
func (s *Split) ValidateText(doc []byte, text string) ([]Problem, error) {
	if len(text) != len(doc) {
		text = ""
	}
	var root any
	if f, ok := flattenText(doc, text); ok {
		items, tags, ok := s.itemsOf(f)
		if ok && s.shellValid(f) {
			// Only items can be wrong: each is held to its branch
			// alone, so no tree of the whole document is built.
			problems, err := s.itemProblems(f, items, tags)
			f.release()
			return problems, err
		}
		root = f.decode(0)
		f.release()
	} else {
		var err error
		if root, err = decode(doc); err != nil {
			return nil, fmt.Errorf("validating: %w", err)
		}
		if f, ok := flatOf(root); ok && s.valid(f) {
			return nil, nil
		}
	}
	full, err := s.FullSchema()
	if err != nil {
		return nil, err
	}
	return full.problems(decoded{gojsonschema.NewBytesLoader(doc), root})
}

// valid reports whether the split finds the document f holds valid: the
// shell accepts it and every item's branch accepts the item. False means
// "ask the whole schema", not "invalid".
func (s *Split) valid(f *flat) bool {
	items, tags, ok := s.itemsOf(f)
	if !ok || !s.shellValid(f) {
		return false
	}
	for i, e := range items {
		if s.fastBranches[tags[i]].check(f, e) != valid && !accepts(s.branches[tags[i]], f.decode(e)) {
			return false
		}
	}
	return true
}

// itemsOf finds the items of the document f holds and each one's tag;
// false when there is no list of items or an item's tag is missing, not a
// string or not a branch's.
func (s *Split) itemsOf(f *flat) (items []int32, tags []string, ok bool) {
	list := f.member(0, s.items)
	if list < 0 || f.nodes[list].kind != kArray {
		return nil, nil, false
	}
	count := f.nodes[list].count
	items = make([]int32, count)
	tags = make([]string, count)
	for i, e := int32(0), list+1; i < count; i, e = i+1, f.nodes[e].next {
		t := f.member(e, s.tag)
		if t < 0 || f.nodes[t].kind != kString || s.branches[f.nodes[t].text] == nil {
			return nil, nil, false
		}
		items[i], tags[i] = e, f.nodes[t].text
	}
	return items, tags, true
}

// shellValid reports whether the shell (the schema with any item
// accepted) accepts the document f holds.
func (s *Split) shellValid(f *flat) bool {
	return s.fastShell.check(f, 0) == valid || accepts(s.shell, f.decode(0))
}

// itemProblems are the problems of a document whose shell is valid and
// whose items each have a branch's tag: each item the fast check does not
// accept is validated alone against its branch, on all processors, and
// its problems' pointers are put under the item's. They are the whole
// schema's problems: under it, a branch whose if fails adds none, and the
// items' problems follow one another in the list's order, which the
// stable sort by pointer and key keeps.
func (s *Split) itemProblems(f *flat, items []int32, tags []string) ([]Problem, error) {
	each := make([][]Problem, len(items))
	errs := make([]error, len(items))
	parallel.For(len(items), func(i int) {
		e := items[i]
		if s.fastBranches[tags[i]].check(f, e) == valid {
			return
		}
		ps, err := s.branches[tags[i]].problems(decoded{v: f.decode(e)})
		prefix := "/" + jsontext.PointerToken(s.items) + "/" + strconv.Itoa(i)
		for j := range ps {
			ps[j].Pointer = prefix + ps[j].Pointer
		}
		each[i], errs[i] = ps, err
	})
	n := 0
	for i, ps := range each {
		if errs[i] != nil {
			return nil, errs[i]
		}
		n += len(ps)
	}
	if n == 0 {
		return nil, nil
	}
	out := make([]Problem, 0, n)
	for _, ps := range each {
		out = append(out, ps...)
	}
	sortProblems(out)
	return out, nil
}

func accepts(s *Schema, v any) bool {
	r, err := s.s.Validate(decoded{v: v})
	return err == nil && r.Valid()
}

// decode reads a document as gojsonschema's own loaders do: numbers kept
// as json.Number. The fast reader gives the library's value without
// reflection where it can; anything else takes encoding/json.
func decode(doc []byte) (any, error) {
	if v, ok := jsontext.DecodeUseNumberLibrary(doc); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// decoded hands gojsonschema a document already decoded.
type decoded struct {
	gojsonschema.JSONLoader
	v any
}

func (d decoded) LoadJSON() (any, error) { return d.v, nil }
