package gemini

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The host's shell heuristics (sandbox/utils/commandSafety.js, through the
// no-op sandbox manager): which commands are known safe and which are
// dangerous, as each group's code says. args are the command's tokens as
// heuristicArgs gives them, for the whole command (operators included).
//
// The file system is the run's empty workspace: no file exists in it, no
// symbolic link, and the home folder lies outside it. A check that reads
// the real file system there (an absolute `rg` path into a system folder, a
// symbolic link inside the workspace) is answered for an empty workspace;
// the adapter warns about such commands (environment-dependent).

// Workspace and Home are the folders the model runs in: the workspace is
// empty and the home folder lies outside it.
const (
	Workspace = "/workspace"
	Home      = "/home/user"
)

// resolvePath is node's path.resolve(base, p) on POSIX.
func resolvePath(base, p string) string {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return path.Clean(base + "/" + p)
}

// isSubpath is the host's isSubpath(parent, child) on Linux.
func isSubpath(parent, child string) bool {
	p, c := resolvePath(Workspace, parent), resolvePath(Workspace, child)
	rel := relativePath(p, c)
	return !strings.HasPrefix(rel, "../") && rel != ".." && !strings.HasPrefix(rel, "/")
}

// relativePath is node's path.relative for two clean absolute paths.
func relativePath(from, to string) string {
	if from == to {
		return ""
	}
	fp, tp := splitPath(from), splitPath(to)
	i := 0
	for i < len(fp) && i < len(tp) && fp[i] == tp[i] {
		i++
	}
	var parts []string
	for range fp[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, tp[i:]...)
	return strings.Join(parts, "/")
}

