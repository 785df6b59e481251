package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/xeipuuv/gojsonschema"
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
// The split is only a faster way to accept a valid document. When anything
// is wrong, or an item's tag is missing, not a string or not a branch, the
// document is validated again against the whole schema, so problems are
// exactly those of the whole schema, with the same pointers and words.
type Split struct {
	full     *Schema
	shell    *Schema
	items    string
	tag      string
	branches map[string]*Schema
}

// NewSplit compiles doc, a schema whose top-level property items is an
// array of {"$ref": "#/definitions/NAME"}, and from it a shell (the same
// schema with that definition accepting anything) and, for each constant
// of tag that a branch of the definition's allOf tests, the definition
// with only the branches that constant can take.
func NewSplit(doc []byte, items, tag string) (*Split, error) {
	full, err := Compile(doc)
	if err != nil {
		return nil, err
	}
	// Numbers stay as written, so the parts compiled again are the same
	// schema (json.Number marshals to its own text).
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

	s := &Split{full: full, items: items, tag: tag, branches: map[string]*Schema{}}
	shellDefs := copyMap(defs)
	shellDefs[name] = map[string]any{}
	shell := copyMap(root)
	shell["definitions"] = shellDefs
	if s.shell, err = compileValue(shell); err != nil {
		return nil, err
	}
	for c := range tags {
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
		if s.branches[c], err = compileValue(b); err != nil {
			return nil, err
		}
	}
	return s, nil
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

func compileValue(v any) (*Schema, error) {
	doc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Compile(doc)
}

// Full returns the whole schema.
func (s *Split) Full() *Schema { return s.full }

// Validate checks a JSON document against the whole schema, as
// Schema.Validate does and with the same result, decoding it once. The
// same conditions on doc apply.
func (s *Split) Validate(doc []byte) ([]Problem, error) {
	root, err := decode(doc)
	if err != nil {
		return nil, fmt.Errorf("validating: %w", err)
	}
	if s.valid(root) {
		return nil, nil
	}
	return s.full.problems(decoded{gojsonschema.NewBytesLoader(doc), root})
}

// valid reports whether the split finds root valid: the shell accepts it
// and every item's branch accepts the item. False means "ask the whole
// schema", not "invalid".
func (s *Split) valid(root any) bool {
	m, _ := root.(map[string]any)
	list, isArray := m[s.items].([]any)
	if !isArray {
		return false
	}
	branch := make([]*Schema, len(list))
	for i, it := range list {
		obj, _ := it.(map[string]any)
		tag, isString := obj[s.tag].(string)
		if !isString {
			return false
		}
		if branch[i] = s.branches[tag]; branch[i] == nil {
			return false
		}
	}
	if !accepts(s.shell, root) {
		return false
	}
	for i, it := range list {
		if !accepts(branch[i], it) {
			return false
		}
	}
	return true
}

func accepts(s *Schema, v any) bool {
	r, err := s.s.Validate(decoded{v: v})
	return err == nil && r.Valid()
}

// decode reads a document as gojsonschema's own loaders do: numbers kept
// as json.Number.
func decode(doc []byte) (any, error) {
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
