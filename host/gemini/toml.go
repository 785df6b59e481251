package gemini

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The policy files are TOML, read by the host with the npm package
// @iarna/toml 2.2.5 (lib/toml-parser.js), whose reading is not quite TOML
// 1.0: this file reads what that parser reads, refuses what it refuses
// and says so in its words, with its position ("at row R, col C, pos P:"
// and the lines around it, as parse-pretty-error.js writes them; the
// first line's columns count from 2, as there).
//
// What it reads, in short: comments; bare keys ([A-Za-z0-9_-]) and basic
// or literal quoted keys, dotted, with blanks around the dots; [table] and
// [[array]] headers (a header may name a table again if only dotted keys
// or another header's path made it, never a table already declared by a
// header, an inline table, a value or an array of tables; a path through
// an array of tables goes into its last element); basic and literal
// strings, single and multi-line (a multi-line string ends at its first
// three quotes); integers in decimal, 0x, 0o and 0b with single
// underscores between digits; floats; inf and nan; true and false; dates,
// times and date-times, accepted as V8's Date accepts the text the parser
// hands it; arrays over several lines with comments and a trailing comma,
// whose elements must all be of one TOML type (an integer and a float do
// not mix, nor a float and inf); inline tables on one line, with a
// trailing comma allowed, that nothing may extend afterwards.
//
// Values come out as plain Go values, as the host's are JavaScript ones:
// string, float64 (a JavaScript number: every float, inf and nan, and an
// integer within ±(2^53-1)), jsBigInt (an integer beyond, which the
// parser gives as a BigInt wrapped to 64 bits), tomlDate, bool, []any and
// map[string]any; an array of tables is a []any of map[string]any.

// jsBigInt is a JavaScript BigInt: @iarna/toml gives an integer that is
// not a safe integer (beyond ±(2^53-1)) as BigInt.asIntN(64, n). It is
// never === to a number, and zod calls it a "bigint".
type jsBigInt int64

// tomlDate is a date, time or date-time value: a JavaScript Date, which
// is never === to anything a tool call carries and which zod calls a
// "date". Text is the string the parser handed to Date (a local date-time
// with "Z" added, a local time after "0000-01-01T").
type tomlDate struct {
	Kind string // "date", "time", "datetime" or "local-datetime"
	Text string
}

// tomlError is @iarna/toml's error as the host reports it: its message,
// with the position and the lines around it when the parser knew them.
type tomlError struct {
	msg    string // @iarna/toml's own words
	pretty string // the whole message, position and lines included
}

func (e *tomlError) Error() string { return e.pretty }

// tomlEnd is the parser's end-of-input character (one past Unicode).
const tomlEnd = 0x110000

// tomlTable is a table while the file is read: a header's, a dotted key's
// (not declared), or an inline table.
type tomlTable struct {
	entries  map[string]any
	inline   bool
	declared bool
}

// tomlTables is an array of tables ([[name]]).
type tomlTables struct{ items []*tomlTable }

// tomlArray is an array value ([...]).
type tomlArray struct{ items []any }

func newTable() *tomlTable { return &tomlTable{entries: map[string]any{}} }

// tomlParser reads the text as JavaScript does, one UTF-16 unit at a time:
// the character at a unit is its code point (a surrogate pair's, at its
// first unit), and a position counts units.
type tomlParser struct {
	src  []uint16
	text string
	i    int
	root *tomlTable
	// overrun: the text ended inside one of the parser's loops over
	// characters (a comment, a bare key, a string's content), which steps
	// once more past the end: an error at the end is placed one further.
	overrun bool
}

// parseTOML reads a policy file's text. Bytes that are not UTF-8 read as
// U+FFFD, as Node reads the file.
func parseTOML(text string) (doc map[string]any, err error) {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	p := &tomlParser{src: utf16.Encode([]rune(text)), text: text, root: newTable()}
	defer func() {
		if r := recover(); r != nil {
			te, ok := r.(*tomlError)
			if !ok {
				panic(r)
			}
			doc, err = nil, te
		}
	}()
	p.document()
	return settle(p.root).(map[string]any), nil
}

// ch is the character at the cursor.
func (p *tomlParser) ch() rune { return p.at(p.i) }

func (p *tomlParser) at(i int) rune {
	if i >= len(p.src) {
		return tomlEnd
	}
	u := p.src[i]
	if utf16.IsSurrogate(rune(u)) && u < 0xdc00 && i+1 < len(p.src) && p.src[i+1] >= 0xdc00 && p.src[i+1] <= 0xdfff {
		return utf16.DecodeRune(rune(u), rune(p.src[i+1]))
	}
	return rune(u)
}