func splitPath(p string) []string {
	if p == "/" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

// pathEscapes is the host's isPathEscapingWorkspace (G5+) for the empty
// workspace.
func pathEscapes(arg, cwd string) bool {
	if arg == "" {
		return false
	}
	if strings.ContainsAny(arg, "$`") {
		return true
	}
	var target string
	switch {
	case arg == "~" || strings.HasPrefix(arg, "~/") || strings.HasPrefix(arg, `~\`):
		target = resolvePath(Home, arg[min(2, len(arg)):])
	case strings.HasPrefix(arg, "~"):
		return true
	case strings.HasPrefix(arg, "/"):
		target = path.Clean(arg)
	default:
		target = resolvePath(cwd, arg)
	}
	return !isSubpath(Workspace, target)
}

// realPath is the host's resolveToRealPath (utils/paths.js, the same
// in every modelled release) in the sandbox's empty workspace, where node
// runs: a file:// URL made a path (node's fileURLToPath), then the whole
// decoded as decodeURIComponent decodes it (either step that throws keeps
// the path as it was before it), resolved against the workspace, and
// realpath'd — which changes nothing there, no path holding a link, but
// throws on a NUL (so does the check of the path as given): ok is false
// when the host's function throws, and the callers keep their own path.
func realPath(p string) (string, bool) {
	if strings.Contains(p, "\x00") {
		return "", false
	}
	r := p
	if strings.HasPrefix(r, "file://") {
		if f, ok := fileURLToPath(r); ok {
			r = f
			if d, ok := decodeURIComponent(r); ok {
				r = d
			}
		}
	} else if d, ok := decodeURIComponent(r); ok {
		r = d
	}
	abs := resolvePath(Workspace, r)
	if strings.Contains(abs, "\x00") {
		return "", false
	}
	return abs, true
}

// buildFileBase is the base name isBuildFile (utils/buildFileUtils.js,
// G6) tests: the path without NULs, backslashes made slashes, through
// resolveToRealPath, or only resolved where that throws.
func buildFileBase(p string) string {
	clean := strings.ReplaceAll(strings.ReplaceAll(p, "\x00", ""), `\`, "/")
	resolved, ok := realPath(clean)
	if !ok {
		resolved = resolvePath(Workspace, clean)
	}
	return path.Base(resolved)
}

// decodeURIComponent is JavaScript's: every %XX decoded, a multi-byte
// sequence only as one well-formed UTF-8 character; ok is false where
// JavaScript throws URIError (a % without two hex digits, a byte that
// starts no character, a sequence cut short, overlong, a surrogate or past
// U+10FFFF).
func decodeURIComponent(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		first, ok := hexByte(s, i)
		if !ok {
			return "", false
		}
		i += 3
		if first < 0x80 {
			b.WriteByte(first)
			continue
		}
		n := 0
		for m := byte(0x80); first&m != 0; m >>= 1 {
			n++
		}
		if n == 1 || n > 4 {
			return "", false
		}
		octets := []byte{first}
		for k := 1; k < n; k++ {
			if i >= len(s) || s[i] != '%' {
				return "", false
			}
			o, ok := hexByte(s, i)
			if !ok || o&0xC0 != 0x80 {
				return "", false
			}
			octets = append(octets, o)
			i += 3
		}
		if !utf8.Valid(octets) {
			return "", false
		}
		b.Write(octets)
	}
	return b.String(), true
}

// hexByte reads the byte written %XX at s[i].
func hexByte(s string, i int) (byte, bool) {
	if i+2 >= len(s) || !jsontext.IsHex(s[i+1]) || !jsontext.IsHex(s[i+2]) {
		return 0, false
	}
	v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
	return byte(v), true
}

// fileURLToPath is node's url.fileURLToPath on POSIX for a string that
// starts with file://, as node parses the URL (WHATWG): tabs and newlines
// dropped, trailing controls and spaces too; the host must be empty or
// localhost (a Windows drive letter in its place starts the path); the
// path ends at ? or #, its backslashes are slashes, its . and .. segments
// (%2e included) resolved; a path with an encoded slash is refused; then
// it is decoded by decodeURIComponent. ok is false where node throws. A
// host that is not ASCII is taken as another host (node would map it
// through IDNA first).
func fileURLToPath(u string) (string, bool) {
	u = strings.TrimRightFunc(u, func(r rune) bool { return r <= 0x20 })
	u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	rest, ok := strings.CutPrefix(u, "file://")
	if !ok {
		return "", false
	}
	end := strings.IndexAny(rest, `/\?#`)
	if end < 0 {
		end = len(rest)
	}
	host := rest[:end]
	if windowsDriveLetter(host) {
		end = 0
	} else if host != "" {
		h, ok := decodeURIComponent(host)
		if !ok || !strings.EqualFold(h, "localhost") {
			return "", false
		}
	}
	p := rest[end:]
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	var segs []string
	if p != "" {
		raw := strings.Split(strings.ReplaceAll(p, `\`, "/"), "/")
		if raw[0] == "" {
			raw = raw[1:]
		}
		for i, seg := range raw {
			last := i == len(raw)-1
			switch strings.ToLower(seg) {
			case "..", ".%2e", "%2e.", "%2e%2e":
				if len(segs) > 0 && !(len(segs) == 1 && windowsDriveLetter(segs[0]) && segs[0][1] == ':') {
					segs = segs[:len(segs)-1]
				}
				if last {
					segs = append(segs, "")
				}
			case ".", "%2e":
				if last {
					segs = append(segs, "")
				}
			default:
				if len(segs) == 0 && windowsDriveLetter(seg) {
					seg = seg[:1] + ":"
				}
				segs = append(segs, seg)
			}
		}
	}
	pathname := "/" + strings.Join(segs, "/")
	if strings.Contains(strings.ToLower(pathname), "%2f") {
		return "", false
	}
	return decodeURIComponent(pathname)
}

// windowsDriveLetter: an ASCII letter and a colon or a bar.
func windowsDriveLetter(s string) bool {
	return len(s) == 2 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') && (s[1] == ':' || s[1] == '|')
}

// jsLowerCase is JavaScript's String.prototype.toLowerCase, which is not
// Go's strings.ToLower: U+0130 (İ) becomes two characters, i and a
// combining dot above (Go: i alone), and a capital sigma that ends a word
// becomes the final sigma ς (Go: σ always). Every other character maps
// as Unicode's simple lowercase does in both; bytes that are not UTF-8
// are kept.
func jsLowerCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteByte(s[i])
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3A3:
			if finalSigma(s[:i], s[i+n:]) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += n
	}
	return b.String()
}

// finalSigma is Unicode's Final_Sigma condition as ICU tests it: after
// skipping case-ignorable characters, a cased letter comes before and
// none after.
func finalSigma(before, after string) bool {
	casedBefore := false
	for len(before) > 0 {
		r, n := utf8.DecodeLastRuneInString(before)
		before = before[:len(before)-n]
		if caseIgnorable(r) {
			continue
		}
		casedBefore = cased(r)
		break
	}
	if !casedBefore {
		return false
	}
	for len(after) > 0 {
		r, n := utf8.DecodeRuneInString(after)
		after = after[n:]
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

func cased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

var safeCommands = map[string]bool{
	"__read": true, "__write": true, "cat": true, "cd": true, "cut": true, "echo": true, "expr": true, "false": true,
	"grep": true, "head": true, "id": true, "ls": true, "nl": true, "paste": true, "pwd": true, "rev": true, "seq": true,
	"stat": true, "tail": true, "tr": true, "true": true, "uname": true, "uniq": true, "wc": true, "which": true,
	"whoami": true, "numfmt": true, "tac": true,
}

var fileReadingCommands = map[string]bool{
	"cat": true, "head": true, "tail": true, "tac": true, "nl": true, "stat": true, "wc": true, "cut": true,
	"paste": true, "rev": true, "uniq": true, "numfmt": true, "ls": true, "__read": true,
}

var findUnsafe = map[string]bool{
	"-exec": true, "-execdir": true, "-ok": true, "-okdir": true, "-delete": true, "-fls": true, "-fprint": true,
	"-fprint0": true, "-fprintf": true,
}

// isRipgrep: G1 compares the word with "rg"; later groups its base name.
func (g Group) isRipgrep(cmd string) bool {
	if g == G1 {
		return cmd == "rg"
	}
	b := path.Base(cmd)
	return b == "rg" || b == "rg.exe"
}

// knownSafe is isKnownSafeCommand(args, cwd, workspace).
func (g Group) knownSafe(args []string, cwd string) bool {
	if len(args) == 0 {
		return false
	}
	norm := make([]string, len(args))
	for i, a := range args {
		if a == "zsh" {
			a = "bash"
		}
		norm[i] = a
	}
	if g.safeToCall(norm, cwd) {
		return true
	}
	if len(norm) == 3 && norm[0] == "bash" && (norm[1] == "-lc" || norm[1] == "-c") {
		script := norm[2]
		if strings.ContainsAny(script, "()<>") {
			return false
		}
		cmds := splitCommands(script)
		if len(cmds) == 0 {
			return false
		}
		for _, c := range cmds {
			t := jsTrim(c)
			if t == "" {
				continue
			}
			parsed, err := heuristicArgs(t)
			if err != nil {
				return false
			}
			if len(parsed) == 0 {
				continue
			}
			if !g.safeToCall(parsed, cwd) {
				return false
			}
		}
		return true
	}
	return false
}

// splitCommands is the host's splitCommands: the text of every part that
// is not a redirection, substitution or subshell; nothing when the parse
// fails. A script outside the model's subset splits into nothing.
func splitCommands(command string) []string {
	parsed, err := ParseShell(command)
	if err != nil || parsed.HasError {
		return nil
	}
	var out []string
	for _, d := range parsed.Parts {
		if !redirectionNames[d.Name] && d.Text != "" {
			out = append(out, d.Text)
		}
	}
	return out
}

var digitsRE = regexp.MustCompile(`^[0-9]+$`)

func validSedN(arg string) bool {
	core, ok := strings.CutSuffix(arg, "p")
	if !ok {
		return false
	}
	parts := strings.Split(core, ",")
	switch len(parts) {
	case 1:
		return digitsRE.MatchString(parts[0])
	case 2:
		return digitsRE.MatchString(parts[0]) && digitsRE.MatchString(parts[1])
	}
	return false
}

// safeToCall is isSafeToCallWithExec. From G5 the file arguments of the
// readers must stay in the workspace, and the working folder is taken
// through resolveToRealPath first: percent-decoded (a dir_path of %2E%2E
// is the workspace's parent there, though not to the engine's own check
// of the working folder).
func (g Group) safeToCall(args []string, cwd string) bool {
	if len(args) == 0 {
		return false
	}
	paths := g >= G5
	if paths {
		if real, ok := realPath(cwd); ok {
			cwd = real
		}
	}
	if paths && !isSubpath(Workspace, cwd) {
		return false
	}
	cmd := args[0]
	escapes := func(a string) bool { return paths && pathEscapes(a, cwd) }
	if safeCommands[cmd] {
		if !paths {
			return true
		}
		switch {
		case cmd == "cd":
			hasPath := false
			for _, a := range args[1:] {
				if strings.HasPrefix(a, "-") {
					continue
				}
				hasPath = true
				if escapes(a) {
					return false
				}
			}
			return hasPath || !escapes("~")
		case fileReadingCommands[cmd]:
			return !g.readerEscapes(args, cwd, false)
		case cmd == "grep":
			return !g.readerEscapes(args, cwd, true)
		}
		return true
	}
	switch {
	case cmd == "base64":
		for _, a := range args[1:] {
			if a == "-o" || a == "--output" || strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-o") && a != "-o" {
				return false
			}
		}
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") && escapes(a) {
				return false
			}
		}
		return true
	case cmd == "find":
		for _, a := range args {
			if findUnsafe[a] {
				return false
			}
		}
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") && escapes(a) {
				return false
			}
		}
		return true
	case g.isRipgrep(cmd):
		// G1 trusts the bare word; later groups only an absolute path into
		// a trusted system folder, which the empty workspace never has.
		if g != G1 {
			return false
		}
		for _, a := range args[1:] {
			if a == "--search-zip" || a == "-z" || a == "--pre" || strings.HasPrefix(a, "--pre=") || a == "--hostname-bin" || strings.HasPrefix(a, "--hostname-bin=") {
				return false
			}
		}
		return true
	case cmd == "git":
		if gitConfigOverride(args) {
			return false
		}
		idx, sub := findGitSubcommand(args)
		if sub == "" {
			return false
		}
		rest := args[idx+1:]
		if sub == "branch" {
			return gitReadOnlyArgs(rest) && gitBranchReadOnly(rest)
		}
		return gitReadOnlyArgs(rest)
	case cmd == "sed":
		if len(args) <= 4 && len(args) > 2 && args[1] == "-n" && validSedN(args[2]) {
			if len(args) == 4 && args[3] != "" && escapes(args[3]) {
				return false
			}
			return true
		}
		return false
	}
	return false
}

// readerEscapes reports whether a file reader's (or grep's) argument
// escapes the workspace. An option that names no existing file is skipped;
// in the empty workspace none does.
func (g Group) readerEscapes(args []string, cwd string, grep bool) bool {
	doubleDash := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !doubleDash {
			if a == "--" {
				doubleDash = true
				continue
			}
			if a == "-" {
				continue
			}
			if grep && (strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "--file")) {
				var file string
				switch {
				case strings.HasPrefix(a, "--file="):
					file = a[7:]
				case a == "--file":
					i++
					if i < len(args) {
						file = args[i]
					}
				case len(a) > 2:
					file = a[2:]
				default:
					i++
					if i < len(args) {
						file = args[i]
					}
				}
				if file != "" && pathEscapes(file, cwd) {
					return true
				}
				continue
			}
			if strings.HasPrefix(a, "-") {
				if j := strings.IndexByte(a, '='); j >= 0 {
					if pathEscapes(a[j+1:], cwd) {
						return true
					}
				}
				continue
			}
		}
		if pathEscapes(a, cwd) {
			return true
		}
	}
	return false
}

func gitConfigOverride(args []string) bool {
	for _, a := range args {
		if a == "-c" || a == "--config-env" || strings.HasPrefix(a, "-c") && len(a) > 2 || strings.HasPrefix(a, "--config-env=") {
			return true
		}
	}
	return false
}

var gitSubcommands = map[string]bool{"status": true, "log": true, "diff": true, "show": true, "branch": true}

func findGitSubcommand(args []string) (int, string) {
	skip := false
	for i := 1; i < len(args); i++ {
		if skip {
			skip = false
			continue
		}
		a := args[i]
		for _, p := range []string{"--config-env=", "--exec-path=", "--git-dir=", "--namespace=", "--super-prefix=", "--work-tree="} {
			if strings.HasPrefix(a, p) {
				goto next
			}
		}
		if (strings.HasPrefix(a, "-C") || strings.HasPrefix(a, "-c")) && len(a) > 2 {
			continue
		}
		switch a {
		case "-C", "-c", "--config-env", "--exec-path", "--git-dir", "--namespace", "--super-prefix", "--work-tree":
			skip = true
			continue
		}
		if a == "--" || strings.HasPrefix(a, "-") {
			continue
		}
		if gitSubcommands[a] {
			return i, a
		}
		return -1, ""
	next:
	}
	return -1, ""
}

func gitReadOnlyArgs(args []string) bool {
	for _, a := range args {
		switch a {
		case "--output", "--ext-diff", "--textconv", "--exec", "--paginate":
			return false
		}
		if strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--exec=") {
			return false
		}
	}
	return true
}

func gitBranchReadOnly(args []string) bool {
	if len(args) == 0 {
		return true
	}
	saw := false
	for _, a := range args {
		switch {
		case a == "--list" || a == "-l" || a == "--show-current" || a == "-a" || a == "--all" || a == "-r" ||
			a == "--remotes" || a == "-v" || a == "-vv" || a == "--verbose" || strings.HasPrefix(a, "--format="):
			saw = true
		default:
			return false
		}
	}
	return saw
}

// dangerous is isDangerousCommand(args).
func (g Group) dangerous(args []string) bool {
	if len(args) == 0 {
		return false
	}
	cmd := args[0]
	if g >= G5 && cmd == "ln" {
		for _, a := range args {
			if a == "-s" || a == "--symbolic" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s") {
				return true
			}
		}
	}
	switch {
	case cmd == "rm":
		return len(args) > 1 && (args[1] == "-f" || args[1] == "-rf" || args[1] == "-fr")
	case cmd == "sudo":
		return g.dangerous(args[1:])
	case cmd == "find":
		for _, a := range args {
			if findUnsafe[a] {
				return true
			}
		}
		return false
	case g.isRipgrep(cmd):
		for _, a := range args {
			if a == "--search-zip" || a == "-z" || a == "--pre" || strings.HasPrefix(a, "--pre=") || a == "--hostname-bin" || strings.HasPrefix(a, "--hostname-bin=") {
				return true
			}
		}
		return false
	case cmd == "git":
		if gitConfigOverride(args) {
			return true
		}
		idx, sub := findGitSubcommand(args)
		if sub == "" {
			return false
		}
		rest := args[idx+1:]
		if sub == "branch" {
			return !(gitReadOnlyArgs(rest) && gitBranchReadOnly(rest))
		}
		return !gitReadOnlyArgs(rest)
	case cmd == "base64":
		for _, a := range args[1:] {
			if a == "-o" || a == "--output" || strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-o") && a != "-o" {
				return true
			}
		}
	}
	return false
}

// containsGit is the engine's containsGitCommand (G4+), lowercasing as
// JavaScript does (GİT is no git there).
func containsGit(args []string) bool {
	preds := map[string]bool{"sudo": true, "env": true, "time": true, "&&": true, "||": true, ";": true, "|": true, "&": true, "(": true, `\n`: true}
	assign := regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*=`)
	for i, a := range args {
		t := jsTrim(a)
		if t == "" {
			continue
		}
		b := jsLowerCase(path.Base(t))
		if b != "git" && b != "git.exe" {
			continue
		}
		j := i - 1
		for j >= 0 && assign.MatchString(args[j]) {
			j--
		}
		if j >= 0 && !preds[jsLowerCase(args[j])] {
			continue
		}
		return true
	}
	return false
}
