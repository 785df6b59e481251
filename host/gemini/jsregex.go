package gemini

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The host's patterns are JavaScript regular expressions without flags,
// tested unanchored (RegExp.prototype.test). compileJS reads a pattern as
// V8 does without the u flag (with the web-compatibility grammar of
// ECMAScript's Annex B), refuses what V8 refuses with V8's own message,
// and translates the rest into a Go pattern with the same matches:
//
//   - The pattern and the subject are sequences of UTF-16 code units. A
//     character beyond U+FFFF is two units, so `.` matches half of it and
//     `\uD83D\uDE00` all of it. The Go pattern runs on a subject in which
//     each surrogate unit is a rune of its own (jsUnitRune); a subject
//     without such characters is matched as it is.
//   - `.` matches any unit but the four line terminators (LF, CR, U+2028,
//     U+2029); `\s` is ECMAScript's white space; `\d`, `\w`, `\b` are
//     ASCII, as in Go; `^` and `$` are the subject's ends.
//   - Annex B: `{`, `}` and `]` that do not make a quantifier or a class
//     stand for themselves; `\c` before a character other than a letter is
//     a backslash; a class escape at either end of a range in a class
//     makes the dash a character; `\1`–`\9` beyond the number of groups
//     and `\0` before digits are octal escapes, `\8` and `\9` digits; any
//     other escaped character stands for itself.
//
// A test's answer does not depend on which of several matches is found,
// so greedy and lazy quantifiers and groups keep their meaning in Go's
// leftmost-first, linear-time engine. Lookaround and back references have
// no Go form: a pattern using them runs on the backtracking matcher of
// jsmatch.go instead, which follows ECMAScript's pattern semantics and
// gives up after jsMatchBudget steps (ErrRegexOutsideModel). A pattern
// whose counts need more than jsMaxChain repetitions of 1,000, or whose
// groups nest over 1,000 deep, is outside the model whichever engine it
// would run on.

// ErrRegexOutsideModel marks a valid JavaScript pattern that the model
// does not run.
var ErrRegexOutsideModel = errors.New("a JavaScript regular expression outside the model")

// JSRegExp is a compiled JavaScript pattern: a Go pattern (re), or, for
// a pattern with lookaround or back references, the tree the backtracking
// matcher walks (tree, with groups capturing groups).
type JSRegExp struct {
	re     *regexp.Regexp
	tree   *jsNode
	groups int
}

// Test reports whether the pattern matches somewhere in s, as
// RegExp.prototype.test does. A match the backtracking matcher cannot
// settle within jsMatchBudget steps (or jsMatchDepth nested matchers) is
// an error wrapping ErrRegexOutsideModel, and no answer.
func (r *JSRegExp) Test(s string) (bool, error) {
	if r.re != nil {
		return r.re.MatchString(jsUnits(s)), nil
	}
	return jsBacktrack(r.tree, r.groups, utf16.Encode([]rune(s)), jsMatchBudget)
}

// MatchString reports whether the pattern matches somewhere in s, as
// RegExp.prototype.test does; false when Test has no answer.
func (r *JSRegExp) MatchString(s string) bool {
	ok, err := r.Test(s)
	return ok && err == nil
}

// MatchOrRecord is MatchString that, when Test has no answer, also sets
// *errp to Test's error unless *errp already holds one.
func (r *JSRegExp) MatchOrRecord(s string, errp *error) bool {
	ok, err := r.Test(s)
	if err != nil && *errp == nil {
		*errp = err
	}
	return ok && err == nil
}

// Backtracks reports whether the pattern runs on the backtracking matcher
// (it has lookaround or back references), whose work is bounded by
// jsMatchBudget steps, rather than on Go's linear-time engine.
func (r *JSRegExp) Backtracks() bool { return r.re == nil }

// jsSurrogateBase is where the model puts UTF-16 surrogate units: U+D800
// becomes U+F0000 and U+DFFF U+F07FF. No character beyond U+FFFF is left
// in a subject once its characters are split into units, so these runes
// stand for nothing else.
const jsSurrogateBase = 0xF0000

