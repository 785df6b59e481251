package schema

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// verdict is what a fast node says of a value: valid, invalid, or that it
// cannot tell and gojsonschema must.
type verdict int8

const (
	unsure verdict = iota
	valid
	invalid
)

// fastNode is a part of a draft-07 schema read for the fast check: the
// keywords the case schema uses, evaluated on a document read into a flat
// (the value decode gives, numbers as written), as gojsonschema 1.2
// evaluates them. A keyword it does not
// evaluate makes the node (and so every schema above it that reaches it)
// unsure of every value: the fast check never decides what it has not
// read.
//
// Its answers are held to gojsonschema's, value by value, by
// TestFastAgreesWithGojsonschema and FuzzFast: valid only where
// gojsonschema finds no problem, invalid only where it finds one. Only
// valid is acted on (Split.valid skips gojsonschema for that value);
// anything else is asked of gojsonschema as before, so a wrong invalid or
// unsure costs time and never changes a result.
type fastNode struct {
	opaque bool  // a keyword the fast check does not evaluate
	pass   *bool // a true or false schema
	ref    *fastNode

	types    uint8 // typeBits; 0: untyped
	props    map[string]*fastNode
	required []string
	// extraOK: keys outside props are allowed as they are (no
	// additionalProperties, or true); otherwise extra, when set, holds
	// each of them, and when nil, none is allowed.
	extraOK bool
	extra   *fastNode

	items      *fastNode   // every item
	tuple      []*fastNode // items given as a list: the first len(tuple) items
	minItems   int
	maxItems   int // -1: none
	minLength  int
	maxLength  int // -1: none
	pattern    *regexp.Regexp
	hasEnum    bool
	enum       []any
	minimum    *int64
	exclMin    *int64
	maximum    *int64
	exclMax    *int64
	allOf      []*fastNode
	anyOf      []*fastNode
	oneOf      []*fastNode
	not        *fastNode
	cond       *fastNode
	then, els  *fastNode
	hasBounded bool // minimum or maximum of either kind
}

const (
	typeNull uint8 = 1 << iota
	typeBoolean
	typeString
	typeNumber
	typeInteger
	typeObject
	typeArray
)

var typeBits = map[string]uint8{
	"null": typeNull, "boolean": typeBoolean, "string": typeString, "number": typeNumber,
	"integer": typeInteger, "object": typeObject, "array": typeArray,
}

// annotations are the keywords that ask nothing of a value.
var annotations = map[string]bool{
	"$schema": true, "$comment": true, "title": true, "description": true,
	"definitions": true, "default": true, "examples": true,
}

// fastCompiler reads the parts of one schema document, whose root holds
// the definitions its references name.
type fastCompiler struct {
	defs  map[string]any
	byDef map[string]*fastNode
}

// compileFast reads root, a decoded schema, for the fast check.
func compileFast(root any) *fastNode {
	m, _ := root.(map[string]any)
	defs, _ := m["definitions"].(map[string]any)
	c := &fastCompiler{defs: defs, byDef: map[string]*fastNode{}}
	return c.node(root)
}

func (c *fastCompiler) node(v any) *fastNode {
	switch x := v.(type) {
	case bool:
		return &fastNode{pass: &x}
	case map[string]any:
		n := &fastNode{maxItems: -1, maxLength: -1, extraOK: true}
		if ref, ok := x["$ref"]; ok {
			// gojsonschema follows the reference and reads nothing else
			// of the schema beside it.
			s, _ := ref.(string)
			name, isDef := strings.CutPrefix(s, "#/definitions/")
			if !isDef || strings.ContainsAny(name, "/~%") {
				return &fastNode{opaque: true}
			}
			if d := c.byDef[name]; d != nil {
				n.ref = d
				return n
			}
			def, found := c.defs[name]
			if !found {
				return &fastNode{opaque: true}
			}
			d := &fastNode{}
			c.byDef[name] = d // a definition that reaches itself
			*d = *c.node(def)
			n.ref = d
			return n
		}
		for k, e := range x {
			if !annotations[k] && !c.keyword(n, k, e, x) {
				return &fastNode{opaque: true}
			}
		}
		return n
	}
	return &fastNode{opaque: true}
}