// fail stops the parse with msg at the cursor.
func (p *tomlParser) fail(format string, args ...any) {
	panic(p.errorAt(p.i, fmt.Sprintf(format, args...)))
}

// errorAt is the parser's error at unit i, written as
// parse-pretty-error.js writes it.
func (p *tomlParser) errorAt(i int, msg string) *tomlError {
	if i >= len(p.src) && p.overrun {
		i = len(p.src) + 1
	}
	line, last := 0, -1
	for k := 0; k < i && k < len(p.src); k++ {
		if p.src[k] == '\n' {
			line, last = line+1, k
		}
	}
	col := i - last - 1
	if line == 0 {
		col = i + 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s at row %d, col %d, pos %d:\n", msg, line+1, col+1, i+1)
	lines := strings.Split(p.text, "\n")
	width := len(strconv.Itoa(min(len(lines), line+3)))
	pad := strings.Repeat(" ", max(1, width))
	for k := max(0, line-1); k < min(len(lines), line+2); k++ {
		num := strconv.Itoa(k + 1)
		if len(num) < width {
			num = " " + num
		}
		if k == line {
			b.WriteString(num + "> " + lines[k] + "\n" + pad + "  " + strings.Repeat(" ", max(0, col)) + "^\n")
		} else {
			b.WriteString(num + ": " + lines[k] + "\n")
		}
	}
	b.WriteString("\n")
	return &tomlError{msg: msg, pretty: b.String()}
}

// failPlain stops the parse with an error the parser does not place (a
// Date that is not valid).
func (p *tomlParser) failPlain(msg string) { panic(&tomlError{msg: msg, pretty: msg}) }

func isBareKeyRune(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func isDigitRune(c rune) bool { return c >= '0' && c <= '9' }

func isHexRune(c rune) bool { return c < utf8.RuneSelf && jsontext.IsHex(byte(c)) }

// endOfWord: a number or date may end here.
func endOfWord(c rune) bool {
	return c == '#' || c == '\t' || c == ' ' || c == tomlEnd || c == '\n' || c == '\r'
}

func isControl(c rune) bool { return c == 0x7f || c <= 0x1f }

func (p *tomlParser) skipBlanks() {
	for c := p.ch(); c == ' ' || c == '\t'; c = p.ch() {
		p.i++
	}
}

// skipComment skips a comment up to its line's end (kept). fromHash:
// the parser's loop starts at the # (else after it).
func (p *tomlParser) skipComment(fromHash bool) {
	p.i++
	if fromHash && p.i == len(p.src) {
		p.overrun = true
	}
	for c := p.ch(); c != '\n' && c != tomlEnd; c = p.ch() {
		p.step()
	}
}

// step passes over a character inside one of the parser's loops.
func (p *tomlParser) step() {
	p.i++
	if p.i == len(p.src) {
		p.overrun = true
	}
}

// document reads the file's statements.
func (p *tomlParser) document() {
	ctx := p.root
	for {
		switch c := p.ch(); {
		case c == tomlEnd:
			return
		case c == '[':
			p.i++
			if p.ch() == '[' {
				p.i++
				ctx = p.arrayHeader()
			} else {
				ctx = p.tableHeader()
			}
		case c == '#':
			p.skipComment(false)
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			p.i++
		case isBareKeyRune(c) || c == '"' || c == '\'':
			keys, v := p.assignment()
			p.record(ctx, keys, v)
			p.restOfLine()
		default:
			p.fail("Unknown character \"%d\"", c)
		}
	}
}

// restOfLine allows only blanks and a comment to the line's end.
func (p *tomlParser) restOfLine() {
	for {
		switch p.ch() {
		case ' ', '\t', '\r':
			p.i++
		case '#':
			p.skipComment(true)
		case '\n':
			p.i++
			return
		case tomlEnd:
			return
		default:
			p.fail("Unexpected character, expected only whitespace or comments till end of line")
		}
	}
}

// tableHeader reads [a.b.c] after its bracket and returns the table.
func (p *tomlParser) tableHeader() *tomlTable {
	t := p.root
	for {
		p.skipBlanks()
		k := p.key()
		p.skipBlanks()
		v, ok := t.entries[k]
		switch p.ch() {
		case ']':
			if ok {
				sub, isTable := v.(*tomlTable)
				if !isTable || sub.inline || sub.declared {
					p.fail("Can't redefine existing key")
				}
				t = sub
			} else {
				nt := newTable()
				t.entries[k] = nt
				t = nt
			}
			t.declared = true
			p.i++
			p.restOfLine()
			return t
		case '.':
			t = p.descend(t, k, v, ok, false)
			p.i++
		default:
			p.fail("Unexpected character, expected whitespace, . or ]")
		}
	}
}

// descend follows a header's path through key k of t.
func (p *tomlParser) descend(t *tomlTable, k string, v any, ok, array bool) *tomlTable {
	if !ok {
		nt := newTable()
		t.entries[k] = nt
		return nt
	}
	switch x := v.(type) {
	case *tomlTable:
		if !x.inline {
			return x
		}
		if array {
			p.fail("Can't extend an inline table")
		}
	case *tomlTables:
		return x.items[len(x.items)-1]
	case *tomlArray:
		if array {
			p.fail("Can't extend an inline array")
		}
	}
	if array {
		p.fail("Can't redefine an existing key")
	}
	p.fail("Can't redefine existing key")
	return nil
}

// arrayHeader reads [[a.b.c]] after its brackets and returns the new
// element.
func (p *tomlParser) arrayHeader() *tomlTable {
	t := p.root
	for {
		p.skipBlanks()
		k := p.key()
		p.skipBlanks()
		v, ok := t.entries[k]
		switch p.ch() {
		case ']':
			if !ok {
				v = &tomlTables{}
				t.entries[k] = v
			}
			switch x := v.(type) {
			case *tomlArray:
				p.fail("Can't extend an inline array")
			case *tomlTables:
				nt := newTable()
				x.items = append(x.items, nt)
				t = nt
			default:
				p.fail("Can't redefine an existing key")
			}
			p.i++
			if p.ch() != ']' {
				p.fail("Unexpected character, expected whitespace, . or ]")
			}
			p.i++
			p.restOfLine()
			return t
		case '.':
			t = p.descend(t, k, v, ok, true)
			p.i++
		default:
			p.fail("Unexpected character, expected whitespace, . or ]")
		}
	}
}

// key reads one part of a key: bare, basic or literal.
func (p *tomlParser) key() string {
	switch p.ch() {
	case '"':
		p.i++
		return p.basicString()
	case '\'':
		p.i++
		return p.literalString()
	}
	start := p.i
	for {
		c := p.ch()
		switch {
		case c == tomlEnd:
			p.fail("Key ended without value")
		case isBareKeyRune(c):
			p.step()
		case p.i == start:
			p.fail("Empty bare keys are not allowed")
		default:
			return string(utf16.Decode(p.src[start:p.i]))
		}
	}
}

// assignment reads key = value; the cursor ends after the value.
func (p *tomlParser) assignment() ([]string, any) {
	var keys []string
	for {
		keys = append(keys, p.key())
		p.skipBlanks()
		if p.ch() != '.' {
			break
		}
		p.i++
		p.skipBlanks()
	}
	if p.ch() != '=' {
		p.fail("Invalid character, expected \"=\"")
	}
	p.i++
	p.skipBlanks()
	v, _ := p.value()
	return keys, v
}

// record sets a dotted key's value in t: the tables on its way must be
// ones only dotted keys made.
func (p *tomlParser) record(t *tomlTable, keys []string, v any) {
	for _, k := range keys[:len(keys)-1] {
		next, ok := t.entries[k]
		if !ok {
			nt := newTable()
			t.entries[k] = nt
			t = nt
			continue
		}
		sub, isTable := next.(*tomlTable)
		if !isTable || sub.inline || sub.declared {
			p.fail("Can't redefine existing key")
		}
		t = sub
	}
	k := keys[len(keys)-1]
	if _, dup := t.entries[k]; dup {
		p.fail("Can't redefine existing key")
	}
	t.entries[k] = v
}

// value reads a value and returns it with its TOML type as the parser
// names it when it checks that an array holds one type.
func (p *tomlParser) value() (any, string) {
	switch c := p.ch(); {
	case c == tomlEnd:
		p.fail("Key without value")
	case c == '"' || c == '\'':
		return p.stringValue(c), "string"
	case c == '-' || c == '+':
		return p.signedNumber()
	case c == 'i':
		p.i++
		return p.inf(1), "number"
	case c == 'n':
		p.i++
		return p.nan(), "number"
	case isDigitRune(c):
		return p.numberOrDate()
	case c == 't':
		p.word("rue")
		return true, "boolean"
	case c == 'f':
		p.word("alse")
		return false, "boolean"
	case c == '[':
		p.i++
		return p.array(), "inline-list"
	case c == '{':
		p.i++
		return p.inlineTable(), "inline-table"
	}
	p.fail("Unexpected character, expecting string, number, datetime, boolean, inline array or inline table")
	return nil, ""
}

// word reads the rest of true or false after its first letter.
func (p *tomlParser) word(rest string) {
	p.i++
	for _, want := range rest {
		if p.ch() != want {
			p.fail("Invalid boolean, expected true or false")
		}
		p.i++
	}
}

// inf reads "nf" after an i.
func (p *tomlParser) inf(sign float64) float64 {
	for _, want := range "nf" {
		if p.ch() != want {
			p.fail("Unexpected character, expected \"inf\", \"+inf\" or \"-inf\"")
		}
		p.i++
	}
	return math.Inf(int(sign))
}

// nan reads "an" after an n.
func (p *tomlParser) nan() float64 {
	for _, want := range "an" {
		if p.ch() != want {
			p.fail("Unexpected character, expected \"nan\"")
		}
		p.i++
	}
	return math.NaN()
}

// stringValue reads a string value opened by the quote q: a one-line
// string, an empty one, or a multi-line one after three quotes.
func (p *tomlParser) stringValue(q rune) string {
	p.i++
	if p.ch() != q {
		if q == '"' {
			return p.basicString()
		}
		return p.literalString()
	}
	p.i++
	if p.ch() != q {
		return ""
	}
	p.i++
	return p.multiLine(q)
}

// basicString reads a "..." string after its opening quote.
func (p *tomlParser) basicString() string {
	var out []uint16
	for {
		c := p.ch()
		switch {
		case c == '\\':
			p.i++
			out = p.escape(out)
		case c == '"':
			p.i++
			return string(utf16.Decode(out))
		case c == '\n' || c == '\r' || c == tomlEnd:
			p.fail("Unterminated string")
		case isControl(c) && c != '\t':
			p.failControl(c)
		default:
			out = append(out, p.src[p.i])
			p.step()
		}
	}
}

func (p *tomlParser) failControl(c rune) {
	p.fail("Control characters (codes < 0x1f and 0x7f) are not allowed in strings, use \\u%04x instead", c)
}

// escape reads an escape after its backslash.
func (p *tomlParser) escape(out []uint16) []uint16 {
	c := p.ch()
	switch c {
	case 'b':
		out = append(out, '\b')
	case 't':
		out = append(out, '\t')
	case 'n':
		out = append(out, '\n')
	case 'f':
		out = append(out, '\f')
	case 'r':
		out = append(out, '\r')
	case '"', '\\':
		out = append(out, uint16(c))
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		p.i++
		var v uint64
		for range n {
			d := p.ch()
			if !isHexRune(d) {
				p.fail("Invalid character in unicode sequence, expected hex")
			}
			h, _ := strconv.ParseUint(string(d), 16, 8)
			v = v<<4 | h
			p.i++
		}
		// The code point is checked at the character after it.
		switch {
		case v >= 0xd800 && v <= 0xdfff:
			p.fail("Invalid unicode, character in range 0xD800 - 0xDFFF is reserved")
		case v > 0x10ffff:
			p.fail("Invalid code point %d", v)
		}
		return append(out, utf16.Encode([]rune{rune(v)})...)
	default:
		p.fail("Unknown escape character: %d", c)
	}
	p.i++
	return out
}

// multiLine reads a multi-line string after its three opening quotes q:
// a basic one (three double quotes) with its escapes and line-ending
// backslashes, or a literal one (three single quotes) as written.
func (p *tomlParser) multiLine(q rune) string {
	p.skipFirstNewline()
	var out []uint16
	for {
		c := p.ch()
		switch {
		case c == '\\' && q == '"':
			p.i++
			switch p.ch() {
			case '\r', '\n':
				p.i++
				p.trim()
			case ' ', '\t':
				p.skipBlanks()
				if c := p.ch(); c != '\r' && c != '\n' {
					p.fail("Can't escape whitespace")
				}
				p.i++
				p.trim()
			default:
				out = p.escape(out)
			}
		case c == q:
			if p.closes(q) {
				return string(utf16.Decode(out))
			}
			out = append(out, p.src[p.i-1])
		case c == tomlEnd:
			p.fail("Unterminated multi-line string")
		case isControl(c) && c != '\t' && c != '\n' && c != '\r':
			p.failControl(c)
		default:
			out = append(out, p.src[p.i])
			p.step()
		}
	}
}

// closes reads a quote of a multi-line string: true at the third in a
// row (the string ends there, at its first three quotes); else the cursor
// stops after the quotes read, and the last of them is the one to keep
// (the others are kept by the caller's loop as they come, one a turn).
func (p *tomlParser) closes(q rune) bool {
	p.i++
	if p.ch() != q {
		return false
	}
	p.i++
	if p.ch() != q {
		// Two quotes: keep the first here, the second by the caller.
		p.i--
		return false
	}
	p.i++
	return true
}

// skipFirstNewline drops the carriage returns and one line feed that
// follow a multi-line string's opening quotes.
func (p *tomlParser) skipFirstNewline() {
	for p.ch() == '\r' {
		p.i++
	}
	if p.ch() == '\n' {
		p.i++
	}
}

// trim skips the white space and line breaks after a line-ending
// backslash.
func (p *tomlParser) trim() {
	for c := p.ch(); c == '\n' || c == ' ' || c == '\t' || c == '\r'; c = p.ch() {
		p.i++
	}
}

// literalString reads a '...' string after its opening quote.
func (p *tomlParser) literalString() string {
	start := p.i
	for {
		c := p.ch()
		switch {
		case c == '\'':
			s := string(utf16.Decode(p.src[start:p.i]))
			p.i++
			return s
		case c == '\n' || c == '\r' || c == tomlEnd:
			p.fail("Unterminated string")
		case isControl(c) && c != '\t':
			p.failControl(c)
		}
		p.step()
	}
}

// array reads [...] after its bracket: every element of one type.
func (p *tomlParser) array() *tomlArray {
	arr := &tomlArray{items: []any{}}
	kind := ""
	for {
		// Before an element (or the closing bracket).
		p.skipListSpace()
		switch p.ch() {
		case tomlEnd:
			p.fail("Unterminated inline array")
		case ']':
			p.i++
			return arr
		}
		v, k := p.value()
		if kind == "" {
			kind = k
		} else if k != kind {
			p.fail("Inline lists must be a single type, not a mix of %s and %s", kind, k)
		}
		arr.items = append(arr.items, v)
		// After an element.
		p.skipListSpace()
		switch p.ch() {
		case ',':
			p.i++
		case ']':
			p.i++
			return arr
		default:
			p.fail("Invalid character, expected whitespace, comma (,) or close bracket (])")
		}
	}
}

// skipListSpace skips white space, line breaks and comments in an array.
func (p *tomlParser) skipListSpace() {
	for {
		switch p.ch() {
		case ' ', '\t', '\r', '\n':
			p.i++
		case '#':
			p.skipComment(false)
		default:
			return
		}
	}
}

// inlineTable reads {...} after its brace: on one line, a trailing comma
// allowed.
func (p *tomlParser) inlineTable() *tomlTable {
	t := newTable()
	t.inline = true
	for {
		p.skipBlanks()
		switch p.ch() {
		case tomlEnd, '#', '\n', '\r':
			p.fail("Unterminated inline array")
		case '}':
			p.i++
			return t
		}
		keys, v := p.assignment()
		p.record(t, keys, v)
		p.skipBlanks()
		switch p.ch() {
		case tomlEnd, '#', '\n', '\r':
			p.fail("Unterminated inline array")
		case ',':
			p.i++
		case '}':
			p.i++
			return t
		default:
			p.fail("Invalid character, expected whitespace, comma (,) or close bracket (])")
		}
	}
}

// settle turns the tables and arrays of a read file into plain values.
func settle(v any) any {
	switch x := v.(type) {
	case *tomlTable:
		out := make(map[string]any, len(x.entries))
		for k, e := range x.entries {
			out[k] = settle(e)
		}
		return out
	case *tomlTables:
		out := make([]any, len(x.items))
		for i, t := range x.items {
			out[i] = settle(t)
		}
		return out
	case *tomlArray:
		out := make([]any, len(x.items))
		for i, e := range x.items {
			out[i] = settle(e)
		}
		return out
	}
	return v
}

// RuleTables reads a policy file's text and returns its [[rule]] tables as
// written (before the schema check), for lint; an error when the text is
// not TOML the host reads. For a text of at most tablesKeptText bytes the
// tables are those the engine reads (one parse per text, as readFile
// keeps it): the caller must not change them.
func RuleTables(text string) ([]map[string]any, error) {
	if len(text) > tablesKeptText {
		doc, err := parseTOML(text)
		if err != nil {
			return nil, err
		}
		return ruleTables(doc), nil
	}
	r := readFile(text)
	if r.parseErr != nil {
		return nil, r.parseErr
	}
	return r.tables, nil
}

// ruleTables is a parsed file's [[rule]] tables as written.
func ruleTables(doc map[string]any) []map[string]any {
	list, _ := doc["rule"].([]any)
	var out []map[string]any
	for _, item := range list {
		if t, ok := item.(map[string]any); ok {
			out = append(out, t)
		}
	}
	return out
}

// tomlInteger is the parser's integer of digits (with their sign or base
// prefix): a number when it is a safe integer, else a BigInt wrapped to
// 64 bits; ok is false when the digits are no integer at all.
func tomlInteger(digits string) (any, bool) {
	s, base := digits, 10
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base, s = 16, s[2:]
		case 'o':
			base, s = 8, s[2:]
		case 'b':
			base, s = 2, s[2:]
		}
	}
	n, ok := new(big.Int).SetString(s, base)
	if !ok || s == "" {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	const safe = 1<<53 - 1
	if n.IsInt64() && n.Int64() >= -safe && n.Int64() <= safe {
		return float64(n.Int64()), true // -0 is 0
	}
	// BigInt.asIntN(64, n): the low 64 bits, as a signed number.
	low := new(big.Int).And(n, new(big.Int).SetUint64(math.MaxUint64))
	return jsBigInt(int64(low.Uint64())), true
}

// tomlFloat is Number(text) of a float's text: NaN when JavaScript reads
// no number there ("1e+").
func tomlFloat(text string) float64 {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f
		}
		return math.NaN()
	}
	return f
}

