package omp

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// This file holds the shell-text scanners the bash tool's approval
// declaration leans on: shell-control detection for allow rules, the
// segment splitter for deny and prompt rules, and the flat `&&` chain
// parser of compound commands. They only read the command as text: nothing
// here parses a command in order to run it, and nothing runs one.

// jsSpaceClass is the set JavaScript's \s matches (with or without the u
// flag): ECMAScript WhiteSpace and LineTerminator, see isJSSpace.
const jsSpaceClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// jsDot is what JavaScript's `.` matches without the s flag: anything but a
// line terminator.
const jsDot = `[^\n\r\x{2028}\x{2029}]`

// normalizeBashPattern trims text as ECMAScript trims and turns every run
// of ECMAScript whitespace into one space: how the host compares commands
// with pattern rules, and how it stores a rule's match.
// Bytes that do not decode (a lone surrogate in its WTF-8 form) are kept
// as they are.
func normalizeBashPattern(s string) string {
	s = JSTrim(s)
	var b strings.Builder
	space := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isJSSpace(r) {
			space = true
			i += n
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// lineTerminator reports whether s holds a character JavaScript's `.`
// does not match: LF, CR, U+2028 or U+2029.
func lineTerminator(s string) bool {
	return strings.ContainsAny(s, "\n\r\u2028\u2029")
}

// globMatch matches text against a normalised pattern whose `*` stands for
// any run of characters other than line terminators (the host's `.*`) and
// whose other characters are literal, anchored at both ends. A normalised
// pattern holds no line terminator (they are whitespace), so a text that
// holds one never matches. It compares bytes, so text that is not well
// formed compares as written.
func globMatch(parts []string, text string) bool {
	if lineTerminator(text) {
		return false
	}
	if len(parts) == 1 {
		return text == parts[0]
	}
	first, last := parts[0], parts[len(parts)-1]
	if len(text) < len(first)+len(last) || !strings.HasPrefix(text, first) || !strings.HasSuffix(text, last) {
		return false
	}
	mid := text[len(first) : len(text)-len(last)]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(mid, p)
		if i < 0 {
			return false
		}
		mid = mid[i+len(p):]
	}
	return true
}

// bashShellControl is the set of characters the host treats as shell
// control when it decides whether an allow rule may vouch for a command.
func bashShellControl(r rune) bool {
	switch r {
	case '\n', '\r', ';', '&', '|', '<', '>', '`', '$', '(', ')':
		return true
	}
	return false
}

// reinterpretedArgument matches an option word that makes a program read an
// argument as code: any single-dash word holding a c or an e (`-c`, `-e`,
// and also `-name`, `-exec`), or --command / --eval. Case-sensitive, as
// the host's pattern is.
var reinterpretedArgument = regexp.MustCompile(`(?:^|[ \t])(?:-[^-]*[ce]|--(?:command|eval))(?:[= \t]|$)`)

// HasBashShellControl reports whether command holds shell control that
// keeps an allow rule from applying: an unquoted control character, a
// backquote or $ inside double quotes, or a quoted or escaped control
// character when an option word that reinterprets arguments is present.
func HasBashShellControl(command string) bool {
	var quote rune
	reinterpretable := false
	for i := 0; i < len(command); {
		r, n := utf8.DecodeRuneInString(command[i:])
		i += n
		if quote == '\'' {
			if r == '\'' {
				quote = 0
			} else if bashShellControl(r) {
				reinterpretable = true
			}
			continue
		}
		if r == '\\' {
			if i < len(command) {
				next, m := utf8.DecodeRuneInString(command[i:])
				if bashShellControl(next) {
					reinterpretable = true
				}
				i += m
			}
			continue
		}
		if quote == '"' {
			if r == '"' {
				quote = 0
				continue
			}
			if r == '`' || r == '$' {
				return true
			}
			if bashShellControl(r) {
				reinterpretable = true
			}
			continue
		}
		if r == '\'' || r == '"' {
			quote = r
			continue
		}
		if bashShellControl(r) {
			return true
		}
	}
	return reinterpretable && reinterpretedArgument.MatchString(command)
}

// BashSegments splits command into its command segments the way the host's
// shell tokenizer does (quotes removed, words joined by one space): `;`,
// `&`, `|`, `(`, `)` and newlines end a segment. It is a text scanner, not a
// shell: heredocs and substitutions are not understood.
func BashSegments(command string) []string {
	var segments []string
	var current []string
	var buf strings.Builder
	inSingle, inDouble := false, false
	pushBuf := func() {
		if buf.Len() > 0 {
			current = append(current, buf.String())
			buf.Reset()
		}
	}
	pushSegment := func() {
		pushBuf()
		if len(current) > 0 {
			segments = append(segments, strings.Join(current, " "))
		}
		current = nil
	}
	for i := 0; i < len(command); {
		r, n := utf8.DecodeRuneInString(command[i:])
		raw := command[i : i+n]
		i += n
		if inSingle {
			if r == '\'' {
				inSingle = false
				continue
			}
			buf.WriteString(raw)
			continue
		}
		if inDouble {
			if r == '\\' && i < len(command) {
				next := command[i]
				if next == '"' || next == '\\' || next == '$' || next == '`' {
					buf.WriteByte(next)
					i++
					continue
				}
			}
			if r == '"' {
				inDouble = false
				continue
			}
			buf.WriteString(raw)
			continue
		}
		switch {
		case r == '\'':
			inSingle = true
		case r == '"':
			inDouble = true
		case r == '\\' && i < len(command):
			_, m := utf8.DecodeRuneInString(command[i:])
			buf.WriteString(command[i : i+m])
			i += m
		case r == ' ' || r == '\t':
			pushBuf()
		case r == '\n' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')':
			pushSegment()
		default:
			buf.WriteString(raw)
		}
	}
	pushSegment()
	return segments
}

// ChainSegment is one command of a flat literal `&&` chain.
type ChainSegment struct {
	// Text is the segment as written (quotes kept), trimmed.
	Text string
	// Argv is the segment's words with quotes removed.
	Argv []string
}

// shellStateful are the command names that change the shell's own state or
// need interpretation beyond quote removal: a chain holding one is no
// literal chain.
var shellStateful = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`! . test [ [[ - autoload bindkey bye chdir disable emulate functions limit
		print rehash sched setopt unfunction unhash unlimit unsetopt vared zle zmodload zparseopts zstyle
		alias bg break builtin case cd command coproc continue declare dirs disown do done elif else enable
		esac eval exec exit export fc fg fi for function getopts hash history if in jobs let logout mapfile
		local popd printf pushd readonly read readarray return select set shift shopt source suspend then
		time times trap typeset ulimit umask unalias unset until wait while`) {
		shellStateful[w] = true
	}
	for _, w := range strings.Fields(`ash bash busybox csh dash env nocorrect noglob fish ksh sh sudo tcsh zsh`) {
		shellInterpreter[w] = true
	}
}

