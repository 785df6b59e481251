package household

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/internal/pyrepr"
)

// Inside the model a JSON value is one of: nil (null), bool, json.Number
// (a number, kept as the literal that was written), string, []any (an
// array) or *object (an object that keeps its members in order). Values are
// built by parseJSON or by the model itself and serialised by encodeJSON.

// member is one key/value pair of an object.
type member struct {
	key string
	val any
}

// object is a JSON object with its members in insertion order. Keys are
// unique.
type object struct {
	members []member
}

// newObject builds an object from alternating keys and values.
func newObject(kv ...any) *object {
	o := &object{members: make([]member, 0, len(kv)/2)}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// get returns the value under key.
func (o *object) get(key string) (any, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// set replaces the value under key in place, or appends a new member.
func (o *object) set(key string, val any) {
	for i := range o.members {
		if o.members[i].key == key {
			o.members[i].val = val
			return
		}
	}
	o.members = append(o.members, member{key, val})
}

// hasExactKeys reports whether the object's key set is exactly keys.
func (o *object) hasExactKeys(keys ...string) bool {
	if len(o.members) != len(keys) {
		return false
	}
	for _, k := range keys {
		if _, ok := o.get(k); !ok {
			return false
		}
	}
	return true
}

// maxDepth bounds the nesting of arrays and objects the parser accepts, so
// that hostile text cannot exhaust the stack. Deeper text is not valid JSON
// for this model.
const maxDepth = 1000

// parser reads one JSON text. In strict mode it is the check of a raw model
// response: a duplicate key at any depth, a number that overflows a double
// and an escaped lone surrogate are errors, as are invalid UTF-8 and
// anything RFC 8259 rejects (NaN, Infinity, trailing commas, comments).
// Outside strict mode (decisions the caller supplies already parsed), a
// repeated key keeps its first position and its last value, a lone
// surrogate escape is kept as json.loads keeps it (in WTF-8 form), invalid
// UTF-8 becomes U+FFFD and every number literal is kept. Strict or not, a
// text whose characters include an unpaired surrogate (the WTF-8 form,
// which a raw response gets from the escape of the given string that
// holds it) is not UTF-8 and fails strictly.
type parser struct {
	s      string
	i      int
	strict bool
}

// parseJSON parses one JSON text, surrounded by optional whitespace.
func parseJSON(s string, strict bool) (any, error) {
	p := &parser{s: s, strict: strict}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, p.errorf("data after the top-level value")
	}
	return v, nil
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.errorf("nesting deeper than %d", maxDepth)
	}
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return nil, p.errorf("unexpected character %q", c)
	}
}

func (p *parser) literal(word string) error {
	if !strings.HasPrefix(p.s[p.i:], word) {
		return p.errorf("invalid literal")
	}
	p.i += len(word)
	return nil
}

func (p *parser) object(depth int) (any, error) {
	p.i++ // '{'
	// Decisions and their arguments have a few members: room for four
	// saves the list's regrowth.
	o := &object{members: make([]member, 0, 4)}
	// seen indexes the members by key once the object is long; a short
	// one is searched, which costs less than building the map.
	var seen map[string]int
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return o, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errorf("expected an object key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		key := k.(string)
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("expected ':'")
		}
		p.i++
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		at := -1
		if seen != nil {
			if j, dup := seen[key]; dup {
				at = j
			}
		} else {
			for j := range o.members {
				if o.members[j].key == key {
					at = j
					break
				}
			}
		}
		if at >= 0 {
			if p.strict {
				return nil, p.errorf("duplicate key %q", key)
			}
			o.members[at].val = v
		} else {
			o.members = append(o.members, member{key, v})
			if seen != nil {
				seen[key] = len(o.members) - 1
			} else if len(o.members) > 16 {
				seen = make(map[string]int, 2*len(o.members))
				for j, m := range o.members {
					seen[m.key] = j
				}
			}
		}
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errorf("unterminated object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return o, nil
		default:
			return nil, p.errorf("expected ',' or '}'")
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	p.i++ // '['
	a := []any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errorf("unterminated array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return a, nil
		default:
			return nil, p.errorf("expected ',' or ']'")
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) digits() int {
	start := p.i
	for p.i < len(p.s) && isDigit(p.s[p.i]) {
		p.i++
	}
	return p.i - start
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *parser) number() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if p.digits() == 0 {
		return nil, p.errorf("invalid number")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	lit := p.s[start:p.i]
	if p.strict {
		if f, _ := strconv.ParseFloat(lit, 64); math.IsInf(f, 0) {
			return nil, p.errorf("number %s overflows a double", lit)
		}
	}
	return json.Number(lit), nil
}

// str reads a string starting at its opening quote.
func (p *parser) str() (any, error) {
	p.i++ // '"'
	// A string with no escape and no control character, all valid UTF-8,
	// is its own text: its value is a substring of the input, which costs
	// no copy. Anything else is read rune by rune below.
	for j := p.i; j < len(p.s); j++ {
		if c := p.s[j]; c == '"' {
			if v := p.s[p.i:j]; utf8.ValidString(v) {
				p.i = j + 1
				return v, nil
			}
			break
		} else if c == '\\' || c < 0x20 {
			break
		}
	}
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return nil, p.errorf("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return nil, p.errorf("control character in string")
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return nil, err
			}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.i++
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				if p.strict {
					return nil, p.errorf("invalid UTF-8")
				}
			}
			b.WriteRune(r)
			p.i += size
		}
	}
}

