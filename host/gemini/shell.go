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
//   - words with '…', "…" and \ escapes, $NAME and ${…} expansions, leading
//     NAME=value assignments;
//   - the operators &&, ||, ;, |, |&, & and newlines; ( … ) subshells and
//     { …; } groups;
//   - $( … ) and `…` substitutions, also inside double quotes;
//   - the redirections >, >>, <, >|, N>, N>>, N<, N>&M, N<&M, &> and &>>;
//   - comments.
//
// A word whose quote or substitution is never closed ends the parse with an
// error, keeping the command read so far (tree-sitter recovers so: `echo 'x`
// yields the part `echo`). Anything else — heredocs, here-strings, process
// substitution, arithmetic, [[ ]] and [ ] tests, if/for/while/until/case,
// function definitions, a misplaced operator — is outside the model:
// ErrShellOutsideModel, and the adapter refuses such a case.

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
	src    string
	pos    int
	parts  []Part
	err    bool // an unclosed quote or substitution: the parse stops
	prompt bool
	redir  bool
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
	return &Parsed{Parts: p.parts, HasError: p.err || len(p.parts) == 0 || p.prompt, Redirected: p.redir}, nil
}

func (p *shParser) stop() bool { return p.err || p.outside != "" }

func (p *shParser) setOutside(what string) {
	if p.outside == "" {
		p.outside = what
	}
}

// skipBlanks skips spaces, tabs, line continuations and comments (not
// newlines).
func (p *shParser) skipBlanks() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos += 2
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// list reads commands separated by operators until the end, or until the
// closing character close (')', '}' or '`'; 0 for none). It stops before
// the closing character.
func (p *shParser) list(close byte) {
	expectCommand := true
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
			expectCommand = true
			continue
		case c == ')' || c == '}' && close == 0:
			p.setOutside(fmt.Sprintf("an unmatched %q", string(c)))
			return
		}
		if !expectCommand {
			p.setOutside("two commands with no operator between them")
			return
		}
		p.command()
		expectCommand = false
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
// redirected statement.
func (p *shParser) trailingRedirects() {
	for !p.stop() {
		p.skipBlanks()
		if !p.atRedirect() {
			return
		}
		p.redir = true
		p.redirect()
	}
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

// redirect reads one redirection and records its part.
func (p *shParser) redirect() {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "<<"):
		p.setOutside("a heredoc or here-string")
		return
	case strings.HasPrefix(rest, "<(") || strings.HasPrefix(rest, ">("):
		p.setOutside("process substitution")
		return
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
	p.pos += len(op)
	p.skipBlanks()
	if p.pos >= len(p.src) || strings.IndexByte(";&|()<>\n", p.src[p.pos]) >= 0 {
		p.setOutside("a redirection with no target")
		return
	}
	idx := len(p.parts)
	p.parts = append(p.parts, Part{Name: name, Start: start})
	p.word()
	if p.err {
		// The target never closed: tree-sitter keeps no redirection.
		p.parts = append(p.parts[:idx], p.parts[idx+1:]...)
		return
	}
	p.parts[idx].Text = jsTrim(p.src[start:p.pos])
}

var assignmentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=`)

// simple reads a simple command: assignments, words and redirections.
func (p *shParser) simple() {
	start := p.pos
	idx := len(p.parts)
	p.parts = append(p.parts, Part{Start: start})
	nameSeen := false
	end := start
	name := ""
	for !p.stop() {
		p.skipBlanks()
		if p.pos >= len(p.src) {
			break
		}
		c := p.src[p.pos]
		if p.atRedirect() {
			p.redir = true
			p.redirect()
			if !nameSeen {
				end = p.pos
			}
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
		if !nameSeen && assignmentRE.MatchString(p.src[p.pos:]) {
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
		return
	}
	p.parts[idx].Name = name
	p.parts[idx].Text = jsTrim(p.src[start:end])
	// Redirections after the last word belong to a redirected statement
	// around the command: the command's text stops before them.
	p.trimTrailingRedirects(idx)
}

// trimTrailingRedirects ends command idx's text before the redirections
// that follow its last word.
func (p *shParser) trimTrailingRedirects(idx int) {
	cmd := &p.parts[idx]
	cmdEnd := cmd.Start + len(cmd.Text)
	lastWordEnd := cmd.Start
	// The redirection parts recorded inside the command, in order.
	var inside []Part
	for _, q := range p.parts[idx+1:] {
		if q.Start < cmdEnd && (q.Name == partRedirectIn || q.Name == partRedirectOut) {
			inside = append(inside, q)
		}
	}
	if len(inside) == 0 {
		return
	}
	// Walk the words: the text between redirections.
	pos := cmd.Start
	for _, r := range inside {
		if seg := strings.TrimSpace(p.src[pos:r.Start]); seg != "" {
			lastWordEnd = pos + strings.Index(p.src[pos:r.Start], seg) + len(seg)
		}
		pos = r.Start + len(r.Text)
	}
	if seg := strings.TrimSpace(p.src[pos:cmdEnd]); seg != "" {
		return // a word after the last redirection: all inside the command
	}
	cmd.Text = jsTrim(p.src[cmd.Start:lastWordEnd])
}

// word reads one word, with its quotes and substitutions.
func (p *shParser) word() {
	start := p.pos
	for p.pos < len(p.src) && !p.stop() {
		c := p.src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte(";&|()<>", c) >= 0:
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
			p.pos += 2
			if p.pos > len(p.src) {
				p.pos = len(p.src)
			}
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
			p.backtick()
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
			return
		}
		if p.pos >= len(p.src) {
			p.parts = p.parts[:idx]
			p.err = true
			return
		}
		p.pos++
		p.parts[idx].Text = jsTrim(p.src[start:p.pos])
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
	idx := len(p.parts)
	p.parts = append(p.parts, Part{Name: partSubstitution, Start: start, Text: jsTrim(p.src[start : end+1])})
	inner := &shParser{src: p.src[:end], pos: start + 1}
	inner.list(0)
	if inner.outside != "" {
		p.setOutside(inner.outside)
		return
	}
	if inner.err {
		p.parts = p.parts[:idx]
		p.err = true
		return
	}
	p.parts = append(p.parts, inner.parts...)
	p.redir = p.redir || inner.redir
	p.prompt = p.prompt || inner.prompt
	p.pos = end + 1
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

var wrapperRE = regexp.MustCompile(`(?i)^[` + jsSpace + `]*(?:(?:(?:[^` + jsSpace + `]+/)?(?:sh|bash|zsh))[` + jsSpace + `]+-c|cmd\.exe[` + jsSpace + `]+/c|powershell(?:\.exe)?[` + jsSpace + `]+(?:-NoProfile[` + jsSpace + `]+)?-Command|pwsh(?:\.exe)?[` + jsSpace + `]+(?:-NoProfile[` + jsSpace + `]+)?-Command)[` + jsSpace + `]+`)

// StripShellWrapper is the host's stripShellWrapper: the script of
// `bash -c '…'` (and sh, zsh, cmd.exe /c, powershell -Command), outer
// quotes removed; the command trimmed when it is no wrapper. Answers are
// kept by text (byText).
func StripShellWrapper(command string) string {
	return scripts.get(command, stripShellWrapper)
}

// scripts keeps StripShellWrapper's answers by command text.
var scripts byText[string]

func stripShellWrapper(command string) string {
	m := wrapperRE.FindStringIndex(command)
	if m == nil {
		return jsTrim(command)
	}
	head := command[:m[1]]
	next := jsTrim(command[m[1]:])
	if len(next) >= 2 && (next[0] == '"' && next[len(next)-1] == '"' || next[0] == '\'' && next[len(next)-1] == '\'') {
		posix := strings.HasSuffix(jsTrim(head), "-c")
		if posix && next[0] == '"' {
			toks, err := shellQuoteParse(next, true)
			if err == nil && len(toks) == 1 && !toks[0].op && !toks[0].glob && !toks[0].comment {
				return toks[0].text
			}
			return next[1 : len(next)-1]
		}
		return next[1 : len(next)-1]
	}
	return next
}
