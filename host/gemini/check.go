package gemini

import (
	"fmt"
	"strings"
)

// Heuristic names: what the host's debug lines say fired (spec §2.3).
const (
	HeurDangerous     = "dangerous"
	HeurDangerousYolo = "dangerous-yolo"
	HeurKnownSafe     = "known-safe"
	HeurRedirection   = "redirection"
	HeurUntrustedGit  = "untrusted-git"
	HeurOutside       = "outside-workspace"
	HeurParseFailed   = "parse-failed"
	HeurBuildFile     = "build-file"
)

// Result is what check returns and what the run observed on the way.
type Result struct {
	Decision string
	// Rule is the rule the engine reports (nil: none).
	Rule *Rule
	// Heuristics fired during the whole check, sub-checks included, in
	// order (repeats kept).
	Heuristics []string
	// Subcommands is the number of parts of the whole command (-1: the
	// command was not parsed).
	Subcommands int
	// Steps narrate the check.
	Steps []string
	// Points are the model's points the check reached.
	Points []string
}

// BuildFileRule is the rule build-file protection reports.
func buildFileRule(tool string, decision string) *Rule {
	msg := "Modifying build configuration files requires explicit user confirmation"
	if tool == "" {
		tool = "replace"
	}
	return &Rule{ToolName: tool, Decision: decision, Priority: 9007199254740991, Source: "Build File Protection", DenyMessage: &msg}
}

type checker struct {
	e   *Engine
	res *Result
	err error
}

func (c *checker) step(format string, args ...any) {
	c.res.Steps = append(c.res.Steps, fmt.Sprintf(format, args...))
}

func (c *checker) point(name string) { c.res.Points = append(c.res.Points, name) }

func (c *checker) heur(name string) { c.res.Heuristics = append(c.res.Heuristics, name) }

// Check is PolicyEngine.check(call, server, annotations, subagent).
func (e *Engine) Check(call Call) (*Result, error) {
	c := &checker{e: e, res: &Result{Subcommands: -1}}
	d, r := c.check(call, false)
	if c.err != nil {
		return nil, c.err
	}
	c.res.Decision, c.res.Rule = d, r
	return c.res, nil
}

var shellToolNames = map[string]bool{"run_shell_command": true, "ShellTool": true}

// IsShellTool reports whether the host treats name as the shell tool.
func IsShellTool(name string) bool { return shellToolNames[name] }

// truthy is JavaScript truthiness of a plain JSON value.
func truthy(v any, present bool) bool {
	if !present {
		return false
	}
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	}
	return true
}

// member reads args[key] as JavaScript's args?.key does for a plain
// value (only objects have members here).
func member(args any, present bool, key string) (any, bool) {
	if !present {
		return nil, false
	}
	m, ok := args.(map[string]any)
	if !ok {
		return nil, false
	}
	v, ok := m[key]
	return v, ok
}

