package gemini

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"
)

// The host splits a shell command with tree-sitter-bash
// (utils/shell-utils.js parseBashCommandDetails): the parts of a command
// are its syntax nodes of the kinds below, each with its source text
// trimmed, sorted by where they start. This file parses the subset of bash
// the model covers and yields the same parts:
//
//   - words with '…', "…", $'…' and \ escapes, $NAME and ${…} expansions,
//     leading NAME=value assignments;
//   - the operators &&, ||, ;, |, |&, & and newlines; ( … ) subshells and
//     { …; } groups;
//   - $( … ) and `…` substitutions, also inside double quotes;
//   - the redirections >, >>, <, >|, N>, N>>, N<, N>&M, N<&M, >&-, &> and
//     &>>; after the command's name a redirection takes every word up to the
//     next operator or redirection as its target (`ls > out -la`: the
//     command is ls, the redirection > out -la);
//   - comments.
//
// It follows tree-sitter-bash where tree-sitter differs from bash: a
// backslash before a space, tab or line end is white space between words
// (`\ ls` is ls); newlines right before a backslash go on with the command
// (`git status⏎\rm x` is one command); a backslash at the end, one
// assignment redirected with no command (`a=1 > out`), `<>` (read as < and
// an error) and a comment that hides a closing backtick are error nodes.
//
// A word whose quote or substitution is never closed ends the parse with an
// error, keeping the command read so far (tree-sitter recovers so: `echo 'x`
// yields the part `echo`). Anything else — heredocs, here-strings, process
// substitution, arithmetic, [[ ]] and [ ] tests, if/for/while/until/case,
// function definitions, a misplaced operator, and the corners where
// tree-sitter's reading is not followed (two backtick substitutions with
// only white space between them, which it joins; a first word like --x=1;
// assignments and redirections mixed with no command) — is outside the
// model: ErrShellOutsideModel, and the adapter refuses such a case.

// Part kinds, as the host names them.
const (
	partRedirectOut  = "redirection (>)"
	partRedirectIn   = "redirection (<)"
	partSubstitution = "command substitution"
	partSubshell     = "subshell"
)

// redirectionNames are the part names the host skips when it checks each
// part (REDIRECTION_NAMES).
var redirectionNames = map[string]bool{
	partRedirectIn: true, partRedirectOut: true, "heredoc (<<)": true, "herestring (<<<)": true,
	partSubstitution: true, "backtick substitution": true, "process substitution": true, partSubshell: true,
}

// Part is one part of a parsed command.
type Part struct {
	// Name is the command's name (quotes removed) or the kind of part.
	Name string
	// Text is the part's source text, trimmed.
	Text  string
	Start int
}

// Parsed is a command as the host's parser reads it.
type Parsed struct {
	Parts []Part
	// HasError: the tree has an error node (an unclosed quote), or no
	// part, or a ${…@P} transform.
	HasError bool
	// Redirected: the tree has a redirected statement or a redirection
	// node (hasRedirection).
	Redirected bool
}

// ErrShellOutsideModel marks a command whose syntax the model does not
// parse.
type ErrShellOutsideModel struct {
	Command string
	What    string
}

func (e *ErrShellOutsideModel) Error() string {
	return fmt.Sprintf("shell command %q uses %s, which the model does not parse", e.Command, e.What)
}

type shParser struct {
	src   string
	pos   int
	parts []Part
	err   bool // an unclosed quote or substitution: the parse stops
	// soft: the tree has an error node the parse reads past (a `<>`
	// operator, a lone assignment redirected with no command).
	soft   bool
	prompt bool
	// comment is one past where the last comment skipped starts (0:
	// none): inside backticks, a comment hides the closing backtick on
	// its line.
	comment int
	// escEnd: err is a backslash blank at the end.
	escEnd bool
	// inQuote: inside "…".
	inQuote bool
	// piped: the command read follows | or |&.
	piped bool
	redir bool
	// outside names syntax outside the model ("" when none).
	outside string
}