// noUnder checks the character after a sign, a point or an underscore of
// a decimal number: a digit must follow.
func (p *tomlParser) noUnder() {
	switch c := p.ch(); {
	case c == '_' || c == '.' || c == 'e' || c == 'E':
		p.fail("Unexpected character, expected digit")
	case endOfWord(c):
		p.fail("Incomplete number")
	}
}

// noUnderBased is noUnder after 0x, 0o, 0b or an underscore among their
// digits.
func (p *tomlParser) noUnderBased() {
	switch c := p.ch(); {
	case c == '_' || c == '.':
		p.fail("Unexpected character, expected digit")
	case endOfWord(c):
		p.fail("Incomplete number")
	}
}

// signedNumber reads a number that starts with + or -.
func (p *tomlParser) signedNumber() (any, string) {
	sign := p.ch()
	p.i++
	switch p.ch() {
	case 'i':
		p.i++
		if sign == '-' {
			return p.inf(-1), "number"
		}
		return p.inf(1), "number"
	case 'n':
		p.i++
		return p.nan(), "number"
	}
	p.noUnder()
	buf := []byte{byte(sign)}
	if p.ch() == '0' {
		buf = append(buf, '0')
		p.i++
		switch c := p.ch(); c {
		case '.':
			return p.fraction(append(buf, '.'))
		case 'e', 'E':
			p.i++
			return p.exponent(append(buf, byte(c)))
		}
		v, _ := tomlInteger(string(buf))
		return v, "integer"
	}
	return p.decimal(buf)
}