func (c *checker) check(call Call, skipHeuristics bool) (string, *Rule) {
	e := c.e
	if e.faults.Has(FaultYoloIgnoresDeny) && e.mode == ModeYolo {
		c.step("YOLO allows the call")
		return Allow, nil
	}
	server := call.Server
	if server == "" && call.Annotations != nil {
		if s, ok := call.Annotations["_serverName"].(string); ok {
			server = s
		}
	}
	if server == "" {
		server = parseMcpServer(call.Name)
	}
	hasServer := server != ""
	var argString string
	argsTruthy := truthy(call.Args, call.HasArgs)
	if argsTruthy && e.anyPattern() {
		argString = StableStringify(call.Args, !e.mut.is(MutNoFraming))
	}
	isShell := shellToolNames[call.Name]
	var command string
	var commandTruthy bool
	var dirPath string
	var dirPathSet bool
	var dirRaw any
	var dirPresent bool
	if isShell {
		if v, ok := member(call.Args, call.HasArgs, "command"); ok {
			s, isStr := v.(string)
			if !isStr && truthy(v, true) {
				c.err = fmt.Errorf("the shell command is not a string")
				return Deny, nil
			}
			command, commandTruthy = s, s != ""
		}
		if v, ok := member(call.Args, call.HasArgs, "dir_path"); ok {
			dirRaw, dirPresent = v, true
			if s, isStr := v.(string); isStr && s != "" {
				dirPath, dirPathSet = s, true
			} else if truthy(v, true) {
				c.err = fmt.Errorf("the shell dir_path is not a string")
				return Deny, nil
			}
		}
	}
	names := []string{}
	if call.Name != "" {
		names = toolAliases(call.Name)
	}
	if call.Name == "invoke_agent" {
		if v, ok := member(call.Args, call.HasArgs, "agent_name"); ok {
			if s, isStr := v.(string); isStr {
				names = append(names, s)
			}
		}
	}
	var decision string
	var matched *Rule
	decided := false
	var denyFirst *Rule
	if e.faults.Has(FaultDenyBeatsAllow) {
		for _, r := range e.rules {
			if r.Decision == Deny && !(e.disableAlwaysAllow && e.isAlwaysAllow(r)) && c.matchesAny(r, names, call, argString, server, hasServer) {
				denyFirst = r
				break
			}
		}
	}
	for _, r := range e.rules {
		if e.disableAlwaysAllow && e.isAlwaysAllow(r) {
			continue
		}
		if denyFirst != nil && r != denyFirst {
			continue
		}
		if !c.matchesAny(r, names, call, argString, server, hasServer) {
			continue
		}
		c.step("rule %s matches", describeRule(r))
		c.point("rule-matched")
		ruleDecision := r.Decision
		heuristics := (r.Pattern == nil || e.faults.Has(FaultHeuristicsOnPatternRules)) && !e.mut.is(MutSkipHeuristics)
		if !skipHeuristics && isShell && commandTruthy && heuristics {
			ruleDecision = c.heuristics(command, ruleDecision, dirPath, dirPathSet)
		}
		if isShell {
			decision, matched = c.shell(call.Name, command, commandTruthy, ruleDecision, call, dirRaw, dirPresent, r.AllowRedirection, r)
		} else {
			decision, matched = ruleDecision, r
		}
		decided = true
		break
	}
	if !decided {
		if e.mode == ModeYolo {
			c.step("no rule matches: YOLO allows")
			if e.group < G6 {
				return Allow, nil
			}
			decision = Allow
		} else {
			c.step("no rule matches: the default decision %s", e.defaultDecision)
			c.point("default-decision")
			if isShell {
				d := e.defaultDecision
				if !skipHeuristics && commandTruthy && !e.mut.is(MutSkipHeuristics) {
					d = c.heuristics(command, d, dirPath, dirPathSet)
				}
				decision, matched = c.shell(call.Name, command, commandTruthy, d, call, dirRaw, dirPresent, false, nil)
			} else {
				decision = e.defaultDecision
			}
		}
	}
	if c.err != nil {
		return Deny, nil
	}
	if decision == Allow {
		decision, matched = c.postAllow(call, names, decision, matched)
	}
	if matched != nil && matched.DenyMessage != nil && e.faults.Has(FaultDenyMessageDropped) {
		cp := *matched
		cp.DenyMessage = nil
		matched = &cp
	}
	return decision, matched
}

// postAllow: the downgrades of an allowed call.
func (c *checker) postAllow(call Call, names []string, decision string, matched *Rule) (string, *Rule) {
	if perms, ok := member(call.Args, call.HasArgs, "additional_permissions"); ok {
		if pm, isMap := perms.(map[string]any); isMap {
			if fsPerms, ok := pm["fileSystem"].(map[string]any); ok {
				var all []any
				if l, ok := fsPerms["read"].([]any); ok {
					all = append(all, l...)
				}
				if l, ok := fsPerms["write"].([]any); ok {
					all = append(all, l...)
				}
				for _, p := range all {
					if s, isStr := p.(string); isStr && !isSubpath(Workspace, s) && s != Workspace {
						c.step("an additional permission path %q lies outside the workspace: ask_user", s)
						c.heur(HeurOutside)
						c.point("additional-permission-outside")
						decision = AskUser
						break
					}
				}
			}
		}
	}
	if c.e.group < G6 {
		return decision, matched
	}
	edit := false
	for _, n := range names {
		if n == "replace" || n == "write_file" {
			edit = true
			break
		}
		for _, tok := range splitNonAlnum(jsLowerCase(n)) {
			switch tok {
			case "write", "edit", "replace", "patch", "update", "create", "append", "save":
				edit = true
			}
		}
	}
	if !edit {
		return decision, matched
	}
	var target string
	if m, ok := call.Args.(map[string]any); ok && call.HasArgs {
		for _, k := range []string{"file_path", "path", "filePath", "file"} {
			if v, ok := m[k]; ok && v != nil {
				target, _ = v.(string)
				break
			}
		}
	}
	target = jsTrim(target)
	if target != "" && isBuildFile(target) {
		d := AskUser
		if c.e.nonInteractive {
			d = Deny
		}
		c.step("%q is a build file: %s", target, d)
		c.heur(HeurBuildFile)
		c.point("build-file")
		return d, buildFileRule(call.Name, d)
	}
	return decision, matched
}