func jsUnitRune(u uint16) rune {
	if utf16.IsSurrogate(rune(u)) {
		return jsSurrogateBase + rune(u) - 0xD800
	}
	return rune(u)
}

// jsUnits is s with every character beyond U+FFFF written as its two
// surrogate units (jsUnitRune); s itself when it has none.
func jsUnits(s string) string {
	i := 0
	for i < len(s) && s[i] < 0xF0 {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r > 0xFFFF {
			hi, lo := utf16.EncodeRune(r)
			b.WriteRune(jsUnitRune(uint16(hi)))
			b.WriteRune(jsUnitRune(uint16(lo)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// compiled remembers the patterns compiled so far, up to compiledLimit of
// them and compiledBytes of their Go forms together (what a compiled
// pattern holds grows with its form): every engine loads the release's
// default policies, so the same patterns are compiled once per case
// otherwise. A JSRegExp is safe for concurrent use: a Go Regexp is, and
// a tree is only read.
var compiled = struct {
	sync.Mutex
	m     map[string]compiledPattern
	bytes int
}{m: map[string]compiledPattern{}}

const (
	compiledLimit = 4096
	compiledBytes = 256 << 10
)

type compiledPattern struct {
	re  *JSRegExp
	err error
}

// compileJS compiles a JavaScript pattern. A pattern V8 refuses is an
// error with V8's message; a valid one the model does not run wraps
// ErrRegexOutsideModel.
func compileJS(src string) (*JSRegExp, error) {
	compiled.Lock()
	c, ok := compiled.m[src]
	compiled.Unlock()
	if ok {
		return c.re, c.err
	}
	re, size, err := compileJSSized(src)
	compiled.Lock()
	if len(compiled.m) < compiledLimit && compiled.bytes+size <= compiledBytes {
		compiled.m[src] = compiledPattern{re, err}
		compiled.bytes += size
	}
	compiled.Unlock()
	return re, err
}

// compileJSOnce compiles src, without the cache.
func compileJSOnce(src string) (*JSRegExp, error) {
	re, _, err := compileJSSized(src)
	return re, err
}

// compileJSSized is compileJSOnce; size is what the cache counts for the
// pattern: its Go form's length, or its own for a tree or a refusal.
func compileJSSized(src string) (_ *JSRegExp, size int, _ error) {
	p, err := parseJS(src)
	if err != nil {
		return nil, len(src), err
	}
	if p.backtrack {
		return &JSRegExp{tree: p.tree, groups: max(p.groups, p.opened)}, len(src), nil
	}
	re, err := regexp.Compile(string(p.out))
	if err != nil {
		return nil, len(p.out), fmt.Errorf("%w: Go's engine refuses its translation (%v)", ErrRegexOutsideModel, err)
	}
	return &JSRegExp{re: re}, len(p.out), nil
}

// jsRegexSyntaxError is V8's SyntaxError for a pattern.
type jsRegexSyntaxError struct {
	src, msg string
}

func (e *jsRegexSyntaxError) Error() string {
	return "Invalid regular expression: /" + e.src + "/: " + e.msg
}

// jsParser reads one pattern, as UTF-16 units, and writes its Go form and
// its tree.
type jsParser struct {
	src   string
	u     []uint16
	pos   int
	out   []byte
	depth int
	// groups is the number of capturing groups in the whole pattern and
	// named whether any has a name: a decimal escape is a back reference
	// only up to that number, and \k a named reference only when there
	// are names.
	groups int
	named  bool
	// names are the number of each named group, taken when it closes.
	names map[string]int
	// opened is the number of capturing groups opened so far.
	opened int
	// refs are the \k references, resolved once the pattern is read.
	refs []*jsNode
	// outside says why a valid pattern is outside the model ("": it is
	// not).
	outside string
	// backtrack says the pattern has lookaround or a back reference, so
	// it runs on the backtracking matcher; tree is the pattern read.
	backtrack bool
	tree      *jsNode
}

// jsMaxDepth bounds the parser's nesting; Go's engine refuses patterns
// nested over 1,000 deep, so deeper ones are outside the model whatever
// else they hold.
const jsMaxDepth = 1000

// parseJS reads a pattern: V8's refusal, an error wrapping
// ErrRegexOutsideModel, or the parser holding the Go form (out) and the
// tree.
func parseJS(src string) (*jsParser, error) {
	p := &jsParser{src: src, u: utf16.Encode([]rune(src))}
	p.groups, p.named = p.scanGroups()
	tree, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.u) {
		// Only a ')' stops the outermost disjunction early.
		return nil, p.fail("Unmatched ')'")
	}
	for _, ref := range p.refs {
		n, ok := p.names[ref.name]
		if !ok {
			return nil, p.fail("Invalid named capture referenced")
		}
		ref.n = n
	}
	if p.outside != "" {
		return nil, fmt.Errorf("%w: %s", ErrRegexOutsideModel, p.outside)
	}
	p.tree = tree
	return p, nil
}

func (p *jsParser) fail(msg string) error { return &jsRegexSyntaxError{src: p.src, msg: msg} }

func (p *jsParser) more() bool { return p.pos < len(p.u) }

func (p *jsParser) peek(k int) int {
	if p.pos+k < len(p.u) {
		return int(p.u[p.pos+k])
	}
	return -1
}

func (p *jsParser) outsideBecause(why string) {
	if p.outside == "" {
		p.outside = why
	}
}

// scanGroups counts the capturing groups of the whole pattern and says
// whether any is named, skipping escapes and classes.
func (p *jsParser) scanGroups() (int, bool) {
	n, named, inClass := 0, false, false
	for i := 0; i < len(p.u); i++ {
		switch c := p.u[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			if i+1 < len(p.u) && p.u[i+1] == '?' {
				if i+2 < len(p.u) && p.u[i+2] == '<' && (i+3 >= len(p.u) || p.u[i+3] != '=' && p.u[i+3] != '!') {
					n++
					named = true
				}
				continue
			}
			n++
		}
	}
	return n, named
}

func (p *jsParser) disjunction() (*jsNode, error) {
	var alts []*jsNode
	for {
		alt, err := p.alternative()
		if err != nil {
			return nil, err
		}
		alts = append(alts, alt)
		if p.peek(0) != '|' {
			if len(alts) == 1 {
				return alts[0], nil
			}
			return &jsNode{op: jsOpAlt, kids: alts}, nil
		}
		p.pos++
		p.out = append(p.out, '|')
	}
}

// term kinds, for what may follow them.
const (
	termAtom = iota
	termAssertion
	termLookahead
	termLookbehind
)

func (p *jsParser) alternative() (*jsNode, error) {
	seq := &jsNode{op: jsOpSeq}
	for p.more() {
		c := p.peek(0)
		if c == '|' || c == ')' {
			break
		}
		mark, opened := len(p.out), p.opened
		kind, atom, err := p.term()
		if err != nil {
			return nil, err
		}
		if atom, err = p.quantifier(kind, mark, atom, opened); err != nil {
			return nil, err
		}
		seq.kids = append(seq.kids, atom)
	}
	if len(seq.kids) == 1 {
		return seq.kids[0], nil
	}
	return seq, nil
}

// term reads one assertion or atom, writes its Go form and returns its
// node.
func (p *jsParser) term() (int, *jsNode, error) {
	c := p.peek(0)
	switch c {
	case '^':
		p.pos++
		p.write(`^`)
		return termAssertion, &jsNode{op: jsOpStart}, nil
	case '$':
		p.pos++
		p.write(`$`)
		return termAssertion, &jsNode{op: jsOpEnd}, nil
	case '*', '+', '?':
		return 0, nil, p.fail("Nothing to repeat")
	case '{':
		if _, _, n := p.braces(p.pos); n > 0 {
			return 0, nil, p.fail("Nothing to repeat")
		}
		p.pos++
		return termAtom, p.unit('{'), nil
	case '.':
		p.pos++
		return termAtom, p.class(false, jsNotLineTerminator), nil
	case '[':
		n, err := p.characterClass()
		return termAtom, n, err
	case '(':
		return p.group()
	case '\\':
		if e := p.peek(1); e == 'b' || e == 'B' {
			p.write(`\` + string(rune(e)))
			p.pos += 2
			return termAssertion, &jsNode{op: jsOpWordBoundary, neg: e == 'B'}, nil
		}
		n, err := p.atomEscape()
		return termAtom, n, err
	}
	p.pos++
	return termAtom, p.unit(uint16(c)), nil
}

func (p *jsParser) group() (int, *jsNode, error) {
	p.pos++ // (
	kind, name, capturing := termAtom, "", true
	node := &jsNode{op: jsOpGroup}
	if p.peek(0) == '?' {
		capturing = false
		switch p.peek(1) {
		case ':':
			p.pos += 2
		case '=', '!':
			node = &jsNode{op: jsOpLook, neg: p.peek(1) == '!'}
			p.pos += 2
			kind = termLookahead
		case '<':
			if p.peek(2) == '=' || p.peek(2) == '!' {
				node = &jsNode{op: jsOpLook, neg: p.peek(2) == '!', behind: true}
				p.pos += 3
				kind = termLookbehind
				break
			}
			p.pos += 2
			capturing = true
			var err error
			if name, err = p.groupName(); err != nil {
				return 0, nil, err
			}
		default:
			return 0, nil, p.fail("Invalid group")
		}
	}
	if kind != termAtom {
		p.backtrack = true
	}
	if capturing {
		p.opened++
		node.n = p.opened
	}
	p.depth++
	if p.depth > jsMaxDepth {
		// Go's engine holds no deeper nesting; the rest is not read.
		return 0, nil, fmt.Errorf("%w: groups nested over %d deep", ErrRegexOutsideModel, jsMaxDepth)
	}
	p.write("(?:")
	body, err := p.disjunction()
	if err != nil {
		return 0, nil, err
	}
	if p.peek(0) != ')' {
		return 0, nil, p.fail("Unterminated group")
	}
	p.pos++
	p.depth--
	p.out = append(p.out, ')')
	// A name is taken when its group closes.
	if name != "" {
		if _, dup := p.names[name]; dup {
			return 0, nil, p.fail("Duplicate capture group name")
		}
		if p.names == nil {
			p.names = map[string]int{}
		}
		p.names[name] = node.n
	}
	if !capturing && node.op == jsOpGroup {
		// A non-capturing group is its body.
		return kind, body, nil
	}
	node.kids = []*jsNode{body}
	return kind, node, nil
}

// groupName reads a group's name and its closing '>'.
func (p *jsParser) groupName() (string, error) {
	var name []rune
	for {
		r, err := p.nameChar()
		if err != nil {
			return "", err
		}
		if r == '>' && len(name) > 0 {
			return string(name), nil
		}
		if len(name) == 0 && !jsIDStart(r) || !jsIDPart(r) {
			return "", p.fail("Invalid capture group name")
		}
		name = append(name, r)
	}
}

// jsIDStart and jsIDPart are the characters that may begin and continue
// an identifier, and so a group's name.
func jsIDStart(r rune) bool {
	return r == '$' || r == '_' || unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start) && !unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

func jsIDPart(r rune) bool {
	return jsIDStart(r) || r == 0x200C || r == 0x200D ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) && !unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

// nameChar reads one character of a group name: a surrogate pair is one
// character, and \uXXXX or \u{X…} an escaped one.
func (p *jsParser) nameChar() (rune, error) {
	c := p.peek(0)
	if c < 0 {
		return 0, p.fail("Invalid capture group name")
	}
	if c == '\\' {
		if p.peek(1) != 'u' {
			return 0, p.fail("Invalid capture group name")
		}
		p.pos += 2
		r, ok := p.unicodeEscape()
		if !ok {
			return 0, p.fail("Invalid Unicode escape")
		}
		return r, nil
	}
	p.pos++
	if utf16.IsSurrogate(rune(c)) && c < 0xDC00 {
		if lo := p.peek(0); lo >= 0xDC00 && lo <= 0xDFFF {
			p.pos++
			return utf16.DecodeRune(rune(c), rune(lo)), nil
		}
	}
	return rune(c), nil
}

// unicodeEscape reads what follows \u in a group name: four hex digits
// (a surrogate pair of two such escapes is one character) or {X…}.
func (p *jsParser) unicodeEscape() (rune, bool) {
	if p.peek(0) == '{' {
		i := p.pos + 1
		k := p.hexDigits(i, len(p.u))
		v, err := p.hexValue(i, i+k)
		if k == 0 || i+k >= len(p.u) || p.u[i+k] != '}' || err != nil || v > unicode.MaxRune {
			return 0, false
		}
		p.pos = i + k + 1
		return rune(v), true
	}
	v, ok := p.hex(4)
	if !ok {
		return 0, false
	}
	if v >= 0xD800 && v < 0xDC00 && p.peek(0) == '\\' && p.peek(1) == 'u' {
		save := p.pos
		p.pos += 2
		if lo, ok := p.hex(4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return utf16.DecodeRune(rune(v), rune(lo)), true
		}
		p.pos = save
	}
	return rune(v), true
}

// hex reads n hex digits, or none.
func (p *jsParser) hex(n int) (int, bool) {
	if p.hexDigits(p.pos, n) < n {
		return 0, false
	}
	v, _ := p.hexValue(p.pos, p.pos+n)
	p.pos += n
	return int(v), true
}

// hexDigits is how many hex digits, at most n, stand at i.
func (p *jsParser) hexDigits(i, n int) int {
	k := 0
	for k < n && i+k < len(p.u) && p.u[i+k] < utf8.RuneSelf && jsontext.IsHex(byte(p.u[i+k])) {
		k++
	}
	return k
}

// hexValue is the number the hex digits p.u[i:j] write.
func (p *jsParser) hexValue(i, j int) (uint64, error) {
	digits := make([]byte, 0, j-i)
	for _, c := range p.u[i:j] {
		digits = append(digits, byte(c))
	}
	return strconv.ParseUint(string(digits), 16, 32)
}

// jsInfinity stands for a count without an upper bound, and for any count
// too large to write: V8 keeps counts up to 2^31−1 alike.
const jsInfinity = 1<<31 - 1

// braces reads a {n}, {n,} or {n,m} quantifier at i: its bounds and its
// length (0: there is none there).
func (p *jsParser) braces(i int) (lo, hi, n int) {
	start := i
	if i >= len(p.u) || p.u[i] != '{' {
		return 0, 0, 0
	}
	i++
	digits := func() (int, bool) {
		v, any := 0, false
		for i < len(p.u) && p.u[i] >= '0' && p.u[i] <= '9' {
			any = true
			v = min(v*10+int(p.u[i]-'0'), jsInfinity)
			i++
		}
		return v, any
	}
	lo, ok := digits()
	if !ok {
		return 0, 0, 0
	}
	hi = lo
	if i < len(p.u) && p.u[i] == ',' {
		i++
		if v, ok := digits(); ok {
			hi = v
		} else {
			hi = jsInfinity
		}
	}
	if i >= len(p.u) || p.u[i] != '}' {
		return 0, 0, 0
	}
	return lo, hi, i + 1 - start
}

// quantifier reads the quantifier after a term (if any), applies it to
// the term's Go form, written from mark on, and returns the term's node,
// repeated. opened is the number of capturing groups opened before the
// term: those after it are the term's own.
func (p *jsParser) quantifier(kind, mark int, atom *jsNode, opened int) (*jsNode, error) {
	var lo, hi int
	switch c := p.peek(0); c {
	case '*':
		lo, hi = 0, jsInfinity
		p.pos++
	case '+':
		lo, hi = 1, jsInfinity
		p.pos++
	case '?':
		lo, hi = 0, 1
		p.pos++
	case '{':
		l, h, n := p.braces(p.pos)
		if n == 0 {
			return atom, nil
		}
		lo, hi = l, h
		p.pos += n
	default:
		return atom, nil
	}
	switch {
	case kind == termAssertion:
		return nil, p.fail("Nothing to repeat")
	case hi < lo:
		return nil, p.fail("numbers out of order in {} quantifier")
	case kind == termLookbehind:
		return nil, p.fail("Invalid quantifier")
	}
	greedy := true
	if p.peek(0) == '?' {
		p.pos++ // lazy: the same answer to a test on Go's engine
		greedy = false
	}
	goAtom := string(p.out[mark:])
	p.out = append(p.out[:mark], repeatGo(goAtom, lo, hi, p)...)
	return &jsNode{op: jsOpRepeat, kids: []*jsNode{atom}, min: lo, max: hi, greedy: greedy,
		capFrom: opened, capCount: p.opened - opened}, nil
}

func (p *jsParser) write(s string) { p.out = append(p.out, s...) }

// jsMaxCount is the largest count Go's engine takes in one repetition.
const jsMaxCount = 1000

// repeatGo writes atom repeated lo to hi times (hi jsInfinity: no bound).
// A count over Go's 1,000 is written as a chain of repetitions of at most
// 1,000 each, up to jsMaxChain of them; beyond that the pattern is
// outside the model.
func repeatGo(atom string, lo, hi int, p *jsParser) string {
	a := "(?:" + atom + ")"
	switch {
	case lo == 0 && hi == jsInfinity:
		return a + "*"
	case lo == 1 && hi == jsInfinity:
		return a + "+"
	case lo == 0 && hi == 1:
		return a + "?"
	case hi <= jsMaxCount:
		if lo == hi {
			return a + "{" + strconv.Itoa(lo) + "}"
		}
		return a + "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
	case hi == jsInfinity && lo <= jsMaxCount:
		return a + "{" + strconv.Itoa(lo) + ",}"
	}
	chain := (lo + jsMaxCount - 1) / jsMaxCount
	if hi != jsInfinity {
		chain += (hi - lo + jsMaxCount - 1) / jsMaxCount
	}
	if chain > jsMaxChain {
		p.outsideBecause(fmt.Sprintf("a count of %d, which Go's engine cannot repeat", max(lo, min(hi, jsInfinity-1))))
		return a
	}
	// Chains nested in chains multiply the pattern's length: past
	// jsMaxGoPattern bytes it is outside the model, and no more copies
	// are written.
	if p.outside != "" || len(p.out)+chain*(len(a)+16) > jsMaxGoPattern {
		p.outsideBecause(fmt.Sprintf("counts over 1,000 nested so deep that Go's pattern would exceed %d bytes", jsMaxGoPattern))
		return a
	}
	var b strings.Builder
	for left := lo; left > 0; left -= jsMaxCount {
		b.WriteString(a + "{" + strconv.Itoa(min(left, jsMaxCount)) + "}")
	}
	if hi == jsInfinity {
		b.WriteString(a + "*")
		return b.String()
	}
	for left := hi - lo; left > 0; left -= jsMaxCount {
		b.WriteString(a + "{0," + strconv.Itoa(min(left, jsMaxCount)) + "}")
	}
	return b.String()
}

// jsMaxChain bounds the repetitions a large count becomes, and
// jsMaxGoPattern the length of the Go pattern chains may make.
const (
	jsMaxChain     = 8
	jsMaxGoPattern = 1 << 20
)

// unit writes a pattern character, the code unit u itself, and returns
// its node.
func (p *jsParser) unit(u uint16) *jsNode {
	p.write(goRune(jsUnitRune(u)))
	return &jsNode{op: jsOpChar, set: []jsRange{{u, u}}}
}

// goRune is r as a Go pattern that matches r itself.
func goRune(r rune) string {
	switch {
	case r < 0x20 || r == 0x7f || r == ' ' || r > 0x7e:
		return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
	case strings.ContainsRune(`\.+*?()|[]{}^$-`, r):
		return `\` + string(r)
	}
	return string(r)
}

// atomEscape reads an escape outside a class (the backslash at pos).
func (p *jsParser) atomEscape() (*jsNode, error) {
	if p.pos+1 >= len(p.u) {
		return nil, p.fail(`\ at end of pattern`)
	}
	e := p.u[p.pos+1]
	switch {
	case e == 'k' && p.named:
		p.pos += 2
		if p.peek(0) != '<' {
			return nil, p.fail("Invalid named reference")
		}
		p.pos++
		name, err := p.groupName()
		if err != nil {
			return nil, err
		}
		ref := &jsNode{op: jsOpBackref, name: name}
		p.refs = append(p.refs, ref)
		p.backtrack = true
		p.write("(?:)")
		return ref, nil
	case e >= '1' && e <= '9':
		// A decimal escape up to the number of groups is a back
		// reference; beyond it, an octal escape or a digit.
		save := p.pos
		p.pos++
		n := 0
		for p.more() && p.u[p.pos] >= '0' && p.u[p.pos] <= '9' {
			n = min(n*10+int(p.u[p.pos]-'0'), jsInfinity)
			p.pos++
		}
		if n <= p.groups {
			p.backtrack = true
			p.write("(?:)")
			return &jsNode{op: jsOpBackref, n: n}, nil
		}
		p.pos = save
	}
	p.pos++
	set, u, isClass := p.classEscape(false)
	if isClass {
		return p.class(false, set), nil
	}
	return p.unit(u), nil
}

// classEscape reads the escape whose letter is at pos (the backslash just
// read): a class (\d \D \s \S \w \W) or one unit. In a class, \b is a
// backspace and \c takes digits and '_' too; outside one, \c before
// anything but a letter is the backslash alone, and the letter is read
// next.
func (p *jsParser) classEscape(inClass bool) (set []jsRange, u uint16, isClass bool) {
	e := p.u[p.pos]
	p.pos++
	switch e {
	case 'd':
		return jsDigit, 0, true
	case 'D':
		return jsComplement(jsDigit), 0, true
	case 's':
		return jsSpaceRanges, 0, true
	case 'S':
		return jsComplement(jsSpaceRanges), 0, true
	case 'w':
		return jsWord, 0, true
	case 'W':
		return jsComplement(jsWord), 0, true
	case 'b':
		return nil, '\b', false
	case 't':
		return nil, '\t', false
	case 'n':
		return nil, '\n', false
	case 'v':
		return nil, '\v', false
	case 'f':
		return nil, '\f', false
	case 'r':
		return nil, '\r', false
	case 'x':
		if v, ok := p.hex(2); ok {
			return nil, uint16(v), false
		}
		return nil, 'x', false
	case 'u':
		if v, ok := p.hex(4); ok {
			return nil, uint16(v), false
		}
		return nil, 'u', false
	case 'c':
		if c := p.peek(0); c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || inClass && (c >= '0' && c <= '9' || c == '_') {
			p.pos++
			return nil, uint16(c) % 32, false
		}
		p.pos--
		return nil, '\\', false
	}
	if e >= '0' && e <= '7' {
		// Octal: up to three digits while the value stays below 0o400.
		v := int(e - '0')
		if c := p.peek(0); c >= '0' && c <= '7' {
			v = v*8 + c - '0'
			p.pos++
			if c := p.peek(0); v < 32 && c >= '0' && c <= '7' {
				v = v*8 + c - '0'
				p.pos++
			}
		}
		return nil, uint16(v), false
	}
	return nil, e, false
}

// jsRange is an inclusive range of UTF-16 code units.
type jsRange struct{ lo, hi uint16 }

var (
	jsDigit = []jsRange{{'0', '9'}}
	jsWord  = []jsRange{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	// jsLineTerminators are ECMAScript's LineTerminator: what `.` does
	// not match.
	jsLineTerminators   = []jsRange{{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}
	jsNotLineTerminator = jsComplement(jsLineTerminators)
	// jsSpaceRanges is ECMAScript's WhiteSpace and LineTerminator, and
	// jsSpace the same as the items of a Go class.
	jsSpace       = jsClassItems(jsSpaceRanges)
	jsSpaceRanges = []jsRange{{'\t', '\r'}, {' ', ' '}, {0xa0, 0xa0}, {0x1680, 0x1680}, {0x2000, 0x200a}, {0x2028, 0x2029}, {0x202f, 0x202f}, {0x205f, 0x205f}, {0x3000, 0x3000}, {0xfeff, 0xfeff}}
)

// jsComplement is every unit not in the sorted, disjoint ranges rs.
func jsComplement(rs []jsRange) []jsRange {
	var out []jsRange
	next := 0
	for _, r := range rs {
		if int(r.lo) > next {
			out = append(out, jsRange{uint16(next), r.lo - 1})
		}
		next = int(r.hi) + 1
	}
	if next <= 0xFFFF {
		out = append(out, jsRange{uint16(next), 0xFFFF})
	}
	return out
}

// class writes a Go class of the units in set (negated: of those not in
// it) and returns its node. Surrogate units become the runes jsUnitRune
// gives them. set is sorted and disjoint.
func (p *jsParser) class(negated bool, set []jsRange) *jsNode {
	node := &jsNode{op: jsOpChar, set: set}
	if negated {
		node.set = jsComplement(set)
	}
	items := jsClassItems(set)
	switch {
	case items == "" && negated:
		p.write(`[\x{0}-\x{10ffff}]`)
	case items == "":
		p.write(`[^\x{0}-\x{10ffff}]`)
	case negated:
		p.write("[^" + items + "]")
	default:
		p.write("[" + items + "]")
	}
	return node
}

// jsClassItems writes the units of set as the items of a Go class.
func jsClassItems(set []jsRange) string {
	var b strings.Builder
	for _, r := range set {
		for _, part := range []jsRange{{0, 0xD7FF}, {0xD800, 0xDFFF}, {0xE000, 0xFFFF}} {
			lo, hi := max(r.lo, part.lo), min(r.hi, part.hi)
			if lo > hi {
				continue
			}
			b.WriteString(goRune(jsUnitRune(lo)))
			if hi > lo {
				b.WriteString("-" + goRune(jsUnitRune(hi)))
			}
		}
	}
	return b.String()
}

// characterClass reads a [...] class (the '[' at pos).
func (p *jsParser) characterClass() (*jsNode, error) {
	p.pos++
	negated := false
	if p.peek(0) == '^' {
		negated = true
		p.pos++
	}
	var set []jsRange
	for {
		if !p.more() {
			return nil, p.fail("Unterminated character class")
		}
		if p.peek(0) == ']' {
			p.pos++
			break
		}
		first, u1, isClass1, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if p.peek(0) != '-' || p.peek(1) == ']' || p.peek(1) < 0 {
			set = append(set, first...)
			if !isClass1 {
				set = append(set, jsRange{u1, u1})
			}
			continue
		}
		p.pos++ // -
		second, u2, isClass2, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if isClass1 || isClass2 {
			// A class escape at either end: the dash is a character.
			set = append(set, first...)
			set = append(set, second...)
			set = append(set, jsRange{'-', '-'})
			if !isClass1 {
				set = append(set, jsRange{u1, u1})
			}
			if !isClass2 {
				set = append(set, jsRange{u2, u2})
			}
			continue
		}
		if u1 > u2 {
			return nil, p.fail("Range out of order in character class")
		}
		set = append(set, jsRange{u1, u2})
	}
	return p.class(negated, jsNormalize(set)), nil
}

// classAtom reads one unit or class escape in a class.
func (p *jsParser) classAtom() ([]jsRange, uint16, bool, error) {
	c := p.peek(0)
	if c != '\\' {
		p.pos++
		return nil, uint16(c), false, nil
	}
	if p.pos+1 >= len(p.u) {
		return nil, 0, false, p.fail(`\ at end of pattern`)
	}
	p.pos++
	if p.u[p.pos] == 'k' && p.named {
		// With named groups, \k is a reference, which a class cannot hold.
		return nil, 0, false, p.fail("Invalid escape")
	}
	set, u, isClass := p.classEscape(true)
	return set, u, isClass, nil
}

// jsNormalize sorts ranges and merges those that touch.
func jsNormalize(rs []jsRange) []jsRange {
	if len(rs) < 2 {
		return rs
	}
	sorted := append([]jsRange(nil), rs...)
	slices.SortFunc(sorted, func(a, b jsRange) int { return int(a.lo) - int(b.lo) })
	out := sorted[:1]
	for _, r := range sorted[1:] {
		last := &out[len(out)-1]
		if int(r.lo) <= int(last.hi)+1 {
			last.hi = max(last.hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}