// ParseShell parses command as the host's parser does (the subset above).
// The parse depends on the text alone, and faults checks the same commands
// again under every fault, so parses are kept by text (byText): the result
// is shared and only read.
func ParseShell(command string) (*Parsed, error) {
	r := parses.get(command, func(command string) parse {
		parsed, err := parseShell(command)
		return parse{parsed, err}
	})
	return r.parsed, r.err
}

var parses byText[parse]

type parse struct {
	parsed *Parsed
	err    error
}

// byText keeps the results of a function of a command's text alone, at
// most maxKept of them, of commands of at most maxKeptText bytes: a few
// desks' worth, so that a long run of generated commands does not grow it
// without bound. The results are shared: no caller may change one.
type byText[T any] struct {
	m    sync.Map // string → T
	kept atomic.Int64
}

const (
	maxKept     = 4096
	maxKeptText = 1024
)

func (b *byText[T]) get(text string, f func(string) T) T {
	if v, ok := b.m.Load(text); ok {
		return v.(T)
	}
	r := f(text)
	if len(text) <= maxKeptText && b.kept.Add(1) <= maxKept {
		b.m.Store(text, r)
	}
	return r
}

func parseShell(command string) (*Parsed, error) {
	p := &shParser{src: command}
	p.list(0)
	if p.outside != "" {
		return nil, &ErrShellOutsideModel{Command: command, What: p.outside}
	}
	if !p.err && p.pos < len(p.src) {
		return nil, &ErrShellOutsideModel{Command: command, What: fmt.Sprintf("%q where a command ends", p.src[p.pos:p.pos+1])}
	}
	sort.SliceStable(p.parts, func(i, j int) bool { return p.parts[i].Start < p.parts[j].Start })
	return &Parsed{Parts: p.parts, HasError: p.err || p.soft || len(p.parts) == 0 || p.prompt, Redirected: p.redir}, nil
}

func (p *shParser) stop() bool { return p.err || p.outside != "" }

func (p *shParser) setOutside(what string) {
	if p.outside == "" {
		p.outside = what
	}
}

// skipBlanks skips blanks, comments and what tree-sitter-bash reads as
// blanks (not newlines): a backslash before a space, tab, vertical tab or
// form feed, and before a line end (a continuation). A backslash at the end
// of the command, or before a lone carriage return, is an error node: the
// parse stops.
func (p *shParser) skipBlanks() {
	escaped := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case isBlank(c):
			p.pos++
		case c == '\\':
			n := escapedBlank(p.src[p.pos:])
			if n == 0 {
				return
			}
			if n < 0 {
				p.err = true
				return
			}
			p.pos += n
			escaped = true
			continue
		case c == '#':
			escaped = false
			p.comment = p.pos + 1
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
	if escaped {
		// A backslash blank with nothing but blanks after it, at the end
		// of the command, is an error node (not after a group or a
		// subshell: trailingRedirects).
		p.err, p.escEnd = true, true
	}
}

