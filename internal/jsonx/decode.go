package jsonx

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode parses one JSON document into the values encoding/json produces
// with Decoder.UseNumber: nil, bool, json.Number, string, []any and
// map[string]any (a repeated key keeps its last value, invalid UTF-8 and
// unpaired surrogates become U+FFFD). It is the schema validator's input,
// built in one pass without reflection. Malformed input is an error, never
// a panic.
func Decode(data []byte) (any, error) {
	d := decoder{data: data, strs: map[string]any{}, nums: map[string]any{}}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.pos != len(d.data) {
		return nil, d.errorf("data after the top-level value")
	}
	return v, nil
}

// maxDepth bounds nesting, as encoding/json does, so that hostile input
// cannot exhaust the stack.
const maxDepth = 10000

var errDepth = errors.New("exceeded max depth")

type decoder struct {
	data []byte
	pos  int
	// strs and nums hold the short strings and numbers met so far, boxed:
	// case files repeat their keys and many values, and sharing them
	// spares most of the allocations.
	strs map[string]any
	nums map[string]any
}

// internMax is the longest text shared between equal values.
const internMax = 16

func (d *decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", d.pos, fmt.Sprintf(format, args...))
}

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end of input")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.string()
	case c == '-' || ('0' <= c && c <= '9'):
		return d.number()
	case d.literal("true"):
		return true, nil
	case d.literal("false"):
		return false, nil
	case d.literal("null"):
		return nil, nil
	default:
		return nil, d.errorf("invalid character %q looking for a value", c)
	}
}

func (d *decoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

func (d *decoder) object(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	d.pos++ // {
	m := map[string]any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m, nil
	}
	for {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.errorf("an object key is expected")
		}
		kv, err := d.string()
		if err != nil {
			return nil, err
		}
		k, _ := kv.(string)
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.errorf("':' is expected after an object key")
		}
		d.pos++
		d.space()
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		d.space()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of input in an object")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.space()
		case '}':
			d.pos++
			return m, nil
		default:
			return nil, d.errorf("',' or '}' is expected in an object")
		}
	}
}

func (d *decoder) array(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	d.pos++ // [
	a := []any{}
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return a, nil
	}
	for {
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		d.space()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of input in an array")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.space()
		case ']':
			d.pos++
			return a, nil
		default:
			return nil, d.errorf("',' or ']' is expected in an array")
		}
	}
}

// number accepts exactly the JSON number grammar and keeps its text.
func (d *decoder) number() (any, error) {
	start := d.pos
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.data[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case digits() == 0:
		return nil, d.errorf("a digit is expected in a number")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return nil, d.errorf("a digit is expected after the decimal point")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return nil, d.errorf("a digit is expected in an exponent")
		}
	}
	text := d.data[start:d.pos]
	if v, ok := d.nums[string(text)]; ok {
		return v, nil
	}
	var v any = json.Number(text)
	if len(text) <= internMax {
		d.nums[string(text)] = v
	}
	return v, nil
}

// string reads a quoted string. Plain strings (no escapes, valid UTF-8)
// are copied once; the rest are rebuilt rune by rune.
func (d *decoder) string() (any, error) {
	d.pos++ // opening quote
	start := d.pos
	for i := start; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			s := d.data[start:i]
			d.pos = i + 1
			if v, ok := d.strs[string(s)]; ok {
				return v, nil
			}
			if !utf8.Valid(s) {
				return string([]rune(string(s))), nil
			}
			var v any = string(s)
			if len(s) <= internMax {
				d.strs[string(s)] = v
			}
			return v, nil
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			d.pos = i
			return nil, d.errorf("control character in a string")
		}
	}
	return nil, d.errorf("unterminated string")
}

func (d *decoder) escaped(start int) (any, error) {
	out := make([]byte, 0, 2*(len(d.data)-start)/3+8)
	i := start
	for i < len(d.data) {
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return string(out), nil
		case c < 0x20:
			d.pos = i
			return nil, d.errorf("control character in a string")
		case c < utf8.RuneSelf && c != '\\':
			out = append(out, c)
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d.data[i:])
			out = utf8.AppendRune(out, r)
			i += size
		default: // backslash
			if i+1 >= len(d.data) {
				d.pos = i
				return nil, d.errorf("unterminated escape")
			}
			switch e := d.data[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(d.data[i+2:])
				if !ok {
					d.pos = i
					return nil, d.errorf("invalid \\u escape")
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := pairedLow(d.data[i:]); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				d.pos = i
				return nil, d.errorf("invalid escape \\%c", e)
			}
			i += 2
		}
	}
	d.pos = i
	return nil, d.errorf("unterminated string")
}

// pairedLow reads a \uXXXX escape at the start of b.
func pairedLow(b []byte) (rune, bool) {
	if len(b) < 2 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	return hex4(b[2:])
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
