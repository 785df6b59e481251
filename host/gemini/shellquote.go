package gemini

import (
	"errors"
	"regexp"
	"strings"
)

// This file is the tokenizer the host's heuristics read a command with:
// the npm package shell-quote's parse (1.8.x), as the host calls it. Its
// result, turned into strings as the host does (extractStringFromParseEntry:
// an operator becomes its text, a glob its pattern, a comment the empty
// string), is what the known-safe and dangerous checks see.

const sqControl = `(?:\|\||&&|;;|\|&|<\(|<<<|>>|>&|<&|[&;()|<>])`

var (
	sqControlRE = regexp.MustCompile(`^` + sqControl + `$`)
	// The chunker: a control operator, or a run of bare words and quoted
	// strings. META is |&;()<> and TAB and space; \s is ECMAScript's.
	sqChunker = regexp.MustCompile(`(` + sqControl + `)|((?:\\['"|&;()<> \t]|[^` + jsSpace + `'"|&;()<> \t])+|"(?:\\"|[^"])*?"|'(?:\\'|[^'])*?')+`)
)

// errBadSubstitution is shell-quote's "Bad substitution" throw.
var errBadSubstitution = errors.New("bad substitution")

// sqToken is one entry of shell-quote's result.
type sqToken struct {
	text    string
	op      bool
	glob    bool
	comment bool
}

// shellQuoteParse is shell-quote's parse(s) with no environment (every
// variable is the empty string) when envDollar is false, or with the
// environment function key => "$"+key when it is set.
func shellQuoteParse(s string, envDollar bool) ([]sqToken, error) {
	matches := sqChunker.FindAllStringIndex(s, -1)
	var out []sqToken
	commented := false
	for _, m := range matches {
		chunk := s[m[0]:m[1]]
		if chunk == "" || commented {
			continue
		}
		if sqControlRE.MatchString(chunk) {
			out = append(out, sqToken{text: chunk, op: true})
			continue
		}
		toks, isComment, err := sqWord(s, m[0], chunk, envDollar)
		if err != nil {
			return nil, err
		}
		if isComment {
			commented = true
		}
		out = append(out, toks...)
	}
	return out, nil
}

// sqWord scans one chunk as shell-quote's map callback does.
func sqWord(whole string, at int, s string, envDollar bool) ([]sqToken, bool, error) {
	var quote byte
	esc := false
	var out strings.Builder
	isGlob := false
	getVar := func(key string) string {
		if envDollar {
			return "$" + key
		}
		if key != "" {
			return ""
		}
		return "$"
	}
	i := 0
	parseEnvVar := func() (string, error) {
		i++
		if i < len(s) && s[i] == '{' {
			i++
			if i < len(s) && s[i] == '}' {
				return "", errBadSubstitution
			}
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "", errBadSubstitution
			}
			name := s[i : i+end]
			i += end
			return getVar(name), nil
		}
		if i < len(s) && strings.IndexByte("*@#?$!_-", s[i]) >= 0 {
			name := s[i : i+1]
			i++
			return getVar(name), nil
		}
		rest := s[i:]
		end := strings.IndexFunc(rest, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
		})
		if end < 0 {
			i = len(s)
			return getVar(rest), nil
		}
		name := rest[:end]
		i += end - 1
		return getVar(name), nil
	}
	for i = 0; i < len(s); i++ {
		c := s[i]
		isGlob = isGlob || (quote == 0 && (c == '*' || c == '?'))
		switch {
		case esc:
			out.WriteByte(c)
			esc = false
		case quote != 0:
			switch {
			case c == quote:
				quote = 0
			case quote == '\'':
				out.WriteByte(c)
			case c == '\\':
				i++
				if i >= len(s) {
					out.WriteString("\\")
					continue
				}
				c = s[i]
				if c == '"' || c == '\\' || c == '$' {
					out.WriteByte(c)
				} else {
					out.WriteByte('\\')
					out.WriteByte(c)
				}
			case c == '$':
				v, err := parseEnvVar()
				if err != nil {
					return nil, false, err
				}
				out.WriteString(v)
			default:
				out.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote = c
		case sqControlRE.MatchString(string(c)):
			return []sqToken{{text: s, op: true}}, false, nil
		case c == '#':
			comment := sqToken{text: whole[at+i+1:], comment: true}
			if out.Len() > 0 {
				return []sqToken{{text: out.String()}, comment}, true, nil
			}
			return []sqToken{comment}, true, nil
		case c == '\\':
			esc = true
		case c == '$':
			v, err := parseEnvVar()
			if err != nil {
				return nil, false, err
			}
			out.WriteString(v)
		default:
			out.WriteByte(c)
		}
	}
	if isGlob {
		return []sqToken{{text: out.String(), glob: true}}, false, nil
	}
	return []sqToken{{text: out.String()}}, false, nil
}

// heuristicArgs is the host's shellParse(command).map(extractStringFromParseEntry).
// The words are kept by command text (byText): they are shared and only
// read.
func heuristicArgs(command string) ([]string, error) {
	r := words.get(command, func(command string) wordsOf {
		args, err := heuristicArgsOf(command)
		return wordsOf{args, err}
	})
	return r.args, r.err
}

var words byText[wordsOf]

type wordsOf struct {
	args []string
	err  error
}

func heuristicArgsOf(command string) ([]string, error) {
	toks, err := shellQuoteParse(command, false)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		if t.comment {
			continue
		}
		out[i] = t.text
	}
	return out, nil
}