// afterEscapedBlank reports whether a backslash blank, and blanks only,
// come right before p.pos (a number after it is no file descriptor to
// tree-sitter-bash).
func (p *shParser) afterEscapedBlank() bool {
	i := p.pos - 1
	for i >= 1 && isBlank(p.src[i]) && p.src[i-1] != '\\' {
		i--
	}
	if i < 1 || strings.IndexByte(" \t\v\f\n", p.src[i]) < 0 {
		return false
	}
	n := 0
	for j := i - 1; j >= 0 && p.src[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// isBlank reports whether c separates words (not a newline).
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// escapedBlank measures the backslash at the start of s as tree-sitter-bash
// reads it: the length of a backslash that is white space (before a space,
// tab, vertical tab, form feed, or a line end), 0 for a backslash that
// escapes the character after it, -1 for an error (the command ends, or a
// carriage return follows that no line feed does).
func escapedBlank(s string) int {
	if len(s) < 2 {
		return -1
	}
	switch s[1] {
	case ' ', '\t', '\v', '\f', '\n':
		return 2
	case '\r':
		if len(s) > 2 && s[2] == '\n' {
			return 3
		}
		return -1
	}
	return 0
}

// list reads commands separated by operators until the end, or until the
// closing character close (')', '}' or '`'; 0 for none). It stops before
// the closing character.
func (p *shParser) list(close byte) {
	expectCommand := true
	piped := false
	for !p.stop() {
		p.skipBlanks()
		if p.pos >= len(p.src) {
			return
		}
		c := p.src[p.pos]
		if close != 0 && c == close {
			if close == '}' && !expectCommand {
				// "}" closes a group only as a word of its own after a
				// separator; otherwise it is an argument.
				p.setOutside("a group not closed after ; or a newline")
			}
			return
		}
		switch {
		case c == '\n':
			p.pos++
			expectCommand = true
			continue
		case strings.HasPrefix(p.src[p.pos:], ";;"):
			p.setOutside("a case separator ;;")
			return
		case c == ';' || c == '&' && !strings.HasPrefix(p.src[p.pos:], "&&") && !strings.HasPrefix(p.src[p.pos:], "&>"):
			if expectCommand {
				p.setOutside(fmt.Sprintf("%q with no command before it", string(c)))
				return
			}
			p.pos++
			expectCommand = true
			continue
		case strings.HasPrefix(p.src[p.pos:], "&&") || strings.HasPrefix(p.src[p.pos:], "||"):
			if expectCommand {
				p.setOutside(fmt.Sprintf("%q with no command before it", p.src[p.pos:p.pos+2]))
				return
			}
			p.pos += 2
			p.needCommand()
			expectCommand = true
			continue
		case c == '|':
			if expectCommand {
				p.setOutside("| with no command before it")
				return
			}
			p.pos++
			if p.pos < len(p.src) && p.src[p.pos] == '&' {
				p.pos++
			}
			p.needCommand()
			expectCommand, piped = true, true
			continue
		case c == ')' || c == '}' && close == 0:
			p.setOutside(fmt.Sprintf("an unmatched %q", string(c)))
			return
		}
		if !expectCommand {
			p.setOutside("two commands with no operator between them")
			return
		}
		p.piped = piped
		p.command()
		expectCommand, piped = false, false
	}
}

// needCommand checks that an operator that needs a command after it has
// one (tree-sitter reports a missing one as an error node).
func (p *shParser) needCommand() {
	save := p.pos
	for {
		p.skipBlanks()
		if p.pos < len(p.src) && p.src[p.pos] == '\n' {
			p.pos++
			continue
		}
		break
	}
	if p.pos >= len(p.src) {
		p.setOutside("an operator with no command after it")
	}
	p.pos = save
}

var shKeywords = map[string]bool{
	"if": true, "then": true, "elif": true, "else": true, "fi": true, "for": true, "in": true, "while": true,
	"until": true, "do": true, "done": true, "case": true, "esac": true, "function": true, "select": true,
	"[[": true, "]]": true, "!": true, "coproc": true, "[": true, "((": true,
}

// command reads one command with its redirections.
func (p *shParser) command() {
	start := p.pos
	c := p.src[p.pos]
	switch {
	case strings.HasPrefix(p.src[p.pos:], "(("):
		p.setOutside("arithmetic (( ))")
		return
	case c == '(':
		idx := len(p.parts)
		p.parts = append(p.parts, Part{Name: partSubshell, Start: start})
		p.pos++
		p.list(')')
		if p.stop() {
			p.parts = p.parts[:idx]
			return
		}
		if p.pos >= len(p.src) {
			p.setOutside("an unclosed (")
			return
		}
		p.pos++
		p.parts[idx].Text = jsTrim(p.src[start:p.pos])
		p.trailingRedirects()
		return
	case c == '{' && (p.pos+1 >= len(p.src) || strings.IndexByte(" \t\n", p.src[p.pos+1]) >= 0):
		p.pos++
		p.list('}')
		if p.stop() {
			return
		}
		if p.pos >= len(p.src) {
			p.setOutside("an unclosed {")
			return
		}
		p.pos++
		p.trailingRedirects()
		return
	}
	p.simple()
}

// trailingRedirects reads the redirections after a command: they make a
// redirected statement, and every word after a redirection's operator, up
// to the next operator or redirection, is its target (tree-sitter-bash's
// file_redirect takes one or more: `git log > out.txt -p` redirects to
// `out.txt -p`).
func (p *shParser) trailingRedirects() {
	last := -1
	for !p.stop() {
		p.skipBlanks()
		if last < 0 && p.escEnd {
			p.err, p.escEnd = false, false
		}
		if p.stop() || p.pos >= len(p.src) {
			return
		}
		if p.atRedirect() {
			last = p.redirect()
			continue
		}
		c := p.src[p.pos]
		if c == '\n' && last >= 0 && p.newlineContinues() {
			p.pos++
			continue
		}
		if last < 0 || strings.IndexByte(";&|()\n", c) >= 0 {
			return
		}
		p.destination(last)
	}
}

// destination reads one more target word of redirection part idx (-1: a
// redirection whose first target never closed).
func (p *shParser) destination(idx int) {
	p.word()
	if p.err || idx < 0 {
		// An unclosed target keeps the words before it.
		return
	}
	r := &p.parts[idx]
	r.Text = jsTrim(p.src[r.Start:p.pos])
}

// newlineContinues reports whether the newlines at p.pos are directly
// followed by a backslash: tree-sitter-bash then reads them as the start of
// the next word, and the command goes on (`git status⏎\rm x` is one
// command).
func (p *shParser) newlineContinues() bool {
	i := p.pos
	for i < len(p.src) && p.src[i] == '\n' {
		i++
	}
	return i > p.pos && i < len(p.src) && p.src[i] == '\\'
}

// atRedirect reports whether a redirection starts at p.pos.
func (p *shParser) atRedirect() bool {
	i := p.pos
	for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
		i++
	}
	if i < len(p.src) && (p.src[i] == '>' || p.src[i] == '<') {
		return true
	}
	return i == p.pos && strings.HasPrefix(p.src[p.pos:], "&>")
}

// redirect reads one redirection with its first target and records its
// part; it returns the part's index, -1 when none was recorded.
func (p *shParser) redirect() int {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "<<"):
		p.setOutside("a heredoc or here-string")
		return -1
	case strings.HasPrefix(rest, "<(") || strings.HasPrefix(rest, ">("):
		p.setOutside("process substitution")
		return -1
	}
	name := partRedirectOut
	var op string
	for _, o := range []string{"&>>", "&>", ">>", ">&", ">|", "<&", "<>", ">", "<"} {
		if strings.HasPrefix(rest, o) {
			op = o
			break
		}
	}
	if strings.Contains(op, "<") {
		name = partRedirectIn
	}
	if (op == ">&" || op == "<&") && strings.HasPrefix(rest[2:], "-") {
		// A closing >&- or <&- is a redirection of its own, with at most
		// one target; the model reads it only with none.
		p.pos += 3
		after := p.pos
		p.skipBlanks()
		if p.err {
			return -1
		}
		if p.pos < len(p.src) && strings.IndexByte(";&|)\n", p.src[p.pos]) < 0 {
			p.setOutside("a word after >&- or <&-")
			return -1
		}
		p.parts = append(p.parts, Part{Name: name, Start: start, Text: jsTrim(p.src[start:after])})
		p.redir = true
		return len(p.parts) - 1
	}
	if op == "<>" && (p.pos+2 >= len(p.src) || !isBlank(p.src[p.pos+2])) {
		p.setOutside("<> before a word")
		return -1
	}
	if op == "<>" {
		// tree-sitter-bash has no <>: it reads the redirection < with an
		// error node for the >, and goes on.
		p.soft = true
	}
	p.pos += len(op)
	p.skipBlanks()
	if p.err {
		return -1
	}
	if p.pos >= len(p.src) || strings.IndexByte(";&|()<>\n", p.src[p.pos]) >= 0 {
		p.setOutside("a redirection with no target")
		return -1
	}
	idx := len(p.parts)
	p.parts = append(p.parts, Part{Name: name, Start: start})
	p.word()
	if p.err {
		// The target never closed: tree-sitter keeps no redirection.
		p.parts = append(p.parts[:idx], p.parts[idx+1:]...)
		return -1
	}
	p.parts[idx].Text = jsTrim(p.src[start:p.pos])
	p.redir = true
	return idx
}

var assignmentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=`)

// simple reads a simple command: assignments, words and redirections. A
// redirection before the command's name takes one target; the first one
// after it ends the command, and the words after it are its targets
// (trailingRedirects).
func (p *shParser) simple() {
	piped := p.piped
	start := p.pos
	idx := len(p.parts)
	p.parts = append(p.parts, Part{Start: start})
	nameSeen := false
	end := start
	name := ""
	// The words before the name, in order: 'a' an assignment, 'r' a
	// redirection.
	var prefix []byte
	for !p.stop() {
		p.skipBlanks()
		if p.stop() || p.pos >= len(p.src) {
			break
		}
		c := p.src[p.pos]
		if p.atRedirect() {
			if p.afterEscapedBlank() && c >= '0' && c <= '9' {
				p.setOutside("a numbered redirection after a backslash blank")
				return
			}
			if nameSeen {
				p.trailingRedirects()
				break
			}
			prefix = append(prefix, 'r')
			p.redirect()
			end = p.pos
			continue
		}
		if c == '\n' && p.newlineContinues() {
			p.pos++
			continue
		}
		if strings.IndexByte(";&|\n", c) >= 0 || c == ')' {
			break
		}
		if c == '(' {
			if nameSeen {
				p.setOutside("a function definition or a misplaced (")
			} else {
				p.setOutside("a misplaced (")
			}
			return
		}
		wstart := p.pos
		if !nameSeen {
			if what := oddAssignment(p.src[p.pos:]); what != "" {
				p.setOutside(what)
				return
			}
		}
		if !nameSeen && assignmentRE.MatchString(p.src[p.pos:]) {
			prefix = append(prefix, 'a')
			p.word()
			if p.err {
				break
			}
			end = p.pos
			continue
		}
		p.word()
		if p.err {
			break
		}
		w := p.src[wstart:p.pos]
		if !nameSeen {
			if shKeywords[w] {
				p.setOutside(fmt.Sprintf("the shell keyword %q", w))
				return
			}
			nameSeen = true
			name = normalizeCommandName(w)
		}
		end = p.pos
	}
	if p.outside != "" {
		return
	}
	if !nameSeen {
		// Assignments alone are no command: only what they contain
		// counts.
		p.parts = append(p.parts[:idx], p.parts[idx+1:]...)
		p.namelessPrefix(string(prefix), piped)
		return
	}
	p.parts[idx].Name = name
	p.parts[idx].Text = jsTrim(p.src[start:end])
}

// namelessPrefix judges assignments and redirections with no command
// name. Redirections alone, or two or more assignments then redirections,
// are a redirected statement; one assignment then redirections, ended by
// the end of the command, is a command whose name tree-sitter-bash reports
// missing (an error node, the parts kept); any other mix is outside the
// model (tree-sitter reads later words as targets, or recovers across the
// next operator).
func (p *shParser) namelessPrefix(prefix string, piped bool) {
	if !strings.Contains(prefix, "a") || !strings.Contains(prefix, "r") || p.err {
		return
	}
	assigns := len(prefix) - len(strings.TrimLeft(prefix, "a"))
	if assigns == 0 || strings.Trim(prefix[assigns:], "r") != "" {
		p.setOutside("assignments and redirections mixed with no command")
		return
	}
	if assigns >= 2 {
		return
	}
	if piped {
		p.setOutside("an assignment redirected with no command after a pipe")
		return
	}
	rest := p.src[p.pos:]
	if jsTrim(rest) == "" || rest[0] == ')' {
		p.soft = true
		return
	}
	p.setOutside("an assignment redirected with no command before an operator")
}

// oddAssignment names what tree-sitter-bash's scanner reads unlike bash at
// the start of a command: a word starting with '-' or with a non-ASCII
// letter before an '='. It may read it as an assignment, a command, or an
// error; the model does not guess.
func oddAssignment(s string) string {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return ""
	}
	head := s[:eq]
	if strings.ContainsAny(head, " \t\n\r\v\f;&|()<>'\"`$\\") {
		return ""
	}
	if head[0] == '-' {
		return "a first word starting with - before an ="
	}
	if head[0] >= '0' && head[0] <= '9' && strings.IndexFunc(head, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return "a first word starting with a digit before an ="
	}
	for i := 0; i < len(head); i++ {
		if head[i] >= 0x80 {
			return "a first word with a non-ASCII character before an ="
		}
	}
	return ""
}