// decimal reads the rest of a decimal integer (or float) after buf.
func (p *tomlParser) decimal(buf []byte) (any, string) {
	for {
		switch c := p.ch(); {
		case isDigitRune(c):
			buf = append(buf, byte(c))
			p.i++
		case c == '_':
			p.i++
			p.noUnder()
		case c == 'e' || c == 'E':
			p.i++
			return p.exponent(append(buf, byte(c)))
		case c == '.':
			return p.fraction(append(buf, '.'))
		default:
			v, ok := tomlInteger(string(buf))
			if !ok {
				p.fail("Invalid number")
			}
			return v, "integer"
		}
	}
}

// fraction reads a float's digits after its point (the cursor on the
// point).
func (p *tomlParser) fraction(buf []byte) (any, string) {
	p.i++
	p.noUnder()
	for {
		switch c := p.ch(); {
		case c == '_':
			p.i++
			p.noUnder()
		case isDigitRune(c):
			buf = append(buf, byte(c))
			p.i++
		case c == 'e' || c == 'E':
			p.i++
			return p.exponent(append(buf, byte(c)))
		default:
			return tomlFloat(string(buf)), "float"
		}
	}
}

// exponent reads a float's exponent after its e.
func (p *tomlParser) exponent(buf []byte) (any, string) {
	switch c := p.ch(); {
	case c == '-' || c == '+':
		buf = append(buf, byte(c))
		p.i++
		p.noUnder()
	case !isDigitRune(c):
		p.fail("Unexpected character, expected -, + or digit")
	}
	for {
		switch c := p.ch(); {
		case isDigitRune(c):
			buf = append(buf, byte(c))
			p.i++
		case c == '_':
			p.i++
			p.noUnder()
		default:
			return tomlFloat(string(buf)), "float"
		}
	}
}