func splitNonAlnum(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
}

var buildFileNames = map[string]bool{
	"BUILD": true, "BUILD.bazel": true, "WORKSPACE": true, "WORKSPACE.bazel": true, "MODULE.bazel": true, ".bazelrc": true,
	".blazerc": true, "Makefile": true, "makefile": true, "GNUmakefile": true, "CMakeLists.txt": true, "package.json": true,
	"package-lock.json": true, "pnpm-lock.yaml": true, "yarn.lock": true, "bun.lockb": true, "setup.py": true,
	"setup.cfg": true, "pyproject.toml": true, "go.mod": true, "go.sum": true, "Cargo.toml": true, "Cargo.lock": true,
	"pom.xml": true, "build.gradle": true, "build.gradle.kts": true, "settings.gradle": true, "settings.gradle.kts": true,
	"Dockerfile": true, "Containerfile": true,
}

// isBuildFile is the host's isBuildFile on Linux, for the empty workspace:
// the base name of the path as resolveToRealPath makes it (percent-decoded,
// a file:// URL made a path; buildFileBase).
func isBuildFile(p string) bool {
	base := buildFileBase(p)
	if buildFileNames[base] || strings.HasPrefix(base, "Dockerfile.") || strings.HasPrefix(base, "Containerfile.") {
		return true
	}
	switch jsLowerCase(extName(base)) {
	case ".bzl", ".bazel", ".bzlmod", ".mk", ".cmake":
		return true
	}
	return false
}

// extName is node's path.extname of a base name.
func extName(base string) string {
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return ""
	}
	return base[i:]
}

func toolAliases(name string) []string {
	switch name {
	case "search_file_content":
		return []string{"search_file_content", "grep_search"}
	case "grep_search":
		return []string{"grep_search", "search_file_content"}
	}
	return []string{name}
}

func (e *Engine) anyPattern() bool {
	for _, r := range e.rules {
		if r.Pattern != nil {
			return true
		}
	}
	return false
}

// isAlwaysAllow: the priority's fraction ×1000 rounds to 950.
func (e *Engine) isAlwaysAllow(r *Rule) bool {
	frac := r.Priority - float64(int64(r.Priority))
	return jsRound(frac*1000) == 950
}

func jsRound(x float64) int64 {
	f := float64(int64(x))
	if x-f >= 0.5 {
		return int64(f) + 1
	}
	if x < 0 && f-x > 0.5 {
		return int64(f) - 1
	}
	return int64(f)
}

func (c *checker) matchesAny(r *Rule, names []string, call Call, argString, server string, hasServer bool) bool {
	for _, n := range names {
		if c.matches(r, n, call, argString, server, hasServer) {
			return true
		}
	}
	return false
}