// shellInterpreter are the programs that run their arguments as shell code.
var shellInterpreter = map[string]bool{}

var (
	shellAssignment      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+?=`)
	shellReinterpretWord = regexp.MustCompile(`^(?:-[^-]*[ce]|--(?:command|eval)(?:=` + jsDot + `*)?)$`)
)

// LiteralAndChain parses command as two or more literal commands joined
// only by `&&`, as the host's compound-command parser does; nil when the
// command is anything else (expansion, globbing, redirection, comments,
// assignments, control flow, shell interpreters, commands that change the
// shell, a control character, an open quote, a single command).
func LiteralAndChain(command string) []ChainSegment {
	for i := 0; i < len(command); i++ {
		if c := command[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return nil
		}
	}
	var segments []ChainSegment
	var argv []string
	var token strings.Builder
	started := false
	var quote byte
	start := 0
	pushToken := func() {
		if !started {
			return
		}
		argv = append(argv, token.String())
		token.Reset()
		started = false
	}
	pushSegment := func(end int) bool {
		pushToken()
		if len(argv) == 0 || argv[0] == "" {
			return false
		}
		exe := argv[0]
		name := exe[max(strings.LastIndexByte(exe, '/'), strings.LastIndexByte(exe, '\\'))+1:]
		for k, a := range argv {
			if shellAssignment.MatchString(a) || (k > 0 && shellReinterpretWord.MatchString(a)) {
				return false
			}
		}
		if shellStateful[name] || shellInterpreter[name] {
			return false
		}
		segments = append(segments, ChainSegment{Text: JSTrim(command[start:end]), Argv: argv})
		argv = nil
		return true
	}
	for i := 0; i < len(command); i++ {
		c := command[i]
		if quote == '\'' {
			if c == '\'' {
				quote = 0
			} else {
				token.WriteByte(c)
			}
			continue
		}
		if quote == '"' {
			switch c {
			case '"':
				quote = 0
			case '$', '`', '\n', '\r':
				return nil
			case '\\':
				if i+1 >= len(command) || command[i+1] == '\n' || command[i+1] == '\r' {
					return nil
				}
				if next := command[i+1]; next == '"' || next == '\\' || next == '$' || next == '`' {
					token.WriteByte(next)
					i++
				} else {
					token.WriteByte(c)
				}
			default:
				token.WriteByte(c)
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = c
			started = true
			continue
		case '\\':
			if i+1 >= len(command) || command[i+1] == '\n' || command[i+1] == '\r' {
				return nil
			}
			// The escaped character is one UTF-16 unit in the host; a
			// multi-byte rune is copied whole, which reads the same.
			_, m := utf8.DecodeRuneInString(command[i+1:])
			token.WriteString(command[i+1 : i+1+m])
			started = true
			i += m
			continue
		case ' ', '\t':
			pushToken()
			continue
		}
		if c == '&' && i+1 < len(command) && command[i+1] == '&' {
			if !pushSegment(i) {
				return nil
			}
			i++
			start = i + 1
			continue
		}
		switch c {
		case '\n', '\r', '&', '|', ';', '<', '>', '`', '$', '(', ')', '*', '?', '[', ']', '{', '}', '~':
			return nil
		case '#':
			if !started {
				return nil
			}
		}
		token.WriteByte(c)
		started = true
	}
	if quote != 0 || !pushSegment(len(command)) || len(segments) < 2 {
		return nil
	}
	return segments
}