// based reads the digits of a 0x, 0o or 0b integer after its prefix.
func (p *tomlParser) based(buf []byte, digit func(rune) bool) (any, string) {
	p.noUnderBased()
	for {
		switch c := p.ch(); {
		case digit(c):
			buf = append(buf, byte(c))
			p.i++
		case c == '_':
			p.i++
			p.noUnderBased()
		default:
			v, ok := tomlInteger(string(buf))
			if !ok {
				p.fail("Invalid number")
			}
			return v, "integer"
		}
	}
}

// numberOrDate reads a value that starts with a digit: a number, a date,
// a time or a date-time.
func (p *tomlParser) numberOrDate() (any, string) {
	if p.ch() == '0' {
		p.i++
		switch c := p.ch(); {
		case c == 'b':
			p.i++
			return p.based([]byte("0b"), func(c rune) bool { return c == '0' || c == '1' })
		case c == 'o':
			p.i++
			return p.based([]byte("0o"), func(c rune) bool { return c >= '0' && c <= '7' })
		case c == 'x':
			p.i++
			return p.based([]byte("0x"), isHexRune)
		case c == '.':
			return p.fraction([]byte("0."))
		case isDigitRune(c):
			return p.zeroYear()
		}
		return 0.0, "integer"
	}
	// Up to four digits may still be a year or an hour.
	var buf []byte
	for {
		switch c := p.ch(); {
		case c == '_':
			p.i++
			p.noUnder()
			return p.decimal(buf)
		case isDigitRune(c):
			buf = append(buf, byte(c))
			p.i++
			if len(buf) > 4 {
				return p.decimal(buf)
			}
		case c == 'e' || c == 'E':
			p.i++
			return p.exponent(append(buf, byte(c)))
		case c == '.':
			return p.fraction(append(buf, '.'))
		case c == '-':
			if len(buf) < 4 {
				p.fail("Years less than 1000 must be zero padded to four characters")
			}
			return p.date(string(buf))
		case c == ':':
			return p.timeOnly(string(buf))
		default:
			v, _ := tomlInteger(string(buf))
			return v, "integer"
		}
	}
}