// word reads one word, with its quotes and substitutions.
func (p *shParser) word() {
	start := p.pos
	for p.pos < len(p.src) && !p.stop() {
		c := p.src[p.pos]
		switch {
		case isBlank(c) || c == '\n' || strings.IndexByte(";&|()<>", c) >= 0:
			if p.pos == start {
				p.setOutside(fmt.Sprintf("%q where a word should be", string(c)))
			}
			return
		case c == '`':
			p.backtick()
		case c == '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.err = true
				return
			}
			p.pos += end + 2
		case c == '"':
			p.doubleQuoted()
		case c == '\\':
			// A backslash before a space goes on with the word; before
			// other white space, or at the end, it ends the word
			// (skipBlanks reads it).
			if n := escapedBlank(p.src[p.pos:]); n != 0 && !strings.HasPrefix(p.src[p.pos:], "\\ ") {
				return
			}
			p.pos += 2
		case c == '$':
			p.dollar()
		default:
			p.pos++
		}
	}
}

// doubleQuoted reads "…" with its substitutions.
func (p *shParser) doubleQuoted() {
	p.pos++
	for p.pos < len(p.src) && !p.stop() {
		switch c := p.src[p.pos]; c {
		case '"':
			p.pos++
			return
		case '\\':
			p.pos += 2
		case '`':
			p.inQuote = true
			p.backtick()
			p.inQuote = false
		case '$':
			p.dollar()
		default:
			p.pos++
		}
	}
	if !p.stop() {
		p.err = true
	}
}

