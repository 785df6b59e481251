package geminicheck

import (
	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/host/internal/adapter"
	"github.com/deskcheck/deskcheck/scenario"
)

// Points are the engine's boundary points a check can reach.
var Points = func() []scenario.Point {
	var out []scenario.Point
	add := func(name, text string) {
		out = append(out, scenario.Point{Name: "gemini/" + name, Scenario: "policy-check", Text: text})
	}
	add("rule-matched", "a rule matches the call")
	add("default-decision", "no rule matches: the default decision")
	add("heuristic-outside", "the shell's working folder lies outside the workspace")
	add("heuristic-untrusted-git", "a git command in an untrusted folder asks")
	add("heuristic-dangerous", "a dangerous command asks")
	add("heuristic-dangerous-yolo", "a dangerous command keeps its decision in YOLO")
	add("heuristic-known-safe", "a known-safe command turns ask_user into allow")
	add("parse-failed", "the shell command does not parse")
	add("redirection", "a redirection turns allow into ask_user")
	add("wrapper", "a bash -c script is checked on its own")
	add("part-checked", "a part of a split command is checked on its own")
	add("additional-permission-outside", "an additional permission path outside the workspace asks")
	add("build-file", "an allowed edit of a build file asks")
	for _, d := range []string{gemini.Allow, gemini.Deny, gemini.AskUser} {
		add("decision-"+d, "the decision is "+d)
	}
	for _, o := range []string{"allowed", "asks", "refused"} {
		add("outcome-"+o, "the outcome is "+o)
	}
	return out
}()

// mutants are the engine's generated mutants.
var mutants = []adapter.Mutant[gemini.Mutation]{
	{Name: "tier/admin/raise", Text: "the admin tier base is 6", Mutation: gemini.Mutation{Kind: gemini.MutTierAdmin, Delta: 1}},
	{Name: "tier/admin/lower", Text: "the admin tier base is 4", Mutation: gemini.Mutation{Kind: gemini.MutTierAdmin, Delta: -1}},
	{Name: "tier/user/raise", Text: "the user tier base is 5", Mutation: gemini.Mutation{Kind: gemini.MutTierUser, Delta: 1}},
	{Name: "tier/user/lower", Text: "the user tier base is 3", Mutation: gemini.Mutation{Kind: gemini.MutTierUser, Delta: -1}},
	{Name: "tier/default/raise", Text: "the default tier base is 2", Mutation: gemini.Mutation{Kind: gemini.MutTierDefault, Delta: 1}},
	{Name: "tier/default/lower", Text: "the default tier base is 0", Mutation: gemini.Mutation{Kind: gemini.MutTierDefault, Delta: -1}},
	{Name: "tier/extension/raise", Text: "the extension tier base is 3", Mutation: gemini.Mutation{Kind: gemini.MutTierExtension, Delta: 1}},
	{Name: "tier/extension/lower", Text: "the extension tier base is 1", Mutation: gemini.Mutation{Kind: gemini.MutTierExtension, Delta: -1}},
	{Name: "exclude-offset", Text: "tools.exclude sits at 4.3, not 4.4", Mutation: gemini.Mutation{Kind: gemini.MutExcludeOffset}},
	{Name: "always-allow-fraction", Text: "the always-allow fraction is 50, not 950", Mutation: gemini.Mutation{Kind: gemini.MutAlwaysAllowFraction}},
	{Name: "yolo-allow-all-priority", Text: "yolo.toml's allow-all sits at priority 5, not 998", Mutation: gemini.Mutation{Kind: gemini.MutYoloAllowAll}},
	{Name: "default-decision-swap", Text: "the interactive and headless default decisions are swapped", Mutation: gemini.Mutation{Kind: gemini.MutDefaultDecisionSwap}},
	{Name: "sort-ascending", Text: "rules are tried lowest priority first", Mutation: gemini.Mutation{Kind: gemini.MutSortAscending}},
	{Name: "reverse-ties", Text: "on equal priority the later rule is tried first", Mutation: gemini.Mutation{Kind: gemini.MutReverseTies}},
	{Name: "skip-heuristics", Text: "the shell heuristics are skipped at the top level", Mutation: gemini.Mutation{Kind: gemini.MutSkipHeuristics}},
	{Name: "skip-parts", Text: "the parts of a split command are not checked", Mutation: gemini.Mutation{Kind: gemini.MutSkipParts}},
	{Name: "prefix-boundary", Text: "a command prefix needs no boundary after it", Mutation: gemini.Mutation{Kind: gemini.MutPrefixBoundary}},
	{Name: "narrowing-offset", Text: "tools.allowed's narrowing deny sits level with its allows (4.3)", Mutation: gemini.Mutation{Kind: gemini.MutNarrowingOffset}},
	{Name: "no-framing", Text: "the argument string carries no NUL framing", Mutation: gemini.Mutation{Kind: gemini.MutNoFraming}},
}

// Mutants are the engine's generated mutants as the engine registers them.
var Mutants = adapter.Mutants(mutants)

