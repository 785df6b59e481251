package gemini

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The host's patterns are JavaScript regular expressions (no flags, tested
// unanchored). Go's regexp differs in a few places; compileJS translates
// the part of the JavaScript syntax Go can run with the same meaning:
//
//   - `.` matches any character but the four line terminators (LF, CR,
//     U+2028, U+2029), `\s`/`\S` are ECMAScript white space (Unicode),
//     `\d`, `\w`, `\b` are ASCII as in Go;
//   - `\0` is NUL, `\xHH`, `\uHHHH`, `\cX`, `\t`, `\n`, `\v`, `\f`, `\r`;
//   - any other escaped character stands for itself (`\"`, `\,`, `\ `);
//   - `(?:…)`, `(?<name>…)`, groups, classes, alternation, quantifiers and
//     `{n,m}` counts.
//
// Lookaround, back references and `\k` are not Go syntax: such a pattern
// is reported as outside the model (ErrRegexOutsideModel), never guessed.

// ErrRegexOutsideModel marks a pattern that uses JavaScript syntax the
// model does not run.
var ErrRegexOutsideModel = fmt.Errorf("uses JavaScript regular expression syntax outside the model (lookaround or a back reference)")

// jsSpace is ECMAScript's WhiteSpace and LineTerminator, as Go class items.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// compiled remembers the patterns compiled so far, up to compiledLimit of
// them: every engine loads the release's default policies, so the same
// patterns are compiled once per case otherwise. A Regexp is safe for
// concurrent use.
var compiled = struct {
	sync.Mutex
	m map[string]compiledPattern
}{m: map[string]compiledPattern{}}

const compiledLimit = 4096

type compiledPattern struct {
	re  *regexp.Regexp
	err error
}

// compileJS compiles a JavaScript pattern. A pattern JavaScript rejects is
// an error (the host reports it); so is one outside the model.
func compileJS(src string) (*regexp.Regexp, error) {
	compiled.Lock()
	c, ok := compiled.m[src]
	compiled.Unlock()
	if ok {
		return c.re, c.err
	}
	re, err := compileJSOnce(src)
	compiled.Lock()
	if len(compiled.m) < compiledLimit {
		compiled.m[src] = compiledPattern{re, err}
	}
	compiled.Unlock()
	return re, err
}

func compileJSOnce(src string) (*regexp.Regexp, error) {
	goSrc, err := translateJS(src)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(goSrc)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression /%s/: %v", src, err)
	}
	return re, nil
}

func translateJS(src string) (string, error) {
	var b strings.Builder
	rs := []rune(src)
	inClass := false
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\':
			if i+1 >= len(rs) {
				return "", fmt.Errorf("invalid regular expression /%s/: \\ at end of pattern", src)
			}
			i++
			out, skip, err := translateEscape(rs, i, inClass)
			if err != nil {
				return "", err
			}
			b.WriteString(out)
			i += skip
		case inClass:
			if c == ']' {
				inClass = false
				b.WriteRune(c)
				continue
			}
			switch c {
			case '[':
				b.WriteString(`\[`)
			case '-':
				b.WriteRune(c)
			default:
				b.WriteString(quoteRune(c))
			}
		case c == '[':
			inClass = true
			b.WriteRune(c)
			if i+1 < len(rs) && rs[i+1] == '^' {
				b.WriteRune('^')
				i++
			}
			// JavaScript's [] matches nothing and [^] anything; Go has no
			// empty class.
			if i+1 < len(rs) && rs[i+1] == ']' {
				inClass = false
				i++
				if strings.HasSuffix(b.String(), "[^") {
					s := b.String()
					b.Reset()
					b.WriteString(s[:len(s)-2] + `[\x{0}-\x{10ffff}]`)
				} else {
					s := b.String()
					b.Reset()
					b.WriteString(s[:len(s)-1] + `[^\x{0}-\x{10ffff}]`)
				}
			}
		case c == '.':
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		case c == '(':
			if i+2 < len(rs) && rs[i+1] == '?' {
				switch rs[i+2] {
				case ':':
					b.WriteString("(?:")
					i += 2
					continue
				case '=', '!':
					return "", ErrRegexOutsideModel
				case '<':
					if i+3 < len(rs) && (rs[i+3] == '=' || rs[i+3] == '!') {
						return "", ErrRegexOutsideModel
					}
					b.WriteString("(?P<")
					i += 2
					continue
				default:
					return "", fmt.Errorf("invalid regular expression /%s/: invalid group", src)
				}
			}
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	if inClass {
		return "", fmt.Errorf("invalid regular expression /%s/: unterminated character class", src)
	}
	return b.String(), nil
}

// translateEscape translates the escape whose letter is rs[i]; skip is how
// many more runes it used.
func translateEscape(rs []rune, i int, inClass bool) (string, int, error) {
	e := rs[i]
	switch e {
	case 'd', 'D', 'w', 'W':
		return `\` + string(e), 0, nil
	case 'b', 'B':
		if inClass {
			if e == 'b' {
				return `\x08`, 0, nil
			}
			return "B", 0, nil
		}
		return `\` + string(e), 0, nil
	case 's':
		if inClass {
			return jsSpace, 0, nil
		}
		return "[" + jsSpace + "]", 0, nil
	case 'S':
		if inClass {
			// A negated class inside a class has no Go spelling.
			return "", 0, ErrRegexOutsideModel
		}
		return "[^" + jsSpace + "]", 0, nil
	case 't':
		return `\t`, 0, nil
	case 'n':
		return `\n`, 0, nil
	case 'v':
		return `\v`, 0, nil
	case 'f':
		return `\f`, 0, nil
	case 'r':
		return `\r`, 0, nil
	case '0':
		if i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9' {
			return "", 0, ErrRegexOutsideModel
		}
		return `\x00`, 0, nil
	case 'x':
		if i+2 < len(rs) && isHex(rs[i+1]) && isHex(rs[i+2]) {
			return `\x{` + string(rs[i+1:i+3]) + `}`, 2, nil
		}
		return "x", 0, nil
	case 'u':
		if i+4 < len(rs) && isHex(rs[i+1]) && isHex(rs[i+2]) && isHex(rs[i+3]) && isHex(rs[i+4]) {
			return `\x{` + string(rs[i+1:i+5]) + `}`, 4, nil
		}
		return "u", 0, nil
	case 'c':
		if i+1 < len(rs) && (rs[i+1] >= 'a' && rs[i+1] <= 'z' || rs[i+1] >= 'A' && rs[i+1] <= 'Z') {
			return `\x{` + strconv.FormatInt(int64(rs[i+1]%32), 16) + `}`, 1, nil
		}
		return `\\c`, 0, nil
	case 'k':
		return "", 0, ErrRegexOutsideModel
	}
	if e >= '1' && e <= '9' {
		return "", 0, ErrRegexOutsideModel
	}
	return quoteRune(e), 0, nil
}

func isHex(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

// quoteRune is r as a Go pattern that matches r itself.
func quoteRune(r rune) string {
	switch {
	case r == '\n':
		return `\n`
	case r == '-':
		return `\-`
	case r < 0x20 || r == 0x7f || r == ' ' || r > 0x7e:
		return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
	}
	return regexp.QuoteMeta(string(r))
}