// dollar reads an expansion or a substitution at p.pos ('$').
func (p *shParser) dollar() {
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "$(("):
		p.setOutside("arithmetic expansion $(( ))")
	case strings.HasPrefix(rest, "$("):
		start := p.pos
		idx := len(p.parts)
		p.parts = append(p.parts, Part{Name: partSubstitution, Start: start})
		p.pos += 2
		p.list(')')
		if p.stop() {
			if p.err {
				// Never closed: tree-sitter keeps nothing of it.
				p.parts = p.parts[:idx]
			}
			return
		}
		if p.pos >= len(p.src) {
			p.parts = p.parts[:idx]
			p.err = true
			return
		}
		p.pos++
		p.parts[idx].Text = jsTrim(p.src[start:p.pos])
	case strings.HasPrefix(rest, "$'"):
		// tree-sitter-bash's ansi_c_string, /\$'([^']|\\')*'/, is the
		// longest match: it ends at the last quote before the first one
		// that no backslash precedes.
		end := -1
		for i := 2; i < len(rest); i++ {
			if rest[i] != '\'' {
				continue
			}
			end = i
			if rest[i-1] != '\\' || i == 2 {
				break
			}
		}
		if end < 0 {
			p.err = true
			return
		}
		p.pos += end + 1
	case strings.HasPrefix(rest, "${"):
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			p.err = true
			return
		}
		body := rest[2:end]
		if strings.ContainsAny(body, "$`\"'") {
			p.setOutside("an expansion with nested quoting")
			return
		}
		if i := strings.Index(body, "@"); i >= 0 && i+1 < len(body) && (body[i+1] == 'P' || body[i+1] == 'p') {
			p.prompt = true
		}
		p.pos += end + 1
	default:
		p.pos++
	}
}