// zeroYear reads a year or hour that starts with 0 (the cursor on its
// second digit).
func (p *tomlParser) zeroYear() (any, string) {
	buf := []byte{'0'}
	for {
		c := p.ch()
		if len(buf) < 4 {
			switch {
			case isDigitRune(c):
				buf = append(buf, byte(c))
				p.i++
				continue
			case c == ':':
				return p.timeOnly(string(buf))
			}
			p.fail("Expected digit while parsing year part of a date")
		}
		if c != '-' {
			p.fail("Expected hyphen (-) while parsing year part of date")
		}
		return p.date(string(buf))
	}
}

// digits reads digits.
func (p *tomlParser) digits() string {
	start := p.i
	for isDigitRune(p.ch()) {
		p.i++
	}
	return string(utf16.Decode(p.src[start:p.i]))
}

// date reads a date (and its time) after its year (the cursor on the
// hyphen).
func (p *tomlParser) date(year string) (any, string) {
	p.i++
	month := p.digits()
	if p.ch() != '-' {
		p.fail("Incomplete datetime")
	}
	if len(month) < 2 {
		p.fail("Months less than 10 must be zero padded to two characters")
	}
	p.i++
	day := p.digits()
	day2 := year + "-" + month + "-" + day
	switch c := p.ch(); {
	case c == 'T' || c == ' ':
		if len(day) < 2 {
			p.fail("Days less than 10 must be zero padded to two characters")
		}
		p.i++
	case endOfWord(c):
		return p.newDate("date", day2), "datetime"
	default:
		p.fail("Incomplete datetime")
	}
	if endOfWord(p.ch()) {
		return p.newDate("date", day2), "datetime"
	}
	hour := p.digits()
	if p.ch() != ':' {
		p.fail("Incomplete datetime")
	}
	if len(hour) < 2 {
		p.fail("Hours less than 10 must be zero padded to two characters")
	}
	p.i++
	text := day2 + "T" + hour + ":" + p.twoDigits("Incomplete datetime", true) + ":" + p.twoDigits("Incomplete datetime", false)
	// The fraction and the offset.
	buf := ""
	if p.ch() == '.' {
		p.i++
		buf = "." + p.digits()
		if buf == "." {
			p.fail("Expected digit in milliseconds")
		}
	}
	switch c := p.ch(); {
	case c == '-' || c == '+':
		p.i++
		text += buf + string(c) + p.offset()
		return p.newDate("datetime", text), "datetime"
	case c == 'Z':
		p.i++
		return p.newDate("datetime", text+buf+"Z"), "datetime"
	case endOfWord(c):
		return p.newDate("local-datetime", text+buf+"Z"), "datetime"
	}
	p.fail("Unexpected character in datetime, expected period (.), minus (-), plus (+) or Z")
	return nil, ""
}

