package gemini

import (
	"path"
	"regexp"
	"strings"
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
// readers must stay in the workspace.
func (g Group) safeToCall(args []string, cwd string) bool {
	if len(args) == 0 {
		return false
	}
	paths := g >= G5
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

// containsGit is the engine's containsGitCommand (G4+).
func containsGit(args []string) bool {
	preds := map[string]bool{"sudo": true, "env": true, "time": true, "&&": true, "||": true, ";": true, "|": true, "&": true, "(": true, `\n`: true}
	assign := regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*=`)
	for i, a := range args {
		t := jsTrim(a)
		if t == "" {
			continue
		}
		b := strings.ToLower(path.Base(t))
		if b != "git" && b != "git.exe" {
			continue
		}
		j := i - 1
		for j >= 0 && assign.MatchString(args[j]) {
			j--
		}
		if j >= 0 && !preds[strings.ToLower(args[j])] {
			continue
		}
		return true
	}
	return false
}