// matches is ruleMatches.
func (c *checker) matches(r *Rule, name string, call Call, argString, server string, hasServer bool) bool {
	e := c.e
	if len(r.Modes) > 0 && !contains(r.Modes, e.mode) {
		return false
	}
	if r.Subagent != nil && *r.Subagent != call.Subagent {
		return false
	}
	if r.McpName != nil {
		if *r.McpName == "*" {
			if !hasServer {
				return false
			}
		} else if server != *r.McpName {
			return false
		}
	}
	switch {
	case r.ToolName == "*":
	case strings.Contains(r.ToolName, "*"):
		if name == "" || !c.wildcard(r.ToolName, name, server, hasServer) {
			return false
		}
	case name != r.ToolName:
		ok := false
		if hasServer && name != "" {
			if r.McpName != nil && !strings.HasPrefix(r.ToolName, "mcp_") && name == formatMcpToolName(*r.McpName, r.ToolName) {
				ok = true
			}
			if !ok && strings.HasPrefix(r.ToolName, "mcp_") && r.ToolName == formatMcpToolName(server, name) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	if r.Annotations != nil {
		if call.Annotations == nil {
			return false
		}
		for k, v := range r.Annotations {
			got, ok := call.Annotations[k]
			if !ok || !strictEqual(v, got) {
				return false
			}
		}
	}
	if r.Pattern != nil {
		if !truthy(call.Args, call.HasArgs) {
			return false
		}
		subject := argString
		if e.faults.Has(FaultArgsPatternPathOnly) {
			subject = ""
			if m, ok := call.Args.(map[string]any); ok {
				for _, k := range []string{"file_path", "path"} {
					if s, ok := m[k].(string); ok {
						subject = s
						break
					}
				}
			}
		}
		if !r.Pattern.MatchOrRecord(subject, &c.err) {
			return false
		}
	}
	if r.Interactive != nil {
		if e.faults.Has(FaultHeadlessDefaultAsk) && !*r.Interactive {
			return false
		}
		if *r.Interactive && e.nonInteractive || !*r.Interactive && !e.nonInteractive {
			return false
		}
	}
	return true
}

// wildcard is matchesWildcard.
func (c *checker) wildcard(pattern, name, server string, hasServer bool) bool {
	if pattern == "mcp_*" {
		return hasServer
	}
	if strings.HasPrefix(pattern, "mcp_") && strings.HasSuffix(pattern, "_*") && len(pattern) >= 6 {
		want := pattern[4 : len(pattern)-2]
		if c.e.faults.Has(FaultMcpWildcardIgnoresServer) {
			return strings.HasPrefix(name, "mcp_"+want+"_")
		}
		if !hasServer || server != want {
			return false
		}
		return strings.HasPrefix(name, "mcp_"+want+"_")
	}
	return name == pattern
}

// strictEqual is JavaScript === on plain values: objects and arrays are
// never equal to a decoded copy.
func strictEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	return false
}

// heuristics is applyShellHeuristics.
func (c *checker) heuristics(command, decision, dirPath string, dirSet bool) string {
	e, g := c.e, c.e.group
	if g >= G4 && decision == Deny {
		return Deny
	}
	args, err := heuristicArgs(command)
	if err != nil {
		c.step("the heuristics could not read the command (%v): the decision stays %s", err, decision)
		return decision
	}
	cwd := Workspace
	if g >= G5 && dirSet {
		cwd = resolvePath(Workspace, dirPath)
	}
	outside := cwd != Workspace && !isSubpath(Workspace, cwd)
	if g >= G5 && outside && e.mode != ModeYolo {
		c.step("the working folder %s lies outside the workspace: ask_user", cwd)
		c.heur(HeurOutside)
		c.point("heuristic-outside")
		return AskUser
	}
	untrusted := g >= G4 && !e.trusted && containsGit(args)
	if untrusted {
		c.step("a git command in an untrusted folder: ask_user")
		c.heur(HeurUntrustedGit)
		c.point("heuristic-untrusted-git")
		return AskUser
	}
	if !e.faults.Has(FaultDangerousOff) && g.dangerous(args) {
		if e.mode == ModeYolo {
			c.step("the command is dangerous; YOLO keeps %s", decision)
			c.heur(HeurDangerousYolo)
			c.point("heuristic-dangerous-yolo")
			return decision
		}
		c.step("the command is dangerous: ask_user")
		c.heur(HeurDangerous)
		c.point("heuristic-dangerous")
		return AskUser
	}
	if !e.faults.Has(FaultKnownSafeOff) && g.knownSafe(args, cwd) && decision == AskUser {
		if g >= G5 && outside {
			c.heur(HeurOutside)
			return AskUser
		}
		c.step("the command is known safe: ask_user becomes allow")
		c.heur(HeurKnownSafe)
		c.point("heuristic-known-safe")
		return Allow
	}
	return decision
}

// shell is checkShellCommand.
func (c *checker) shell(tool, command string, commandTruthy bool, ruleDecision string, call Call, dirRaw any, dirSet, allowRedirection bool, rule *Rule) (string, *Rule) {
	e, g := c.e, c.e.group
	if !commandTruthy {
		return ruleDecision, rule
	}
	parsed, err := ParseShell(command)
	if err != nil {
		c.err = err
		return Deny, nil
	}
	parts := parsed.Parts
	if e.faults.Has(FaultChainNotSplit) && len(parts) > 0 {
		parts = []Part{{Name: parts[0].Name, Text: jsTrim(command), Start: 0}}
	}
	failed := len(parts) == 0 || (g >= G2 && parsed.HasError)
	if failed {
		if ruleDecision == Deny {
			return Deny, rule
		}
		if e.mode == ModeYolo {
			if g >= G2 && rule != nil && rule.Pattern != nil {
				c.step("the command does not parse and the rule has a pattern: deny")
				c.heur(HeurParseFailed)
				c.point("parse-failed")
				return Deny, rule
			}
			c.step("the command does not parse: YOLO allows")
			return Allow, rule
		}
		c.step("the command does not parse: the default decision %s", e.defaultDecision)
		c.heur(HeurParseFailed)
		c.point("parse-failed")
		return e.defaultDecision, rule
	}
	if c.res.Subcommands < 0 {
		c.res.Subcommands = len(parts)
	}
	if len(parts) == 1 {
		c.step("the command is one part")
	} else {
		c.step("the command has %d parts", len(parts))
	}
	if ruleDecision == Deny {
		return Deny, rule
	}
	aggregate := ruleDecision
	var responsible *Rule
	if rule != nil && ruleDecision == rule.Decision {
		responsible = rule
	}
	if c.downgradeForRedirection(command, parsed, allowRedirection) && aggregate == Allow {
		c.step("the command redirects: allow becomes ask_user")
		c.heur(HeurRedirection)
		c.point("redirection")
		aggregate, responsible = AskUser, nil
	}
	if !e.mut.is(MutSkipParts) {
		for _, p := range parts {
			if redirectionNames[p.Name] {
				continue
			}
			sub := jsTrim(p.Text)
			atomic := sub == command
			stripped := sub
			if !e.faults.Has(FaultWrapperNotUnwrapped) {
				stripped = StripShellWrapperOf(e.rel, sub)
			}
			if stripped != sub {
				c.step("the part %q wraps the script %q: checked on its own", sub, stripped)
				c.point("wrapper")
				d, r := c.subCheck(tool, stripped, call, dirRaw, dirSet)
				if c.err != nil {
					return Deny, nil
				}
				if d == Deny {
					return d, r
				}
				if d == AskUser {
					if aggregate == Allow {
						responsible = r
					} else if responsible == nil {
						responsible = r
					}
					aggregate = AskUser
				}
			}
			if !atomic {
				c.step("the part %q is checked on its own", sub)
				c.point("part-checked")
				d, r := c.subCheck(tool, sub, call, dirRaw, dirSet)
				if c.err != nil {
					return Deny, nil
				}
				if d == Deny {
					return d, r
				}
				if d == AskUser {
					if aggregate == Allow {
						responsible = r
					} else if responsible == nil {
						responsible = r
					}
					aggregate = AskUser
				}
				if d == Allow && aggregate == Allow {
					subParsed, err := ParseShell(sub)
					if err == nil && c.downgradeForRedirection(sub, subParsed, allowRedirection) {
						c.step("the part %q redirects: allow becomes ask_user", sub)
						aggregate, responsible = AskUser, nil
					}
				}
			}
		}
	}
	if aggregate == ruleDecision {
		return aggregate, rule
	}
	return aggregate, responsible
}

// subCheck checks one part as the host does: a new check of the shell
// tool with the part as its command, without heuristics.
func (c *checker) subCheck(tool, command string, call Call, dirRaw any, dirSet bool) (string, *Rule) {
	args := map[string]any{"command": command}
	if dirSet {
		args["dir_path"] = dirRaw
	}
	sub := Call{Name: tool, Args: args, HasArgs: true, Server: call.Server, Subagent: call.Subagent, Annotations: call.Annotations}
	return c.check(sub, !c.e.faults.Has(FaultKnownSafeInSegments))
}

// downgradeForRedirection is shouldDowngradeForRedirection.
func (c *checker) downgradeForRedirection(command string, parsed *Parsed, allowRedirection bool) bool {
	e := c.e
	if e.faults.Has(FaultRedirectionIgnored) || allowRedirection {
		return false
	}
	if !HasRedirection(command, parsed) {
		return false
	}
	if e.group >= G2 && (e.mode == ModeAutoEdit || e.mode == ModeYolo) {
		return false
	}
	return true
}

// describeRule names a rule for narration: its source, priority and
// decision.
func describeRule(r *Rule) string {
	return fmt.Sprintf("%s (%s, priority %s)", r.Source, r.Decision, JSNumber(r.Priority))
}