// escape reads the escape at p.s[p.i] into b. A surrogate escape that is
// not half of a pair is an error in strict mode and U+FFFD otherwise.
func (p *parser) escape(b *strings.Builder) error {
	r, end := jsontext.ReadEscape(p.s, p.i)
	if end < 0 {
		if p.i+1 >= len(p.s) {
			return p.errorf("unterminated escape")
		}
		p.i += 2
		if p.s[p.i-1] == 'u' {
			return p.errorf("invalid \\u escape")
		}
		return p.errorf("invalid escape")
	}
	p.i = end
	if jsontext.IsSurrogate(r) {
		if p.strict {
			return p.errorf("lone surrogate escape")
		}
		// json.loads keeps it: a code point of its own.
		b.Write(jsontext.AppendSurrogate(nil, r))
		return nil
	}
	b.WriteRune(r)
	return nil
}

// clone returns a deep copy of a value.
func clone(v any) any {
	switch t := v.(type) {
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = clone(e)
		}
		return c
	case *object:
		c := &object{members: make([]member, len(t.members))}
		for i, m := range t.members {
			c.members[i] = member{m.key, clone(m.val)}
		}
		return c
	default:
		return v
	}
}

// encodeJSON serialises a value; numbers are written as their literals and
// object members in order.
func encodeJSON(v any) json.RawMessage {
	return json.RawMessage(appendJSON(nil, v))
}

// appendJSON appends the JSON text of a value to b.
func appendJSON(b []byte, v any) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case json.Number:
		return append(b, t...)
	case string:
		return jsonx.AppendString(b, t)
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case *object:
		b = append(b, '{')
		for i, m := range t.members {
			b = jsonx.AppendKey(b, i, m.key)
			b = appendJSON(b, m.val)
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("household: not a JSON value: %T", v))
}

// isIntLiteral reports whether a number literal has no fraction and no
// exponent (Python's json reads it as an int).
func isIntLiteral(n json.Number) bool {
	return !strings.ContainsAny(string(n), ".eE")
}

// jsonEqual is JSON equality: same JSON type; numbers equal by value
// (compared as Python compares the int or float each literal becomes);
// strings byte-equal; arrays element-wise in order; objects with the same
// key set and equal values. A boolean never equals a number.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numEqual(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case *object:
		y, ok := b.(*object)
		if !ok || len(x.members) != len(y.members) {
			return false
		}
		for _, m := range x.members {
			v, ok := y.get(m.key)
			if !ok || !jsonEqual(m.val, v) {
				return false
			}
		}
		return true
	}
	return false
}

// numEqual compares two number literals by value: two ints exactly, two
// floats as doubles, an int and a float exactly (Python's int == float).
func numEqual(a, b json.Number) bool {
	ai, bi := isIntLiteral(a), isIntLiteral(b)
	switch {
	case ai && bi:
		x, okx := new(big.Int).SetString(string(a), 10)
		y, oky := new(big.Int).SetString(string(b), 10)
		return okx && oky && x.Cmp(y) == 0
	case !ai && !bi:
		x, _ := strconv.ParseFloat(string(a), 64)
		y, _ := strconv.ParseFloat(string(b), 64)
		return x == y
	case ai:
		return intEqualsFloat(a, b)
	default:
		return intEqualsFloat(b, a)
	}
}

func intEqualsFloat(i, f json.Number) bool {
	x, ok := new(big.Int).SetString(string(i), 10)
	if !ok {
		return false
	}
	y, _ := strconv.ParseFloat(string(f), 64)
	if math.IsInf(y, 0) || math.IsNaN(y) || y != math.Trunc(y) {
		return false
	}
	z, _ := big.NewFloat(y).Int(nil)
	return x.Cmp(z) == 0
}

// pyFloat is Python's repr of a finite double.
func pyFloat(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		panic("household: a non-finite number has no JSON form")
	}
	return pyrepr.Float(x)
}

// floatNumber is a double as a JSON number, written as Python writes it.
func floatNumber(x float64) json.Number { return json.Number(pyFloat(x)) }

// IsToolDecision reports whether a raw model response is, to the runtime,
// a tool decision: strict JSON (nested at most maxDepth deep, so no text
// can exhaust the stack) holding an object with a string "tool" and no
// "final". It is the runtime's own parse and shape check, for adapters
// that count what a script offers before it runs.
func IsToolDecision(text string) bool {
	v, err := parseJSON(text, true)
	if err != nil {
		return false
	}
	o, ok := v.(*object)
	if !ok {
		return false
	}
	tool, hasTool := o.get("tool")
	_, hasFinal := o.get("final")
	_, isString := tool.(string)
	return hasTool && !hasFinal && isString
}