// keyword reads one keyword k of schema x, whose value is e, into n;
// false when the fast check does not evaluate it as written.
func (c *fastCompiler) keyword(n *fastNode, k string, e any, x map[string]any) bool {
	switch k {
	case "type":
		switch t := e.(type) {
		case string:
			n.types = typeBits[t]
			return n.types != 0
		case []any:
			for _, one := range t {
				s, _ := one.(string)
				if typeBits[s] == 0 {
					return false
				}
				n.types |= typeBits[s]
			}
			return len(t) > 0
		}
		return false
	case "properties":
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		n.props = make(map[string]*fastNode, len(m))
		for p, s := range m {
			n.props[p] = c.node(s)
		}
		return true
	case "required":
		list, ok := e.([]any)
		if !ok {
			return false
		}
		for _, r := range list {
			s, ok := r.(string)
			if !ok {
				return false
			}
			n.required = append(n.required, s)
		}
		return true
	case "additionalProperties":
		if b, ok := e.(bool); ok {
			n.extraOK = b
			return true
		}
		if _, ok := e.(map[string]any); !ok {
			return false
		}
		n.extraOK, n.extra = false, c.node(e)
		return true
	case "items":
		switch t := e.(type) {
		case []any:
			if _, more := x["additionalItems"]; more {
				return false
			}
			n.tuple = make([]*fastNode, len(t))
			for i, s := range t {
				n.tuple[i] = c.node(s)
			}
			return true
		case map[string]any:
			n.items = c.node(t)
			return true
		}
		return false
	case "minItems", "maxItems", "minLength", "maxLength":
		i, ok := count(e)
		if !ok {
			return false
		}
		switch k {
		case "minItems":
			n.minItems = i
		case "maxItems":
			n.maxItems = i
		case "minLength":
			n.minLength = i
		default:
			n.maxLength = i
		}
		return true
	case "pattern":
		s, ok := e.(string)
		if !ok {
			return false
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return false
		}
		n.pattern = re
		return true
	case "enum", "const":
		if k == "const" {
			e = []any{e}
		}
		list, ok := e.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		if n.hasEnum {
			return false // both: not read
		}
		n.hasEnum, n.enum = true, list
		return true
	case "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum":
		num, ok := e.(json.Number)
		if !ok {
			return false
		}
		i, ok := plainInt(string(num))
		if !ok {
			return false
		}
		switch k {
		case "minimum":
			n.minimum = &i
		case "exclusiveMinimum":
			n.exclMin = &i
		case "maximum":
			n.maximum = &i
		default:
			n.exclMax = &i
		}
		n.hasBounded = true
		return true
	case "allOf", "anyOf", "oneOf":
		list, ok := e.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		nodes := make([]*fastNode, len(list))
		for i, s := range list {
			nodes[i] = c.node(s)
		}
		switch k {
		case "allOf":
			n.allOf = nodes
		case "anyOf":
			n.anyOf = nodes
		default:
			n.oneOf = nodes
		}
		return true
	case "not":
		n.not = c.node(e)
		return true
	case "if":
		n.cond = c.node(e)
		return true
	case "then":
		n.then = c.node(e)
		return true
	case "else":
		n.els = c.node(e)
		return true
	}
	return false
}

// count reads a whole, non-negative number of a schema.
func count(e any) (int, bool) {
	num, ok := e.(json.Number)
	if !ok {
		return 0, false
	}
	i, ok := plainInt(string(num))
	if !ok || i < 0 || i > 1<<31 {
		return 0, false
	}
	return int(i), true
}

// plainInt reads a number written as an integer of at most 15 digits:
// exact in every reading, float64 and big.Rat alike.
func plainInt(raw string) (int64, bool) {
	digits := strings.TrimPrefix(raw, "-")
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	i, err := strconv.ParseInt(raw, 10, 64)
	return i, err == nil
}

