package gemini

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The policy files are TOML, read by the host with @iarna/toml. This file
// reads the part of TOML that policy files use: comments, bare and quoted
// keys, dotted keys, [table] and [[array]] headers (a header path through
// an array of tables goes into its last element, as [rule.safety_checker]
// does in some releases' write.toml), basic and literal strings (single and
// multi-line), integers and floats (decimal, with underscores, and the
// hexadecimal, octal and binary integer forms), booleans, arrays (over
// several lines, with comments and a trailing comma) and inline tables.
// Dates are not read: a policy file has none, and one is reported as a
// parse error (the host would read it and then fail the schema check, which
// also loads no rule of the file: the count of policy errors is the same).
//
// Values come out as plain Go values: string, float64 (the host's numbers
// are JavaScript numbers), bool, []any, map[string]any; an array of tables
// is a []any of map[string]any.

// tomlError is a TOML syntax error, with its line.
type tomlError struct {
	line int
	msg  string
}

func (e *tomlError) Error() string { return fmt.Sprintf("TOML line %d: %s", e.line, e.msg) }

type tomlParser struct {
	src  string
	pos  int
	line int
	root map[string]any
}

// tableArray is an array of tables while the file is read: a later header
// may reach into its last element. It becomes a []any when the file is
// read.
type tableArray struct{ items []map[string]any }

// parseTOML reads a policy file's text.
func parseTOML(src string) (map[string]any, error) {
	if !utf8.ValidString(src) {
		return nil, &tomlError{1, "the text is not UTF-8"}
	}
	p := &tomlParser{src: src, line: 1, root: map[string]any{}}
	tables := map[string]bool{}
	cur := p.root
	for {
		p.skipSpaceAndComments(true)
		if p.pos >= len(p.src) {
			return settle(p.root).(map[string]any), nil
		}
		c := p.src[p.pos]
		switch {
		case c == '[':
			array := strings.HasPrefix(p.src[p.pos:], "[[")
			if array {
				p.pos += 2
			} else {
				p.pos++
			}
			p.skipInlineSpace()
			path, err := p.key()
			if err != nil {
				return nil, err
			}
			p.skipInlineSpace()
			closing := "]"
			if array {
				closing = "]]"
			}
			if !strings.HasPrefix(p.src[p.pos:], closing) {
				return nil, p.errf("expected %s after the table name", closing)
			}
			p.pos += len(closing)
			if err := p.endOfLine(); err != nil {
				return nil, err
			}
			t, err := p.openHeader(path, array)
			if err != nil {
				return nil, err
			}
			if array {
				// A new element of an array of tables starts its
				// subtables afresh.
				prefix := strings.Join(path, "\x00") + "\x00"
				for name := range tables {
					if strings.HasPrefix(name, prefix) {
						delete(tables, name)
					}
				}
			} else {
				name := strings.Join(path, "\x00")
				if tables[name] {
					return nil, p.errf("table [%s] is defined twice", strings.Join(path, "."))
				}
				tables[name] = true
			}
			cur = t
		default:
			if err := p.keyValue(cur); err != nil {
				return nil, err
			}
			if err := p.endOfLine(); err != nil {
				return nil, err
			}
		}
	}
}

func (p *tomlParser) errf(format string, args ...any) error {
	return &tomlError{p.line, fmt.Sprintf(format, args...)}
}

// openHeader finds or makes the table a header names.
func (p *tomlParser) openHeader(path []string, array bool) (map[string]any, error) {
	t := p.root
	for i, k := range path {
		v, ok := t[k]
		if i == len(path)-1 && array {
			if !ok {
				v = &tableArray{}
				t[k] = v
			}
			arr, isArr := v.(*tableArray)
			if !isArr {
				return nil, p.errf("%q is not an array of tables", k)
			}
			nt := map[string]any{}
			arr.items = append(arr.items, nt)
			return nt, nil
		}
		if !ok {
			nt := map[string]any{}
			t[k] = nt
			t = nt
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			t = x
		case *tableArray:
			t = x.items[len(x.items)-1]
		default:
			return nil, p.errf("%q is not a table", k)
		}
	}
	return t, nil
}

// settle turns the arrays of tables of a read file into []any.
func settle(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = settle(e)
		}
		return x
	case *tableArray:
		out := make([]any, len(x.items))
		for i, t := range x.items {
			out[i] = settle(t)
		}
		return out
	}
	return v
}

