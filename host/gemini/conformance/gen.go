// Package conformance holds the Gemini model to the real code: the bundled
// desk, the releases desk and seeded random policy-check cases run on the
// model and on each hash class's installed release, every observed key
// compared.
package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// commands are the shell commands the generator draws from: chains,
// pipes, redirections, wrappers, substitutions, dangerous and safe
// commands, an unterminated quote.
var commands = []string{
	"git status", "git push origin main", "git log | grep fix", "git status && git push", "git log > out.txt",
	"ls -la", "ls", "cat notes.txt", "head /etc/hosts", "rm -rf x", "rm -f x", "rm -r x", "find . -delete",
	"find . -name x", "bash -c 'git push'", "bash -c 'ls'", "bash -lc 'ls && pwd'", "echo $(git push)",
	"echo hi >> notes.txt", "npm test", "npm test > test.log", "printf \"oops", "gitk --all", "git diff",
	"GIT_TRACE=1 git push", "(git push)", "cat < in.txt", "git log 2>&1", "sed -n 1p notes.txt", "ln -s a b",
	"git branch -D x", "sudo rm -rf /", "echo `whoami`", "wc -l notes.txt; git push", "rg foo", "git -c x=y log",
}

var priorities = []int{0, 1, 10, 50, 100, 200, 400, 500, 950, 999}

var prefixes = []string{"git", "git push", "git status", "ls", "rm", "npm", "bash", "echo", "find", "cat", "printf"}

// Random returns n policy-check given blocks drawn with seed (the spec's
// generator: 0–3 user rules and 0–1 admin rule, 60 % shell calls, the
// modes 2:1:1:1, 30 % headless, 10 % untrusted, 15 % tools.exclude, 15 %
// tools.allowed, 8 % a trusted MCP server, 12 % a remembered answer). It
// never writes two files of one tier, so no tie across files arises.
func Random(seed uint64, n int) [][]byte {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	chance := func(p float64) bool { return rng.Float64() < p }
	var out [][]byte
	for i := 0; i < n; i++ {
		g := map[string]any{}
		shell := chance(0.6)
		tool := "run_shell_command"
		if shell {
			g["tool"] = tool
			args := map[string]any{"command": pick(commands)}
			if chance(0.05) {
				args["dir_path"] = pick([]string{"/etc", "sub", ".."})
			}
			g["args"] = args
		} else {
			switch rng.IntN(5) {
			case 0:
				tool = "write_file"
				g["args"] = map[string]any{"file_path": pick([]string{"a.txt", "plans/x.md", "Cargo.toml", "package.json", "notes.md"}), "content": pick([]string{"x", "remember .env"})}
			case 1:
				tool = "replace"
				g["args"] = map[string]any{"file_path": pick([]string{"a.txt", "plans/x.md", "go.mod"}), "old_string": "a", "new_string": "b"}
			case 2:
				tool = "read_file"
				g["args"] = map[string]any{"file_path": "a.txt"}
			default:
				server := pick([]string{"srv", "evil"})
				tool = "mcp_srv_lookup"
				g["server"] = server
				g["args"] = map[string]any{"q": "x"}
				if chance(0.5) {
					g["annotations"] = map[string]any{"readOnlyHint": true}
				}
			}
			g["tool"] = tool
		}
		switch rng.IntN(5) {
		case 0, 1:
		case 2:
			g["mode"] = "autoEdit"
		case 3:
			g["mode"] = "plan"
		case 4:
			g["mode"] = "yolo"
		}
		if chance(0.3) {
			g["interactive"] = false
		}
		if chance(0.1) {
			g["trustedFolder"] = false
		}
		var policies []any
		if k := rng.IntN(4); k > 0 {
			var rules []any
			for j := 0; j < k; j++ {
				rules = append(rules, randomRule(rng, pick, chance))
			}
			policies = append(policies, map[string]any{"tier": "user", "rules": rules})
		}
		if chance(0.3) {
			policies = append(policies, map[string]any{"tier": "admin", "rules": []any{randomRule(rng, pick, chance)}})
		}
		if policies != nil {
			g["policies"] = policies
		}
		settings := map[string]any{}
		tools := map[string]any{}
		if chance(0.15) {
			tools["exclude"] = []any{pick([]string{"write_file", "run_shell_command", "read_file"})}
		}
		if chance(0.15) {
			tools["allowed"] = []any{pick([]string{"run_shell_command(git status)", "write_file", "run_shell_command(npm)"})}
		}
		if len(tools) > 0 {
			settings["tools"] = tools
		}
		if chance(0.08) {
			settings["mcpServers"] = map[string]any{"srv": map[string]any{"trust": true}}
		}
		if len(settings) > 0 {
			g["settings"] = settings
		}
		if chance(0.12) {
			r := map[string]any{"tool": tool, "scope": pick([]string{"session", "saved"})}
			switch {
			case tool == "run_shell_command":
				r["commandPrefix"] = pick(prefixes)
			case strings.HasPrefix(tool, "mcp_"):
				r["mcpServer"] = "srv"
			default:
				r["tool"] = "google_web_search"
			}
			g["remembered"] = []any{r}
		}
		data, err := json.Marshal(g)
		if err != nil {
			panic(fmt.Sprintf("host/gemini/conformance: %v", err))
		}
		out = append(out, data)
	}
	return out
}

func randomRule(rng *rand.Rand, pick func([]string) string, chance func(float64) bool) map[string]any {
	r := map[string]any{"decision": pick([]string{"allow", "deny", "ask_user"}), "priority": priorities[rng.IntN(len(priorities))]}
	switch rng.IntN(4) {
	case 0, 1:
		r["toolName"] = "run_shell_command"
		if chance(0.8) {
			if chance(0.85) {
				r["commandPrefix"] = pick(prefixes)
			} else {
				r["commandRegex"] = pick([]string{"git (push|pull)", "rm .*", "ls"})
			}
		}
		if chance(0.15) {
			r["allowRedirection"] = true
		}
	case 2:
		r["toolName"] = pick([]string{"write_file", "replace", "read_file", "*"})
		if chance(0.3) {
			r["argsPattern"] = pick([]string{`\.env`, `\x00"file_path":"a\.txt"\x00`, `Cargo`})
		}
	case 3:
		r["toolName"] = pick([]string{"mcp_srv_*", "mcp_*", "mcp_srv_lookup"})
	}
	if chance(0.15) {
		r["modes"] = []any{pick([]string{"default", "yolo", "plan", "autoEdit"})}
	}
	if chance(0.1) {
		r["interactive"] = chance(0.5)
	}
	return r
}
