package calc

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"math/big"
	"strconv"
)

// Token kinds.
const (
	tokNum byte = iota + 1
	tokPlus
	tokMinus
	tokStar
	tokSlash
	tokPow // "**", two adjacent stars
	tokLParen
	tokRParen
	tokEnd
)

type token struct {
	kind byte
	pos  int    // byte offset in the expression
	text string // the literal, for tokNum
}

// Node operators.
const (
	opNum byte = iota + 1
	opNeg
	opPos
	opAdd
	opSub
	opMul
	opDiv
	opPow
)

// node is one tree node. Children are indexes into tree.nodes; a node's
// children always precede it.
type node struct {
	op          byte
	left, right int32
	lit         string // the literal text of a number
	float       bool   // the literal is a FLOAT
}

type tree struct {
	nodes []node
	root  int32
}

// lex splits expr into tokens. Only the space character separates tokens.
func lex(expr string) ([]token, *Error) {
	toks := make([]token, 0, len(expr)/2+2)
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ':
			i++
		case c >= '0' && c <= '9' || c == '.':
			// Longest match of [0-9]* ("." [0-9]*)?.
			j := i
			for j < len(expr) && expr[j] >= '0' && expr[j] <= '9' {
				j++
			}
			if j < len(expr) && expr[j] == '.' {
				j++
				for j < len(expr) && expr[j] >= '0' && expr[j] <= '9' {
					j++
				}
			}
			toks = append(toks, token{kind: tokNum, pos: i, text: expr[i:j]})
			i = j
		case c == '+':
			toks = append(toks, token{kind: tokPlus, pos: i})
			i++
		case c == '-':
			toks = append(toks, token{kind: tokMinus, pos: i})
			i++
		case c == '*':
			if i+1 < len(expr) && expr[i+1] == '*' {
				toks = append(toks, token{kind: tokPow, pos: i})
				i += 2
				continue
			}
			toks = append(toks, token{kind: tokStar, pos: i})
			i++
		case c == '/':
			toks = append(toks, token{kind: tokSlash, pos: i})
			i++
		case c == '(':
			toks = append(toks, token{kind: tokLParen, pos: i})
			i++
		case c == ')':
			toks = append(toks, token{kind: tokRParen, pos: i})
			i++
		default:
			// A lone surrogate (in WTF-8 form) is one character, quoted
			// as its escape.
			if u, lone := jsontext.SurrogateAt(expr, i); lone {
				return nil, errorf(Unsupported, "character '\\u%04x' at byte %d is not allowed", u, i)
			}
			r := []rune(expr[i:])[0]
			return nil, errorf(Unsupported, "character %q at byte %d is not allowed", r, i)
		}
	}
	toks = append(toks, token{kind: tokEnd, pos: len(expr)})
	return toks, nil
}

// checkNumber checks a NUMBER token against INT and FLOAT.
func checkNumber(t token) (isFloat bool, err *Error) {
	s := t.text
	dot := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			dot = i
		}
	}
	if dot < 0 {
		// INT: "0"+ or [1-9][0-9]*.
		if s[0] == '0' {
			for i := 1; i < len(s); i++ {
				if s[i] != '0' {
					return false, errorf(Unsupported, "integer %s at byte %d has a leading zero", s, t.pos)
				}
			}
		}
		return false, nil
	}
	if len(s) == 1 {
		return true, errorf(Unsupported, `"." at byte %d is not a number`, t.pos)
	}
	return true, nil
}

type parser struct {
	toks  []token
	at    int
	opts  Options
	nodes []node
	depth int
}

func parse(expr string, opts Options) (*tree, *Error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, opts: opts, nodes: make([]node, 0, len(toks))}
	root, err := p.expr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEnd {
		return nil, p.unexpected(t)
	}
	return &tree{nodes: p.nodes, root: root}, nil
}

func (p *parser) peek() token { return p.toks[p.at] }

func (p *parser) next() token {
	t := p.toks[p.at]
	if t.kind != tokEnd {
		p.at++
	}
	return t
}