// Generate returns generated inputs, each aimed at the points it should
// reach; together they reach every point and kill every mutant.
func Generate() []scenario.Candidate {
	c := func(given string, aims ...string) scenario.Candidate {
		for i := range aims {
			aims[i] = "gemini/" + aims[i]
		}
		return scenario.Candidate{Scenario: "policy-check", Given: given, Aims: aims}
	}
	return []scenario.Candidate{
		c(`{"tool": "run_shell_command", "args": {"command": "ls -la"}}`, "heuristic-known-safe", "decision-allow", "outcome-allowed"),
		c(`{"tool": "run_shell_command", "args": {"command": "ls"}, "interactive": false}`, "rule-matched", "decision-deny", "outcome-refused"),
		c(`{"tool": "write_file", "args": {"file_path": "a.txt", "content": "x"}}`, "rule-matched", "decision-ask_user", "outcome-asks"),
		c(`{"tool": "run_shell_command", "args": {"command": "ls", "dir_path": "/etc"}}`, "heuristic-outside", "decision-ask_user"),
		c(`{"tool": "run_shell_command", "args": {"command": "git status"}, "trustedFolder": false}`, "heuristic-untrusted-git"),
		c(`{"tool": "run_shell_command", "args": {"command": "rm -f x"}}`, "heuristic-dangerous"),
		c(`{"tool": "run_shell_command", "args": {"command": "rm -rf x"}, "mode": "yolo"}`, "heuristic-dangerous-yolo"),
		c(`{"tool": "run_shell_command", "args": {"command": "echo 'x"}}`, "parse-failed"),
		c(`{"tool": "run_shell_command", "args": {"command": "git log > out.txt"}, "policies": [{"tier": "user", "rules": [{"toolName": "run_shell_command", "commandPrefix": "git", "decision": "allow", "priority": 100}]}]}`, "redirection", "rule-matched"),
		c(`{"tool": "run_shell_command", "args": {"command": "bash -c 'git push'"}, "policies": [{"tier": "user", "rules": [{"toolName": "run_shell_command", "commandPrefix": "bash", "decision": "allow", "priority": 100}, {"toolName": "run_shell_command", "commandPrefix": "git push", "decision": "deny", "priority": 50}]}]}`, "wrapper"),
		c(`{"tool": "run_shell_command", "args": {"command": "git status && git push"}, "policies": [{"tier": "user", "rules": [{"toolName": "run_shell_command", "commandPrefix": "git", "decision": "allow", "priority": 100}, {"toolName": "run_shell_command", "commandPrefix": "git push", "decision": "deny", "priority": 200}]}]}`, "part-checked"),
		c(`{"tool": "read_file", "args": {"file_path": "a.txt", "additional_permissions": {"fileSystem": {"read": ["/etc/passwd"]}}}}`, "additional-permission-outside"),
		c(`{"tool": "write_file", "args": {"file_path": "Cargo.toml", "content": "x"}, "mode": "autoEdit"}`, "build-file"),
		c(`{"tool": "run_shell_command", "args": {"command": "git status"}, "policies": [{"tier": "admin", "rules": [{"toolName": "run_shell_command", "commandPrefix": "git", "decision": "deny", "priority": 1}]}, {"tier": "user", "rules": [{"toolName": "run_shell_command", "commandPrefix": "git", "decision": "allow", "priority": 999}]}]}`),
		c(`{"tool": "run_shell_command", "args": {"command": "git push origin main"}, "policies": [{"tier": "user", "rules": [{"toolName": "run_shell_command", "commandPrefix": "git", "decision": "allow", "priority": 100}, {"toolName": "run_shell_command", "commandPrefix": "git push", "decision": "deny", "priority": 100}]}]}`),
		c(`{"tool": "write_file", "args": {"file_path": "a.txt", "content": "x"}, "policies": [{"tier": "user", "rules": [{"toolName": "write_file", "decision": "allow", "priority": 300}]}], "settings": {"tools": {"exclude": ["write_file"]}}}`),
		c(`{"tool": "run_shell_command", "args": {"command": "git status --short"}, "policies": [{"tier": "user", "rules": [{"toolName": "run_shell_command", "commandPrefix": "git", "decision": "ask_user", "priority": 100}]}], "remembered": [{"tool": "run_shell_command", "scope": "saved", "commandPrefix": "git status"}]}`),
		c(`{"tool": "write_file", "args": {"file_path": "a.txt", "content": "x"}, "policies": [{"tier": "extension", "rules": [{"toolName": "write_file", "decision": "deny", "priority": 100}]}]}`),
		c(`{"tool": "run_shell_command", "args": {"command": "git push"}, "settings": {"tools": {"allowed": ["run_shell_command(git status)"]}}}`),
		c(`{"tool": "write_file", "args": {"file_path": "a.txt", "content": "x"}, "policies": [{"tier": "user", "rules": [{"toolName": "write_file", "argsPattern": "\\x00\"file_path\":\"a\\.txt\"\\x00", "decision": "deny", "priority": 100}]}]}`),
		c(`{"tool": "run_shell_command", "args": {"command": "gitk --all"}, "policies": [{"tier": "user", "rules": [{"toolName": "run_shell_command", "commandPrefix": "git", "decision": "deny", "priority": 100}]}]}`),
		c(`{"tool": "run_shell_command", "args": {"command": "rm -rf x"}, "mode": "yolo"}`),
		c(`{"tool": "mcp_srv_lookup", "args": {"q": "x"}, "server": "evil"}`, "default-decision"),
		c(`{"tool": "mcp_srv_lookup", "args": {"q": "x"}, "server": "evil", "interactive": false}`),
	}
}