// and folds a part's verdict into the whole's: invalid wins, then unsure.
func and(a, b verdict) verdict {
	if a == invalid || b == invalid {
		return invalid
	}
	if a == unsure || b == unsure {
		return unsure
	}
	return valid
}

// check is the node's verdict on the value at i of f.
func (n *fastNode) check(f *flat, i int32) verdict {
	switch {
	case n.opaque:
		return unsure
	case n.pass != nil:
		if *n.pass {
			return valid
		}
		return invalid
	case n.ref != nil:
		return n.ref.check(f, i)
	}
	r := valid
	v := &f.nodes[i]
	if n.types != 0 {
		switch t := n.typeOf(v); t {
		case invalid, unsure:
			// A value of a type the node does not take: gojsonschema
			// stops there.
			return t
		}
	}
	switch v.kind {
	case kString:
		r = n.checkString(v.text)
	case kNumber:
		r = n.checkNumber(json.Number(v.text))
	case kObject:
		r = n.checkObject(f, i)
	case kArray:
		r = n.checkArray(f, i)
	}
	if r == invalid {
		return r
	}
	if n.hasEnum {
		r = and(r, n.checkEnum(v))
	}
	return and(r, n.checkApplicators(f, i))
}

// typeOf says whether v is of a type the node takes.
func (n *fastNode) typeOf(v *fnode) verdict {
	var bit uint8
	switch v.kind {
	case kNull:
		bit = typeNull
	case kFalse, kTrue:
		bit = typeBoolean
	case kString:
		bit = typeString
	case kObject:
		bit = typeObject
	case kArray:
		bit = typeArray
	case kNumber:
		if n.types&typeNumber != 0 {
			return valid
		}
		if n.types&typeInteger == 0 {
			return invalid
		}
		if _, ok := plainInt(v.text); ok {
			return valid
		}
		// 1.0 is an integer to gojsonschema, which asks big.Rat.
		if r, ok := ratOf(json.Number(v.text)); ok {
			if r.IsInt() {
				return valid
			}
			return invalid
		}
		return unsure
	default:
		return unsure
	}
	if n.types&bit != 0 {
		return valid
	}
	return invalid
}