// backtick reads `…`: a substitution whose text is parsed on its own.
func (p *shParser) backtick() {
	start := p.pos
	end := -1
	for i := p.pos + 1; i < len(p.src); i++ {
		if p.src[i] == '\\' {
			i++
			continue
		}
		if p.src[i] == '`' {
			end = i
			break
		}
	}
	if end < 0 {
		p.err = true
		return
	}
	// tree-sitter-bash lexes a backtick, white space and a backtick after
	// a word as one token that joins two words: `a` `b` is one
	// substitution whose command is named a` `b. The model does not
	// follow it, nor an empty pair of backticks.
	if i := end + 1 + strings.IndexFunc(p.src[end+1:]+"x", func(r rune) bool { return !isBacktickSpace(r) }); i < len(p.src) && p.src[i] == '`' {
		p.setOutside("a backtick substitution followed by another after white space only")
		return
	}
	if strings.TrimFunc(p.src[start+1:end], isBacktickSpace) == "" {
		p.setOutside("an empty backtick substitution")
		return
	}
	idx := len(p.parts)
	p.parts = append(p.parts, Part{Name: partSubstitution, Start: start, Text: jsTrim(p.src[start : end+1])})
	inner := &shParser{src: p.src[:end], pos: start + 1}
	inner.list(0)
	if inner.outside != "" {
		p.setOutside(inner.outside)
		return
	}
	if inner.comment > 0 && !strings.Contains(p.src[inner.comment-1:end], "\n") {
		// The comment runs to the end of its line, over the closing
		// backtick: the substitution never closes. When that line is the
		// last, tree-sitter keeps the parts read and reports the missing
		// backtick; the model follows no further line.
		if strings.Contains(p.src[end:], "\n") || p.inQuote {
			p.setOutside("a comment over a closing backtick, with more after it")
			return
		}
		p.parts[idx].Text = jsTrim(p.src[start:])
		p.parts = append(p.parts, inner.parts...)
		p.redir = p.redir || inner.redir
		p.prompt = p.prompt || inner.prompt
		p.soft = true
		p.pos = len(p.src)
		return
	}
	if inner.err {
		if strings.IndexByte(p.src[end+1:], '`') >= 0 {
			// A quote holding a backtick: tree-sitter reads the
			// quote on, the model does not.
			p.setOutside("a backtick inside a quote inside backticks")
			return
		}
		p.parts = p.parts[:idx]
		p.err = true
		return
	}
	p.parts = append(p.parts, inner.parts...)
	p.redir = p.redir || inner.redir
	p.prompt = p.prompt || inner.prompt
	p.soft = p.soft || inner.soft
	p.pos = end + 1
}

// isBacktickSpace reports whether r is white space to the pattern /`\s*`/
// of tree-sitter-bash (ASCII white space).
func isBacktickSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// normalizeCommandName is the host's: outer quotes of one kind removed,
// else trimmed.
func normalizeCommandName(raw string) string {
	if len(raw) >= 2 {
		f, l := raw[0], raw[len(raw)-1]
		if f == '"' && l == '"' || f == '\'' && l == '\'' {
			return raw[1 : len(raw)-1]
		}
	}
	return jsTrim(raw)
}

// isJSSpace reports whether r is ECMAScript white space or a line
// terminator (what String.prototype.trim removes).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00a0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// utf16Len is a string's JavaScript length.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// HasRedirection is the host's hasRedirection(command): false without a
// '<' or '>' anywhere, else whether the parsed tree has a redirection.
func HasRedirection(command string, parsed *Parsed) bool {
	if !strings.ContainsAny(command, "<>") {
		return false
	}
	return parsed.Redirected
}

