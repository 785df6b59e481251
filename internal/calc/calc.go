// Package calc is the bounded arithmetic calculator of the runner host
// model: it parses an expression with a fixed grammar and evaluates the
// tree with Python's numeric types, without eval.
//
// Grammar (only the space character is whitespace; spaces may appear
// before, between and after tokens, leading spaces included):
//
//	expr   := term   (("+" | "-") term)*       left-associative
//	term   := factor (("*" | "/") factor)*     left-associative
//	factor := ("+" | "-") factor | atom        unary binds tighter than * and /
//	atom   := NUMBER | "(" expr ")"
//	NUMBER := INT | FLOAT                       longest match of [0-9]* ("." [0-9]*)?
//	INT    := "0"+ | [1-9][0-9]*                no "."; an int
//	FLOAT  := [0-9]+ "." [0-9]* | "." [0-9]+    has "."; the nearest double
//
// Errors, in the order they are checked: an expression longer than
// MaxLength code points; a character outside 0-9 . + - * / ( ) and space or
// a token sequence the grammar refuses; a tree of more than MaxNodes nodes
// (numbers, unary and binary operators; parentheses are not nodes); then,
// during a post-order evaluation (left operand before right), division by
// zero and any value — literal, intermediate or final — that is not finite
// or exceeds Bound in absolute value. Evaluation follows Python: + - * on
// two ints give an int, a float on either side makes both doubles, and /
// always gives a double.
//
// Options switch in the calculator faults of the runner model (an accepted
// "**", int results of exact int/int division, no bounds, no node limit).
// Even with those, the length limit stays, parsing depth is capped at
// MaxDepth and a "**" result may not exceed MaxPowBits bits, so a call
// always ends quickly with bounded memory.
package calc

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"

	"fmt"
)

// Limits of the calculator.
const (
	// MaxLength is the longest accepted expression, in code points.
	MaxLength = 120
	// MaxNodes is the largest accepted tree, in nodes.
	MaxNodes = 40
	// Bound is the largest absolute value of any value.
	Bound = 1_000_000_000_000
	// MaxDepth caps the nesting of unary operators and parentheses. The
	// length limit keeps every accepted expression well below it.
	MaxDepth = 200
	// MaxPowBits caps the size of an int computed by "**" (only with
	// Options.AllowPow): about 4,300 decimal digits, the most Python
	// prints by default.
	MaxPowBits = 14_000
)

// Options alter the calculator; the zero value is the specified
// calculator. Each option is a deliberate bug of the runner model.
type Options struct {
	// AllowPow accepts "**" (Python's power: right-associative, binding
	// tighter than a unary operator on its left) and evaluates it without
	// the bounds check on its result.
	AllowPow bool
	// IntDivision makes int/int division whose remainder is zero yield an
	// int (100/2 is 50, not 50.0).
	IntDivision bool
	// Unbounded drops the 10^12 bound; values must still be finite.
	Unbounded bool
	// NoNodeLimit drops the MaxNodes limit.
	NoNodeLimit bool
}

// ErrorKind says which rule refused an expression.
type ErrorKind uint8

// The error kinds.
const (
	// TooLong: longer than MaxLength code points.
	TooLong ErrorKind = iota + 1
	// Unsupported: a character, token sequence or literal outside the
	// grammar.
	Unsupported
	// TooComplex: more than MaxNodes nodes.
	TooComplex
	// DivisionByZero: a zero right operand of "/".
	DivisionByZero
	// OutOfBounds: a value that is not finite or beyond Bound. Its text is
	// the same as Unsupported's.
	OutOfBounds
	// ZeroPower: 0 raised to a negative power (only with AllowPow).
	ZeroPower
)

// Texts of the errors, as "Class: message".
const (
	TextTooLong        = "ValueError: Expression too long"
	TextUnsupported    = "ValueError: Only finite arithmetic with + - * / is supported"
	TextTooComplex     = "ValueError: Expression too complex"
	TextDivisionByZero = "ZeroDivisionError: division by zero"
	TextZeroPower      = "ZeroDivisionError: 0.0 cannot be raised to a negative power"
)

// Error is a refusal of the calculator. Error() is the text the tool
// reports ("Class: message"); Detail explains it for people and is not
// part of that text.
type Error struct {
	Kind   ErrorKind
	Detail string
}

// Error returns "Class: message".
func (e *Error) Error() string {
	switch e.Kind {
	case TooLong:
		return TextTooLong
	case TooComplex:
		return TextTooComplex
	case DivisionByZero:
		return TextDivisionByZero
	case ZeroPower:
		return TextZeroPower
	}
	return TextUnsupported
}

func errorf(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// Eval checks and evaluates expr. The error, when not nil, is an *Error.
func Eval(expr string, opts Options) (Value, error) {
	if n := jsontext.CodePoints(expr); n > MaxLength {
		return Value{}, errorf(TooLong, "%d characters > %d", n, MaxLength)
	}
	t, err := parse(expr, opts)
	if err != nil {
		return Value{}, err
	}
	if !opts.NoNodeLimit && len(t.nodes) > MaxNodes {
		return Value{}, errorf(TooComplex, "%d nodes > %d", len(t.nodes), MaxNodes)
	}
	e := evaluator{t: t, opts: opts}
	v, eerr := e.eval(t.root)
	if eerr != nil {
		return Value{}, eerr
	}
	return v, nil
}

// Nodes parses expr (length limit included) and returns the number of
// nodes of its tree, without evaluating it.
func Nodes(expr string, opts Options) (int, error) {
	if n := jsontext.CodePoints(expr); n > MaxLength {
		return 0, errorf(TooLong, "%d characters > %d", n, MaxLength)
	}
	t, err := parse(expr, opts)
	if err != nil {
		return 0, err
	}
	return len(t.nodes), nil
}