// twoDigits reads a time's minutes (then its colon) or its seconds.
func (p *tomlParser) twoDigits(msg string, colon bool) string {
	start := p.i
	for range 2 {
		if !isDigitRune(p.ch()) {
			p.fail("%s", msg)
		}
		p.i++
	}
	s := string(utf16.Decode(p.src[start:p.i]))
	if colon {
		if p.ch() != ':' {
			p.fail("%s", msg)
		}
		p.i++
	}
	return s
}

// offset reads an offset's HH:MM after its sign.
func (p *tomlParser) offset() string {
	start := p.i
	for range 2 {
		if !isDigitRune(p.ch()) {
			p.fail("Unexpected character in datetime, expected digit")
		}
		p.i++
	}
	if p.ch() != ':' {
		p.fail("Unexpected character in datetime, expected colon")
	}
	p.i++
	for range 2 {
		if !isDigitRune(p.ch()) {
			p.fail("Unexpected character in datetime, expected digit")
		}
		p.i++
	}
	return string(utf16.Decode(p.src[start:p.i]))
}

// timeOnly reads a time after its hour (the cursor on the colon).
func (p *tomlParser) timeOnly(hour string) (any, string) {
	if len(hour) < 2 {
		p.fail("Hours less than 10 must be zero padded to two characters")
	}
	p.i++
	text := hour + ":" + p.twoDigits("Incomplete time", true) + ":" + p.twoDigits("Incomplete time", false)
	if p.ch() != '.' {
		// The parser passes over the character after the seconds.
		if p.i < len(p.src) {
			p.i++
		}
		return p.newDate("time", "0000-01-01T"+text+"Z"), "datetime"
	}
	p.i++
	frac := p.digits()
	c := p.ch()
	if !endOfWord(c) {
		p.fail("Unexpected character in datetime, expected period (.), minus (-), plus (+) or Z")
	}
	if frac == "" {
		p.fail("Expected digit in milliseconds")
	}
	return p.newDate("time", "0000-01-01T"+text+"."+frac+"Z"), "datetime"
}