func (p *parser) unexpected(t token) *Error {
	switch t.kind {
	case tokEnd:
		return errorf(Unsupported, "unexpected end of expression")
	case tokNum:
		return errorf(Unsupported, "unexpected number %s at byte %d", t.text, t.pos)
	case tokPow:
		return errorf(Unsupported, `"**" at byte %d is not supported`, t.pos)
	}
	return errorf(Unsupported, "unexpected %q at byte %d", tokenText(t.kind), t.pos)
}

func tokenText(kind byte) string {
	switch kind {
	case tokPlus:
		return "+"
	case tokMinus:
		return "-"
	case tokStar:
		return "*"
	case tokSlash:
		return "/"
	case tokLParen:
		return "("
	case tokRParen:
		return ")"
	}
	return "?"
}

func (p *parser) add(n node) int32 {
	p.nodes = append(p.nodes, n)
	return int32(len(p.nodes) - 1)
}

// expr := term (("+" | "-") term)*
func (p *parser) expr() (int32, *Error) {
	left, err := p.term()
	if err != nil {
		return 0, err
	}
	for {
		var op byte
		switch p.peek().kind {
		case tokPlus:
			op = opAdd
		case tokMinus:
			op = opSub
		default:
			return left, nil
		}
		p.next()
		right, err := p.term()
		if err != nil {
			return 0, err
		}
		left = p.add(node{op: op, left: left, right: right})
	}
}

// term := factor (("*" | "/") factor)*
func (p *parser) term() (int32, *Error) {
	left, err := p.factor()
	if err != nil {
		return 0, err
	}
	for {
		var op byte
		switch p.peek().kind {
		case tokStar:
			op = opMul
		case tokSlash:
			op = opDiv
		default:
			return left, nil
		}
		p.next()
		right, err := p.factor()
		if err != nil {
			return 0, err
		}
		left = p.add(node{op: op, left: left, right: right})
	}
}

// factor := ("+" | "-") factor | power
// power  := atom ["**" factor]            (only with AllowPow)
func (p *parser) factor() (int32, *Error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxDepth {
		return 0, errorf(Unsupported, "nesting deeper than %d", MaxDepth)
	}
	switch t := p.peek(); t.kind {
	case tokPlus, tokMinus:
		p.next()
		operand, err := p.factor()
		if err != nil {
			return 0, err
		}
		op := opNeg
		if t.kind == tokPlus {
			op = opPos
		}
		return p.add(node{op: op, left: operand}), nil
	}
	base, err := p.atom()
	if err != nil {
		return 0, err
	}
	if p.opts.AllowPow && p.peek().kind == tokPow {
		p.next()
		exp, err := p.factor()
		if err != nil {
			return 0, err
		}
		return p.add(node{op: opPow, left: base, right: exp}), nil
	}
	return base, nil
}

// atom := NUMBER | "(" expr ")"
func (p *parser) atom() (int32, *Error) {
	t := p.next()
	switch t.kind {
	case tokNum:
		isFloat, err := checkNumber(t)
		if err != nil {
			return 0, err
		}
		return p.add(node{op: opNum, lit: t.text, float: isFloat}), nil
	case tokLParen:
		inner, err := p.expr()
		if err != nil {
			return 0, err
		}
		if c := p.next(); c.kind != tokRParen {
			return 0, p.unexpected(c)
		}
		return inner, nil
	}
	return 0, p.unexpected(t)
}

// literal returns the value of a number node.
func literal(n node) Value {
	if n.float {
		// A FLOAT of at most MaxLength characters never overflows a double;
		// on any error ParseFloat still returns the nearest value (±Inf),
		// which the bounds check refuses.
		f, _ := strconv.ParseFloat(n.lit, 64)
		return Float(f)
	}
	if len(n.lit) <= 18 {
		i, _ := strconv.ParseInt(n.lit, 10, 64)
		return Int(i)
	}
	b, _ := new(big.Int).SetString(n.lit, 10)
	return bigInt(b)
}