func (p *tomlParser) keyValue(t map[string]any) error {
	path, err := p.key()
	if err != nil {
		return err
	}
	p.skipInlineSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '=' {
		return p.errf("expected = after a key")
	}
	p.pos++
	p.skipInlineSpace()
	v, err := p.value()
	if err != nil {
		return err
	}
	for _, k := range path[:len(path)-1] {
		next, ok := t[k]
		if !ok {
			nt := map[string]any{}
			t[k] = nt
			t = nt
			continue
		}
		nt, isTable := next.(map[string]any)
		if !isTable {
			return p.errf("%q is not a table", k)
		}
		t = nt
	}
	k := path[len(path)-1]
	if _, dup := t[k]; dup {
		return p.errf("key %q is defined twice", k)
	}
	t[k] = v
	return nil
}

// key reads a dotted key: bare parts and quoted parts.
func (p *tomlParser) key() ([]string, error) {
	var parts []string
	for {
		p.skipInlineSpace()
		if p.pos >= len(p.src) {
			return nil, p.errf("expected a key")
		}
		switch c := p.src[p.pos]; {
		case c == '"':
			s, err := p.basicString()
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		case c == '\'':
			s, err := p.literalString()
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		default:
			start := p.pos
			for p.pos < len(p.src) && isBareKeyChar(p.src[p.pos]) {
				p.pos++
			}
			if p.pos == start {
				return nil, p.errf("expected a key, found %q", string(c))
			}
			parts = append(parts, p.src[start:p.pos])
		}
		p.skipInlineSpace()
		if p.pos < len(p.src) && p.src[p.pos] == '.' {
			p.pos++
			continue
		}
		return parts, nil
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func (p *tomlParser) skipInlineSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// skipSpaceAndComments skips white space and comments, newlines too when
// lines is set.
func (p *tomlParser) skipSpaceAndComments(lines bool) {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t':
			p.pos++
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case lines && c == '\n':
			p.pos++
			p.line++
		case lines && c == '\r' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos += 2
			p.line++
		default:
			return
		}
	}
}

func (p *tomlParser) endOfLine() error {
	p.skipSpaceAndComments(false)
	if p.pos >= len(p.src) {
		return nil
	}
	if p.src[p.pos] == '\n' {
		p.pos++
		p.line++
		return nil
	}
	if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
		return nil
	}
	return p.errf("expected the end of the line, found %q", string(p.src[p.pos]))
}

func (p *tomlParser) value() (any, error) {
	if p.pos >= len(p.src) {
		return nil, p.errf("expected a value")
	}
	switch c := p.src[p.pos]; {
	case strings.HasPrefix(p.src[p.pos:], `"""`):
		return p.multiBasicString()
	case strings.HasPrefix(p.src[p.pos:], `'''`):
		return p.multiLiteralString()
	case c == '"':
		return p.basicString()
	case c == '\'':
		return p.literalString()
	case c == '[':
		return p.array()
	case c == '{':
		return p.inlineTable()
	case strings.HasPrefix(p.src[p.pos:], "true"):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(p.src[p.pos:], "false"):
		p.pos += 5
		return false, nil
	default:
		return p.number()
	}
}

func (p *tomlParser) number() (any, error) {
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte("+-0123456789abcdefABCDEFxXoO_.ni", p.src[p.pos]) >= 0 {
		p.pos++
	}
	text := p.src[start:p.pos]
	if text == "" {
		return nil, p.errf("expected a value")
	}
	switch text {
	case "inf", "+inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	case "nan", "+nan", "-nan":
		return math.NaN(), nil
	}
	if p.pos < len(p.src) && (p.src[p.pos] == ':' || p.src[p.pos] == 'T' || p.src[p.pos] == 'Z') {
		return nil, p.errf("dates are not read in a policy file")
	}
	if strings.Contains(text, "__") || strings.HasPrefix(text, "_") || strings.HasSuffix(text, "_") {
		return nil, p.errf("invalid number %q", text)
	}
	clean := strings.ReplaceAll(text, "_", "")
	for _, prefix := range []string{"0x", "0o", "0b"} {
		if strings.HasPrefix(clean, prefix) {
			base := map[string]int{"0x": 16, "0o": 8, "0b": 2}[prefix]
			n, err := strconv.ParseUint(clean[2:], base, 64)
			if err != nil {
				return nil, p.errf("invalid number %q", text)
			}
			return float64(n), nil
		}
	}
	digits := strings.TrimLeft(clean, "+-")
	if len(digits) > 1 && digits[0] == '0' && digits[1] != '.' && digits[1] != 'e' && digits[1] != 'E' {
		return nil, p.errf("invalid number %q: leading zero", text)
	}
	if strings.ContainsAny(clean, ".eE") {
		if strings.HasPrefix(digits, ".") || strings.HasSuffix(digits, ".") || strings.Contains(digits, ".e") || strings.Contains(digits, ".E") {
			return nil, p.errf("invalid number %q", text)
		}
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		return nil, p.errf("invalid number %q", text)
	}
	return f, nil
}