func (n *fastNode) checkString(s string) verdict {
	if n.minLength > 0 || n.maxLength >= 0 {
		l := utf8.RuneCountInString(s)
		if l < n.minLength || n.maxLength >= 0 && l > n.maxLength {
			return invalid
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		return invalid
	}
	return valid
}

func (n *fastNode) checkNumber(num json.Number) verdict {
	if !n.hasBounded {
		return valid
	}
	if i, ok := plainInt(string(num)); ok {
		switch {
		case n.minimum != nil && i < *n.minimum,
			n.exclMin != nil && i <= *n.exclMin,
			n.maximum != nil && i > *n.maximum,
			n.exclMax != nil && i >= *n.exclMax:
			return invalid
		}
		return valid
	}
	x, ok := ratOf(num)
	if !ok {
		return unsure
	}
	cmp := func(bound int64) int { return x.Cmp(new(big.Rat).SetInt64(bound)) }
	switch {
	case n.minimum != nil && cmp(*n.minimum) < 0,
		n.exclMin != nil && cmp(*n.exclMin) <= 0,
		n.maximum != nil && cmp(*n.maximum) > 0,
		n.exclMax != nil && cmp(*n.exclMax) >= 0:
		return invalid
	}
	return valid
}

// checkObject holds the object at i of f, whose keys are all different,
// to required and the properties.
func (n *fastNode) checkObject(f *flat, i int32) verdict {
	for _, k := range n.required {
		if f.member(i, k) < 0 {
			return invalid
		}
	}
	r := valid
	k := i + 1
	for c := int32(0); c < f.nodes[i].count; c++ {
		e := k + 1
		p := n.props[f.nodes[k].text]
		switch {
		case p != nil:
			r = and(r, p.check(f, e))
		case n.extraOK:
		case n.extra != nil:
			r = and(r, n.extra.check(f, e))
		default:
			return invalid
		}
		if r == invalid {
			return r
		}
		k = f.nodes[e].next
	}
	return r
}

func (n *fastNode) checkArray(f *flat, i int32) verdict {
	count := int(f.nodes[i].count)
	if count < n.minItems || n.maxItems >= 0 && count > n.maxItems {
		return invalid
	}
	r := valid
	e := i + 1
	for c := 0; c < count; c++ {
		switch {
		case n.items != nil:
			r = and(r, n.items.check(f, e))
		case c < len(n.tuple):
			r = and(r, n.tuple[c].check(f, e))
		}
		if r == invalid {
			return r
		}
		e = f.nodes[e].next
	}
	return r
}

// checkEnum compares v with the enum's (or the const's) values as
// gojsonschema does, by their JSON text. Values of different kinds are
// never equal; strings of valid UTF-8 are equal when they are the same
// string, null and booleans when they are the same value, numbers when
// they are the same rational number (gojsonschema rewrites each through
// float64 first, which makes more numbers equal: those are left unsure);
// objects and arrays are not compared.
func (n *fastNode) checkEnum(v *fnode) verdict {
	r := invalid
	for _, e := range n.enum {
		switch x := e.(type) {
		case string:
			if v.kind != kString {
				continue
			}
			if !utf8.ValidString(v.text) {
				return unsure
			}
			if v.text == x {
				return valid
			}
		case nil:
			if v.kind == kNull {
				return valid
			}
		case bool:
			if v.kind == kTrue && x || v.kind == kFalse && !x {
				return valid
			}
		case json.Number:
			if v.kind != kNumber {
				continue
			}
			a, ok1 := ratOf(json.Number(v.text))
			b, ok2 := ratOf(x)
			if !ok1 || !ok2 {
				r = unsure
			} else if a.Cmp(b) == 0 {
				return valid
			} else if !a.IsInt() || !b.IsInt() || a.Num().BitLen() > 53 || b.Num().BitLen() > 53 {
				r = unsure // unequal, and perhaps equal as float64
			}
		case map[string]any:
			if v.kind == kObject {
				r = unsure
			}
		case []any:
			if v.kind == kArray {
				r = unsure
			}
		}
	}
	return r
}

// ratOf reads a number as gojsonschema does (big.Rat), for one of at
// most 64 characters: a longer one is left to gojsonschema.
func ratOf(num json.Number) (*big.Rat, bool) {
	if len(num) > 64 {
		return nil, false
	}
	return new(big.Rat).SetString(string(num))
}

// checkApplicators evaluates allOf, anyOf, oneOf, not and if/then/else.
func (n *fastNode) checkApplicators(f *flat, i int32) verdict {
	r := valid
	for _, s := range n.allOf {
		if r = and(r, s.check(f, i)); r == invalid {
			return r
		}
	}
	if len(n.anyOf) > 0 {
		some := invalid
		for _, s := range n.anyOf {
			switch s.check(f, i) {
			case valid:
				some = valid
			case unsure:
				if some == invalid {
					some = unsure
				}
			}
			if some == valid {
				break
			}
		}
		if r = and(r, some); r == invalid {
			return r
		}
	}
	if len(n.oneOf) > 0 {
		yes, maybe := 0, 0
		for _, s := range n.oneOf {
			switch s.check(f, i) {
			case valid:
				yes++
			case unsure:
				maybe++
			}
		}
		one := unsure
		switch {
		case yes > 1:
			one = invalid
		case yes == 1 && maybe == 0:
			one = valid
		case yes == 0 && maybe == 0:
			one = invalid
		}
		if r = and(r, one); r == invalid {
			return r
		}
	}
	if n.not != nil {
		switch n.not.check(f, i) {
		case valid:
			return invalid
		case unsure:
			r = and(r, unsure)
		}
	}
	if n.cond != nil {
		var branch *fastNode
		switch n.cond.check(f, i) {
		case valid:
			branch = n.then
		case invalid:
			branch = n.els
		default:
			if n.then != nil || n.els != nil {
				return and(r, unsure)
			}
		}
		if branch != nil {
			r = and(r, branch.check(f, i))
		}
	}
	return r
}