// newDate is new Date(text) of the parser: an error when V8's Date finds
// no date there.
func (p *tomlParser) newDate(kind, text string) tomlDate {
	if !v8DateValid(text) {
		p.failPlain("Invalid Datetime")
	}
	return tomlDate{Kind: kind, Text: text}
}

// v8Numeral is the value V8's date parser gives a run of digits: its
// first nine significant digits.
func v8Numeral(s string) int {
	s = strings.TrimLeft(s, "0")
	if len(s) > 9 {
		s = s[:9]
	}
	n, _ := strconv.Atoi(s)
	return n
}

// v8DateValid says whether V8's Date reads the text the parser makes: a
// date YYYY-M…-D… alone, or with a time THH:MM:SS[.F…] and Z or ±HH:MM.
// A date alone that is not YYYY-MM-DD goes to V8's legacy reading, which
// takes a first number within 1…31 for a month (month, day, year).
func v8DateValid(text string) bool {
	date, tm, hasTime := strings.Cut(text, "T")
	parts := strings.SplitN(date, "-", 3)
	if len(parts) != 3 {
		return false
	}
	y, m, d := parts[0], parts[1], parts[2]
	isMonth := func(n int) bool { return n >= 1 && n <= 12 }
	isDay := func(n int) bool { return n >= 1 && n <= 31 }
	strict := len(m) == 2 && isMonth(v8Numeral(m)) && len(d) == 2 && isDay(v8Numeral(d))
	if !hasTime {
		if strict {
			return true
		}
		comps := []int{v8Numeral(y), v8Numeral(m), 1}
		if d != "" {
			comps[2] = v8Numeral(d)
		}
		if !isDay(comps[0]) {
			return isMonth(comps[1]) && isDay(comps[2])
		}
		// Month, day, year: a two-digit year is 19xx or 20xx, and the
		// date must lie within the 8.64e15 ms a Date can hold.
		year := comps[2]
		switch {
		case year <= 49:
			year += 2000
		case year <= 99:
			year += 1900
		}
		if !isMonth(comps[0]) || !isDay(comps[1]) || year > 300000 {
			return false
		}
		return time.Date(year, time.Month(comps[0]), comps[1], 0, 0, 0, 0, time.UTC).UnixMilli() <= 8.64e15
	}
	if !strict {
		return false
	}
	// HH:MM:SS, then the fraction, then Z or the offset.
	if len(tm) < 8 || tm[2] != ':' || tm[5] != ':' {
		return false
	}
	h, mi, s := v8Numeral(tm[:2]), v8Numeral(tm[3:5]), v8Numeral(tm[6:8])
	if !allDigits(tm[:2]) || h > 24 || mi > 59 || s > 59 || h == 24 && (mi > 0 || s > 0) {
		return false
	}
	rest := tm[8:]
	if strings.HasPrefix(rest, ".") {
		frac := strings.TrimLeft(rest[1:], "0123456789")
		digits := rest[1 : len(rest)-len(frac)]
		if h == 24 && v8Numeral(digits) > 0 {
			return false
		}
		rest = frac
	}
	if rest == "Z" {
		return true
	}
	// ±HH:MM
	return len(rest) == 6 && v8Numeral(rest[1:3]) <= 23 && v8Numeral(rest[4:6]) <= 59
}

func allDigits(s string) bool {
	for _, c := range s {
		if !isDigitRune(c) {
			return false
		}
	}
	return s != ""
}