func (p *tomlParser) array() (any, error) {
	p.pos++ // [
	out := []any{}
	for {
		p.skipSpaceAndComments(true)
		if p.pos >= len(p.src) {
			return nil, p.errf("unterminated array")
		}
		if p.src[p.pos] == ']' {
			p.pos++
			return out, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.skipSpaceAndComments(true)
		if p.pos >= len(p.src) {
			return nil, p.errf("unterminated array")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return out, nil
		default:
			return nil, p.errf("expected , or ] in an array")
		}
	}
}

func (p *tomlParser) inlineTable() (any, error) {
	p.pos++ // {
	t := map[string]any{}
	p.skipInlineSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return t, nil
	}
	for {
		if err := p.keyValue(t); err != nil {
			return nil, err
		}
		p.skipInlineSpace()
		if p.pos >= len(p.src) {
			return nil, p.errf("unterminated inline table")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.skipInlineSpace()
		case '}':
			p.pos++
			return t, nil
		default:
			return nil, p.errf("expected , or } in an inline table")
		}
	}
}

func (p *tomlParser) literalString() (string, error) {
	p.pos++
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] != '\'' {
		if p.src[p.pos] == '\n' {
			return "", p.errf("unterminated string")
		}
		p.pos++
	}
	if p.pos >= len(p.src) {
		return "", p.errf("unterminated string")
	}
	s := p.src[start:p.pos]
	p.pos++
	return s, nil
}

func (p *tomlParser) multiLiteralString() (string, error) {
	p.pos += 3
	if strings.HasPrefix(p.src[p.pos:], "\n") {
		p.pos++
		p.line++
	} else if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
	}
	end := strings.Index(p.src[p.pos:], "'''")
	if end < 0 {
		return "", p.errf("unterminated string")
	}
	// Up to two quotes may close the content before the delimiter.
	for end+3 < len(p.src[p.pos:]) && p.src[p.pos+end+3] == '\'' && end < len(p.src[p.pos:]) {
		end++
	}
	s := p.src[p.pos : p.pos+end]
	p.line += strings.Count(s, "\n")
	p.pos += end + 3
	return s, nil
}

func (p *tomlParser) basicString() (string, error) {
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' {
			return "", p.errf("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errf("control character in a string")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

func (p *tomlParser) multiBasicString() (string, error) {
	p.pos += 3
	if strings.HasPrefix(p.src[p.pos:], "\n") {
		p.pos++
		p.line++
	} else if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
	}
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", p.errf("unterminated string")
		}
		if strings.HasPrefix(p.src[p.pos:], `"""`) {
			extra := 0
			for extra < 2 && p.pos+3+extra < len(p.src) && p.src[p.pos+3+extra] == '"' {
				extra++
			}
			b.WriteString(strings.Repeat(`"`, extra))
			p.pos += 3 + extra
			return b.String(), nil
		}
		c := p.src[p.pos]
		switch {
		case c == '\\':
			// A backslash at the end of a line trims the line break and
			// the white space after it.
			rest := p.src[p.pos+1:]
			trimmed := strings.TrimLeft(rest, " \t")
			if strings.HasPrefix(trimmed, "\n") || strings.HasPrefix(trimmed, "\r\n") {
				p.pos = len(p.src) - len(trimmed)
				for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
					if p.src[p.pos] == '\n' {
						p.line++
					}
					p.pos++
				}
				continue
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c == '\n':
			p.line++
			b.WriteByte(c)
			p.pos++
		case c < 0x20 && c != '\t' && c != '\r' || c == 0x7f:
			return "", p.errf("control character in a string")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// escape reads one escape sequence at p.pos (the backslash).
func (p *tomlParser) escape(b *strings.Builder) error {
	if p.pos+1 >= len(p.src) {
		return p.errf("unterminated string")
	}
	e := p.src[p.pos+1]
	p.pos += 2
	switch e {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'u', 'U':
		n := 4
		if e == 'U' {
			n = 8
		}
		if p.pos+n > len(p.src) {
			return p.errf("short unicode escape")
		}
		v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
		if err != nil || v > 0x10ffff || v >= 0xd800 && v <= 0xdfff {
			return p.errf("invalid unicode escape")
		}
		b.WriteRune(rune(v))
		p.pos += n
	default:
		return p.errf("invalid escape \\%c", e)
	}
	return nil
}

// RuleTables reads a policy file's text and returns its [[rule]] tables as
// written (before the schema check), for lint; an error when the text is
// not TOML the model reads.
func RuleTables(text string) ([]map[string]any, error) {
	doc, err := parseTOML(text)
	if err != nil {
		return nil, err
	}
	list, _ := doc["rule"].([]any)
	var out []map[string]any
	for _, item := range list {
		if t, ok := item.(map[string]any); ok {
			out = append(out, t)
		}
	}
	return out, nil
}