// asciiFold writes word as a pattern that matches it with its ASCII letters
// in either case and nothing else: JavaScript's /i without the u flag never
// folds a non-ASCII character to an ASCII one, where Go's (?i) folds ſ to s
// and K (the Kelvin sign) to k.
func asciiFold(word string) string {
	var b strings.Builder
	for _, r := range word {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteString("[" + string(r) + string(r-'a'+'A') + "]")
		case r >= 'A' && r <= 'Z':
			b.WriteString("[" + string(r-'A'+'a') + string(r) + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}

// wrapperRE is the host's wrapper pattern (stripShellWrapper), the same in
// every modelled release: \s is JavaScript's white space, /i folds ASCII
// letters only.
var wrapperRE = func() *regexp.Regexp {
	sp := `[` + jsSpace + `]`
	f := asciiFold
	return regexp.MustCompile(`^` + sp + `*(?:(?:(?:[^` + jsSpace + `]+/)?(?:` + f("sh") + `|` + f("bash") + `|` + f("zsh") + `))` + sp + `+` + f("-c") +
		`|` + f("cmd.exe") + sp + `+` + f("/c") +
		`|` + f("powershell") + `(?:` + f(".exe") + `)?` + sp + `+(?:` + f("-NoProfile") + sp + `+)?` + f("-Command") +
		`|` + f("pwsh") + `(?:` + f(".exe") + `)?` + sp + `+(?:` + f("-NoProfile") + sp + `+)?` + f("-Command") + `)` + sp + `+`)
}()

// wrapStyle is how a release's stripShellWrapper treats the script it
// finds (utils/shell-utils.js).
type wrapStyle int

const (
	// wrapQuotes (0.40.0, 0.45.0): outer quotes of one kind are removed,
	// nothing else (0.40.0 shell-utils.js:645-657, 0.45.0 :676-688).
	wrapQuotes wrapStyle = iota
	// wrapHupGuard (0.44.1): as wrapQuotes, then the guard `trap '' HUP; `
	// that the shell service prepends is peeled off the start of the
	// result, wrapped or not (shell-utils.js:15-36, 708-726).
	wrapHupGuard
	// wrapUnescape (0.50.0 on): a double-quoted script of sh/bash/zsh -c
	// is read with shell-quote, so its escapes are undone when it is one
	// word (0.50.0 shell-utils.js:676-707).
	wrapUnescape
)

// styleOf is the release's wrapStyle.
func styleOf(r Release) wrapStyle {
	switch {
	case r.Version == "0.44.1":
		return wrapHupGuard
	case versionLess(r.Version, "0.50.0"):
		return wrapQuotes
	}
	return wrapUnescape
}

// versionLess compares two dotted release numbers.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		var x, y int
		fmt.Sscan(as[i], &x)
		fmt.Sscan(bs[i], &y)
		if x != y {
			return x < y
		}
	}
	return len(as) < len(bs)
}

// StripShellWrapper is the newest release's stripShellWrapper: the script
// of `bash -c '…'` (and sh, zsh, cmd.exe /c, powershell -Command), outer
// quotes removed; the command trimmed when it is no wrapper. Answers are
// kept by text (byText).
func StripShellWrapper(command string) string {
	return stripShellWrapperAs(wrapUnescape, command)
}

// StripShellWrapperOf is release r's stripShellWrapper.
func StripShellWrapperOf(r Release, command string) string {
	return stripShellWrapperAs(styleOf(r), command)
}

func stripShellWrapperAs(style wrapStyle, command string) string {
	return scripts[style].get(command, func(command string) string { return stripShellWrapper(style, command) })
}

// scripts keeps stripShellWrapper's answers by style and command text.
var scripts [3]byText[string]

// hupGuard is the preamble 0.44.1's shell service prepends
// (BASH_HUP_GUARD).
const hupGuard = "trap '' HUP;"

func stripShellWrapper(style wrapStyle, command string) string {
	var out string
	m := wrapperRE.FindStringIndex(command)
	if m == nil {
		out = jsTrim(command)
	} else {
		out = unwrap(style, command[:m[1]], jsTrim(command[m[1]:]))
	}
	if style == wrapHupGuard {
		t := strings.TrimLeftFunc(out, isJSSpace)
		switch {
		case strings.HasPrefix(t, hupGuard+" "):
			return t[len(hupGuard)+1:]
		case t == hupGuard:
			return ""
		}
	}
	return out
}

// unwrap is the script after the wrapper head: outer quotes removed, and
// from 0.50.0 a POSIX double-quoted script unescaped.
func unwrap(style wrapStyle, head, next string) string {
	quoted := func(q byte) bool { return next != "" && next[0] == q && next[len(next)-1] == q }
	if !quoted('"') && !quoted('\'') {
		return next
	}
	if style != wrapUnescape {
		// JavaScript's substring(1, length-1): a lone quote stays itself.
		if len(next) < 2 {
			return next
		}
		return next[1 : len(next)-1]
	}
	if len(next) < 2 {
		return next
	}
	if strings.HasSuffix(jsTrim(head), "-c") && next[0] == '"' {
		toks, err := shellQuoteParse(next, true)
		if err == nil && len(toks) == 1 && !toks[0].op && !toks[0].glob && !toks[0].comment {
			return toks[0].text
		}
	}
	return next[1 : len(next)-1]
}
